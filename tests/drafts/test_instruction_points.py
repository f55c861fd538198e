"""#45: a draft must say what the owner asked, and must not be the customer's mail handed back.

A small local model, asked "谢谢他的询问，告诉他我们可以下周二上午10点上门量尺，请他确认地址", returned the
customer's own mail in the first person: no Tuesday, no 10 am, no request to confirm the address,
and it waited in 待审批 unflagged. Here a loopback model answers that way, through the real CLI.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.cli.main import main
from core.drafts.instruction_points import instruction_points, missing_points
from tests.drafts.support import CUSTOMER, add_inquiry
from tests.support.llm_server import LLMServer, schema_name

ASKED = "谢谢他的询问，告诉他我们可以下周二上午10点上门量尺，请他确认地址"
CUSTOMER_MAIL = (
    "The balcony door has corroded badly and the frame is rotting at the bottom. "
    "Could you please measure it and let us know what a new sliding door would cost?"
)


def test_the_points_of_his_instruction_are_its_values_and_requests() -> None:
    assert instruction_points(ASKED) == ["周二", "上午10点", "请他确认地址", "上门量尺"]
    good = (
        "Thanks for your enquiry. We can come to measure next Tuesday at 10:00 am. "
        "Could you please confirm the address?"
    )
    assert missing_points(ASKED, good) == []
    assert missing_points(ASKED, "Thanks for your enquiry. We can measure on Tuesday.") == [
        "未包含您的指示：上午10点",
        "未包含您的指示：请他确认地址",
    ]
    # a "no" must be said in the English
    assert missing_points("告诉他我们不做淋浴房", "We would love to quote your shower screen.") == [
        "未包含您的指示：否定答复"
    ]
    assert missing_points("告诉他我们不做淋浴房", "Unfortunately we don't do shower screens.") == []


def _parrot(request: dict[str, Any]) -> Any:
    if schema_name(request) == "chineserendering":
        return {"body_zh": "您好，阳台门腐蚀严重，请上门测量。"}
    return {
        "subject": "Re: Balcony door",
        "body_en": "Hi,\n\n" + CUSTOMER_MAIL + "\n\nKind regards,\nAurora Windows & Doors",
        "body_zh": "您好，阳台门腐蚀严重，请上门测量。",
    }


@pytest.fixture
def parrot_llm() -> Any:
    with LLMServer(_parrot) as srv:
        yield srv


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_parroted_reply_without_his_points_cannot_be_approved_plainly(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    parrot_llm: LLMServer,
    services: Any,
    home: Any,
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", parrot_llm.base_url)
    inquiry_id, _ = add_inquiry(services, subject="Balcony door", body=CUSTOMER_MAIL)
    code, _, err = _run(
        capsys, "draft", str(inquiry_id), "--instruction", ASKED, "--home", str(home)
    )
    assert code == 0, err
    row = json.loads(_run(capsys, "drafts", "--json", "--home", str(home))[1])[0]
    flags = row["unconfirmed_facts"]
    for point in ("周二", "上午10点", "请他确认地址"):
        assert f"未包含您的指示：{point}" in flags
    assert any("重复客户来信" in f for f in flags)
    code, _, err = _run(capsys, "approve", str(row["id"]), "--home", str(home))
    assert code == 1 and "未包含您的指示" in err
    code, _, _ = _run(
        capsys, "approve", str(row["id"]), "--accept-unconfirmed", "--home", str(home)
    )
    assert code == 0  # his explicit word still lets it through
    assert row["to"] == [CUSTOMER]
