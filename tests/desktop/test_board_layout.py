"""The board fits a 1366 x 768 laptop: no horizontal scroll bar hides the last column (and its
overdue markers) at the window's default size, in Chinese or English; counts read right in
English ("1 day", "2 days")."""

from __future__ import annotations

from desktop import text
from desktop.main_window import MainWindow
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until


@settles
async def test_the_default_window_fits_1366_by_768_without_horizontal_scroll(  # type: ignore[no-untyped-def]
    ctx, languages, qtbot
) -> None:
    seed_inquiries(ctx.app._services, 60, messages=True)  # enough rows for a vertical scroll bar
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


async def _on_a_laptop_screen(ctx, qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    """The main window as it opens on a 1366 x 768 screen (720 px tall inside the taskbar and
    title), its board loaded."""
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.resize(1366, 720)
    window.show()
    await window.board.ready()
    return window


@settles
async def test_with_the_assistant_docked_the_board_keeps_what_matters_without_scrolling(  # type: ignore[no-untyped-def]
    ctx, languages, qtbot
) -> None:
    """The chat panel takes a third of a 1366 px screen: the last-contact, suburb and product
    columns (all on the detail pane too) give way; customer, who owes a reply and the overdue
    days stay, and no horizontal scroll bar hides them."""
    from core.inquiry.board import COLUMNS

    seed_inquiries(ctx.app._services, 60, messages=True)
    languages.apply("zh_CN")  # (the longer English titles give last contact away even so)
    window = await _on_a_laptop_screen(ctx, qtbot)
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


@settles
async def test_with_the_assistant_docked_a_long_sender_line_wraps_inside_the_detail(  # type: ignore[no-untyped-def]
    ctx, languages, qtbot
) -> None:
    """A builder's long name and address used to push the message card wider than the detail
    pane, so its right edge (the 翻译 button) sat behind a horizontal scroll bar."""
    from sqlalchemy import update

    from core.db.models import Message

    seed_inquiries(ctx.app._services, 5, messages=True)
    sender = "Christopher Papadopoulos"
    address = "christopher.papadopoulos@papadopoulos-constructions.com.au"
    ctx.app._services.store.write(
        lambda s: s.execute(
            update(Message)
            .where(Message.inquiry_id == 1)
            .values(from_name=sender, from_addr=address)
        )
    )
    languages.apply("zh_CN")
    window = await _on_a_laptop_screen(ctx, qtbot)
    window.chat.open()
    detail = window.board.detail
    detail.show_inquiry(1)
    await detail.ready()
    thread = detail.thread_panel
    await wait_until(lambda: bool(thread.cards))
    card = next(iter(thread.cards.values()))
    assert address in card.header.text()
    await wait_until(lambda: thread.widget().width() <= thread.viewport().width())
    assert not thread.horizontalScrollBar().isVisible()
    assert card.translate_button.geometry().right() <= card.width()
    window.close()


@settles
async def test_the_overdue_figure_shows_in_full_on_a_laptop_screen(ctx, languages, qtbot) -> None:  # type: ignore[no-untyped-def]
    """ "⚠ 8 个工作日 (+6)" was cut to "⚠ 8 个工作…" at 1366 x 768: the owner saw that a job was
    late but not by how much. Chinese fits whole; the longer English keeps both ends."""
    from PySide6.QtWidgets import QStyledItemDelegate

    from core.inquiry.board import COLUMNS

    seed_inquiries(ctx.app._services, 60, messages=True)
    column = COLUMNS.index("days_in_stage")
    for lang in ("zh_CN", "en"):
        languages.apply(lang)
        window = await _on_a_laptop_screen(ctx, qtbot)
        table, model = window.board.table, window.board.model
        room = table.columnWidth(column) - 2 * table.style().pixelMetric(
            table.style().PixelMetric.PM_FocusFrameHMargin
        )
        metrics = table.fontMetrics()
        late = [
            model.index(r, column)
            for r in range(model.rowCount())
            if "⚠" in model.index(r, column).data()
        ]
        assert late, "the seed has overdue jobs"
        for index in late:
            cell = index.data()
            figure = cell[cell.rindex("(") :]
            if lang == "zh_CN":
                assert metrics.horizontalAdvance(cell) <= room, cell
            # cut the way the view paints it: the view's elide mode decides where
            shown = metrics.elidedText(cell, table.textElideMode(), room)
            assert shown.endswith(figure) and shown.startswith("⚠"), (lang, shown)
        # and no Python delegate paints a cell (one ran Python per cell on every scroll)
        delegates = {type(table.itemDelegateForIndex(model.index(0, c))) for c in range(8)}
        assert delegates == {QStyledItemDelegate}, delegates
        window.close()


@settles
async def test_a_column_title_too_wide_for_its_column_ends_in_an_ellipsis_and_tips_whole(  # type: ignore[no-untyped-def]
    ctx, languages, qtbot
) -> None:
    """In English on a 1366 px screen with a job open beside the board, "Last contact" showed
    as ".ast contae" (cut at both ends, under the sort arrow): now a title that does not fit
    is cut at its end with "…", and hovering it shows the whole title."""
    from PySide6.QtCore import Qt

    seed_inquiries(ctx.app._services, 60, messages=True)
    languages.apply("en")
    window = await _on_a_laptop_screen(ctx, qtbot)
    table, model = window.board.table, window.board.model
    header = table.horizontalHeader()
    assert header.textElideMode() == Qt.TextElideMode.ElideRight  # Qt's header default: none
    for section in range(model.columnCount()):
        title = model.headerData(section, Qt.Orientation.Horizontal)
        tip = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        assert title and tip == title  # the whole title on hover
    window.close()


async def _cut_columns(window: MainWindow, lang: str) -> list[tuple[str, bool, str]]:
    """The board's shown columns whose title (with the sort arrow) or widest loaded cell is
    wider than the column, as Qt measures them, without and then with the assistant docked
    (340 px); and a kept column (customer, who owes, days) that was hidden."""
    from core.inquiry.board import COLUMNS

    table = window.board.table
    header = table.horizontalHeader()
    cut = []
    for chat in (False, True):
        if chat:
            before = table.viewport().width()
            window.chat.open()
            await wait_until(lambda b=before: table.viewport().width() < b)  # type: ignore[misc]
            await wait_until(lambda: window.board._fitted_width == table.viewport().width())
        await window.board.ready()
        for i, column in enumerate(COLUMNS):
            if table.isColumnHidden(i):
                if column in ("customer", "owes", "days_in_stage"):
                    cut.append((lang, chat, f"{column} hidden"))
                continue
            if header.sectionSizeHint(i) > header.sectionSize(i):
                cut.append((lang, chat, f"{column} title"))
            if table.sizeHintForColumn(i) > table.columnWidth(i):
                cut.append((lang, chat, f"{column} cell"))
    window.chat.hide()
    return cut


@settles
async def test_no_column_title_or_cell_is_cut_at_1366_in_either_language_with_or_without_chat(  # type: ignore[no-untyped-def]
    ctx, languages, qtbot
) -> None:
    """Each column gets what its title (with the sort arrow) and its loaded cells need, with a
    job open beside the board as the owner works: the product list too ("防盗门、…、推拉窗" was
    cut in its middle)."""
    from sqlalchemy import update

    from core.db.models import Inquiry
    from core.glossary import product_keys

    seed_inquiries(ctx.app._services, 60, messages=True)
    many = product_keys()[:4]  # a customer who asks about four products
    ctx.app._services.store.write(
        lambda s: s.execute(update(Inquiry).where(Inquiry.id == 2).values(product_types=many))
    )
    cut = []
    for lang in ("zh_CN", "en"):
        languages.apply(lang)
        window = await _on_a_laptop_screen(ctx, qtbot)
        window.board.select_row(0)
        await window.board.detail.ready()
        cut += await _cut_columns(window, lang)
        window.close()
    assert cut == []


@settles
async def test_over_the_demo_with_a_waiting_draft_nothing_is_cut_beside_the_assistant(
    ctx, languages, qtbot
) -> None:  # type: ignore[no-untyped-def]
    """The demo's first job has a draft waiting, so the detail shows 打开待审批草稿 too: in one
    row, its buttons held the pane ~700 px wide in English, and with the assistant docked the
    board read "Emm…rke" and "⚠ 11 w…s (+9)". The buttons wrap now; the board keeps its room."""
    from core.demo import load_demo

    await load_demo(ctx.app._services)
    cut = []
    for lang in ("zh_CN", "en"):
        languages.apply(lang)
        window = MainWindow(ctx)
        qtbot.addWidget(window)
        window.resize(1366, 768)  # as the screenshot command draws it
        window.show()
        await window.board.ready()
        window.board.select_row(0)
        await window.board.detail.ready()
        assert window.board.detail.header.approval_button.isVisible()
        cut += await _cut_columns(window, lang)
        window.close()
    assert cut == []
