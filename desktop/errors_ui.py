"""Errors the owner sees: logged in full, shown as one Chinese (or English) dialog, never fatal.

Three routes lead here: ``sys.excepthook`` (an exception in a Qt slot), the asyncio loop's
exception handler (a failed task or callback on the qasync loop), and ``desktop.aio.spawn``'s
failure path. Each logs the traceback to the rotating log and shows a message box built from the
error's ``code`` through ``tr()``; unknown errors get a generic message plus the log folder.
A burst of the same error shows one dialog, not fifty.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
import traceback
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QWidget

from core.app.types import InquiryBridgeError
from core.app.types import detail_in
from core.app.types import own_sentence
from desktop import ai_needed
from desktop import aio
from desktop.i18n import current_language

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QPushButton

    from core.app.types import RepairReport

log = logging.getLogger(__name__)


def _local_templates() -> dict[str, str]:
    """Messages of errors on this computer (settings, data, files, the AI), by code."""
    return {
        "config": QCoreApplication.translate("Errors", "Settings problem: %1"),
        "bad_input": QCoreApplication.translate("Errors", "Bad input: %1"),
        "quote_state": QCoreApplication.translate("Errors", "Quote not possible: %1"),
        "secret_store": QCoreApplication.translate(
            "Errors", "The system keyring is unavailable, secrets cannot be stored: %1"
        ),
        "store": QCoreApplication.translate("Errors", "The database cannot be opened: %1"),
        "store_damaged": QCoreApplication.translate(
            "Errors",
            "The database is damaged. Click Repair to restore the latest backup and "
            "re-read the saved mail: %1",
        ),
        "store_busy": QCoreApplication.translate(
            "Errors",
            "The database is busy: another Inquiry Bridge process is writing; try again "
            "shortly (nothing was lost): %1",
        ),
        "data_folder": QCoreApplication.translate(
            "Errors",
            "The data folder cannot be used; check that it exists and is writable: %1",
        ),
        "disk_full": QCoreApplication.translate(
            "Errors", "The disk is full; free some space and start again (no mail was lost): %1"
        ),
        "store_url": QCoreApplication.translate(
            "Errors",
            "The database URL is wrong (expected postgresql+psycopg://USER@HOST:PORT/DB); "
            "nothing was changed: %1",
        ),
        "store_unreachable": QCoreApplication.translate(
            "Errors",
            "No database server answers; check the host, port and network. Nothing was changed: %1",
        ),
        "store_auth": QCoreApplication.translate(
            "Errors",
            "The database server refused the user name or password; nothing was changed: %1",
        ),
        "store_foreign": QCoreApplication.translate(
            "Errors",
            "This database holds another application's data; nothing was changed: %1",
        ),
        "store_newer": QCoreApplication.translate(
            "Errors",
            "This database was made by a newer Inquiry Bridge; update this program first. "
            "Nothing was changed: %1",
        ),
        "parse": QCoreApplication.translate("Errors", "Malformed email: %1"),
        "llm": QCoreApplication.translate("Errors", "AI service error: %1"),
        "llm_unavailable": QCoreApplication.translate(
            "Errors", "Cannot reach the AI service; check the endpoint and key in Settings: %1"
        ),
        "llm_not_configured": ai_needed.sentence(),
        "llm_schema": QCoreApplication.translate(
            "Errors", "The AI answer broke its format; it will be retried: %1"
        ),
    }


def _service_templates() -> dict[str, str]:
    """Messages of errors of the services (Microsoft, drafts, voice, Telegram), by code."""
    return {
        "graph": QCoreApplication.translate("Errors", "Microsoft 365 error: %1"),
        "graph_auth": QCoreApplication.translate("Errors", "Please sign in to Microsoft again: %1"),
        "throttled": QCoreApplication.translate("Errors", "Microsoft is busy; retrying later: %1"),
        "not_found": QCoreApplication.translate("Errors", "Not found: %1"),
        "bad_file": QCoreApplication.translate("Errors", "Cannot use the file: %1"),
        "not_signed_in": QCoreApplication.translate(
            "Errors",
            "Not signed in to Microsoft yet: sign in first (Settings → Microsoft account) %1",
        ),
        "no_ms_app": QCoreApplication.translate(
            "Errors",
            "No Microsoft app id yet: follow the steps on this page to register the app in "
            "Azure and enter its id.",
        ),
        "sign_in_network": QCoreApplication.translate(
            "Errors",
            "Cannot reach Microsoft's sign-in server. Check the network (or proxy), then "
            "press Sign in with Microsoft again.",
        ),
        "sync_expired": QCoreApplication.translate(
            "Errors", "Sync state expired; starting a full sync %1"
        ),
        "ambiguous_write": QCoreApplication.translate(
            "Errors",
            "Network dropped; cannot tell whether it went through, stopped to avoid a duplicate: %1",
        ),
        "draft_state": QCoreApplication.translate("Errors", "Not allowed in the draft's state: %1"),
        "unconfirmed_facts": QCoreApplication.translate(
            "Errors", "The draft has unconfirmed facts; confirm or edit them first: %1"
        ),
        "transcription": QCoreApplication.translate("Errors", "Transcription failed: %1"),
        "model_download": QCoreApplication.translate("Errors", "Voice model download failed: %1"),
        "model_import": QCoreApplication.translate("Errors", "Cannot import the voice model: %1"),
        "audio_device": QCoreApplication.translate(
            "Errors", "No microphone available or permission denied: %1"
        ),
        "telegram": QCoreApplication.translate("Errors", "Telegram error: %1"),
        "error": QCoreApplication.translate("Errors", "Something went wrong: %1"),
    }


def _llm_templates() -> dict[str, str]:
    """A configured AI endpoint that fails: one sentence with the cause, no technical detail."""
    return {
        "llm_address": QCoreApplication.translate(
            "Errors",
            "Cannot reach the AI service: the address is wrong or the server is not "
            "running; check the address in Settings → AI model",
        ),
        "llm_key": QCoreApplication.translate(
            "Errors",
            "The AI service refused the key: it is wrong or expired; enter it again in "
            "Settings → AI model",
        ),
        "llm_model": QCoreApplication.translate(
            "Errors",
            "The AI service does not know this model name; check the model names in "
            "Settings → AI model",
        ),
        "llm_unsupported": QCoreApplication.translate(
            "Errors",
            "This model does not support what the app needs; pick another model, or press "
            "Test connection in Settings → AI model",
        ),
        "llm_context": QCoreApplication.translate(
            "Errors",
            "This conversation is longer than the model can read at once, even shortened; give "
            "the model server a larger context (e.g. llama.cpp -c 8192) or pick another model",
        ),
        "llm_busy": QCoreApplication.translate(
            "Errors", "The AI service is busy (too many requests); it will be retried later"
        ),
        "llm_down": QCoreApplication.translate(
            "Errors",
            "The AI service is failing or not answering right now; it will be retried later",
        ),
    }


def _mailbox_templates() -> dict[str, str]:
    """The IMAP/SMTP mailbox's errors (``core.errors.MailboxError`` and its children)."""
    return {
        "mailbox": QCoreApplication.translate("Errors", "Mail server error: %1"),
        "mail_auth": QCoreApplication.translate(
            "Errors",
            "The mail password was refused: check the user name and use the app password "
            "(authorisation code) from the mailbox settings, not the web login password (%1)",
        ),
        "mail_disabled": QCoreApplication.translate(
            "Errors",
            "IMAP/SMTP is not enabled for this mailbox: turn it on in the webmail settings "
            "and try again (%1)",
        ),
        "mail_network": QCoreApplication.translate(
            "Errors",
            "Cannot reach the mail server: check the network, server name and port (%1)",
        ),
        "mail_no_password": QCoreApplication.translate(
            "Errors",
            "No mail app password yet: enter it in Settings → Other mailbox, or set "
            "INQUIRY_BRIDGE_MAIL_PASSWORD%1",
        ),
        "mail_slow": QCoreApplication.translate(
            "Errors",
            "The incoming mail (IMAP) server is too slow (%1). This round stopped; mail already "
            "received is kept, and it is tried again later",
        ),
        "mail_hostile": QCoreApplication.translate(
            "Errors",
            "The incoming mail (IMAP) server answered beyond what the app accepts (%1). "
            "Disconnected; mail already received is kept. If this keeps happening, ask the "
            "mail provider",
        ),
        "mail_insecure": QCoreApplication.translate(
            "Errors",
            "Refusing a plain-text connection to the mail server (the password could be "
            "read): use SSL or STARTTLS (%1)",
        ),
    }


