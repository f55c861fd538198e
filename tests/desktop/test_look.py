"""The product look: one style for every window, words without decoration, mail made readable."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel

from core.db.models import Inquiry
from core.inquiry.detail import MessageInfo
from desktop.detail.cards import MessageCard
from desktop.look import COLOURS, STAGE_COLOURS, set_tone
from desktop.main_window import MainWindow
from desktop.wizard import FirstRunWizard
from tests.desktop.seed import seed_inquiries
from tests.desktop.test_detail import _view
from tests.support.qt import settles


def _message(subject: str, body: str) -> MessageInfo:
    return MessageInfo(
        id=1,
        direction="in",
        from_addr="emma.clarke@outlook.com",
        from_name="Emma Clarke",
        to_addrs=(),
        subject=subject,
        received_at=datetime(2026, 11, 24, 4, 30),
        body_text=body,
        body_full=body,
        translation_zh=None,
        attachments=(),
    )


def test_dialog_buttons_are_words_without_icons(app, languages) -> None:  # type: ignore[no-untyped-def]
    box = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    for which in (QDialogButtonBox.StandardButton.Ok, QDialogButtonBox.StandardButton.Cancel):
        assert box.button(which).icon().isNull()
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"


def test_the_wizards_choices_have_no_arrow_markers(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    wizard = FirstRunWizard(ctx)
    qtbot.addWidget(wizard)
    wizard.ensurePolished()
    for button in (wizard.sign_in_button, wizard.ai_button, wizard.demo_button):
        button.ensurePolished()
        assert button.icon().isNull() or button.iconSize().isEmpty(), button.text()


def test_one_stylesheet_with_the_tokens_is_installed(app) -> None:  # type: ignore[no-untyped-def]
    sheet = QApplication.instance().styleSheet()  # type: ignore[union-attr]
    assert COLOURS["accent"] in sheet and COLOURS["danger"] in sheet
    assert 'QLabel[tone="error"]' in sheet
    assert set(STAGE_COLOURS) >= {"inquiry", "measure", "quoting", "done", "lost"}


def test_a_status_line_takes_its_colour_from_its_tone(app) -> None:  # type: ignore[no-untyped-def]
    label = QLabel("x")
    set_tone(label, "error")
    assert label.property("tone") == "error"
    set_tone(label, "")
    assert label.property("tone") == ""


@settles
async def test_titles_name_the_app_once_in_each_language(ctx, languages, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    await window.board.ready()
    assert QApplication.applicationDisplayName() == "询盘桥"
    assert window.windowTitle() == "询盘桥"  # Qt adds nothing to a title that ends with the name
    languages.apply("en")
    window.retranslate()
    assert QApplication.applicationDisplayName() == "Inquiry Bridge"
    assert window.windowTitle() == "Inquiry Bridge"


def test_a_hard_wrapped_mail_reads_as_paragraphs_in_its_card(app, languages, qtbot) -> None:  # type: ignore[no-untyped-def]
    body = (
        "Hi again, just checking you received my email about the shower screen? We'd like it done\n"
        "before Easter if possible.\n\nCheers,\nEmma"
    )
    card = MessageCard(_message("Re: Frameless shower screen", body))
    qtbot.addWidget(card)
    assert card.body.text().split("\n") == [
        "Hi again, just checking you received my email about the shower screen? We'd like it "
        "done before Easter if possible.",
        "",
        "Cheers,",
        "Emma",
    ]
    assert not card.translate_button.isHidden()


def test_translate_is_offered_only_on_mail_not_in_chinese(app, languages, qtbot) -> None:  # type: ignore[no-untyped-def]
    card = MessageCard(
        _message(
            "询价：推拉门", "您好，我想换一扇推拉门，地址是 22 Forest Road, Hurstville。谢谢！"
        )
    )
    qtbot.addWidget(card)
    assert card.translate_button.isHidden()


@settles
async def test_the_customer_form_shows_the_phone_as_he_dials_it(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    view, iid = await _view(ctx, qtbot)
    with ctx.app._services.store.session() as s:
        stored = s.get(Inquiry, iid).customer_phone
    assert stored.startswith("+614")
    shown = view.fields["customer_phone"].text()
    assert shown == f"0{stored[3:6]} {stored[6:9]} {stored[9:]}"
    assert await view.save_fields() == ()  # shown differently, stored the same: nothing changed


@settles
async def test_the_board_tooltip_shows_the_phone_as_he_dials_it(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 2)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    await window.board.ready()
    model = window.board.model
    row = model.row_at(0)
    assert row is not None and row.customer_phone and row.customer_phone.startswith("+614")
    tip = model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    national = f"0{row.customer_phone[3:6]} {row.customer_phone[6:9]} {row.customer_phone[9:]}"
    assert national in tip and row.customer_phone not in tip
