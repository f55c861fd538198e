"""A model on his PC that takes minutes for a draft ends in a draft, watched as it writes (#45).

The model here writes a piece every ``CHUNK`` seconds; the client's patience
(``llm.local_timeout_seconds``) is ``PATIENCE``: the whole draft takes several times longer than
the patience and each piece many times less, as a five-minute draft at a few words a second
does against the 600 s of a local preset. Asked whole, such a draft times out; streamed, the
patience is per piece, the owner sees the English grow, and the draft is filed.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from core.drafts.drafting import Drafting
from core.errors import LLMUnavailable
from tests.drafts.support import DraftingModel, add_inquiry
from tests.support.llm_server import LLMServer, schema_name
from tests.support.slow_llm import SlowModel

CHUNK = 0.04  # seconds between two pieces of the answer
PATIENCE = 1.0  # the client's timeout: one wait for the next piece, not the whole answer
LOCAL = {"llm.provider": "llamacpp", "llm.local_timeout_seconds": PATIENCE}
INSTRUCTION = "谢谢他的询问，告诉他我们可以下周二上午10点上门量尺，请他确认地址"


class LongDrafts(DraftingModel):
    """Drafts long enough that writing one takes several times the client's patience."""

    def __call__(self, request: dict[str, Any]) -> Any:
        answer = super().__call__(request)
        if schema_name(request) == "draftanswer" and isinstance(answer, dict):
            filler = " ".join(["We look forward to helping with your windows and doors."] * 8)
            body = answer["body_en"].replace("Kind regards,", f"{filler}\n\nKind regards,")
            answer = {**answer, "body_en": body}
            self.chinese[body.strip()] = answer["body_zh"]
        return answer


@pytest.fixture
def slow() -> SlowModel:
    return SlowModel(LongDrafts(), chunk_delay=CHUNK)


@pytest.fixture
def llm_server(slow: SlowModel) -> Iterator[LLMServer]:
    with LLMServer(slow) as srv:
        yield srv


def _writing_seconds(slow: SlowModel, srv: LLMServer) -> float:
    """How long the model took to write the draft it streamed (its pieces × the delay)."""
    drafts = [r for r in srv.chat_requests if schema_name(r.body or {}) == "draftanswer"]
    answer = slow.responder(drafts[-1].body or {})
    return slow.writing_seconds(json.dumps(answer, ensure_ascii=False))


async def test_a_draft_written_for_longer_than_the_timeout_is_filed_and_watched(
    services: Any, drafting: Drafting, llm_server: LLMServer, slow: SlowModel
) -> None:
    services.settings.update(LOCAL)
    inquiry_id, _ = add_inquiry(services)
    seen: list[str] = []
    draft_id = await drafting.composer.compose(
        inquiry_id, INSTRUCTION, actor="owner", progress=seen.append
    )
    draft = await drafting.reader.get(draft_id)
    assert draft.status == "pending_approval"
    assert _writing_seconds(slow, llm_server) > 3 * PATIENCE  # minutes, scaled down
    assert slow.streamed >= 1 and slow.whole == 0
    # he watched the English grow, never the JSON around it
    assert len(seen) > 10
    assert all(a == b[: len(a)] for a, b in itertools.pairwise(seen))
    assert seen[-1].strip() == draft.body_en.strip()
    assert not any('"body_en"' in s or s.lstrip().startswith("{") for s in seen)
    assert "Tuesday at 10am" in seen[-1]


async def test_asked_whole_the_same_draft_times_out(
    services: Any, drafting: Drafting, llm_server: LLMServer, slow: SlowModel
) -> None:
    """The control: the whole-answer call the app used to make gives up on this model."""
    services.settings.update({"llm.timeout_seconds": PATIENCE})  # no preset, nobody watching
    inquiry_id, _ = add_inquiry(services)
    with pytest.raises(LLMUnavailable):
        await drafting.composer.compose(inquiry_id, INSTRUCTION, actor="owner")
    assert slow.whole == 1 and slow.streamed == 0


async def test_a_revision_is_streamed_too(
    services: Any, drafting: Drafting, llm_server: LLMServer
) -> None:
    services.settings.update(LOCAL)
    inquiry_id, _ = add_inquiry(services)
    first = await drafting.composer.compose(inquiry_id, INSTRUCTION, actor="owner")
    seen: list[str] = []
    second = await drafting.composer.revise(
        first, "语气更正式一点", actor="owner", progress=seen.append
    )
    revised = await drafting.reader.get(second)
    assert revised.status == "pending_approval"
    assert len(seen) > 10 and seen[-1].strip() == revised.body_en.strip()
