"""The board fits a 1366 x 768 laptop: no horizontal scroll bar hides the last column (and its
overdue markers) at the window's default size, in Chinese or English; counts read right in
English ("1 day", "2 days")."""

from __future__ import annotations

from desktop import text
from desktop.main_window import MainWindow
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until


@settles
async def test_the_default_window_fits_1366_by_768_without_horizontal_scroll(
    ctx, languages, qtbot
) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.services, 60, messages=True)  # enough rows for a vertical scroll bar
    for lang in ("zh_CN", "en"):
        languages.apply(lang)
        window = MainWindow(ctx)
        qtbot.addWidget(window)
        window.show()
        await window.board.ready()
        assert window.width() <= 1366 and window.height() <= 768 - 40 - 28  # taskbar, title
        table = window.board.table
        assert table.verticalScrollBar().isVisible()
        assert not table.horizontalScrollBar().isVisible(), lang
        assert table.horizontalHeader().length() <= table.viewport().width(), lang
        window.resize(1366, 768)  # maximised on such a screen: still no scroll bar
        await window.board.ready()
        assert not table.horizontalScrollBar().isVisible(), lang
        window.close()


def test_day_counts_have_english_plurals(app, languages) -> None:  # type: ignore[no-untyped-def]
    languages.apply("en")
    assert [text.days_text(n) for n in (0, 1, 2)] == ["0 days", "1 day", "2 days"]
    languages.apply("zh_CN")
    assert [text.days_text(n) for n in (1, 2)] == ["1 天", "2 天"]


@settles
async def test_with_the_assistant_docked_the_board_keeps_what_matters_without_scrolling(
    ctx, languages, qtbot
) -> None:  # type: ignore[no-untyped-def]
    """The chat panel takes a third of a 1366 px screen: the last-contact, suburb and product
    columns (all on the detail pane too) give way; customer, who owes a reply and the overdue
    days stay, and no horizontal scroll bar hides them."""
    from core.inquiry.board import COLUMNS

    seed_inquiries(ctx.services, 60, messages=True)
    languages.apply("en")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.resize(1366, 720)
    window.show()
    await window.board.ready()
    table = window.board.table
    assert not any(table.isColumnHidden(i) for i in range(len(COLUMNS)))  # room for all
    window.chat.open()
    await wait_until(lambda: table.isColumnHidden(COLUMNS.index("last_contact")))
    assert not table.horizontalScrollBar().isVisible()
    for kept in ("customer", "owes", "days_in_stage"):
        assert not table.isColumnHidden(COLUMNS.index(kept)), kept
    window.chat.hide()  # closed again: every column is back
    await wait_until(lambda: not table.isColumnHidden(COLUMNS.index("last_contact")))
    window.close()
