"""The assertion guard's reading of answers: affirmative assertions found, negated ones left alone, and
false ones replaced by the truth (pure functions; the ledgers are exercised end to end in
test_adversarial.py)."""

from __future__ import annotations

import pytest

from core.agent.assertions import TurnFacts, find_assertions, guard_text


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("好的，邮件已发送给客户", ["sent"]),
        ("邮件发出去了。", ["sent"]),
        ("我已经把报价发给客户了", ["sent"]),
        ("草稿已批准。", ["approved"]),
        ("已将询盘移到报价阶段", ["moved"]),
        ("已安排周二上门量尺。", ["scheduled"]),
        ("好的，已记住。", ["saved"]),
        ("已删除这条记录", ["deleted"]),
        ("I've sent the quote to Jane.", ["sent"]),
        ("The draft was approved and emailed.", ["sent", "approved"]),
        ("I moved the inquiry to quoting.", ["moved"]),
        ("Saved your preference.", ["saved"]),
        # negated, conditional or about the owner: not assertions
        ("草稿已生成，等待您批准，未发送。", []),
        ("草稿尚未发送，请在待审批中确认。", []),
        ("邮件还没有发出", []),
        ("The draft is NOT sent; it will be sent once you approve it.", []),
        ("DRAFT_PENDING_APPROVAL — NOT SENT", []),
        ("Thanks for the quote you sent me.", []),
        ("It has not been approved yet.", []),
        ("客户已经把尺寸发给我们了。", []),
        ("Jane sent us the plans last week.", []),
    ],
)
def test_claims_found_in_english_and_chinese(text: str, kinds: list[str]) -> None:
    assert sorted(c.kind for c in find_assertions(text)) == sorted(kinds)


def test_false_sent_is_replaced_by_the_truth_true_claims_stay() -> None:
    facts = TurnFacts(drafts={7: "pending_approval"}, created=[7])
    result = guard_text("好的，草稿已保存。邮件已发送给客户。还有别的吗？", facts)
    assert (
        result.text
        == "好的，草稿已保存。更正：邮件未发送。草稿 #7 已生成，等待您批准，未发送。还有别的吗？"
    )
    assert [c.kind for c in result.corrections] == ["sent"]

    sent = TurnFacts(drafts={7: "sent"})
    assert guard_text("邮件已发送给客户。", sent).corrections == []


def test_english_answer_gets_an_english_correction() -> None:
    facts = TurnFacts(drafts={3: "pending_approval"}, created=[3])
    result = guard_text("Done. I've sent the reply to Jane. Anything else?", facts)
    assert "NOT sent" in result.text and "I've sent" not in result.text
    assert result.text.startswith("Done.") and result.text.endswith("Anything else?")


def test_a_proposed_memory_is_not_saved() -> None:
    facts = TurnFacts(memories_proposed=[4])
    result = guard_text("好的，已记住这条规则。", facts)
    assert "待您确认的建议" in result.text
    assert guard_text("好的，已记住。", TurnFacts(memories_active=[4])).corrections == []


def test_stage_claim_needs_a_stage_event() -> None:
    assert "阶段没有改变" in guard_text("已将询盘移到报价阶段。", TurnFacts()).text
    moved = TurnFacts(stage_moves=[(1, "inquiry", "quoting")])
    assert guard_text("已将询盘移到报价阶段。", moved).corrections == []


def test_scheduled_needs_a_confirmed_appointment_or_an_approved_draft(services) -> None:  # type: ignore[no-untyped-def]
    from core.agent.assertions import turn_facts, watermark
    from core.db.app_state import put_state

    with services.store.session() as s:
        mark = watermark(s)
    assert "没有安排" in guard_text("已安排周二上门量尺。", TurnFacts()).text
    now = services.clock.now().replace(tzinfo=None)
    services.store.write(lambda s: put_state(s, "appointment.event.1", {"id": "AAMk1"}, now))
    with services.store.session() as s:
        facts = turn_facts(s, mark)
    assert guard_text("已安排周二上门量尺。", facts).corrections == []


def test_a_claim_made_twice_is_corrected_once() -> None:
    """Two sentences saying the mail went out get one correction, not the same line twice."""
    facts = TurnFacts(drafts={7: "pending_approval"}, created=[7])
    checked = guard_text("好的，邮件已发送给客户。客户很快会收到，已经发出了。请放心。", facts)
    assert len(checked.corrections) == 2  # both assertions are recorded …
    assert checked.text.count("更正") == 1  # … and he reads the correction once
    assert checked.text.endswith("请放心。")
