"""The detail's stage-history panel: every stage move, when, why and by whom."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTreeWidget
from PySide6.QtWidgets import QTreeWidgetItem
from PySide6.QtWidgets import QWidget

from core.app.types import InquiryDetail
from desktop import text


class HistoryPanel(QTreeWidget):
    """One row per stage event (strings keep the ``InquiryDetailView`` translation context)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRootIsDecorated(False)
        self.setColumnCount(5)
        self.setWordWrap(True)

    def show_detail(self, d: InquiryDetail) -> None:
        self.clear()
        for e in d.stage_events:
            QTreeWidgetItem(
                self,
                [
                    text.local_time(e.at),
                    text.stage_name(e.from_stage),
                    text.stage_name(e.to_stage),
                    e.reason,
                    text.trigger_name(e.triggered_by),
                ],
            )
        for column, width in enumerate((130, 80, 80, 220)):
            self.setColumnWidth(column, width)

    def retranslate(self) -> None:
        self.setHeaderLabels(
            [
                QCoreApplication.translate("InquiryDetailView", "Time"),
                QCoreApplication.translate("InquiryDetailView", "From"),
                QCoreApplication.translate("InquiryDetailView", "To"),
                QCoreApplication.translate("InquiryDetailView", "Reason"),
                QCoreApplication.translate("InquiryDetailView", "By"),
            ]
        )
