"""Each pre-filter rule on a message built for it, plus the protections against losing customers."""

from __future__ import annotations

import pytest

from core.mail.parse import parse_message
from core.mail.prefilter import RULES, prefilter
from tests.mail.builders import build_raw

OWN = ["sales@aurorawindows.com.au"]


def rule_for(raw: bytes, *, known_customer: bool = False) -> str | None:
    return prefilter(parse_message(raw), known_customer=known_customer, own_addresses=OWN)


def test_rule_names_are_the_stable_set() -> None:
    assert [r.name for r in RULES] == [
        "bounce",
        "read_receipt",
        "calendar",
        "out_of_office",
        "auto_reply",
        "bulk",
    ]


def test_an_ordinary_inquiry_passes() -> None:
    assert rule_for(build_raw({})) is None


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Auto-Submitted": "auto-replied"}, "auto_reply"),
        ({"Auto-Submitted": "auto-generated"}, "auto_reply"),
        ({"X-Autoreply": "yes"}, "auto_reply"),
        ({"X-Autorespond": "Thanks for your mail"}, "auto_reply"),
        ({"X-Auto-Response-Suppress": "All"}, "auto_reply"),
        ({"Subject": "Automatic reply: Awning windows"}, "auto_reply"),
        ({"Subject": "Auto: Awning windows"}, "auto_reply"),
        (
            {"Subject": "=?utf-8?B?6Ieq5Yqo5Zue5aSNOiDnqpfmiLfmiqXku7c=?="},
            "auto_reply",
        ),  # 自动回复: 窗户报价
        (
            {"Subject": "Out of Office: Awning windows", "Auto-Submitted": "auto-replied"},
            "out_of_office",
        ),
        ({"Subject": "Out of Office Re: quote"}, "out_of_office"),
        ({"Subject": "Re: quote", "X-Autoreply": "yes"}, None),  # body decides below
    ],
)
def test_auto_reply_rules(headers: dict[str, str], expected: str | None) -> None:
    if expected is None:
        raw = build_raw(
            headers, "I am out of the office until 3 April with limited access to email."
        )
        assert rule_for(raw) == "out_of_office"
    else:
        assert rule_for(build_raw(headers)) == expected


def test_auto_submitted_no_is_a_person() -> None:
    assert rule_for(build_raw({"Auto-Submitted": "no"})) is None


def test_auto_generated_website_form_relaying_a_customer_is_kept() -> None:
    raw = build_raw(
        {
            "From": "Website <no-reply@aurorawindows.com.au>",
            "Reply-To": "Mark Evans <mark@example.com>",
            "Auto-Submitted": "auto-generated",
        }
    )
    assert rule_for(raw) is None


def test_auto_reply_applies_to_known_customers_too() -> None:
    assert (
        rule_for(build_raw({"Auto-Submitted": "auto-replied"}), known_customer=True) == "auto_reply"
    )


@pytest.mark.parametrize(
    "sender",
    [
        "MAILER-DAEMON@mx.example.com",
        "postmaster@example.com",
        "Mail Delivery Subsystem <mailer-daemon@googlemail.com>",
    ],
)
def test_bounce_by_sender(sender: str) -> None:
    assert (
        rule_for(build_raw({"From": sender, "Subject": "Returned mail: see transcript"}))
        == "bounce"
    )


def test_bounce_by_delivery_status_report_even_from_a_known_customer() -> None:
    body = (
        "--r\nContent-Type: text/plain\n\nDelivery is delayed to these recipients.\n"
        "--r\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx\n\n"
        "Final-Recipient: rfc822; jane@example.com\nAction: delayed\nStatus: 4.4.7\n--r--\n"
    )
    raw = build_raw(
        {"From": "Microsoft Outlook <relay@example.com>"},
        body,
        content_type='multipart/report; report-type=delivery-status; boundary="r"',
    )
    assert rule_for(raw, known_customer=True) == "bounce"


