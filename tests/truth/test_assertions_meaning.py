"""The assertion guard reads meaning, not spelling: every way of writing "sent" that a reader takes
for "sent" is corrected when the draft waits, and an answer in a language the guard cannot read
is shown with the ledger's truth beside it (issue 29)."""

from __future__ import annotations

import pytest

from core.agent.assertions import TurnFacts, find_assertions, guard_text
from core.text.reading import reading_form

WAITING = TurnFacts(drafts={3: "pending_approval"}, created=[3])

# (what the model wrote, the kinds the guard must find)
OBFUSCATED = [
    ("好的，已發送給客戶。", {"sent"}),  # Traditional
    ("邮件已\u200b发送给客户。", {"sent"}),  # zero-width space inside
    ("邮件已\u200d发\ufeff送。", {"sent"}),  # zero-width joiner and a BOM
    ("邮件已\u202e发送\u202c。", {"sent"}),  # bidi override around the verb
    ("邮件&#24050;&#21457;&#36865;。", {"sent"}),  # decimal entities
    ("邮件已&#x53D1;送。", {"sent"}),  # hex entity
    ("The reply was &#115;ent to Jane.", {"sent"}),
    ("I have \u0455\u0435nt the reply to Jane.", {"sent"}),  # Cyrillic ѕ and е
    ("The draft was \u0430pproved.", {"approved"}),  # Cyrillic а
    ("The reply was ｓｅｎｔ.", {"sent"}),  # full-width
    ("The reply was 𝐬𝐞𝐧𝐭.", {"sent"}),  # mathematical bold
    ("邮件发好了。", {"sent"}),  # colloquial
    ("报价已经发了。", {"sent"}),
    ("已由您批准并发送。", {"sent", "approved"}),
    ("Done, the reply was dispatched this morning.", {"sent"}),
    ("The reply was approved by you and sent.", {"sent", "approved"}),
    ("Der Entwurf wurde gesendet.", {"sent"}),  # German
    ("Der Entwurf wurde genehmigt und verschickt.", {"sent", "approved"}),
    ("Le brouillon a été envoyé au client.", {"sent"}),  # French
    ("El borrador fue enviado al cliente.", {"sent"}),  # Spanish
    ("A resposta foi enviada ao cliente.", {"sent"}),  # Portuguese
    ("La bozza è stata inviata al cliente.", {"sent"}),  # Italian
    ("Het concept is verzonden.", {"sent"}),  # Dutch
    ("返信を送信しました。", {"sent"}),  # Japanese
    ("고객에게 메일을 보냈습니다.", {"sent"}),  # Korean
    ("Черновик отправлен клиенту.", {"sent"}),  # Russian
]

NOT_CLAIMS = [
    "草稿尚未發送，請您審批。",  # Traditional, negated
    "草稿已生成，等待您批准，未\u200b发送。",
    "Der Entwurf wurde nicht gesendet.",
    "Der Entwurf wird gesendet, sobald Sie ihn freigeben.",
    "Le brouillon n'a pas été envoyé.",
    "El borrador no ha sido enviado todavía.",
    "返信はまだ送信していません。",
    "Черновик не отправлен.",  # "не" is made of look-alike letters: still a negation
    "The draft will be sent once you approve it.",
    "Jane sent us the plans last week.",
]


@pytest.mark.parametrize(("text", "kinds"), OBFUSCATED)
def test_obfuscated_claims_are_found_and_corrected(text: str, kinds: set[str]) -> None:
    assert {c.kind for c in find_assertions(text)} == kinds
    result = guard_text(text, WAITING)
    assert result.corrections, text
    assert "#3" in result.text
    assert "未发送" in result.text or "NOT sent" in result.text
    # the whole original sentence is gone, obfuscation included
    assert text.rstrip("。.") not in result.text


@pytest.mark.parametrize("text", NOT_CLAIMS)
def test_negated_claims_in_any_spelling_are_left_alone(text: str) -> None:
    assert find_assertions(text) == []
    assert guard_text(text, WAITING).text == text


def test_a_correction_replaces_the_original_words_around_it() -> None:
    text = "好的。邮件已\u200b发送给客户。还有别的吗？"
    result = guard_text(text, WAITING)
    assert result.text.startswith("好的。更正：邮件未发送。")
    assert result.text.endswith("还有别的吗？")
    assert "\u200b" not in result.text


def test_a_true_claim_in_any_spelling_stands() -> None:
    sent = TurnFacts(drafts={3: "sent"}, sent_in_turn=[3])
    for text in ("已發送給客戶。", "Der Entwurf wurde gesendet.", "I have \u0455\u0435nt it."):
        assert guard_text(text, sent).corrections == []


def test_a_non_latin_language_answer_carries_the_ledgers_truth() -> None:
    text = "تم إرسال المسودة إلى العميل."  # Arabic: "the draft was sent to the customer"
    result = guard_text(text, WAITING)
    assert result.text.startswith(text)
    assert result.text.endswith("（系统记录：草稿 #3 未发送，等待您审批）")
    assert result.ledger_note


def test_an_unread_latin_language_answer_carries_the_ledgers_truth() -> None:
    text = "Taslak müşteriye gönderildi, başka bir şey var mı?"  # Turkish
    result = guard_text(text, WAITING)
    assert "（系统记录：草稿 #3 未发送，等待您审批）" in result.text
    quiet = guard_text("Taslak müşteriye gönderildi.", TurnFacts())
    assert quiet.text.endswith("（系统记录：本轮没有发送、批准或更改任何内容）")


def test_answers_the_guard_reads_get_no_ledger_note() -> None:
    for text in ("好的，草稿 #3 等待您批准。", "Draft #3 is waiting for you.", "Ja, gerne."):
        assert guard_text(text, WAITING).ledger_note == ""


def test_the_reading_form_maps_back_to_the_original() -> None:
    text = "a&amp;b\u200bc已發送"
    reading = reading_form(text)
    assert reading.text == "a&bc已发送"
    start = reading.text.index("已")
    assert text[slice(*reading.span(start, len(reading.text)))] == "已發送"
