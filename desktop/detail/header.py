"""The detail's header panel: who the customer is, where the inquiry stands, and the actions.

Its strings keep the ``InquiryDetailView`` translation context they had before the detail became a
package of panels, so the catalogues did not change.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import CLOSED_STAGES
from core.app.types import InquiryDetail
from core.app.types import aud
from desktop import text
from desktop.flow import FlowLayout
from desktop.i18n import current_language
from desktop.inert import plain_label


class DetailHeader(QWidget):
    """Title, one-line summary and the action buttons (wired by the view); 打开待审批草稿 shows
    only while a draft of this inquiry waits for approval."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = plain_label()  # the customer's name is his text, shown literally
        self.title.setObjectName("title")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.subtitle = plain_label()
        self.subtitle.setObjectName("muted")
        self.subtitle.setWordWrap(True)
        self.advance_button = QPushButton()
        self.lost_button = QPushButton()
        self.draft_button = QPushButton()
        self.quote_button = QPushButton()  # 报价单: the quote editor
        self.visit_button = QPushButton()  # 上门量尺: free times, confirm (visit_dialog)
        self.drive_button = QPushButton()
        self.approval_button = QPushButton()  # 打开待审批草稿: only while one waits
        self.approval_button.setObjectName("primary")
        self.approval_button.hide()
        # the buttons wrap onto a second line in a narrow pane (the assistant docked) instead of
        # holding the pane ~700 px wide and squeezing the board's columns until they are cut
        actions = FlowLayout()
        for button in (
            self.approval_button,
            self.advance_button,
            self.lost_button,
            self.draft_button,
            self.quote_button,
            self.visit_button,
            self.drive_button,
        ):
            actions.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.subtitle)
        layout.addLayout(actions)

    def show_detail(self, d: InquiryDetail, now: datetime, drafts_note: str = "") -> None:
        """``drafts_note`` is the view's "%n draft(s) waiting" text (a plural lupdate finds there)."""
        self.title.setText(
            d.customer_name
            or d.customer_email
            or QCoreApplication.translate("InquiryDetailView", "(unknown)")
        )
        stage = text.stage_name(d.stage)
        if d.stage not in CLOSED_STAGES:  # the board's count: how long it has sat here
            stage += " " + text.working_days_text(d.days_in_stage(now)).replace(" ", "\u00a0")
        parts = [stage, text.class_name(d.classification)]
        if d.suburb:
            parts.append(d.suburb)
        if d.product_types:
            parts.append(text.products_text(d.product_types, current_language()))
        over = d.overdue_days(now)
        if over:
            # one phrase: a narrow pane wraps before it, never inside "9 d"
            parts.append(("⚠ " + text.overdue_text(over)).replace(" ", "\u00a0"))
        if d.quote_total_inc_gst is not None:
            parts.append(
                QCoreApplication.translate("InquiryDetailView", "Quote %1 inc GST").replace(
                    "%1", aud(d.quote_total_inc_gst)
                )
            )
        if drafts_note:
            parts.append(drafts_note)
        self.subtitle.setText(" · ".join(parts))
        self._enable_actions(d)

    def _enable_actions(self, d: InquiryDetail) -> None:
        open_stage = d.stage not in CLOSED_STAGES
        self.advance_button.setEnabled(d.stage != "lost")
        self.lost_button.setEnabled(open_stage)
        self.draft_button.setEnabled(bool(d.customer_email))
        self.quote_button.setEnabled(bool(d.customer_email) and open_stage)
        self.visit_button.setEnabled(open_stage)
        self.drive_button.setEnabled(bool(d.drive_web_url))
        self.approval_button.setVisible(bool(d.pending_drafts))
        self.drive_button.setToolTip(
            d.drive_folder_name
            or QCoreApplication.translate("InquiryDetailView", "No OneDrive folder linked yet")
        )

    def retranslate(self) -> None:
        self.advance_button.setText(
            QCoreApplication.translate("InquiryDetailView", "Advance stage")
        )
        self.lost_button.setText(QCoreApplication.translate("InquiryDetailView", "Mark lost"))
        self.draft_button.setText(QCoreApplication.translate("InquiryDetailView", "Draft reply"))
        self.quote_button.setText(QCoreApplication.translate("InquiryDetailView", "Quote…"))
        self.quote_button.setToolTip(
            QCoreApplication.translate(
                "InquiryDetailView",
                "Line items with live totals; the PDF goes with a reply you approve",
            )
        )
        self.visit_button.setText(QCoreApplication.translate("InquiryDetailView", "Visit…"))
        self.visit_button.setToolTip(
            QCoreApplication.translate(
                "InquiryDetailView",
                "Free measuring times from your calendar; confirm one and the customer's "
                "confirmation waits for your approval",
            )
        )
        self.approval_button.setText(
            QCoreApplication.translate("InquiryDetailView", "Open the waiting draft")
        )
        self.drive_button.setText(
            QCoreApplication.translate("InquiryDetailView", "Open OneDrive folder")
        )
        self.draft_button.setToolTip(
            QCoreApplication.translate(
                "InquiryDetailView",
                "Write the reply in Chinese; you approve the English before anything is sent",
            )
        )