def test_exchange_system_mailbox_in_own_domain_is_a_bounce() -> None:
    raw = build_raw(
        {"From": "MicrosoftExchange329e71ec@aurorawindows.com.au", "Subject": "Undeliverable: x"}
    )
    assert rule_for(raw) == "bounce"


def test_bounce_subject_from_a_person_is_not_skipped() -> None:
    # A customer writing "Undeliverable …" by hand is still a person.
    assert (
        rule_for(build_raw({"Subject": "Undeliverable address? Please resend the quote"})) is None
    )


def test_read_receipt_mdn_report() -> None:
    body = (
        "--m\nContent-Type: text/plain\n\nYour message was read on Thursday.\n"
        "--m\nContent-Type: message/disposition-notification\n\n"
        "Final-Recipient: rfc822;jane@example.com\nDisposition: manual-action/MDN-sent-manually; displayed\n--m--\n"
    )
    raw = build_raw(
        {"Subject": "Read: Quote Q-1"},
        body,
        content_type='multipart/report; report-type=disposition-notification; boundary="m"',
    )
    assert rule_for(raw, known_customer=True) == "read_receipt"


def test_plain_text_outlook_read_receipt() -> None:
    raw = build_raw(
        {"Subject": "Read: Quote Q-1"}, "Your message\n\n was read on Thursday, 26 March 2026."
    )
    assert rule_for(raw) == "read_receipt"


def _calendar_raw(method: str, subject: str) -> bytes:
    body = (
        "--c\nContent-Type: text/plain; charset=utf-8\n\nSite measure, Monday 13 April 8am\n"
        f"--c\nContent-Type: text/calendar; charset=utf-8; method={method}\n\n"
        f"BEGIN:VCALENDAR\nMETHOD:{method}\nBEGIN:VEVENT\nSUMMARY:Site measure\nEND:VEVENT\nEND:VCALENDAR\n--c--\n"
    )
    return build_raw({"Subject": subject}, body, content_type='multipart/alternative; boundary="c"')


@pytest.mark.parametrize(
    ("method", "subject"),
    [
        ("REQUEST", "Invitation: Site measure"),
        ("REPLY", "Accepted: Site measure"),
        ("CANCEL", "Cancelled: Site measure"),
    ],
)
def test_calendar_parts_are_skipped_even_for_known_customers(method: str, subject: str) -> None:
    assert rule_for(_calendar_raw(method, subject), known_customer=True) == "calendar"


def test_calendar_subject_from_google_sender_without_ics() -> None:
    raw = build_raw(
        {
            "Subject": "Declined: Site measure",
            "Sender": "Google Calendar <calendar-notification@google.com>",
        }
    )
    assert rule_for(raw) == "calendar"


def test_invitation_subject_from_a_person_is_not_calendar() -> None:
    assert rule_for(build_raw({"Subject": "Invitation: quote for our new build"})) is None


@pytest.mark.parametrize(
    "headers",
    [
        {"Precedence": "bulk"},
        {"Precedence": "list"},
        {"Precedence": "junk"},
        {"List-Unsubscribe": "<https://news.example.com/u?id=1>"},
        {"List-Id": "Trade news <news.example.com>"},
    ],
)
def test_bulk_from_non_customers(headers: dict[str, str]) -> None:
    assert rule_for(build_raw(headers)) == "bulk"


def test_known_customer_with_list_unsubscribe_is_not_skipped() -> None:
    raw = build_raw({"List-Unsubscribe": "<mailto:unsub@example.com>", "Precedence": "list"})
    assert rule_for(raw, known_customer=True) is None
    assert rule_for(raw, known_customer=False) == "bulk"


def test_more_specific_rule_wins() -> None:
    raw = build_raw(
        {
            "From": "MAILER-DAEMON@mx.example.com",
            "Auto-Submitted": "auto-replied",
            "Precedence": "bulk",
        }
    )
    assert rule_for(raw) == "bounce"