def message_for(exc: BaseException) -> str:
    """The owner's words for an error, in the current UI language (a full disk or read-only
    folder met by a database write reads as that, not as SQLAlchemy's text)."""
    from core.app import explain_error

    exc = explain_error(exc)
    lang = current_language()
    detail = detail_in(str(getattr(exc, "detail", "") or exc), lang)  # "中文 / English": his half
    sentence = own_sentence(exc, lang)
    if sentence:
        # a connection failure: core's sentence names the server (收信 IMAP / 发信 SMTP /
        # Microsoft), what happened and what to do (core.errors.CAUSES), in his language
        return sentence
    if isinstance(exc, InquiryBridgeError):
        templates = {
            **_local_templates(),
            **_llm_templates(),
            **_service_templates(),
            **_mailbox_templates(),
        }
        template = templates.get(exc.code, templates["error"])
        return template.replace("%1", detail).strip()
    return QCoreApplication.translate("Errors", "Unexpected error: %1").replace(
        "%1", f"{type(exc).__name__}: {detail}"
    )


_open_boxes: set[QMessageBox] = set()


def _keep(box: QMessageBox) -> None:
    """A parentless box is owned by Python: keep it alive until the owner closes it."""
    _open_boxes.add(box)
    box.finished.connect(lambda _r, b=box: _open_boxes.discard(b))


