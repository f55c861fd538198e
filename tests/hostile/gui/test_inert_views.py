"""Crafted mail and hostile model text render as literal text in every view and load nothing
(issue 29): the detail's cards, the board, the briefing, the chat and the in-window alert; only
http(s) links open, after a dialog naming them; a program attachment never opens with a click.

Witnesses, not trust: a loopback HTTP server records every request, an inotify watch records
every open of the bait image (Qt's rich text reads ``file:`` images below Python), and Qt's own
URL handlers (``QDesktopServices.setUrlHandler``) record what would have been handed to the OS.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget
from sqlalchemy import select

from core.db.models import Inquiry
from core.intake.pipeline import build_pipeline
from core.mail.source import RawMessage
from desktop.chat.transcript import Entry, Transcript
from desktop.detail import InquiryDetailView
from desktop.main_window import Banner
from desktop.rhythm.briefing_window import BriefingWindow
from tests.support.crafted_mail import BANNER, SENDER, crafted_body, crafted_mail
from tests.support.qt import settles
from tests.support.resource_spy import FileOpenSpy, HitServer

HOSTILE_ANSWER = (
    BANNER + "\n\n"
    '<img src="file:///etc/hostname"> <img src="//attacker-host/share/x.png">\n\n'
    "![seen](http://127.0.0.1:{port}/chat.png) ![local]({pixel})\n\n"
    "[打开报价](search-ms:query=quote) [设置](ms-settings:privacy) [文件](file:///C:/x.exe)\n\n"
    "[Aurora 官网](https://aurorawindows.example/quote?id=7)"
)


HOSTILE_NAME = '<b>Jane</b> <img src="//attacker-host/share/n.png"> [Pay](search-ms:query=x)'


class _Opened(QObject):
    """Records every URL Qt would hand to the operating system, per scheme."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def record(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@pytest.fixture
def opened() -> Iterator[_Opened]:
    catcher = _Opened()
    schemes = ("file", "http", "https", "search-ms", "ms-settings")
    for scheme in schemes:
        QDesktopServices.setUrlHandler(scheme, catcher, "record")
    yield catcher
    for scheme in schemes:
        QDesktopServices.unsetUrlHandler(scheme)


async def _crafted_inquiry(services, spy_dir: Path, port: int) -> int:  # type: ignore[no-untyped-def]
    pipeline = build_pipeline(services, offline=True)
    try:
        await pipeline.ingest(RawMessage(crafted_mail(spy_dir, port), "eml", "crafted.eml"))
    finally:
        await pipeline.aclose()
    with services.store.session() as s:
        return int(s.scalars(select(Inquiry.id).where(Inquiry.customer_email == SENDER)).one())


def _make_overdue(services, inquiry_id: int) -> None:  # type: ignore[no-untyped-def]
    then = services.clock.now().replace(tzinfo=None) - timedelta(days=40)

    def backdate(session) -> None:  # type: ignore[no-untyped-def]
        inquiry = session.get(Inquiry, inquiry_id)
        inquiry.stage_changed_at = then
        inquiry.customer_name = HOSTILE_NAME  # as a web form's "Name:" field would carry it

    services.store.write(backdate)


def _rich_labels(root: QWidget) -> list[str]:
    """Labels that would interpret markup and hold some: there must be none."""
    return [
        label.text()[:60]
        for label in root.findChildren(QLabel)
        if label.textFormat() != Qt.TextFormat.PlainText
        and "<" in label.text()
        and Qt.mightBeRichText(label.text())
        and label.objectName() not in {"approvalWarnings", "routeLink"}  # our own markup
    ]


def _anchors(document: QTextDocument) -> list[str]:
    found = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.isValid() and fragment.charFormat().isAnchor():
                found.append(fragment.charFormat().anchorHref())
            it += 1
        block = block.next()
    return found


def test_the_spy_sees_what_a_guessing_label_loads(qapp, spy_dir, file_spy) -> None:  # type: ignore[no-untyped-def]
    """The witness works: Qt's default (AutoText) label reads the bait image of this mail."""
    label = QLabel(crafted_body(spy_dir, 9, depth=2))
    label.show()
    qapp.processEvents()
    assert "pixel.png" in file_spy.opened()
    label.deleteLater()


@settles
async def test_crafted_mail_is_literal_text_in_the_detail_view(  # type: ignore[no-untyped-def]
    ctx, qtbot, spy_dir, file_spy: FileOpenSpy, hits: HitServer
) -> None:
    inquiry_id = await _crafted_inquiry(ctx.app._services, spy_dir, hits.port)
    view = InquiryDetailView(ctx)
    qtbot.addWidget(view)
    view.resize(1000, 800)
    view.show()
    view.show_inquiry(inquiry_id)
    await view.ready()
    qtbot.wait(50)
    card = next(iter(view.thread_panel.cards.values()))
    assert card.body.text().startswith(BANNER)  # the banner is shown as the text it is
    assert "<table><tr><td>" * 18 in card.body.text()
    assert SENDER in card.header.text()  # the sender's address is not hidden
    assert card.subject.text().startswith("<div")
    assert _rich_labels(view) == []
    assert card.body.height() < 2000  # no 600-pixel image was laid out inside
    assert file_spy.opened() == []
    assert hits.hits == []


