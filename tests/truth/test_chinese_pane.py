"""The Chinese the owner approves is a translation of the English that will be sent (issue 39).

He reads the Chinese pane and approves; the customer gets the English. The pane is made by a
call that sees only the final English, every value of the English must be in it (or be flagged
中文未体现, which blocks plain approval on every path), and an English changed after its
translation cannot be approved until it is translated again.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from core.cli.main import main
from core.db.models import Draft
from core.drafts.drafting import Drafting
from core.drafts.translation import zh_stamp
from core.errors import TranslationStaleError, UnconfirmedFactsError
from core.services import Services
from tests.drafts.support import DraftingModel, add_inquiry
from tests.support.llm_server import schema_name

LIABLE_EN = (
    "Hi Jane,\n\nWe accept full responsibility for the leak and will refund your deposit in "
    "full. Call our new number 0488 999 000 or pay the balance at pay [dot] evil [dot] example."
    "\n\nKind regards,\nAurora Windows & Doors"
)
HARMLESS_ZH = "Jane 您好：\n\n我们下周上门量尺。\n\n此致\nAurora Windows & Doors"


class TwoFacedModel(DraftingModel):
    """Drafts an English that admits liability, promises a refund and plants a new phone and
    a pay link, beside a harmless Chinese; asked to translate, it writes the harmless Chinese
    again (a model obeying an instruction it was given)."""

    def __init__(self) -> None:
        super().__init__()
        self.render_prompts: list[str] = []
        self.two_faced = True

    def __call__(self, request: dict[str, Any]) -> Any:
        name = schema_name(request)
        if not self.two_faced:
            return super().__call__(request)
        if name == "chineserendering":
            self.render_prompts.append(json.dumps(request, ensure_ascii=False))
            return {"body_zh": HARMLESS_ZH}
        if name == "draftanswer":
            return {"subject": "Your door", "body_en": LIABLE_EN, "body_zh": HARMLESS_ZH}
        return super().__call__(request)


@pytest.fixture
def model() -> TwoFacedModel:
    return TwoFacedModel()


async def cli(args: list[str]) -> int:
    """The real command line, on its own thread (it runs its own event loop)."""
    return await asyncio.to_thread(main, args)


def _draft(services: Services, draft_id: int) -> Draft:
    with services.store.session() as session:
        row = session.get(Draft, draft_id)
        assert row is not None
        session.expunge(row)
        return row


async def test_the_pane_is_made_by_a_call_that_sees_only_the_english(
    services: Any, drafting: Drafting, model: TwoFacedModel
) -> None:
    model.two_faced = False  # a careful model: its own translation call answers
    inquiry_id, _ = add_inquiry(services, body="Hi, quote please. My secret word is PINEAPPLE.")
    draft_id = await drafting.composer.compose(inquiry_id, "给报价15000", actor="owner")
    view = await drafting.reader.get(draft_id)
    assert model.calls[-1] == "chineserendering"  # the last word: the translation call's
    assert view.body_zh.startswith("您好")
    assert not view.zh_stale and view.unconfirmed_facts == []


async def test_a_pane_without_the_englishs_values_cannot_be_approved_plainly(
    services: Any,
    drafting: Drafting,
    model: TwoFacedModel,
    home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    inquiry_id, _ = add_inquiry(services, body="Hi, the new window leaks. Jane")
    draft_id = await drafting.composer.compose(inquiry_id, "回复客户", actor="owner")
    # the translation call saw the English only: no customer mail, no tools
    (prompt,) = model.render_prompts
    assert "leaks" not in prompt and '"tools"' not in prompt and "0488 999 000" in prompt
    view = await drafting.reader.get(draft_id)
    assert view.body_zh == HARMLESS_ZH.strip()
    missing = {"0488 999 000", "pay [dot] evil [dot] example", "refund",
               "accept full responsibility"}  # fmt: skip
    assert missing <= set(view.unconfirmed_facts) and missing <= set(view.zh_missing)

    code = await cli(["approve", str(draft_id), "--home", str(home)])  # the CLI, plainly
    _, err = capsys.readouterr()
    assert code == 1 and "refund" in err
    code = await cli(["drafts", "--json", "--home", str(home)])
    (shown,) = json.loads(capsys.readouterr()[0])
    assert missing <= set(shown["unconfirmed_facts"]) and shown["status"] == "pending_approval"
    assert shown["zh_missing"] and shown["zh_stale"] is False

    with pytest.raises(UnconfirmedFactsError):  # the desktop's and Telegram's path
        await drafting.decisions.approve(draft_id, actor="owner")
    approved = await drafting.decisions.approve(draft_id, actor="owner", accept_unconfirmed=True)
    assert approved.status == "approved"  # his explicit confirmation, recorded


async def test_an_english_changed_after_translation_waits_for_a_new_one(
    services: Any, drafting: Drafting, model: TwoFacedModel, home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    model.two_faced = False
    inquiry_id, _ = add_inquiry(services)
    draft_id = await drafting.composer.compose(inquiry_id, "给报价15000", actor="owner")
    assert not (await drafting.reader.get(draft_id)).zh_stale

    # the English changes by a path that leaves the Chinese as it was
    def change(session: Any) -> None:
        row = session.get(Draft, draft_id)
        row.body_en = row.body_en.replace("Thank you for your enquiry.", "Thanks a lot.")

    services.store.write(change)
    view = await drafting.reader.get(draft_id)
    assert view.zh_stale
    for accept in (False, True):  # not even his explicit confirmation approves it
        with pytest.raises(TranslationStaleError):
            await drafting.decisions.approve(draft_id, actor="owner", accept_unconfirmed=accept)
    assert await cli(["approve", str(draft_id), "--accept-unconfirmed", "--home", str(home)]) == 1
    assert "translate" in capsys.readouterr()[1]

    # edited through the app: the Chinese is cleared, and approval waits the same way
    await drafting.edits.update_body(draft_id, view.body_en + " See you soon.", actor="owner")
    with pytest.raises(TranslationStaleError):
        await drafting.decisions.approve(draft_id, actor="owner", accept_unconfirmed=True)

    assert await cli(["translate", str(draft_id), "--home", str(home)]) == 0
    assert "See you soon." in capsys.readouterr()[0]
    assert _draft(services, draft_id).body_zh != ""
    view = await drafting.decisions.approve(draft_id, actor="owner")
    assert view.status == "approved"


async def test_every_draft_carries_the_stamp_of_its_english(
    services: Any, drafting: Drafting, model: TwoFacedModel
) -> None:
    model.two_faced = False
    inquiry_id, _ = add_inquiry(services)
    draft_id = await drafting.composer.compose(inquiry_id, "给报价15000", actor="owner")
    revised = await drafting.composer.revise(draft_id, "更正式一点", actor="owner")
    with services.store.session() as session:
        rows = session.scalars(select(Draft).order_by(Draft.id)).all()
        assert [r.id for r in rows] == [draft_id, revised]
        assert all(r.zh_source == zh_stamp(r.body_en) and r.body_zh for r in rows)
