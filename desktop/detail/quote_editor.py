"""报价单编辑: the quote editor opened from an inquiry's detail — a table of line items with live
totals, and 生成报价 which makes the version, its PDF and the reply draft carrying it.

Every figure is the core's (``App.quotes``): a row is checked with the same rules as
``quote new --items-json`` (a row that breaks one shows why, in his language, and is left out
of the totals), and the totals come from ``QuoteService.totals`` — GST 10 % per line, rounded to
the cent — so what he sees here is what the PDF prints. Saving runs on the loop; the reply then
waits in 待审批 like any other draft. 中文预览 renders the same document with Chinese labels
(``QuoteService.preview_file``: nothing stored) and opens it in the system's PDF viewer, since
the customer's PDF is English.

Signals:
    made(int): the reply draft's id, once the version is filed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import QUrl
from PySide6.QtCore import Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QHeaderView
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QTableWidget
from PySide6.QtWidgets import QTableWidgetItem
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import App
from core.app.types import InquiryBridgeError
from core.app.types import LineItem
from core.app.types import aud
from core.app.types import product_keys
from core.app.types import product_name
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.i18n import current_language
from desktop.look import table_look

PRODUCT, DESCRIPTION, WIDTH, HEIGHT, QTY, PRICE, LINE = range(7)


def _fault(message: str) -> str:
    """The fault alone, from the core's one line about item 1 of a one-row check."""
    for prefix in ("第 1 项：", "item 1: "):
        if prefix in message:
            return message.split(prefix, 1)[1]
    return message


