"""One wrapper for the owner's actions: run, show that it runs, show how it failed, say what changed.

Modelled on Anki's ``CollectionOp`` + ``OpChanges`` (``qt/aqt/operations/__init__.py``): each
button that changes the store (approve, send, discard, revise, save edits, move a stage, save a
customer's fields) builds an ``Operation`` around one facade coroutine instead of writing its own
busy state, error box and refresh. The coroutine runs as a task on the qasync loop; the facade
does its store and network work on ``core.tasks``' lanes, so the UI thread only waits, never
blocks. While it runs, its ``Feedback`` shows it (a window's status line and progress bar, or a
busy cursor); a failure is shown one way, in the owner's language (``errors_ui.message_for``,
with 打开 AI 设置 when no model is set up); on success the ``OpChanges`` it names are broadcast
on the hub, so the board re-reads the rows it changed and nothing else.

    await Operation(self, lambda: inquiries.advance_stage(...), hub=ctx.hub,
                    changes=OpChanges(frozenset({inquiry_id}), stages=True)).run()
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from collections.abc import Callable
from typing import Generic
from typing import Protocol
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QProgressBar
from PySide6.QtWidgets import QWidget

from desktop import ai_needed
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.errors_ui import show_error
from desktop.hub import OpChanges
from desktop.hub import SignalHub
from desktop.look import set_tone

T = TypeVar("T")


class Feedback(Protocol):
    """Where an operation shows that it runs, and how it failed."""

    def busy(self, message: str) -> None: ...

    def idle(self) -> None: ...

    def failed(self, exc: BaseException) -> None: ...


class DialogFeedback:
    """For a view without a status line: a busy cursor while it runs, an error box after."""

    def __init__(self, parent: QWidget | None) -> None:
        self.parent = parent
        self._cursor = False

    def busy(self, message: str) -> None:
        if not self._cursor:
            QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
            self._cursor = True

    def idle(self) -> None:
        if self._cursor:
            QGuiApplication.restoreOverrideCursor()
            self._cursor = False

    def failed(self, exc: BaseException) -> None:
        show_error(self.parent, exc)


class StatusLine:
    """A window's progress bar and status label as an operation's ``Feedback``; ``on_busy``
    is told when the window's buttons must follow (disabled while it runs)."""

    def __init__(
        self, progress: QProgressBar, label: QLabel, on_busy: Callable[[], None] | None = None
    ) -> None:
        self.progress = progress
        self.label = label
        self.on_busy = on_busy
        self.is_busy = False

    def busy(self, message: str) -> None:
        self._set(True, message)

    def idle(self, message: str = "") -> None:
        self._set(False, message)

    def _set(self, busy: bool, message: str) -> None:
        self.is_busy = busy
        self.progress.setVisible(busy)
        if message:
            set_tone(self.label, "")
            self.label.setText(message)
        if self.on_busy is not None:
            self.on_busy()

    def failed(self, exc: BaseException) -> None:
        self.error(message_for(exc))
        if ai_needed.not_configured(exc):  # 重新翻译 / 修改 without a model: the way to one
            ai_needed.offer(self.label.window())

    def error(self, text: str) -> None:
        """A refusal the window itself words (not an exception): shown like a failure."""
        set_tone(self.label, "error")
        self.label.setText(text)

    def ok(self, text: str) -> None:
        set_tone(self.label, "ok")
        self.label.setText(text)


class Operation(Generic[T]):
    """One owner action: ``op`` awaited with ``feedback`` around it, ``changes`` broadcast after.

    ``changes`` may be a function of the result (a revise names the new draft). ``run`` returns
    the result, or None when it failed; ``error`` then holds the exception (already shown).
    """

    def __init__(
        self,
        parent: QWidget | None,
        op: Callable[[], Awaitable[T]],
        *,
        hub: SignalHub | None,
        changes: OpChanges | Callable[[T], OpChanges] = OpChanges(),  # noqa: B008 (frozen)
        busy: str = "",
        feedback: Feedback | None = None,
    ) -> None:
        self.parent = parent
        self.op = op
        self.hub = hub
        self.what_changed = changes
        self.busy_text = busy
        self.feedback: Feedback = feedback if feedback is not None else DialogFeedback(parent)
        self.error: BaseException | None = None
        self._success: list[Callable[[T], object]] = []
        self._failure: list[Callable[[BaseException], object]] = []

    def success(self, callback: Callable[[T], object]) -> Operation[T]:
        self._success.append(callback)
        return self

    def failure(self, callback: Callable[[BaseException], object]) -> Operation[T]:
        self._failure.append(callback)
        return self

    async def run(self) -> T | None:
        self.feedback.busy(self.busy_text)
        try:
            result = await self.op()
        except asyncio.CancelledError:
            self.feedback.idle()
            raise
        except Exception as exc:
            self.error = exc
            self.feedback.idle()
            self.feedback.failed(exc)
            for on_failure in self._failure:
                on_failure(exc)
            return None
        self.feedback.idle()
        if self.hub is not None:
            changes = (
                self.what_changed(result) if callable(self.what_changed) else self.what_changed
            )
            self.hub.broadcast(changes, self.parent)
        for on_success in self._success:
            on_success(result)
        return result

    def run_in_background(self) -> asyncio.Future[T | None]:
        return spawn(self.run())
