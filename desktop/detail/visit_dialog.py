"""上门量尺: the measuring visit dialog opened from an inquiry's detail -- three free times from
his calendar, one click to confirm.

What it shows is the core's (``App.rhythm.visits``): the times waiting for his word (proposed by
him, the assistant or this dialog), or three new ones found in his calendar (Outlook when he has
a Microsoft account, else the visits booked in the app), on NSW working days with room to drive.
确认 books the chosen time through the same ``confirm`` as the Telegram button: a time another
visit took or that clashes is refused in one line, and the customer's confirmation waits in
待审批 like every draft.

Signals:
    confirmed(int): the inquiry's id, once a visit is booked.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QButtonGroup
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QRadioButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import App
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.look import set_tone

if TYPE_CHECKING:
    from core.app.types import VisitConfirmed
    from core.app.types import VisitProposal


class VisitDialog(QDialog):
    confirmed = Signal(int)

    def __init__(self, app: App, inquiry_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.inquiry_id = inquiry_id
        self.setObjectName("visitDialog")
        self.proposal: VisitProposal | None = None
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.choices = QButtonGroup(self)
        self.times = QVBoxLayout()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.find_button = QPushButton()
        self.find_button.setAutoDefault(False)
        self.find_button.clicked.connect(lambda: spawn(self.find_free()))
        self.confirm_button = QPushButton()
        self.confirm_button.setObjectName("primary")
        self.confirm_button.setDefault(True)
        self.confirm_button.setEnabled(False)
        self.confirm_button.clicked.connect(lambda: spawn(self.confirm()))
        self.close_button = QPushButton()
        self.close_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.find_button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        buttons.addWidget(self.confirm_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(self.times)
        layout.addWidget(self.status)
        layout.addStretch(1)
        layout.addLayout(buttons)
        self.task: asyncio.Future[object] | None = None
        self.retranslate()

    # ------------------------------------------------------------------ the times
    async def prefill(self) -> None:
        """The times waiting for his word, else three free ones from his calendar."""
        try:
            proposal = await self.app.rhythm.visits.pending(self.inquiry_id)
        except Exception as exc:
            self._fail(exc)
            return
        if proposal is None:
            await self.find_free()
        else:
            self.show_times(proposal)

    async def find_free(self) -> None:
        """三个空档: free times from his calendar (they replace the ones shown)."""
        self.find_button.setEnabled(False)
        self.status.setText(self.tr("Looking at your calendar…"))
        set_tone(self.status, "muted")
        try:
            self.show_times(await self.app.rhythm.visits.propose_free(self.inquiry_id))
            self.status.setText("")
        except Exception as exc:
            self._fail(exc)
        finally:
            self.find_button.setEnabled(True)

    def show_times(self, proposal: VisitProposal) -> None:
        self.proposal = proposal
        for button in self.choices.buttons():
            self.choices.removeButton(button)
            self.times.removeWidget(button)
            button.deleteLater()
        for index, iso in enumerate(proposal.times):
            button = QRadioButton(self._when(iso))
            button.setProperty("iso", iso)
            self.choices.addButton(button, index)
            self.times.addWidget(button)
        if self.choices.buttons():
            self.choices.buttons()[0].setChecked(True)
        self.confirm_button.setEnabled(bool(self.choices.buttons()))

    def chosen(self) -> str | None:
        button = self.choices.checkedButton()
        return str(button.property("iso")) if button is not None else None

    # ------------------------------------------------------------------ confirming
    async def confirm(self) -> VisitConfirmed | None:
        """Book the chosen time; the outcome in the status line."""
        start = self.chosen()
        if start is None:
            return None
        self.confirm_button.setEnabled(False)
        try:
            done = await self.app.rhythm.visits.confirm(self.inquiry_id, start)
        except Exception as exc:
            self._fail(exc)
            self.confirm_button.setEnabled(True)
            return None
        self.status.setText(self._done_text(done))
        set_tone(self.status, "ok")
        self.confirmed.emit(self.inquiry_id)
        return done

    def _done_text(self, done: VisitConfirmed) -> str:
        when = self._when(done.start)
        if done.already:
            return self.tr("Already booked for %1; nothing was booked twice.").replace("%1", when)
        where = (
            self.tr("It is in your Outlook calendar.")
            if done.event_id
            else self.tr("It is in the app's calendar.")
        )
        text = self.tr("Booked: %1.").replace("%1", when) + " " + where
        if done.draft_id is not None:
            text += " " + self.tr(
                "The confirmation email to the customer waits in Approvals (draft #%1)."
            ).replace("%1", str(done.draft_id))
        return text

    def _when(self, iso: str) -> str:
        """``2026-12-03 (Thu) 10:00`` in the UI language."""
        moment = datetime.fromisoformat(iso)
        days = (
            self.tr("Mon"), self.tr("Tue"), self.tr("Wed"), self.tr("Thu"), self.tr("Fri"),
            self.tr("Sat"), self.tr("Sun"),
        )  # fmt: skip
        return (
            self.tr("%1 (%2) %3")
            .replace("%1", f"{moment:%Y-%m-%d}")
            .replace("%2", days[moment.weekday()])
            .replace("%3", f"{moment:%H:%M}")
        )

    def _fail(self, exc: BaseException) -> None:
        self.status.setText(message_for(exc))
        set_tone(self.status, "error")

    # ------------------------------------------------------------------ language
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Measure visit"))
        self.heading.setText(
            self.tr(
                "Free times in your calendar (working days, with time to drive). Choose one "
                "and confirm: the visit is booked and a confirmation email waits for your "
                "approval."
            )
        )
        self.find_button.setText(self.tr("Find free times"))
        self.confirm_button.setText(self.tr("Confirm this time"))
        self.close_button.setText(self.tr("Close"))
        for button in self.choices.buttons():
            button.setText(self._when(str(button.property("iso"))))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
