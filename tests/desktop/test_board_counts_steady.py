"""The counts on the stage buttons change at every search keystroke; the buttons stay put, their
words stay whole, and the window around the board is not laid out and painted again (#44); nor
is it for a 待审批 count that did not change."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QLabel, QTabWidget, QToolButton, QWidget

from desktop.board.view import BoardPage
from tests.desktop.seed import seed_inquiries
from tests.desktop.windows import shown_main_window
from tests.support.qt import settles, wait_until


class _WholePaints(QObject):
    """Counts the paint events that cover at least half of one widget (a child's own repaint
    reaches its parent too, for that child's small rectangle)."""

    def __init__(self, watched: QWidget) -> None:
        super().__init__()
        self.count = 0
        self.watched = watched
        watched.installEventFilter(self)

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QPaintEvent):
            painted = event.region().boundingRect()
            whole = self.watched.rect()
            if painted.width() * painted.height() * 2 >= whole.width() * whole.height():
                self.count += 1
        return False


def _geometries(page: BoardPage) -> dict[str, QRect]:
    shown: dict[str, QWidget] = {f"stage {k}": b for k, b in page.stage_buttons.items()}
    shown |= {"needs me": page.needs_me, "attention": page.attention, "total": page.total_label}
    return {name: QRect(widget.geometry()) for name, widget in shown.items()}


def _whole(page: BoardPage) -> list[str]:
    """The counters whose words do not fit them."""
    counters: list[QToolButton | QLabel] = [*page.stage_buttons.values(), page.needs_me]
    counters += [page.attention, page.total_label]
    return [w.text() for w in counters if w.width() < w.sizeHint().width()]


async def _search(page: BoardPage, typed: str) -> None:
    page.search.setText(typed)
    await wait_until(lambda: page.model.query.search == typed)
    await page.ready()


@settles
async def test_typing_a_search_keeps_every_counter_in_place_and_whole(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 240)
    tabs = QTabWidget()  # where the main window holds the board
    qtbot.addWidget(tabs)
    page = BoardPage(ctx)
    tabs.addTab(page, "board")
    tabs.resize(1366, 700)
    tabs.show()
    await page.ready()
    await wait_until(lambda: page.isVisible())
    before = _geometries(page)
    totals = []
    for typed in ("s", "sa", "sar", "sarah", "zzzz-no-such-customer", ""):
        await _search(page, typed)
        qtbot.wait(30)  # the event loop lays out and paints
        totals.append(page.model.total)
        assert _geometries(page) == before, typed
        assert _whole(page) == [], typed
        if typed == "s":
            # the first letter fades the box's clear button in, which repaints the page once;
            # counting starts when that has settled
            qtbot.wait(300)
            paints = _WholePaints(tabs)
        elif typed == "sarah":
            # none of the keystrokes since made the tab widget holding the board lay itself
            # out again and repaint whole: only the table, the box and the counters painted
            assert paints.count == 0
    # the counts did change, through two digits, one and none
    assert totals[0] >= 10 and 0 in totals and len(set(totals)) >= 3


@settles
async def test_a_count_wider_than_any_before_widens_its_button(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 150)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    page.resize(1366, 700)
    page.show()
    await page.ready()
    await _search(page, "zzzz-no-such-customer")  # every count 0: the buttons keep their room
    held = page.stage_buttons[""].width()
    page.retranslate()  # a new language sizes them anew, to the counts of now
    narrow = page.stage_buttons[""].width()
    assert narrow < held
    await _search(page, "")  # "All (150)": three digits where there was one
    assert page.stage_buttons[""].text().endswith("(150)")
    assert page.stage_buttons[""].width() > narrow
    assert _whole(page) == []


@settles
async def test_a_draft_change_that_leaves_the_waiting_count_does_not_relayout_the_window(  # type: ignore[no-untyped-def]
    ctx, qtbot
) -> None:
    """Every draft change recounts the 待审批 tab; the same count keeps its words, and the tab
    widget holding the whole window is not laid out and painted again for them."""
    seed_inquiries(ctx.app._services, 20)
    window = await shown_main_window(ctx, qtbot, 1340, 700)
    await window.pending.ready()
    qtbot.wait(400)  # the first paints, the detail built after them, the box's fade
    title = window.tabs.tabText(1)
    paints = _WholePaints(window.tabs)
    for _ in range(3):
        window.pending.count_changed.emit(window.pending.pending_count())
        qtbot.wait(30)  # the event loop lays out and paints
    assert window.tabs.tabText(1) == title
    assert paints.count == 0
