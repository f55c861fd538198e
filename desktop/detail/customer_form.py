"""The detail's customer panel: the editable fields, products, sizes and class, with save/undo.

Edits stay in the form (``dirty``) until the owner saves or undoes them; the view saves through
the facade and refills the form only when it is not dirty, so a refresh never loses typing. Its
strings keep the ``InquiryDetailView`` translation context they had before the split.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import InquiryDetail
from core.app.types import display_phone
from core.app.types import product_keys
from core.app.types import product_name
from desktop import text
from desktop.i18n import current_language

TEXT_FIELDS = ("customer_name", "customer_email", "customer_phone", "address", "suburb")


class CustomerForm(QWidget):
    """The customer tab; the view wires ``save_button`` and ``revert_button`` (it holds the detail)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dirty = False
        self.fields: dict[str, QLineEdit] = {}
        self.field_labels: dict[str, QLabel] = {}
        self.product_actions: dict[str, QAction] = {}
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name in TEXT_FIELDS:
            edit = QLineEdit()
            edit.textEdited.connect(self._mark_dirty)
            self.fields[name] = edit
            label = QLabel()
            self.field_labels[name] = label
            form.addRow(label, edit)
        self._add_products_row(form)
        self._add_dimensions_and_class_rows(form)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(self._save_row())
        layout.addStretch(1)

    def _add_products_row(self, form: QFormLayout) -> None:
        self.products_button = QToolButton()
        self.products_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.products_button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.products_menu = QMenu(self.products_button)
        for key in product_keys():
            action = QAction(self.products_menu)
            action.setCheckable(True)
            action.setData(key)
            action.toggled.connect(self._products_toggled)
            self.products_menu.addAction(action)
            self.product_actions[key] = action
        self.products_button.setMenu(self.products_menu)
        self.field_labels["product_types"] = QLabel()
        form.addRow(self.field_labels["product_types"], self.products_button)

    def _add_dimensions_and_class_rows(self, form: QFormLayout) -> None:
        self.dimensions = QPlainTextEdit()
        self.dimensions.setFixedHeight(64)
        self.dimensions.textChanged.connect(self._dimensions_changed)
        self.field_labels["dimensions"] = QLabel()
        form.addRow(self.field_labels["dimensions"], self.dimensions)
        self.class_combo = QComboBox()
        for key in ("A", "B", "C"):
            self.class_combo.addItem(key, key)
        self.class_combo.activated.connect(self._mark_dirty)
        self.field_labels["classification"] = QLabel()
        form.addRow(self.field_labels["classification"], self.class_combo)

    def _save_row(self) -> QHBoxLayout:
        self.save_button = QPushButton()
        self.revert_button = QPushButton()
        save_row = QHBoxLayout()
        save_row.addStretch(1)
        save_row.addWidget(self.revert_button)
        save_row.addWidget(self.save_button)
        return save_row

    # ------------------------------------------------------------------ values

    def fill(self, d: InquiryDetail) -> None:
        """Show the stored values (drops unsaved edits)."""
        for name, edit in self.fields.items():
            value = getattr(d, name) or ""
            # shown as he dials it (0401 998 213); saving stores E.164 again
            edit.setText(display_phone(value) if name == "customer_phone" else value)
        for key, action in self.product_actions.items():
            action.blockSignals(True)
            action.setChecked(key in d.product_types)
            action.blockSignals(False)
        self.dimensions.blockSignals(True)
        self.dimensions.setPlainText("\n".join(d.dimensions))
        self.dimensions.blockSignals(False)
        self.class_combo.setCurrentIndex(max(0, self.class_combo.findData(d.classification)))
        self.update_products_button()
        self.set_dirty(False)

    def selected_products(self) -> list[str]:
        return [k for k, a in self.product_actions.items() if a.isChecked()]

    def form_values(self) -> dict[str, str | list[str]]:
        """The form's fields by name: text, or a list (``product_types``, ``dimensions``)."""
        values: dict[str, str | list[str]] = {
            name: edit.text() for name, edit in self.fields.items()
        }
        values["product_types"] = self.selected_products()
        values["dimensions"] = [
            line.strip() for line in self.dimensions.toPlainText().splitlines() if line.strip()
        ]
        values["classification"] = self.class_combo.currentData()
        return values

    # ------------------------------------------------------------------ dirty state

    def _mark_dirty(self, *_: Any) -> None:
        self.set_dirty(True)

    def set_dirty(self, dirty: bool) -> None:
        self.dirty = dirty
        self.save_button.setEnabled(dirty)
        self.revert_button.setEnabled(dirty)

    def _dimensions_changed(self) -> None:
        self.set_dirty(True)

    def _products_toggled(self, _checked: bool) -> None:
        self.update_products_button()
        self.set_dirty(True)

    def update_products_button(self) -> None:
        keys = self.selected_products()
        self.products_button.setText(
            text.products_text(keys, current_language())
            or QCoreApplication.translate("InquiryDetailView", "(choose products)")
        )

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        labels = {
            "customer_name": QCoreApplication.translate("InquiryDetailView", "Name"),
            "customer_email": QCoreApplication.translate("InquiryDetailView", "Email"),
            "customer_phone": QCoreApplication.translate("InquiryDetailView", "Phone"),
            "address": QCoreApplication.translate("InquiryDetailView", "Address"),
            "suburb": QCoreApplication.translate("InquiryDetailView", "Suburb"),
            "product_types": QCoreApplication.translate("InquiryDetailView", "Products"),
            "dimensions": QCoreApplication.translate("InquiryDetailView", "Sizes"),
            "classification": QCoreApplication.translate("InquiryDetailView", "Class"),
        }
        for name, label in self.field_labels.items():
            label.setText(labels[name])
        for i, key in enumerate(("A", "B", "C")):
            self.class_combo.setItemText(i, text.class_name(key))
        for key, action in self.product_actions.items():
            action.setText(product_name(key, current_language()))
        self.fields["customer_phone"].setPlaceholderText(
            QCoreApplication.translate("InquiryDetailView", "any format, e.g. 0412 345 678")
        )
        self.dimensions.setPlaceholderText(
            QCoreApplication.translate("InquiryDetailView", "one size per line, e.g. 2400 x 2100")
        )
        self.save_button.setText(QCoreApplication.translate("InquiryDetailView", "Save changes"))
        self.revert_button.setText(QCoreApplication.translate("InquiryDetailView", "Undo changes"))
        self.update_products_button()
