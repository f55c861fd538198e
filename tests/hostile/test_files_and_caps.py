"""The core decisions behind inert display (issue 29): which files a click may open, how names
are shown, when and what Mark-of-the-Web is written, the link policy, the escaping Markdown
renderer, and the caps on what flows through an assistant turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.agent.caps import (
    MAX_ANSWER_CHARS,
    MAX_QUESTION_CHARS,
    MAX_TOOL_RESULT_CHARS,
    cap_answer,
    cap_question,
    cap_tool_result,
    telegram_summary,
)
from core.intake.records import store_attachment_files
from core.mail.attachment_risk import judge_file, mark_of_the_web, motw_applies, zone_identifier
from core.notify.chunk import render_chunks
from core.text.inert import clickable_url, markdown_rich_text, visible_controls
from tests.support.crafted_mail import BANNER


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("setup.exe", "executable"),
        ("SETUP.EXE", "executable"),
        ("run.com", "executable"),
        ("screen.scr", "executable"),
        ("go.bat", "executable"),
        ("go.cmd", "executable"),
        ("x.ps1", "executable"),
        ("x.vbs", "executable"),
        ("x.js", "executable"),
        ("x.jse", "executable"),
        ("x.wsf", "executable"),
        ("x.hta", "executable"),
        ("Quote.lnk", "executable"),
        ("install.msi", "executable"),
        ("patch.msp", "executable"),
        ("panel.cpl", "executable"),
        ("app.jar", "executable"),
        ("keys.reg", "executable"),
        ("old.pif", "executable"),
        ("disk.iso", "executable"),
        ("page.html", "executable"),
        ("setup.exe. . ", "executable"),  # Windows ignores trailing dots and spaces
        ("plan.pdf      .bat", "disguised"),  # padding hides the real extension
        ("invoice\u202efdp.exe", "disguised"),  # reads "invoiceexe.pdf"
        ("report\u200b.pdf.exe", "disguised"),
        ("report.pdf.scr", "disguised"),
        ("quote.pdf", ""),
        ("photo.JPG", ""),
        ("报价单.pdf", ""),
        ("plans.dwg", ""),
        ("Quote   final.pdf", ""),  # spaces inside a name are not a disguise
        ("README", ""),
    ],
)
def test_judge_file_reads_names_the_way_windows_runs_them(name: str, reason: str) -> None:
    verdict = judge_file(name)
    assert verdict.reason == reason
    assert verdict.runnable is bool(reason)


def test_names_are_shown_with_what_they_hide_made_visible() -> None:
    assert judge_file("invoice\u202efdp.exe").shown == "invoice⟨U+202E⟩fdp.exe"
    assert judge_file("plan.pdf      .bat").shown == "plan.pdf⟨␣×6⟩.bat"
    assert visible_controls("a\x00b\u2066c") == "a⟨U+0000⟩b⟨U+2066⟩c"
    assert visible_controls("报价单.pdf") == "报价单.pdf"


def test_mark_of_the_web_is_written_only_on_windows(tmp_path: Path) -> None:
    assert motw_applies("win32") and not motw_applies("linux") and not motw_applies("darwin")
    assert zone_identifier() == "[ZoneTransfer]\r\nZoneId=3\r\n"
    assert zone_identifier(host_url="https://graph.microsoft.com/x").endswith(
        "HostUrl=https://graph.microsoft.com/x\r\n"
    )
    target = tmp_path / "quote.pdf"
    target.write_bytes(b"%PDF")
    assert mark_of_the_web(target, platform="linux") is False
    assert [p.name for p in tmp_path.iterdir()] == ["quote.pdf"]  # no stray stream file


@pytest.mark.skipif(not motw_applies(), reason="NTFS streams exist on Windows only")
def test_stored_attachments_carry_the_mark_on_windows(services) -> None:  # type: ignore[no-untyped-def]
    class Part:
        filename, content_type, payload, size, is_inline = (
            "a.pdf",
            "application/pdf",
            b"%",
            1,
            False,
        )

    stored = store_attachment_files(services.paths, [Part()], 10)
    stream = Path(f"{services.paths.home / stored[0].stored_path}:Zone.Identifier")
    assert stream.read_text(encoding="ascii") == zone_identifier()


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://aurorawindows.example/quote", True),
        ("http://example.com/a?b=1", True),
        ("file:///C:/Windows/System32/calc.exe", False),
        ("//attacker-host/share/x.png", False),
        ("\\\\attacker-host\\share\\x.png", False),
        ("search-ms:query=invoice", False),
        ("ms-settings:privacy", False),
        ("javascript:alert(1)", False),
        ("mailto:x@example.com", False),
        ("https://user:pw@evil.example/", False),
        ("https://exa\u202emple.com/", False),
        ("https:///no-host", False),
    ],
)
def test_only_http_links_with_a_host_are_clickable(url: str, ok: bool) -> None:
    assert (clickable_url(url) is not None) is ok


def test_markdown_is_escaped_before_it_is_rendered() -> None:
    md = f"{BANNER}\n**bold** <img src=file:///x.png> ![i](http://x/y.png) [s](search-ms:q=1)"
    html = markdown_rich_text(md)
    assert "<div" not in html and "<img" not in html and "&lt;div" in html
    assert "<b>bold</b>" in html
    assert "search-ms" in html and 'href="search-ms' not in html  # shown, not a link
    assert "href=" not in html.replace('href="https', "")


def test_caps_cut_at_a_boundary_and_say_so() -> None:
    answer = ("客户 #1 在 Epping，要推拉门。\n" * 5000)[: MAX_ANSWER_CHARS * 3]
    capped = cap_answer(answer)
    assert len(capped) <= MAX_ANSWER_CHARS + 40 and capped.endswith("字。）")
    assert cap_answer("短回答") == "短回答"
    assert len(cap_question("x " * MAX_QUESTION_CHARS)) < MAX_QUESTION_CHARS + 80
    result = cap_tool_result("row\n" * MAX_TOOL_RESULT_CHARS)
    assert len(result) < MAX_TOOL_RESULT_CHARS + 120 and "TRUNCATED" in result


def test_telegram_gets_a_summary_not_hundreds_of_messages() -> None:
    flood = "重复的内容，" * 200_000  # what a looping model once produced: 245 messages
    pieces = render_chunks(telegram_summary(flood))
    assert 1 <= len(pieces) <= 3
    assert "请在电脑上的助手里查看" in pieces[-1].plain


async def test_the_telegram_alert_of_a_crafted_mail_is_escaped_text(services, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import select

    from core.db.models import Inquiry
    from core.intake.pipeline import build_pipeline
    from core.mail.source import RawMessage
    from core.notify.inquiry_alert import inquiry_message
    from tests.support.crafted_mail import SENDER, crafted_mail

    pipeline = build_pipeline(services, offline=True)
    await pipeline.ingest(RawMessage(crafted_mail(tmp_path, 9), "eml", "crafted.eml"))
    await pipeline.aclose()
    with services.store.session() as s:
        inquiry = s.scalars(select(Inquiry).where(Inquiry.customer_email == SENDER)).one()
        inquiry.customer_name = '<b>Jane</b> <a href="search-ms:x">x</a>'
        _title, body = inquiry_message(s, inquiry)
    pieces = render_chunks(body)
    html = "".join(p.html for p in pieces)
    for tag in (
        "<div",
        "<img",
        "<table",
        "<link",
        '<a href="search-ms',
        '<a href="file',
        "<b>Jane",
    ):
        assert tag not in html
    assert "&lt;div" in html and "&lt;b&gt;Jane" in html
