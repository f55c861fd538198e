"""strip_quotes on each client's quoting style: new text kept, history and footers gone."""

from __future__ import annotations

import pytest

from core.mail.quotes import library_cut, pattern_cut, remove_footers, strip_quotes

NEW = "Hi David,\n\nThe side gate is unlocked, the dog is friendly.\n\nGraham\n0419 552 803"
OLD = "Hi Graham,\n\nWe can measure on Thursday between 1 and 3pm.\n\nDavid Zhou\nM 0400 118 652"


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


CASES = {
    "outlook_original_message": f"{NEW}\n\n-----Original Message-----\nFrom: Aurora <sales@aurorawindows.com.au>\n"
    f"Sent: Tuesday, 24 March 2026 4:12 PM\nTo: g@example.com\nSubject: RE: windows\n\n{OLD}",
    "outlook_underscore_rule": f"{NEW}\n\n________________________________\nFrom: Aurora <sales@aurorawindows.com.au>\n"
    f"Sent: Wednesday, 25 March 2026 5:02 PM\nTo: Hannah <h@example.com>\nSubject: RE: quote\n\n{OLD}",
    "outlook_block_no_separator": f"{NEW}\n\nFrom: David Zhou <sales@aurorawindows.com.au>\n"
    f"Sent: Tuesday, 31 March 2026 2:15 PM\nTo: Orders <orders@example.com>\nSubject: RE: SO-48812\n\n{OLD}",
    "outlook_bold_html_block": f"{NEW}\n\n*From:* David Zhou <sales@aurorawindows.com.au>\n*Sent:* Tuesday, 31 March 2026\n"
    f"*To:* g@example.com\n*Subject:* RE: windows\n\n{OLD}",
    "gmail_one_line": f"{NEW}\n\nOn Thu, 26 Mar 2026 at 10:05, Aurora <sales@aurorawindows.com.au> wrote:\n\n{quoted(OLD)}",
    "gmail_wrapped": f"{NEW}\n\nOn Mon, 30 Mar 2026 at 15:47, Aurora Windows & Doors <\nsales@aurorawindows.com.au> wrote:\n\n{quoted(OLD)}",
    "apple_nnbsp": f"{NEW}\n\nSent from my iPhone\n\nOn 2 Apr 2026, at 4:40\u202fpm, Aurora <sales@aurorawindows.com.au> wrote:\n\n{quoted(OLD)}",
    "foxmail_chinese": f'{NEW}\n\n------------------ 原始邮件 ------------------\n发件人: "Aurora"<sales@aurorawindows.com.au>;\n'
    f'发送时间: 2026年3月27日(星期五) 中午12:20\n收件人: "王建国"<w@163.com>;\n主题: RE: 询价\n\n{OLD}',
    "outlook_chinese_block": f"{NEW}\n\n发件人: Aurora <sales@aurorawindows.com.au>\n发送时间: 2026年3月27日 12:20\n"
    f"收件人: 王建国 <w@163.com>\n主题: 回复: 询价\n\n{OLD}",
    "apple_chinese": f"{NEW}\n\n发自我的 iPhone\n\n在 2026年3月30日，14:15，Aurora <sales@aurorawindows.com.au> 写道：\n\n{quoted(OLD)}",
    "gmail_chinese": f"{NEW}\n\nAurora <sales@aurorawindows.com.au> 于2026年3月30日周一 14:15写道：\n\n{quoted(OLD)}",
    "bare_quote_block": f"{NEW}\n\n{quoted(OLD)}",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_quoted_history_is_removed_and_new_text_kept(name: str) -> None:
    result = strip_quotes(CASES[name])
    assert result == NEW, name


@pytest.mark.parametrize("name", sorted(CASES))
def test_own_patterns_alone_handle_every_style(name: str) -> None:
    assert strip_quotes(CASES[name], use_library=False) == NEW, name


@pytest.mark.parametrize(
    "footer",
    [
        "Sent from my iPhone",
        "Sent from my Samsung Galaxy smartphone.",
        "Sent from my Galaxy",
        "Get Outlook for iOS",
        "Get Outlook for Android<https://aka.ms/AAb9ysg>",
        "发自我的iPhone",
        "发自我的 iPhone",
        "Sent from Mail for Windows",
    ],
)
def test_mobile_footers_are_removed(footer: str) -> None:
    assert strip_quotes(f"{NEW}\n\n{footer}\n") == NEW


def test_text_without_quotes_is_unchanged() -> None:
    text = "Hi,\n\nFrom: the street it looks fine.\nTo: be honest I need two windows.\n\nThanks\nJo"
    assert strip_quotes(text) == text


def test_read_receipt_summary_is_not_mistaken_for_a_quote() -> None:
    text = "Your message\n\n  To: Hannah\n  Subject: Quote Q-1\n  Sent: Wednesday, 25 March 2026\n\n was read on Thursday."
    assert "was read on" in strip_quotes(text)
    assert library_cut(text) is None


def test_never_strips_everything() -> None:
    forward_only = f"From: Jane <jane@example.com>\nSent: Monday\nTo: sales@aurorawindows.com.au\nSubject: windows\n\n{OLD}"
    assert "We can measure on Thursday" in strip_quotes(forward_only)
    assert strip_quotes(quoted(OLD)) != ""
    assert strip_quotes("") == ""
    assert strip_quotes("   \n ") == ""


def test_inline_answers_between_quotes_are_kept() -> None:
    text = "> Which colour?\nMonument please.\n> Which glass?\nLow-E double glazed.\n\nPriya"
    result = strip_quotes(text)
    assert "Monument please." in result and "Low-E double glazed." in result
    assert "Which colour?" not in result


def test_cut_positions_are_line_indexes() -> None:
    text = CASES["foxmail_chinese"]
    lines = text.split("\n")
    cut = pattern_cut(text)
    assert cut is not None
    assert lines[cut].startswith("------------------ 原始邮件")
    assert remove_footers("a\nSent from my iPhone\nb") == "a\nb"


def test_on_wrote_inside_a_sentence_is_not_an_attribution() -> None:
    text = "On Monday I wrote: please call me after 5.\nThe opening is 2400 wide.\nJo"
    assert strip_quotes(text, use_library=False) == text


@pytest.mark.parametrize(
    "marker",
    [
        "---------- Forwarded message ---------",
        "Begin forwarded message:",
        "------------------ 转发邮件 ------------------",
    ],
)
def test_forwarded_mail_is_kept_whole(marker: str) -> None:
    text = (
        f"Resending in case this went to spam.\n\n{marker}\nFrom: Priya <p@example.com>\n"
        "Date: Mon, 23 Mar 2026 at 20:14\nSubject: Stacker door quote\nTo: sales@aurorawindows.com.au\n\n"
        "We need a 3-panel stacker door, 3000 x 2100, Monument.\n\nSent from my iPhone"
    )
    result = strip_quotes(text)
    assert result.startswith("Resending in case this went to spam.")
    assert "3-panel stacker door, 3000 x 2100" in result
    assert "Sent from my iPhone" not in result


def test_reply_above_a_quoted_forward_still_cuts_at_the_reply_header() -> None:
    text = (
        f"{NEW}\n\nOn Thu, 26 Mar 2026 at 10:05, Aurora <sales@aurorawindows.com.au> wrote:\n"
        "> ---------- Forwarded message ---------\n> From: x@example.com\n> old forwarded text\n"
    )
    assert strip_quotes(text) == NEW
