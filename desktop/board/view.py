"""The board page: stage bar, filters, search box, the inquiry table and the detail beside it.

Keystrokes in the search box are debounced (150 ms) and each query runs in SQL off the UI thread,
so typing never stutters even at 50,000 inquiries. The stage bar shows counts per stage under the
other filters and doubles as the stage filter.

Signals:
    inquiry_selected(int): the owner selected an inquiry (the detail follows it).
    wizard_requested(): the empty board's 打开入门向导 button (the way to an account or the demo).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING
from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtCore import QModelIndex
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractItemView
from PySide6.QtWidgets import QButtonGroup
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QHeaderView
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSplitter
from PySide6.QtWidgets import QStyleOptionViewItem
from PySide6.QtWidgets import QTableView
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import ALL_STAGES
from core.app.types import COLUMNS
from desktop import text
from desktop.board.detail_slot import DeferredDetail
from desktop.board.model import ID_ROLE
from desktop.board.model import BoardModel
from desktop.context import AppContext
from desktop.look import table_look
from desktop.steady_size import hold_size
from desktop.steady_size import release_size

if TYPE_CHECKING:
    from desktop.detail import InquiryDetailView

# each column's share of the table's width (and its narrowest), so every column fits the
# viewport at any window size: no horizontal scroll bar hides the overdue column at 1366 x 768
# (the last, "⚠ 8 个工作日 (+5)", was cut to "⚠ 8 个工作…" at 1366 x 768: it gets the most room
# for its text, and cuts in the middle, so the overdue figure at its end always shows)
COLUMN_WIDTHS = dict(zip(COLUMNS, (105, 80, 110, 85, 85, 135, 90, 140), strict=True))
ROUNDING = 1  # a text's laid-out width can round one pixel above its advance
SETTLED_PX = 24  # a width change this small (a scroll bar) keeps the columns
MIN_WIDTH = 60
# when the table is narrow (the assistant docked beside it), these give way first, in this order:
# each is also on the detail pane, while the customer, who owes a reply and the overdue days are
# what the board is for
NARROW_DROPS = ("last_contact", "suburb", "products", "classification", "stage")
SQUEEZE = 0.8  # columns may shrink to this share of their preferred width before one is hidden
TITLE_PADDING = 40  # a title's margins and the sort arrow beside it
ROWS_MEASURED = 200  # rows measured before the table is on screen (Qt would measure them all)
DISPLAY_ROLE = int(Qt.ItemDataRole.DisplayRole.value)
FONT_ROLE = int(Qt.ItemDataRole.FontRole.value)
DECORATION_ROLE = int(Qt.ItemDataRole.DecorationRole.value)


def visible_columns(width: int) -> list[str]:
    """The columns that fit ``width`` pixels, squeezed to ``SQUEEZE`` of their width at most."""
    shown = list(COLUMNS)
    for column in NARROW_DROPS:
        if sum(COLUMN_WIDTHS[c] for c in shown) * SQUEEZE <= width:
            break
        shown.remove(column)
    return shown


class BoardPage(QWidget):
    inquiry_selected = Signal(int)
    wizard_requested = Signal()
    approval_requested = Signal(int)  # the detail's: a waiting draft to open for approval

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.model = BoardModel(ctx, self)
        # the first page is read on a worker while the page and its window are built; what it
        # brings is applied once the loop turns, every view connected by then (#44)
        self.model.refresh()

        filters = self._build_filters()
        stage_bar = self._build_stage_bar()
        self._build_table()
        splitter = self._build_splitter()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(stage_bar)
        layout.addLayout(filters)
        layout.addWidget(splitter, 1)

        self._connect_signals()
        self.retranslate()
        self._stage_counts: dict[str, int] = {}

    def _build_filters(self) -> QHBoxLayout:
        """Search box, class filter, the needs-me toggle and the total."""
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(280)
        self.class_filter = QComboBox()
        self.needs_me = QToolButton()
        self.needs_me.setCheckable(True)
        self.needs_me.setObjectName("stageButton")
        self.attention = QToolButton()  # 需要您确认: the pipeline's guesses (core.rhythm.attention)
        self.attention.setCheckable(True)
        self.attention.setObjectName("stageButton")
        self.total_label = QLabel()
        self.total_label.setObjectName("muted")

        filters = QHBoxLayout()
        filters.addWidget(self.search, 2)
        filters.addWidget(self.class_filter)
        filters.addWidget(self.needs_me)
        filters.addWidget(self.attention)
        filters.addStretch(1)
        filters.addWidget(self.total_label)

        return filters

    def _build_stage_bar(self) -> QHBoxLayout:
        """One checkable button per stage (plus "all"), exclusive."""
        self.stage_group = QButtonGroup(self)
        self.stage_group.setExclusive(True)
        self.stage_buttons: dict[str, QToolButton] = {}
        stage_bar = QHBoxLayout()
        stage_bar.setSpacing(6)
        for key in ("", *ALL_STAGES):
            button = QToolButton()
            button.setCheckable(True)
            button.setObjectName("stageButton")
            button.setProperty("stage", key)
            self.stage_group.addButton(button)
            self.stage_buttons[key] = button
            stage_bar.addWidget(button)
        stage_bar.addStretch(1)
        self.stage_buttons[""].setChecked(True)

        return stage_bar

    def _build_table(self) -> None:
        self.table = QTableView()
        table_look(self.table)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(28)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # sizeHintForColumn (in _wanted_width) measures the rows on screen and then up to this
        # many more, asking the model's Python data() for every role of each (Qt's default:
        # 1,000 rows; eight columns after every search keystroke and sort, #44). The rows on
        # screen are the ones the owner sees whole or cut
        header.setResizeContentsPrecision(0)
        header.setStretchLastSection(True)
        # a title wider than its column (English on a laptop, the detail open) ends in "…"
        # instead of losing letters at both ends; its tooltip names it whole
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        # cells cut in their middle: the days column keeps its start (⚠ and the days) and its
        # end (+overdue); a name or a suburb keeps both ends too. Set on the view, not by a
        # Python delegate on one column, which ran Python for every cell of it on every paint
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        # the indicator first, so enabling sorting asks for the order the model already has
        header.setSortIndicator(COLUMNS.index("last_contact"), Qt.SortOrder.DescendingOrder)
        self.table.setSortingEnabled(True)
        self._fitted_width = 0
        self._wanted: dict[str, int] | None = None  # per load and language, not per resize
        # (font, has an icon) -> its metrics and the delegate's width around a text in it
        self._cell_frames: dict[tuple[str, bool], tuple[QFontMetrics, int]] = {}
        # (text, font, has an icon) -> its width; (column, title, sorted on) -> the title's
        self._cell_widths: dict[tuple[str, str, bool], int] = {}
        self._title_needs: dict[tuple[int, str, bool], int] = {}
        self.table.viewport().installEventFilter(self)
        self._fit_columns()

    def _build_splitter(self) -> QSplitter:
        """The table (or its empty hint) on the left, the detail on the right."""
        self.empty_hint = QLabel()
        self.empty_hint.setObjectName("placeholder")
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.hide()
        # an empty real board points at the wizard: a button, not a sentence to act on
        self.wizard_button = QPushButton()
        self.wizard_button.clicked.connect(self.wizard_requested)
        self.wizard_button.hide()

        self.empty_box = QWidget()
        empty_layout = QVBoxLayout(self.empty_box)
        empty_layout.addStretch(1)
        empty_layout.addWidget(self.empty_hint)
        empty_layout.addWidget(self.wizard_button, 0, Qt.AlignmentFlag.AlignHCenter)
        empty_layout.addStretch(1)
        self.empty_box.hide()

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.table)
        left_layout.addWidget(self.empty_box)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        self._detail = DeferredDetail(self.ctx, splitter, self._detail_built)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([800, 540])  # the detail needs ~540 px; the table fits the rest
        self.splitter = splitter

        return splitter

    @property
    def detail(self) -> InquiryDetailView:
        """The detail pane; built after the board's first paint, or now if asked for first."""
        return self._detail.pane()

    def _detail_built(self, detail: InquiryDetailView) -> None:
        detail.approval_requested.connect(self.approval_requested)

    def _connect_signals(self) -> None:
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(150)
        self._search_timer.timeout.connect(self._apply_filters)
        self.search.textChanged.connect(self._search_timer.start)
        self.class_filter.currentIndexChanged.connect(self._apply_filters)
        self.needs_me.toggled.connect(self._apply_filters)
        self.attention.toggled.connect(self._apply_filters)
        self.model.attention_changed.connect(self._on_attention)
        self.stage_group.buttonClicked.connect(self._apply_filters)
        self.model.counts_changed.connect(self._on_counts)
        self.model.loaded.connect(self._on_loaded)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)

    def _fit_columns(self, *, remeasure: bool = False) -> None:
        """Give each column the width its title and its loaded cells need. When they do not
        all fit, the columns in ``NARROW_DROPS`` are hidden, in order; room left over is shared
        in proportion, and only when even the kept columns do not fit are they squeezed (a
        title then ends in "…", its tooltip whole).

        ``remeasure`` (a load, a language): the cells are measured again, but the columns move
        only when a cell or title would be cut or a hidden column now fits. Columns that jumped
        at every search keystroke were hard to read, and each move repainted the board a
        second time (#44). A column the owner dragged keeps its size until then."""
        width = self.table.viewport().width()
        if width <= 0:
            return
        # a scroll bar coming or going changes the width by its own: the last column (Qt
        # stretches it) takes that, the others stay where his eyes are
        settled = self._wanted is not None and abs(width - self._fitted_width) <= SETTLED_PX
        if remeasure or self._wanted is None:
            # measured once per load (Qt's sizeHintForColumn asks the model for every loaded
            # row): the window settling at start resized it four times (#44)
            cells = self._cells_need()
            self._wanted = {c: self._wanted_width(i, c, cells[i]) for i, c in enumerate(COLUMNS)}
        elif width == self._fitted_width:
            return
        if settled and self._columns_hold(self._wanted, width):
            return
        self._fitted_width = width
        self._share(self._wanted, width)

    @staticmethod
    def _shown_columns(wanted: dict[str, int], width: int) -> list[str]:
        shown = list(COLUMNS)
        for column in NARROW_DROPS:
            if sum(wanted[c] for c in shown) <= width:
                break
            shown.remove(column)
        return shown

    def _columns_hold(self, wanted: dict[str, int], width: int) -> bool:
        """The columns as they are show every cell and title whole, and hide only what must."""
        shown = self._shown_columns(wanted, width)
        now_shown = [c for i, c in enumerate(COLUMNS) if not self.table.isColumnHidden(i)]
        if shown != now_shown:
            return False
        widths = {c: self.table.columnWidth(COLUMNS.index(c)) for c in shown}
        # the last column stretches to the edge: it holds while it has its need left there
        room_for_last = width - sum(widths[c] for c in shown[:-1])
        return (
            all(wanted[c] <= widths[c] for c in shown[:-1]) and wanted[shown[-1]] <= room_for_last
        )

    def _share(self, wanted: dict[str, int], width: int) -> None:
        shown = self._shown_columns(wanted, width)
        total = sum(wanted[c] for c in shown)
        used = 0
        for i, column in enumerate(COLUMNS):
            self.table.setColumnHidden(i, column not in shown)
            if column not in shown:
                continue
            if column == shown[-1]:
                share = max(MIN_WIDTH, width - used)
            else:
                share = max(MIN_WIDTH, width * wanted[column] // total)
            used += share
            self.table.setColumnWidth(i, share)

    def _wanted_width(self, index: int, column: str, need_cells: int) -> int:
        """The room column ``column`` needs: its title (with the sort arrow) and its widest
        loaded cell (the product list is short on the board: ``text.products_brief``); never less
        than its share."""
        header = self.table.horizontalHeader()
        title = str(self.model.headerData(index, Qt.Orientation.Horizontal) or "")
        key = (index, title, header.sortIndicatorSection() == index)
        need_title = self._title_needs.get(key)
        if need_title is None:
            # Qt's hint, with the sort arrow; a hidden section has none, so its text is measured
            need_title = self._title_needs[key] = max(
                header.sectionSizeHint(index),
                header.fontMetrics().horizontalAdvance(title) + TITLE_PADDING,
            )
        return max(MIN_WIDTH, need_title, need_cells, int(COLUMN_WIDTHS[column] * SQUEEZE))

    def _cells_need(self) -> list[int]:
        """Each column's widest cell on screen: Qt's ``sizeHintForColumn``, cheaper. The
        delegate's measure asks the Python model for every role of a cell, and after each
        search keystroke or sort that was half the UI thread's time (#44). A cell's width is
        its text's advance in its font plus what the delegate adds around it (margins, an
        icon), which depends only on the font and the icon: the delegate is asked once per such
        pair, the font's metrics give the rest. ``retranslate`` forgets both."""
        widest = [0] * len(COLUMNS)
        rows = self.model.rowCount()
        if not rows:
            return widest
        first = max(0, self.table.rowAt(0))
        last = self.table.rowAt(self.table.viewport().height())
        if last < 0 or not self.table.isVisible():  # Qt: the rows to the end; here a bound
            last = min(rows, first + ROWS_MEASURED) - 1
        grid = 1 if self.table.showGrid() else 0
        for row in range(first, last + 1):
            for index, cell in enumerate(self.model.shown(row) or ()):
                font, text = cell[FONT_ROLE], str(cell[DISPLAY_ROLE] or "")
                icon = cell[DECORATION_ROLE] is not None
                key = (text, font.key() if font is not None else "", icon)
                width = self._cell_widths.get(key)
                if width is None:
                    shown_in = font if font is not None else self.table.font()
                    measured = self._text_width(row, index, text, shown_in, icon)
                    width = self._cell_widths[key] = measured + grid
                widest[index] = max(widest[index], width)
        return widest

    def _text_width(self, row: int, index: int, text: str, font: QFont, icon: bool) -> int:
        """The room a cell's text takes in the view: its advance and the delegate's frame."""
        metrics, padding = self._cell_frame(self.model.index(row, index), font, text, icon)
        # Qt lays text out in fractions of a pixel: ROUNDING
        return metrics.horizontalAdvance(text) + ROUNDING + padding

    def _cell_frame(
        self, cell: QModelIndex, font: QFont, text: str, icon: bool
    ) -> tuple[QFontMetrics, int]:
        """The metrics of ``font`` and the delegate's width around a text in it (with ``icon``),
        measured on the first such ``cell``."""
        key = (font.key(), icon)
        known = self._cell_frames.get(key)
        if known is None:
            option = QStyleOptionViewItem()
            self.table.initViewItemOption(option)
            metrics = QFontMetrics(font)
            hint = self.table.itemDelegate().sizeHint(option, cell).width()
            known = self._cell_frames[key] = (metrics, hint - metrics.horizontalAdvance(text))
        return known

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.table.viewport():
            self._fit_columns()
        elif event.type() == QEvent.Type.Paint and not self._detail.built and self.model.rowCount():
            self._detail.after_paint()  # the board's rows are on screen: now the detail's turn
        return super().eventFilter(watched, event)

    # ------------------------------------------------------------------ filters

    def _apply_filters(self, *_: Any) -> None:
        self._search_timer.stop()
        checked = self.stage_group.checkedButton()
        stage = checked.property("stage") if checked is not None else ""
        chosen = self.class_filter.currentData()
        classes = (chosen,) if chosen else ()
        query = replace(
            self.model.query,
            stages=(stage,) if stage else (),
            classes=tuple(classes),
            needs_me=self.needs_me.isChecked(),
            attention=self.attention.isChecked(),
            search=self.search.text(),
        )
        if query != self.model.query:
            self.model.set_query(query)

    async def ready(self) -> None:
        await self.model.ready()

    def select_row(self, row: int) -> None:
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )

    def select_inquiry(self, inquiry_id: int) -> None:
        """Show one inquiry (tray click, notification): clear filters if it is hidden."""
        row = self.model.row_of(inquiry_id)
        if row >= 0:
            self.select_row(row)
            self.table.scrollTo(self.model.index(row, 0))
        self.detail.show_inquiry(inquiry_id)

    def selected_id(self) -> int | None:
        index = self.table.selectionModel().currentIndex()
        return self.model.data(index, ID_ROLE) if index.isValid() else None

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        inquiry_id = self.model.data(current, ID_ROLE) if current.isValid() else None
        if inquiry_id is not None and inquiry_id != self.detail.inquiry_id:
            self.detail.show_inquiry(inquiry_id)
            self.inquiry_selected.emit(inquiry_id)

    def _on_counts(self, counts: dict[str, int], _total: int, needs_me: int) -> None:
        self._stage_counts = counts
        self._needs_me_count = needs_me
        self.attention.setToolTip(
            self.tr("Guesses to check: low confidence, a merge on the phone alone, unreadable mail")
        )
        self._retranslate_counts()

    def _on_attention(self, count: int) -> None:
        self._attention_count = count
        self._retranslate_counts()

    def _on_loaded(self) -> None:
        empty = self.model.rowCount() == 0
        self.empty_hint.setVisible(empty)
        self.empty_box.setVisible(empty)
        self.table.setVisible(not empty)
        if not empty:
            self._fit_columns(remeasure=True)  # the new rows' cells, titles in this language
        q = self.model.query
        filtered = bool(q.search or q.stages or q.classes or q.needs_me or q.attention)
        self.wizard_button.setVisible(empty and not filtered and not self.ctx.is_demo)
        self.wizard_button.setText(self.tr("Open the welcome window"))
        if empty:
            if filtered:
                self.empty_hint.setText(self.tr("No inquiry matches these filters."))
            else:
                self.empty_hint.setText(
                    self.tr(
                        "No inquiries yet. Connect your mailbox (Microsoft 365 / Outlook, or "
                        "another mailbox: Gmail, QQ, 163, any IMAP), set up the AI or try the "
                        "demo data from the welcome window."
                    )
                )

    # ------------------------------------------------------------------ language

    def _retranslate_counts(self) -> None:
        counts = getattr(self, "_stage_counts", {})
        all_count = sum(counts.values())
        self.stage_buttons[""].setText(self.tr("All (%1)").replace("%1", str(all_count)))
        for stage in ALL_STAGES:
            self.stage_buttons[stage].setText(f"{text.stage_name(stage)} {counts.get(stage, 0)}")
        self.needs_me.setText(
            self.tr("Needs me (%1)").replace("%1", str(getattr(self, "_needs_me_count", 0)))
        )
        count = getattr(self, "_attention_count", 0)
        self.attention.setText(self.tr("Needs your confirmation (%1)").replace("%1", str(count)))
        self.total_label.setText(self.tr("%n inquiries", "", self.model.total))
        for counter in self._counters():
            hold_size(counter)

    def _counters(self) -> list[QWidget]:
        """The widgets that show counts: a count changing never lays the window out again."""
        return [*self.stage_buttons.values(), self.needs_me, self.attention, self.total_label]

    def retranslate(self) -> None:
        self.search.setPlaceholderText(self.tr("Search name, email, phone or suburb"))
        current = self.class_filter.currentIndex()
        self.class_filter.blockSignals(True)
        self.class_filter.clear()
        self.class_filter.addItem(self.tr("All classes"), "")
        for key in ("A", "B", "C"):
            self.class_filter.addItem(text.class_name(key), key)
        self.class_filter.setCurrentIndex(max(0, current))
        self.class_filter.blockSignals(False)
        self.needs_me.setToolTip(
            self.tr("Waiting on our reply, overdue in its stage, or a draft awaits approval")
        )
        self.attention.setToolTip(
            self.tr("Guesses to check: low confidence, a merge on the phone alone, unreadable mail")
        )
        for counter in self._counters():
            release_size(counter)  # sized anew for this language's words
        self._retranslate_counts()
        self.model.retranslate()
        self._wanted = None  # the titles' widths in this language
        self._cell_frames.clear()
        self._cell_widths.clear()
        self._title_needs.clear()
        if self.model.rowCount() == 0:
            self._on_loaded()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
