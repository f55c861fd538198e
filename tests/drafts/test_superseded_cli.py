"""A superseded draft from the owner's command line: ``approve`` and ``send`` refuse it (exit 1,
one Chinese line, nothing sent), ``drafts --json`` shows it as superseded beside the one live
version — the same state machine the desktop and Telegram go through."""

from __future__ import annotations

import asyncio
import json

from core.cli.main import main
from core.drafts.drafting import build_drafting
from core.llm.client import LLMClient
from tests.drafts.support import CUSTOMER, add_inquiry


def _run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _revise(services, draft_id: int, instruction: str) -> int:  # type: ignore[no-untyped-def]
    """What the assistant's ``revise_draft`` and the desktop's 修改 call."""

    async def run() -> int:
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        drafting = build_drafting(services, client)
        try:
            return await drafting.composer.revise(draft_id, instruction, actor="agent")
        finally:
            await client.aclose()
            await drafting.aclose()

    return asyncio.run(run())


def test_approve_and_send_refuse_a_superseded_draft(  # type: ignore[no-untyped-def]
    services, graph, capsys, home, monkeypatch, llm_server
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm_server.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", graph.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", graph.token)
    services.settings.update({"llm.base_url": llm_server.base_url, "llm.max_retries": 0})
    gid = graph.add_message(subject="Door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid, subject="Door quote")
    code, out, err = _run(
        capsys, "draft", str(inquiry_id), "--instruction", "报价 $800", "--home", str(home)
    )
    assert code == 0, err
    [old] = [
        row["id"] for row in json.loads(_run(capsys, "drafts", "--json", "--home", str(home))[1])
    ]
    new = _revise(services, old, "改成 $750")

    for command in ("approve", "send"):
        code, out, err = _run(capsys, command, str(old), "--home", str(home))
        assert code == 1 and out == "", (command, out, err)
        assert "已被修改稿取代" in err and "Traceback" not in err
    code, out, _ = _run(capsys, "drafts", "--json", "--home", str(home))
    rows = {row["id"]: row["status"] for row in json.loads(out)}
    assert rows == {old: "superseded", new: "pending_approval"}
    assert graph.sent_log == [] and graph.requests_to(r"/me/messages") == []