def show_error(parent: QWidget | None, exc: BaseException) -> QMessageBox:
    if ai_needed.not_configured(exc):  # no endpoint: say so, with 打开 AI 设置
        return ai_needed.offer(parent)
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(QCoreApplication.translate("Errors", "Inquiry Bridge"))
    box.setText(message_for(exc))
    box.setAttribute(_delete_on_close())
    _keep(box)
    box.open()
    return box


def _delete_on_close() -> Qt.WidgetAttribute:
    from PySide6.QtCore import Qt

    return Qt.WidgetAttribute.WA_DeleteOnClose


class ErrorReporter:
    """Installed once by the app: every unexpected error is logged and shown, rate-limited."""

    def __init__(
        self, log_folder: Path, parent_getter: Callable[[], QWidget | None] | None = None
    ) -> None:
        self.log_folder = log_folder
        self.parent_getter = parent_getter or (lambda: None)
        self._last: dict[str, float] = {}
        self.shown: list[str] = []

    def report(self, exc: BaseException) -> None:
        if isinstance(exc, InquiryBridgeError):
            log.warning("error shown to the owner: %s", exc, exc_info=exc)
        else:
            log.error("unexpected error", exc_info=exc)
        if QApplication.instance() is None:
            return
        key = f"{type(exc).__name__}:{exc}"
        now = time.monotonic()
        if now - self._last.get(key, -1e9) < 10:
            return
        self._last[key] = now
        if ai_needed.not_configured(exc):
            self.shown.append(ai_needed.sentence())
            ai_needed.offer(self.parent_getter())
            return
        from core.app import explain_error

        message = message_for(exc)
        if not isinstance(explain_error(exc), InquiryBridgeError):
            message += "\n\n" + QCoreApplication.translate(
                "Errors", "Details were written to the log in %1"
            ).replace("%1", str(self.log_folder))
        self.shown.append(message)
        box = QMessageBox(self.parent_getter())
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle(QCoreApplication.translate("Errors", "Inquiry Bridge"))
        box.setText(message)
        box.setAttribute(_delete_on_close())
        _keep(box)
        box.open()

    def excepthook(
        self, etype: type[BaseException], value: BaseException, tb: TracebackType | None
    ) -> None:
        if issubclass(etype, KeyboardInterrupt):
            sys.__excepthook__(etype, value, tb)
            return
        if value.__traceback__ is None and tb is not None:
            value = value.with_traceback(tb)
        log.debug("".join(traceback.format_exception(etype, value, tb)))
        self.report(value)

    def loop_handler(self, loop: asyncio.AbstractEventLoop, context: Mapping[str, object]) -> None:
        """asyncio's exception handler: ``context`` is the loop's, whose ``exception`` (when
        there is one) is an exception; a context without one is only logged."""
        exc = context.get("exception")
        if not isinstance(exc, BaseException):
            log.error("event loop: %s", context.get("message"))
            return
        self.report(exc)

    def install(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        sys.excepthook = self.excepthook
        aio.set_error_reporter(self.report)
        if loop is not None:
            loop.set_exception_handler(self.loop_handler)


def startup_error_box(exc: BaseException) -> tuple[QMessageBox, QPushButton | None]:
    """The dialog for an error that stops the app before its window: the owner's sentence and,
    for a damaged database, a Repair button. Returns the box and that button (or None)."""
    box = QMessageBox()
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle(QCoreApplication.translate("Errors", "Inquiry Bridge"))
    box.setText(message_for(exc))
    repair = None
    if getattr(exc, "code", "") == "store_damaged":
        repair = box.addButton(
            QCoreApplication.translate("Errors", "Repair"), QMessageBox.ButtonRole.AcceptRole
        )
        box.setDefaultButton(repair)
    box.addButton(QCoreApplication.translate("Errors", "Close"), QMessageBox.ButtonRole.RejectRole)
    return box, repair


def ask_startup_repair(exc: BaseException) -> bool:
    """Show ``startup_error_box`` modally; True when the owner chose Repair."""
    box, repair = startup_error_box(exc)
    box.exec()
    return repair is not None and box.clickedButton() is repair


def repair_report_box(report: RepairReport) -> QMessageBox:
    """What ``repair`` restored and what it could not, item by item, in the UI's language."""
    from desktop.i18n import current_language

    box = QMessageBox()
    box.setIcon(QMessageBox.Icon.Information if report.complete else QMessageBox.Icon.Warning)
    box.setWindowTitle(QCoreApplication.translate("Errors", "Repair finished"))
    box.setText(
        QCoreApplication.translate(
            "Errors", "The database was repaired. What came back, and anything that could not:"
        )
    )
    box.setInformativeText(report.text(current_language()))
    box.addButton(QCoreApplication.translate("Errors", "Close"), QMessageBox.ButtonRole.AcceptRole)
    return box


def show_repair_report(report: RepairReport) -> None:
    """Show ``repair_report_box`` modally."""
    repair_report_box(report).exec()