def _open_pdf(path: Path) -> bool:
    """The system's PDF viewer (QtPdf is not in this PySide6 build)."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


class QuoteEditor(QDialog):
    made = Signal(int)

    def __init__(self, app: App, inquiry_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.inquiry_id = inquiry_id
        self.setObjectName("quoteEditor")
        self.resize(980, 560)
        self.table = QTableWidget(0, 7)
        table_look(self.table)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(DESCRIPTION, QHeaderView.ResizeMode.Stretch)
        self.table.itemChanged.connect(lambda _item: self.recalculate())
        self.add_button = QPushButton()
        self.remove_button = QPushButton()
        for button in (self.add_button, self.remove_button):
            button.setAutoDefault(False)
        self.add_button.clicked.connect(lambda: self.add_row())
        self.remove_button.clicked.connect(self._remove_row)
        self.preview_button = QPushButton()  # 中文预览: the same PDF with Chinese labels
        self.preview_button.setAutoDefault(False)
        self.preview_button.clicked.connect(lambda: self.preview())
        self.open_pdf: Callable[[Path], bool] = _open_pdf  # tests look at the file instead
        self.totals_label = QLabel()
        self.totals_label.setObjectName("quoteTotals")
        self.problem_label = QLabel()
        self.problem_label.setObjectName("warning")
        self.problem_label.setWordWrap(True)
        self.save_button = QPushButton()
        self.save_button.setObjectName("primary")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(lambda: self.save())
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.reject)
        rows = QHBoxLayout()
        rows.addWidget(self.add_button)
        rows.addWidget(self.remove_button)
        rows.addStretch(1)
        rows.addWidget(self.preview_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.problem_label, 1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addLayout(rows)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.totals_label)
        layout.addLayout(buttons)
        self.items: list[LineItem] = []
        self.task: asyncio.Future[int | None] | None = None
        self.preview_task: asyncio.Future[Path | None] | None = None
        self.retranslate()
        self.add_row()

    # ------------------------------------------------------------------ rows
    def add_row(self, values: dict[str, Any] | None = None) -> int:
        """Append a row (``values`` as in the items JSON); its index."""
        values = values or {}
        row = self.table.rowCount()
        self.table.blockSignals(True)
        self.table.insertRow(row)
        combo = QComboBox()
        for key in product_keys():
            combo.addItem(product_name(key, current_language()), key)
        if values.get("product") in product_keys():
            combo.setCurrentIndex(combo.findData(values["product"]))
        combo.currentIndexChanged.connect(lambda _i: self.recalculate())
        self.table.setCellWidget(row, PRODUCT, combo)
        for column, key in (
            (DESCRIPTION, "description"),
            (WIDTH, "width_mm"),
            (HEIGHT, "height_mm"),
            (QTY, "qty"),
            (PRICE, "unit_price_ex_gst"),
        ):
            value = values.get(key, "")
            if column == PRICE and isinstance(value, int | float):  # a stored price: in cents
                value = f"{value:.2f}"
            self.table.setItem(row, column, QTableWidgetItem(str(value)))
        total = QTableWidgetItem("")
        total.setFlags(total.flags() & ~Qt.ItemFlag.ItemIsEditable)
        self.table.setItem(row, LINE, total)
        self.table.blockSignals(False)
        self.recalculate()
        return row

    def _remove_row(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            row = self.table.rowCount() - 1
        if row >= 0:
            self.table.removeRow(row)
            self.recalculate()

    def _cell(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text().strip() if item is not None else ""

    def raw_rows(self) -> list[dict[str, Any]]:
        """The rows as the items JSON (what ``quote new --items-json`` would read)."""
        out = []
        for row in range(self.table.rowCount()):
            combo = self.table.cellWidget(row, PRODUCT)
            product = combo.currentData() if isinstance(combo, QComboBox) else ""
            out.append(
                {
                    "product": product,
                    "description": self._cell(row, DESCRIPTION),
                    "width_mm": self._cell(row, WIDTH),
                    "height_mm": self._cell(row, HEIGHT),
                    "qty": self._cell(row, QTY),
                    "unit_price_ex_gst": self._cell(row, PRICE),
                }
            )
        return out

    async def prefill(self) -> int:
        """Start from the inquiry's newest version (a new version is usually a change of the
        last one); the number of rows filled (0: the one empty row stays)."""
        versions = await self.app.quotes.rows(self.inquiry_id)
        if not versions:
            return 0
        self.set_rows(versions[-1]["items"])
        return self.table.rowCount()

    def set_rows(self, items: list[dict[str, Any]]) -> None:
        self.table.setRowCount(0)
        for item in items:
            self.add_row(item)

    # ------------------------------------------------------------------ live totals
    def recalculate(self) -> None:
        """Check each row, show its line total, and the totals of the rows that are right."""
        quotes = self.app.quotes
        self.items, problems = [], []
        self.table.blockSignals(True)
        for row, raw in enumerate(self.raw_rows()):
            cell = self.table.item(row, LINE)
            try:
                (item,) = quotes.check_items([raw])
            except InquiryBridgeError as exc:
                if any(raw[k] for k in ("width_mm", "height_mm", "qty", "unit_price_ex_gst")):
                    problems.append(
                        self.tr("Row %1: %2")
                        .replace("%1", str(row + 1))
                        .replace("%2", _fault(exc.user_message(current_language())))
                    )
                if cell is not None:
                    cell.setText("—")
                continue
            self.items.append(item)
            if cell is not None:
                cell.setText(aud(item.money.ex_gst))
        self.table.blockSignals(False)
        t = quotes.totals(self.items, quotes.deposit_percent())
        self.totals_label.setText(
            self.tr("Subtotal ex GST %1 · GST %2 · Total inc GST %3 · Deposit %4% %5")
            .replace("%1", aud(t.subtotal_ex_gst))
            .replace("%2", aud(t.gst))
            .replace("%3", aud(t.total_inc_gst))
            .replace("%4", str(t.deposit_percent))
            .replace("%5", aud(t.deposit_inc_gst))
        )
        self.problem_label.setText("\n".join(problems))
        self.save_button.setEnabled(bool(self.items) and not problems)
        self.preview_button.setEnabled(bool(self.items) and not problems)

    # ------------------------------------------------------------------ preview
    def preview(self) -> asyncio.Future[Path | None]:
        self.preview_task = spawn(self._preview())
        return self.preview_task

    async def _preview(self) -> Path | None:
        """Render the rows as they stand (not filed) in Chinese and open the file."""
        self.preview_button.setEnabled(False)
        try:
            path = await self.app.quotes.preview_file(self.inquiry_id, self.raw_rows(), "zh_CN")
        except Exception as exc:  # one line in his language, the editor stays as it was
            self.problem_label.setText(message_for(exc))
            return None
        finally:
            self.preview_button.setEnabled(bool(self.items))
        self.open_pdf(path)
        return path

    # ------------------------------------------------------------------ save
    def save(self) -> asyncio.Future[int | None]:
        self.save_button.setEnabled(False)
        self.task = spawn(self._save())
        return self.task

    async def _save(self) -> int | None:
        try:
            made = await self.app.quotes.new_from_items(
                self.inquiry_id, self.raw_rows(), actor="owner"
            )
        except Exception as exc:  # one line in his language, the editor stays open
            self.problem_label.setText(message_for(exc))
            self.save_button.setEnabled(True)
            return None
        self.made.emit(made.draft_id)
        self.accept()
        return made.draft_id

    # ------------------------------------------------------------------ language
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Quote"))
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Product"),
                self.tr("Description (the customer reads it)"),
                self.tr("Width mm"),
                self.tr("Height mm"),
                self.tr("Qty"),
                self.tr("Unit price ex GST"),
                self.tr("Line ex GST"),
            ]
        )
        self.add_button.setText(self.tr("Add row"))
        self.remove_button.setText(self.tr("Remove row"))
        self.save_button.setText(self.tr("Make quote and draft the reply"))
        self.save_button.setToolTip(
            self.tr("The PDF goes with a reply draft; nothing is sent until you approve it")
        )
        self.cancel_button.setText(self.tr("Cancel"))
        self.preview_button.setText(self.tr("Preview in Chinese"))
        self.preview_button.setToolTip(
            self.tr(
                "This quote as a PDF with Chinese labels, for you to check; the customer gets "
                "the English one"
            )
        )
        self.recalculate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
