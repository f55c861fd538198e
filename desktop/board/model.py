"""The board's table model: pages of ``core.inquiry.board`` rows, loaded off the UI thread.

Why a hand-written ``QAbstractTableModel`` and not QtSql or a QTableWidget: the data layer stays in
core (no Qt there), and at 50,000 inquiries the model must hold only the pages the owner has
scrolled through. Every query (filter, search, sort) runs in SQL on a worker thread, asked for
through the facade (``ctx.app.inquiries``); loads go through ``desktop.loader.Loader`` so a slow,
stale answer never overwrites a newer one. ``fetchMore`` loads the next page when the view scrolls near the end.

Live updates keep the owner's place, and read only what changed (the hub's ``changed`` signal
says what: ``OpChanges``). Changed inquiries on the board are re-read by id in one query and
replaced in place (one ``dataChanged`` a row, at the row's position: like Anki's browser, a row
does not jump under the owner's cursor after his own action); the stage bar and "needs me"
counts follow from the old and new rows. Only new inquiries (which must be placed), a changed
inquiry the board has not loaded (its counts are re-read, not its page), or a row that may have
left a search or 需要您确认 filter re-read the loaded window: applied as an in-place
``dataChanged`` when the order is unchanged, otherwise as a layout change that maps persistent
indexes (the selection) by inquiry id, so neither selection nor scroll position jumps.

Signals:
    loaded(): a new query's first page is in.
    counts_changed(dict, int, int): stage counts, total rows, "needs me" count.
    attention_changed(int): how many items need the owner's confirmation (需要您确认).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING
from typing import Any

from PySide6.QtCore import QAbstractTableModel
from PySide6.QtCore import QModelIndex
from PySide6.QtCore import QModelRoleData
from PySide6.QtCore import QModelRoleDataSpan
from PySide6.QtCore import QObject
from PySide6.QtCore import QPersistentModelIndex
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont

from core.app import types as app_types
from core.app.types import COLUMNS
from core.app.types import BoardPage
from core.app.types import BoardQuery
from core.app.types import BoardRow
from core.app.types import plain_tooltip
from core.app.types import utc
from desktop import text
from desktop.aio import loop_running
from desktop.aio import spawn
from desktop.context import AppContext
from desktop.hub import OpChanges
from desktop.i18n import current_language
from desktop.loader import Loader
from desktop.look import ATTENTION
from desktop.look import MUTED
from desktop.look import OVERDUE
from desktop.look import STAGE_COLOURS
from desktop.look import dot_icon
from desktop.reopen import alive

if TYPE_CHECKING:
    from core.app.types import AttentionItem

log = logging.getLogger(__name__)

# a new query's first page: more than any screen shows (Qt's view fetches more while its last
# row is in sight), half the rows to read and convert of the 200 it was, on every keystroke and
# sort (#44); scrolling on reads pages of PAGE_SIZE
FIRST_PAGE = 100
PAGE_SIZE = 200
ID_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex
AGE_REFRESH_MS = 60_000  # "14 分钟" moves on once a minute
ROWS_DEBOUNCE_MS = 30  # an action's own events and its broadcast: one re-read of its rows
WINDOW_DEBOUNCE_MS = 400  # an ingest batch's new inquiries: one re-read of the window


_UNKNOWN = object()  # not yet answered (None is an answer)
ROWS_KEPT = 1_000  # rows whose cells are kept (a screen shows ~25-45; ~3 KB each)
DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
DECORATION = int(Qt.ItemDataRole.DecorationRole.value)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
FONT = int(Qt.ItemDataRole.FontRole.value)
ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole.value)
BACKGROUND = int(Qt.ItemDataRole.BackgroundRole.value)
FOREGROUND = int(Qt.ItemDataRole.ForegroundRole.value)
CHECK_STATE = int(Qt.ItemDataRole.CheckStateRole.value)


class BoardModel(QAbstractTableModel):
    loaded = Signal()
    counts_changed = Signal(dict, int, int)
    attention_changed = Signal(int)

    def __init__(self, ctx: AppContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.inquiries = ctx.app.inquiries
        self.clock = ctx.app.clock
        self.query = BoardQuery(region=self.inquiries.phone_region)
        self.total = 0
        self.stage_counts: dict[str, int] = {}
        self.needs_me_total = 0
        self._rows: list[BoardRow] = []
        self.attention_ids: set[int] = set()  # rows marked 需要您确认
        self._attention_read = False
        self._counted_query: BoardQuery | None = None  # the filters self.stage_counts are of
        self._attention_icon = dot_icon(ATTENTION)
        self._loader = Loader()
        self._more_task: asyncio.Future[None] | None = None
        self._needs_me_stale = True
        self._stage_icons = {s: dot_icon(c) for s, c in STAGE_COLOURS.items()}
        # the days column's words by (working days, overdue days): a handful of distinct texts
        # on any board, so a repaint looks them up instead of formatting every visible cell
        self._days_texts: dict[tuple[int, int], str] = {}
        # each loaded row's eight cells, every painted role answered at once (``_row_cells``)
        self._cells: dict[int, list[dict[int, Any]]] = {}
        self._titles: list[str] = []  # the columns' titles in this language, in COLUMNS order
        self._muted, self._overdue = QBrush(MUTED), QBrush(OVERDUE)
        self._owed, self._overdue_back = QBrush(ATTENTION), QBrush(QColor("#fff1e5"))
        self._bold = QFont()
        self._bold.setBold(True)
        for changed in (
            self.modelReset,
            self.layoutChanged,
            self.dataChanged,
            self.rowsInserted,
            self.rowsRemoved,
            self.headerDataChanged,
        ):  # connected before any view's slots: forgotten before a view asks again
            changed.connect(self._cells.clear)
        self._live_timer = QTimer(self)
        self._live_timer.setSingleShot(True)
        self._live_timer.setInterval(ROWS_DEBOUNCE_MS)
        self._live_timer.timeout.connect(self._live_refresh)
        self._changes = OpChanges()  # gathered until the timer fires
        self._rows_task: asyncio.Future[None] | None = None
        ctx.hub.changed.connect(self._on_changes)
        # ages ("待我们回复 · 14 分钟", 超期) are relative to now: repainted every minute from
        # the injected clock while the window is open, no query needed
        self.age_timer = QTimer(self)
        self.age_timer.setInterval(AGE_REFRESH_MS)
        self.age_timer.timeout.connect(self.refresh_ages)
        self.age_timer.start()

    # ------------------------------------------------------------------ querying

    def set_query(self, query: BoardQuery) -> asyncio.Future[None]:
        """Show ``query``'s rows (first page); returns the loading task."""
        self.query = query
        return self.refresh()

    def refresh(self, *, keep_position: bool = False) -> asyncio.Future[None]:
        # the reads are under way before the loop next turns: a board being built has its
        # first page and its marks read while the rest of its window is built (#44)
        if not loop_running():  # a timer after the app quit: nothing will load
            return self._loader.start(lambda _generation: asyncio.sleep(0))
        read = self._read_page(keep_position)
        # the marks change with the data, never with his filters: a keystroke or a sort does
        # not read them again (a change says so: ``_update_rows``, or a refresh in place)
        known = self._attention_read and not keep_position
        marks = None if known else spawn(self.ctx.app.attention.items())
        return self._loader.start(
            lambda generation: self._load(generation, keep_position, read, marks)
        )

    async def ready(self) -> None:
        """Wait until the latest query (and any live refresh) has been applied."""
        while True:
            await self._loader.ready()
            if self._rows_task is not None and not self._rows_task.done():
                await asyncio.wait({self._rows_task})
                continue
            if not self._live_timer.isActive() and not self._loader.busy:
                return
            await asyncio.sleep(0.02)

    def _read_page(self, keep_position: bool) -> asyncio.Future[BoardPage]:
        limit = max(FIRST_PAGE, len(self._rows)) if keep_position else FIRST_PAGE
        # the "needs me" count only changes with the data, not with the owner's filters
        fresh_counts = keep_position or self._needs_me_stale
        # a new sort order of the same rows: the counts shown still hold (#44, a sort read
        # them again and again); a change to the data forgets them (``_on_changes``)
        counted = None
        if self._counted_query is not None and not keep_position:
            counted = BoardPage(self._counted_query, [], self.total, dict(self.stage_counts))
        return self.inquiries.page_started(
            self.query, limit=limit, with_needs_me=fresh_counts, counted=counted
        )

    async def _load(
        self,
        generation: int,
        keep_position: bool,
        read: asyncio.Future[BoardPage],
        marks: asyncio.Future[list[AttentionItem]] | None,
    ) -> None:
        page = await read
        attention = None if marks is None else await marks
        if not self._loader.is_current(generation) or not alive(self):
            return  # a newer query superseded this answer, or the window was replaced
        self.total = page.total
        self.stage_counts = page.stage_counts
        self._counted_query = page.query
        if page.needs_me_total >= 0:
            self.needs_me_total = page.needs_me_total
            self._needs_me_stale = False
        if attention is not None:
            self.attention_ids = {i.inquiry_id for i in attention if i.inquiry_id is not None}
            self._attention_read = True
        if keep_position:
            self._apply_rows(page.rows)
        else:
            self.beginResetModel()
            self._rows = list(page.rows)
            self.endResetModel()
        self.counts_changed.emit(dict(page.stage_counts), page.total, self.needs_me_total)
        if attention is not None:
            self.attention_changed.emit(len(attention))
        self.loaded.emit()

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        if parent.isValid():
            return False
        return len(self._rows) < self.total

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if parent.isValid() or (self._more_task is not None and not self._more_task.done()):
            return
        self._more_task = spawn(self._load_more(self._loader.generation))

    async def _load_more(self, generation: int) -> None:
        query, offset = self.query, len(self._rows)
        rows = await self.inquiries.rows(query, offset=offset, limit=PAGE_SIZE)
        if not self._loader.is_current(generation) or offset != len(self._rows) or not rows:
            return
        self.beginInsertRows(QModelIndex(), offset, offset + len(rows) - 1)
        self._rows.extend(rows)
        self.endInsertRows()

    # ------------------------------------------------------------------ live updates

    def refresh_ages(self) -> None:
        """Repaint every cell whose text is relative to now (the clock is read in ``data``)."""
        if self._rows:
            last = self.index(len(self._rows) - 1, len(COLUMNS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    def _on_changes(self, changes: OpChanges, _handler: object) -> None:
        """Gather what changed; debounce bursts (an ingest batch) into one re-read."""
        if not (changes.inquiries or changes.created or changes.attention):
            return  # a draft alone (its row's count comes with its inquiry id)
        self._counted_query = None  # the counts may have moved: the next query counts
        if changes.attention:
            self._attention_read = False  # until an update or a load has read them again
        self._changes = self._changes | changes
        self._live_timer.setInterval(
            WINDOW_DEBOUNCE_MS if self._changes.created else ROWS_DEBOUNCE_MS
        )
        self._live_timer.start()

    def _live_refresh(self) -> None:
        changes, self._changes = self._changes, OpChanges()
        if changes.created or self._loader.busy or self.query.search or self.query.attention:
            self.refresh(keep_position=True)  # rows to place, or a filter code cannot check
            return
        previous = self._rows_task
        self._rows_task = spawn(self._update_rows(changes, self._loader.generation, previous))

    async def _update_rows(
        self, changes: OpChanges, generation: int, previous: asyncio.Future[None] | None
    ) -> None:
        """Re-read the changed rows the board holds (one query), and the counts only when a
        changed inquiry is not loaded; no page is read. Runs after the previous update, so an
        older answer never lands over a newer one."""
        if previous is not None and not previous.done():
            await asyncio.wait({previous})
        loaded = {r.id for r in self._rows}
        ids = sorted(i for i in changes.inquiries if i in loaded)
        fresh = await self.inquiries.rows_by_id(ids) if ids else []
        counts = None
        if any(i not in loaded for i in changes.inquiries):
            counts = await self.inquiries.counts(self.query)
        attention = await self.ctx.app.attention.items() if changes.attention else None
        if not self._loader.is_current(generation) or not alive(self):
            return  # a new query or a window re-read superseded this
        if not self._replace_rows(fresh):
            self.refresh(keep_position=True)  # a row left the stage, class or needs-me filter
            return
        if counts is not None:
            self.stage_counts, self.needs_me_total = counts
            selected = self.query.stages or tuple(self.stage_counts)
            self.total = sum(self.stage_counts.get(s, 0) for s in selected)
        if attention is not None:
            marked = {i.inquiry_id for i in attention if i.inquiry_id is not None}
            moved, self.attention_ids = marked ^ self.attention_ids, marked
            self._attention_read = True
            self._repaint_customers(moved)  # their 需要您确认 mark came or went
            self.attention_changed.emit(len(attention))
        self.counts_changed.emit(dict(self.stage_counts), self.total, self.needs_me_total)

    def _repaint_customers(self, ids: set[int]) -> None:
        for row, board_row in enumerate(self._rows):
            if board_row.id in ids:
                cell = self.index(row, COLUMNS.index("customer"))
                self.dataChanged.emit(cell, cell)

    def _replace_rows(self, fresh: list[BoardRow]) -> bool:
        """Put each fresh row in its old one's place, moving the stage bar's and the "needs me"
        counts by the difference; False when a row no longer matches the board's filters."""
        now, query = self.clock.now(), self.query
        for new in fresh:
            index = self.row_of(new.id)
            if index < 0:
                continue
            old = self._rows[index]
            if (
                (query.stages and new.stage not in query.stages)
                or (query.classes and new.classification not in query.classes)
                or (query.needs_me and not new.needs_me(now))
            ):
                return False
            if old.stage != new.stage:
                self.stage_counts[old.stage] = self.stage_counts.get(old.stage, 1) - 1
                self.stage_counts[new.stage] = self.stage_counts.get(new.stage, 0) + 1
            self.needs_me_total += int(new.needs_me(now)) - int(old.needs_me(now))
            self._rows[index] = new
            self.dataChanged.emit(self.index(index, 0), self.index(index, len(COLUMNS) - 1))
        return True

    def _apply_rows(self, new: list[BoardRow]) -> None:
        old = self._rows
        ncols = len(COLUMNS)
        if [r.id for r in new] == [r.id for r in old]:
            self._rows = list(new)
            if new:
                self.dataChanged.emit(self.index(0, 0), self.index(len(new) - 1, ncols - 1))
            return
        n_old = len(old)
        head = list(new[:n_old])
        padded = head + old[len(head) :]
        positions: dict[int, int] = {}
        for i, row in enumerate(head):
            positions.setdefault(row.id, i)
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        moved = []
        for idx in persistent:
            row_id = old[idx.row()].id if 0 <= idx.row() < n_old else None
            pos = positions.get(row_id) if row_id is not None else None
            moved.append(self.index(pos, idx.column()) if pos is not None else QModelIndex())
        self._rows = padded
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()
        if len(new) > n_old:
            self.beginInsertRows(QModelIndex(), n_old, len(new) - 1)
            self._rows = list(new)
            self.endInsertRows()
        elif len(new) < n_old:
            self.beginRemoveRows(QModelIndex(), len(new), n_old - 1)
            self._rows = list(new)
            self.endRemoveRows()

    # ------------------------------------------------------------------ Qt model API

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def row_at(self, row: int) -> BoardRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, inquiry_id: int) -> int:
        for i, r in enumerate(self._rows):
            if r.id == inquiry_id:
                return i
        return -1

    def ids(self) -> list[int]:
        return [r.id for r in self._rows]

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        shown = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)  # tip: when cut
        if orientation != Qt.Orientation.Horizontal or role not in shown:
            return None
        if not self._titles:  # asked on every paint of the header; words change with language
            self._titles = [
                self.tr("Customer"),
                self.tr("Suburb"),
                self.tr("Products"),
                self.tr("Class"),
                self.tr("Stage"),
                self.tr("Who owes a reply"),
                self.tr("Last contact"),
                self.tr("Days in stage"),
            ]
        return self._titles[section] if 0 <= section < len(COLUMNS) else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return self.cell(index.row(), index.column(), role)

    def cell(self, row: int, column: int, role: int) -> Any:
        """``data`` by row and column numbers: the column fit measures every visible cell after
        each load, and making a QModelIndex for each cost more than the answer (#44)."""
        cells = self._row_cells(row)
        if cells is None or not 0 <= column < len(cells):
            return None
        answers = cells[column]
        value = answers.get(role, _UNKNOWN)
        if value is _UNKNOWN:
            value = answers[role] = self._asked(row, column, role)
        return value

    def multiData(self, index: Index, roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:
        """Every role a delegate asks of a cell, in one call: Qt 6's item views paint through
        this, and answering it here crosses from C++ into Python once per cell instead of
        seven times (#44)."""
        row, column = index.row(), index.column()
        cells = self._cells.get(row) or self._row_cells(row)
        answers = cells[column] if cells is not None and 0 <= column < len(cells) else {}
        # PySide6 indexes a span and gives its length; its stubs do not say so
        slots: Any = (roleDataSpan,) if isinstance(roleDataSpan, QModelRoleData) else roleDataSpan
        for k in range(len(slots)):
            slot = slots[k]
            role = slot.role()
            value = answers.get(role, _UNKNOWN)
            if value is _UNKNOWN:
                value = self.cell(row, column, role)
            if value is None:
                slot.clearData()
            else:
                slot.setData(value)

    def shown(self, row: int) -> list[dict[int, Any]] | None:
        """What row ``row``'s cells show, by column: each cell's painted answers by role."""
        return self._row_cells(row)

    def _row_cells(self, row: int) -> list[dict[int, Any]] | None:
        """Row ``row``'s cells by column, each its answers by role; kept until the model next
        says something changed. Qt asks seven roles of every visible cell on each paint and a
        load paints more than once: a row's cells are worked out together (one clock reading,
        one overdue count), where answering role by role was most of the UI thread's time
        after a search keystroke or a sort (#44)."""
        cells = self._cells.get(row)
        if cells is None:
            shown = self.row_at(row)
            if shown is None:
                return None
            if len(self._cells) > ROWS_KEPT:  # the owner scrolled far: start again
                self._cells.clear()
            cells = self._cells[row] = self._painted(shown)
        return cells

    def _painted(self, row: BoardRow) -> list[dict[int, Any]]:
        """The roles a paint asks of each of ``row``'s cells; the others stay unasked."""
        now = self.clock.now()
        closed = row.stage in ("done", "lost")
        cells: list[dict[int, Any]] = []
        for column in COLUMNS:
            cells.append(
                {
                    DISPLAY: self._display(row, column, now),
                    DECORATION: None,
                    FONT: None,
                    FOREGROUND: self._muted if closed else None,
                    BACKGROUND: None,
                    ALIGNMENT: None,
                    CHECK_STATE: None,
                }
            )
        by_name = dict(zip(COLUMNS, cells, strict=True))
        by_name["stage"][DECORATION] = self._stage_icons.get(row.stage)
        if row.id in self.attention_ids:
            by_name["customer"][DECORATION] = self._attention_icon
        if row.needs_me(now):
            by_name["customer"][FONT] = self._bold
        if row.owes_reply == "us" and not closed:
            by_name["owes"][FOREGROUND] = self._owed
        if row.overdue_days(now) > 0:
            by_name["days_in_stage"][FOREGROUND] = self._overdue
            by_name["days_in_stage"][BACKGROUND] = self._overdue_back
        return cells

    def _asked(self, row: int, column: int, role: int) -> Any:
        """A role no paint asks (a tooltip, the row's id): worked out when first asked."""
        shown = self.row_at(row)
        if shown is None:
            return None
        if role == ID_ROLE:
            return shown.id
        if role == ROW_ROLE:
            return shown
        if role == TOOLTIP:
            tip = self._tooltip(shown, COLUMNS[column])  # Qt guesses a tooltip's format:
            return plain_tooltip(tip) if tip else None  # never let it
        return None

    def _display(self, row: BoardRow, column: str, now: datetime) -> str:
        if column == "customer":
            return row.customer_name or row.customer_email or self.tr("(unknown)")
        if column == "suburb":
            return row.suburb or ""
        if column == "products":  # short: the whole list is the tooltip
            return text.products_brief(row.product_types, current_language())
        if column == "classification":
            return self._class_short(row.classification)
        if column == "stage":
            return text.stage_name(row.stage)
        if column == "owes":
            if row.stage in ("done", "lost"):
                return ""
            since = row.owes_since()
            ago = text.duration(utc(now) - utc(since)) if since is not None else "–"
            label = self.tr("We owe · %1") if row.owes_reply == "us" else self.tr("They owe · %1")
            return label.replace("%1", ago)
        if column == "last_contact":
            return text.compact_time(row.last_contact_at, now)
        if column == "days_in_stage":
            return self._days_text(row, now)
        return ""

    def _days_text(self, row: BoardRow, now: datetime) -> str:
        key = (row.days_in_stage(now), row.overdue_days(now))
        cell = self._days_texts.get(key)
        if cell is None:
            days, over = key
            words = text.working_days_text(days)
            cell = self._days_texts[key] = f"⚠ {words} (+{over})" if over else words
        return cell

    def _tooltip(self, row: BoardRow, column: str) -> str | None:
        if column == "customer":
            # phonenumbers loads with the first tooltip, not with the board (#44)
            display_phone = app_types.display_phone
            parts = [
                p
                for p in (row.customer_email, display_phone(row.customer_phone, self.query.region))
                if p
            ]
            if row.id in self.attention_ids:
                parts.insert(0, self.tr("Needs your confirmation"))
            if row.pending_drafts:
                parts.append(self.tr("%n draft(s) waiting for approval", "", row.pending_drafts))
            return "\n".join(parts) or None
        if column == "products":
            return text.products_text(row.product_types, current_language()) or None
        if column == "classification":
            return text.class_name(row.classification)
        if column == "owes" and row.stage not in ("done", "lost"):
            return text.owes_text(row.owes_reply, row.owes_since(), self.clock.now())
        if column == "last_contact":
            return text.local_time(row.last_contact_at) or None
        if column == "days_in_stage" and row.overdue_days(self.clock.now()) > 0:
            return text.overdue_text(row.overdue_days(self.clock.now()))
        return None

    def _class_short(self, classification: str) -> str:
        """The class in a few letters (the full name is the tooltip)."""
        names = {
            "A": self.tr("A on site"),
            "B": self.tr("B remote"),
            "C": self.tr("C other"),
        }
        return names.get(classification, classification)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        descending = order == Qt.SortOrder.DescendingOrder
        query = replace(self.query, sort=COLUMNS[column], descending=descending)
        if query != self.query:  # the view re-announces its sort on set-up: not a new query
            self.set_query(query)

    def retranslate(self) -> None:
        """Language changed: headers and every cell's words change."""
        self._days_texts.clear()
        self._titles = []
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if self._rows:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._rows) - 1, len(COLUMNS) - 1)
            )
