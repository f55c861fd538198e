"""The two small dialogs of the detail's stage actions (advance, mark lost)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import STAGES
from core.app.types import next_stage
from desktop import text


class StageDialog(QDialog):
    """Choose the next stage and say why (the reason goes into the audit trail)."""

    def __init__(self, current: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Advance stage"))
        self.stage = QComboBox()
        for stage in STAGES:
            if stage != current:
                self.stage.addItem(text.stage_name(stage), stage)
        suggested = next_stage(current)
        if suggested is not None:
            self.stage.setCurrentIndex(max(0, self.stage.findData(suggested)))
        self.reason = QLineEdit()
        self.reason.setPlaceholderText(self.tr("e.g. measured on site, quote sent"))
        form = QFormLayout()
        form.addRow(self.tr("Current stage"), QLabel(text.stage_name(current)))
        form.addRow(self.tr("New stage"), self.stage)
        form.addRow(self.tr("Reason"), self.reason)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.reason.textChanged.connect(lambda t: self._ok.setEnabled(bool(t.strip())))
        self._ok.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)


class ReasonDialog(QDialog):
    """Mark lost: a reason is required (why we lost it is worth knowing later)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Mark as lost"))
        self.reason = QLineEdit()
        self.reason.setPlaceholderText(self.tr("e.g. chose another supplier, price too high"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.reason.textChanged.connect(lambda t: ok.setEnabled(bool(t.strip())))
        ok.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Why was this inquiry lost?")))
        layout.addWidget(self.reason)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)