@settles
async def test_a_program_attachment_is_never_opened_by_a_click(  # type: ignore[no-untyped-def]
    ctx, qtbot, spy_dir, hits: HitServer, opened: _Opened
) -> None:
    inquiry_id = await _crafted_inquiry(ctx.app._services, spy_dir, hits.port)
    view = InquiryDetailView(ctx)
    qtbot.addWidget(view)
    view.show_inquiry(inquiry_id)
    await view.ready()
    card = next(iter(view.thread_panel.cards.values()))
    strip = card.attachments
    shown = [b.text() for b in strip.attachment_buttons]
    assert not any("\u202e" in t for t in shown), shown  # the override is never rendered
    assert any(t.startswith(("invoice⟨U+202E⟩fdp.exe", "invoice_fdp.exe")) for t in shown)
    assert any(t.startswith("plan.pdf⟨␣×6⟩.bat") for t in shown), shown
    infos = card.message.attachments
    for info in infos:
        if info.filename == "quote.pdf":
            continue
        assert strip.open_attachment(info) is False, info.filename
        box = strip.findChildren(QMessageBox)[-1]
        assert "可执行程序或脚本" in box.text() or "隐藏" in box.text()
        folder_button = next(b for b in box.buttons() if b.text() == "在文件夹中显示")
        folder_button.click()
        qtbot.waitUntil(lambda shown=box: not shown.isVisible(), timeout=30_000)
    assert opened.urls and all(not u.endswith((".exe", ".bat", ".lnk")) for u in opened.urls)
    assert all(Path(QUrl(u).toLocalFile()).is_dir() for u in opened.urls)  # folders only
    pdf = next(i for i in infos if i.filename == "quote.pdf")
    assert strip.open_attachment(pdf) is True
    assert opened.urls[-1].endswith("quote.pdf")


@settles
async def test_the_briefing_shows_customer_text_inert(  # type: ignore[no-untyped-def]
    ctx, qtbot, spy_dir, file_spy: FileOpenSpy, hits: HitServer, opened: _Opened
) -> None:
    inquiry_id = await _crafted_inquiry(ctx.app._services, spy_dir, hits.port)
    _make_overdue(ctx.app._services, inquiry_id)  # so the briefing names the crafted customer
    window = BriefingWindow(ctx.app)
    qtbot.addWidget(window)
    window.show()
    await window.reload()
    qtbot.wait(50)
    shown = "\n".join(label.text() for label in window.findChildren(QLabel))
    assert HOSTILE_NAME in shown  # the customer's "name", as literal text
    assert _rich_labels(window) == []
    for bad in ("search-ms:query=x", "ms-settings:privacy", "file:///C:/x.exe", "//host/share"):
        assert window.links.request(QUrl(bad)) is False
    assert file_spy.opened() == []
    assert hits.hits == []
    assert opened.urls == []


@settles
async def test_model_text_in_the_chat_is_literal_and_links_ask_first(  # type: ignore[no-untyped-def]
    qapp, languages, qtbot, spy_dir, file_spy: FileOpenSpy, hits: HitServer, opened: _Opened
) -> None:
    transcript = Transcript()
    qtbot.addWidget(transcript)
    transcript.resize(600, 700)
    transcript.show()
    answer = HOSTILE_ANSWER.format(port=hits.port, pixel=(spy_dir / "pixel.png").as_uri())
    transcript.add(Entry("assistant", answer))
    transcript.begin_live()
    transcript.append_live(answer)
    transcript.redraw()
    qtbot.wait(60)
    shown = transcript.toPlainText()
    assert BANNER in shown and '<img src="file:///etc/hostname">' in shown
    assert "[打开报价](search-ms:query=quote)" in shown  # not a link: shown as written
    assert set(_anchors(transcript.document())) == {"https://aurorawindows.example/quote?id=7"}
    assert file_spy.opened() == []
    assert hits.hits == []
    # the one http(s) link opens only through a dialog that names it
    transcript.anchorClicked.emit(QUrl("https://aurorawindows.example/quote?id=7"))
    dialog = transcript.links.dialog
    assert dialog is not None and "https://aurorawindows.example/quote?id=7" in dialog.text()
    assert opened.urls == []
    next(b for b in dialog.buttons() if b.text() == "打开").click()
    qtbot.waitUntil(
        lambda: opened.urls == ["https://aurorawindows.example/quote?id=7"], timeout=30_000
    )
    transcript.anchorClicked.emit(QUrl("search-ms:query=quote"))
    assert transcript.links.dialog is None and opened.urls[-1].startswith("https://")


def test_the_in_window_alert_shows_customer_text_literally(qapp, spy_dir, file_spy) -> None:  # type: ignore[no-untyped-def]
    banner = Banner()
    banner.show_alert(BANNER, crafted_body(spy_dir, 9, depth=3), "inquiry", 1)
    banner.resize(600, 300)
    qapp.processEvents()
    assert "&lt;div" in banner.label.text() and "<div" not in banner.label.text()
    assert file_spy.opened() == []
    banner.deleteLater()
