"""Whisper in a child process, so the app's event loop never loads faster-whisper itself.

Why a process and not the worker thread: the first transcription imports faster-whisper, which
loads CTranslate2, onnxruntime and numpy's native libraries. CPython holds the GIL through
``dlopen`` and extension init, so running that import on a worker thread still froze the asyncio
(Telegram) and Qt (dictation) loops: 134–174 ms with a cold disk cache (#28). A spawned child
(``spawn``, never ``fork``: the parent has threads and a Qt loop) pays those imports and the
model load on its own interpreter; the parent only pickles requests over a pipe.

What lives here:
- ``WhisperProcess``: the one child of an ``App`` (started on first use, kept warm for the next
  note, shut down by ``close``). A reader thread turns the child's replies into ``Future``
  results and progress/partial callbacks (called from that thread, as the worker thread did).
  If the child dies (killed, out of memory, a native crash), every request it held fails with
  one Chinese ``TranscriptionError`` (``CRASHED``) and the next request starts a fresh child.
- ``RemoteTranscriber`` and ``RemoteLiveDictation``: the parts of ``Transcriber`` and
  ``LiveDictation`` the front ends use (``submit``, ``warm_up``, ``multilingual``; ``feed``,
  ``finish``, ``cancel``), over that child. The real ``Transcriber``/``LiveDictation`` run inside
  it unchanged, so the transcripts are the same.
- ``child_main``: the child's loop (requests in, replies out; Whisper on the child's own
  single worker thread, so a cancel or a live feed is read while a transcription runs).

Imports: nothing heavy in the parent (``multiprocessing``, pickling); the child imports
``core.voice.transcriber`` / ``core.voice.live`` and with them faster-whisper on use.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar, Unpack, cast, overload

from core import tasks
from core.errors import TranscriptionError
from core.voice.models import ModelChoice, VoiceSettings

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from core.voice.live import LiveDictation
    from core.voice.transcriber import FileOptions, ProgressFn, Transcriber, Transcript

log = logging.getLogger(__name__)

# shown after 语音识别失败： (the transcription error's template)
CRASHED = "识别进程意外退出，这条语音没有识别出文字。请再试一次（识别进程会自动重新启动）。"
CLOSED = "语音识别已关闭"
CANCEL_POLL_S = 0.1  # how often a waiting request looks at its cancel event

# (model choice, device, compute type): what the child needs to build the same Transcriber
Config = tuple[ModelChoice, str, str]
T = TypeVar("T")


# a request or a reply on the pipe: a tuple of picklable values, ``(op, id, *args)``
Message = tuple[object, ...]


@dataclass
class _Job:
    future: Future[object]  # the child's reply (what ``call`` promised for its op)
    generation: int
    progress: ProgressFn | None = None


@dataclass
class _Child:
    process: BaseProcess
    conn: Connection
    generation: int
    send_lock: threading.Lock = field(default_factory=threading.Lock)


class WhisperProcess:
    """The child process that runs Whisper for one App (see module doc). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._child: _Child | None = None
        self._jobs: dict[int, _Job] = {}
        self._partials: dict[int, tuple[int, Callable[[str], None]]] = {}
        self._ids = itertools.count(1)
        self._generation = 0  # children started so far; a request belongs to one of them
        self._closed = False

    # -- what the remote objects use ---------------------------------------------------------
    @property
    def pid(self) -> int | None:
        """The running child's process id (None before the first request or after a crash)."""
        child = self._child
        return child.process.pid if child is not None else None

    @property
    def started(self) -> int:
        """How many children were started so far (a crash and a retry make it 2)."""
        return self._generation

    @overload
    def call(
        self,
        op: Literal["load"],
        *args: object,
        progress: ProgressFn | None = None,
        cancel: threading.Event | None = None,
    ) -> Future[float]: ...

    @overload
    def call(
        self,
        op: Literal["file", "live_finish"],
        *args: object,
        progress: ProgressFn | None = None,
        cancel: threading.Event | None = None,
    ) -> Future[Transcript]: ...

    def call(
        self,
        op: str,
        *args: object,
        progress: ProgressFn | None = None,
        cancel: threading.Event | None = None,
    ) -> Future[float] | Future[Transcript]:
        """Send ``op`` to the child (starting it if needed); the future holds its reply: the
        seconds the model took to load for ``load``, a ``Transcript`` for the others (what
        ``_ChildState.handle`` answers)."""
        future: Future[object] = Future()
        promised = cast("Future[float] | Future[Transcript]", future)  # settled by the reply
        with self._lock:
            if self._closed:
                future.set_exception(TranscriptionError(CLOSED))
                return promised
            child = self._ensure()
            job_id = next(self._ids)
            self._jobs[job_id] = _Job(future, child.generation, progress)
        if not self._send(child, (op, job_id, *args)):
            self._fail(job_id, TranscriptionError(CRASHED))
        elif cancel is not None:
            self._watch_cancel(child, job_id, future, cancel)
        return promised

    def open_live(self, config: Config, language: str, on_partial: Callable[[str], None]) -> int:
        """Start a live dictation in the child; returns its session id for ``feed``/``finish``."""
        with self._lock:
            if self._closed:
                raise TranscriptionError(CLOSED)
            child = self._ensure()
            session = next(self._ids)
            self._partials[session] = (child.generation, on_partial)
        self._send(child, ("live_open", session, config, language))
        return session

    def feed(self, session: int, pcm: bytes) -> None:
        """Hand microphone PCM to a live session (dropped if its child is gone)."""
        child = self._session_child(session)
        if child is not None:
            self._send(child, ("live_feed", session, pcm))

    def finish_live(self, session: int, cancel: threading.Event) -> Future[Transcript]:
        """Release: the session's whole transcript, or ``CRASHED`` if its child died."""
        with self._lock:
            entry = self._partials.get(session)
            child = self._child
            if self._closed or entry is None or child is None or child.generation != entry[0]:
                self._partials.pop(session, None)
                future: Future[Transcript] = Future()
                future.set_exception(TranscriptionError(CLOSED if self._closed else CRASHED))
                return future
        return self.call("live_finish", session, cancel=cancel)

    def cancel_live(self, session: int) -> None:
        child = self._session_child(session)
        with self._lock:
            self._partials.pop(session, None)
        if child is not None:
            self._send(child, ("cancel", session))

    def close(self) -> None:
        """Stop the child (the App is closing); pending requests fail with ``CLOSED``."""
        with self._lock:
            self._closed = True
            child, self._child = self._child, None
        if child is None:
            return
        self._send(child, ("quit", 0))
        child.process.join(timeout=5)
        if child.process.is_alive():
            child.process.kill()
            child.process.join(timeout=5)
        child.conn.close()

    # -- the child ---------------------------------------------------------------------------
    def _ensure(self) -> _Child:
        """The running child, starting one if there is none (called with ``_lock`` held)."""
        child = self._child
        if child is not None and child.process.is_alive():
            return child
        import multiprocessing  # on the first dictation, not when the app starts

        context = multiprocessing.get_context("spawn")
        parent_conn, child_conn = context.Pipe()
        process = context.Process(
            target=child_main, args=(child_conn,), name="inquiry-bridge-whisper", daemon=True
        )
        process.start()
        child_conn.close()
        self._generation += 1
        child = _Child(process, parent_conn, self._generation)
        self._child = child
        tasks.daemon(lambda: self._read(child), "whisper-replies")
        log.info("whisper worker process %s started", process.pid)
        return child

    def _send(self, child: _Child, message: Message) -> bool:
        with child.send_lock:
            try:
                child.conn.send(message)
            except (OSError, ValueError, EOFError):
                return False
        return True

    def _session_child(self, session: int) -> _Child | None:
        with self._lock:
            entry = self._partials.get(session)
            child = self._child
        if entry is None or child is None or child.generation != entry[0]:
            return None
        return child

    def _read(self, child: _Child) -> None:
        """The reader thread of one child: replies to futures, until the pipe closes."""
        while True:
            try:
                message = child.conn.recv()
            except (EOFError, OSError):
                break
            except Exception:  # an unpicklable reply: its request times out as a crash below
                log.exception("whisper worker sent an unreadable reply")
                continue
            kind, ident = message[0], message[1]
            if kind == "progress":
                job = self._jobs.get(ident)
                if job is not None and job.progress is not None:
                    job.progress(message[2], message[3])
            elif kind == "partial":
                entry = self._partials.get(ident)
                if entry is not None:
                    entry[1](message[2])
            elif kind == "ok":
                self._settle(ident, message[2], None)
            elif kind == "err":
                self._settle(ident, None, message[2])
        self._died(child)

    def _settle(self, job_id: int, value: object, error: BaseException | None) -> None:
        with self._lock:
            job = self._jobs.pop(job_id, None)
        if job is None or job.future.done():
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(value)

    def _fail(self, job_id: int, error: BaseException) -> None:
        self._settle(job_id, None, error)

    def _died(self, child: _Child) -> None:
        """The child's pipe closed: fail what it held; the next request starts a new one."""
        child.process.join(timeout=5)
        with self._lock:
            if self._child is child:
                self._child = None
            lost = [i for i, job in self._jobs.items() if job.generation == child.generation]
            for session in [s for s, e in self._partials.items() if e[0] == child.generation]:
                self._partials.pop(session, None)
            closed = self._closed
        if lost and not closed:
            log.warning(
                "whisper worker process %s exited (code %s) with %d request(s) in hand",
                child.process.pid,
                child.process.exitcode,
                len(lost),
            )
        for job_id in lost:
            self._fail(job_id, TranscriptionError(CLOSED if closed else CRASHED))

    def _watch_cancel(
        self, child: _Child, job_id: int, future: Future[object], cancel: threading.Event
    ) -> None:
        """Pass the caller's cancel event on to the child while the request runs."""

        def watch() -> None:
            while not future.done():
                if cancel.wait(CANCEL_POLL_S):
                    self._send(child, ("cancel", job_id))
                    return

        tasks.daemon(watch, "whisper-cancel")


class RemoteTranscriber:
    """``Transcriber``'s front-end surface over a ``WhisperProcess`` (same model settings)."""

    def __init__(
        self, process: WhisperProcess, settings: VoiceSettings, choice: ModelChoice
    ) -> None:
        self.process = process
        self._settings = settings
        self.choice = choice
        self._device = settings.text("voice.device") or "cpu"
        self._compute_type = settings.text("voice.compute_type") or "int8"
        self.load_seconds: float | None = None

    @property
    def config(self) -> Config:
        return (self.choice, self._device, self._compute_type)

    @property
    def multilingual(self) -> bool:
        return bool(self.choice.multilingual)

    @property
    def loaded(self) -> bool:
        return self.load_seconds is not None

    def wanted_language(self, language: str | None = None) -> str:
        """The language asked for: the argument, else the ``voice.language`` setting."""
        return (language or self._settings.text("voice.language") or "auto").strip().lower()

    def warm_up(self) -> Future[float]:
        """Start the child and load the model there (the desktop calls this at a press)."""
        future = self.process.call("load", self.config)
        future.add_done_callback(self._loaded)
        return future

    def load(self) -> float:
        """Blocking ``warm_up``: the seconds the child spent loading (0.0 if warm)."""
        return float(self.warm_up().result())

    def _loaded(self, future: Future[float]) -> None:
        if future.exception() is None:
            self.load_seconds = float(future.result())

    def submit(self, path: str | Path, **options: Unpack[FileOptions]) -> Future[Transcript]:
        """``Transcriber.transcribe_file`` in the child; ``progress`` is called from the reply
        thread, ``cancel`` is passed on while it runs."""
        return self.process.call(
            "file",
            self.config,
            str(path),
            self.wanted_language(options.get("language")),
            progress=options.get("progress"),
            cancel=options.get("cancel"),
        )

    def transcribe_file(self, path: str | Path, **options: Unpack[FileOptions]) -> Transcript:
        """Blocking ``submit`` (call it from a worker thread, never the loop)."""
        return self.submit(path, **options).result()

    def close(self) -> None:
        """Nothing: the child is the App's (``WhisperProcess.close``)."""


class RemoteLiveDictation:
    """``LiveDictation`` running in the child: ``feed`` while recording, ``finish`` at release."""

    def __init__(
        self,
        transcriber: RemoteTranscriber,
        *,
        language: str | None = None,
        on_partial: Callable[[str], None] | None = None,
    ) -> None:
        self.transcriber = transcriber
        self.wanted = transcriber.wanted_language(language)
        self.on_partial = on_partial
        self.cancel_event = threading.Event()
        self._text = ""
        self._closed = False
        self._session = transcriber.process.open_live(
            transcriber.config, self.wanted, self._partial
        )

    def _partial(self, text: str) -> None:
        self._text = text
        if self.on_partial is not None:
            self.on_partial(text)

    @property
    def text(self) -> str:
        """The last preview the child sent (everything recognised so far)."""
        return self._text

    def feed(self, pcm: bytes) -> None:
        """Append 16 kHz mono s16le PCM; a pipe write, never waits on Whisper."""
        if not self._closed:
            self.transcriber.process.feed(self._session, pcm)

    def finish(self) -> Future[Transcript]:
        self._closed = True
        return self.transcriber.process.finish_live(self._session, self.cancel_event)

    def cancel(self) -> None:
        self._closed = True
        self.cancel_event.set()
        self.transcriber.process.cancel_live(self._session)


# -- the child ---------------------------------------------------------------------------------
class _FixedSettings:
    """The voice settings the parent resolved, as the child's ``VoiceSettings``."""

    def __init__(self, device: str, compute_type: str) -> None:
        self._values = {"voice.device": device, "voice.compute_type": compute_type}

    def text(self, key: str) -> str:
        return self._values.get(key, "")

    def overridden_by_env(self, key: str) -> bool:
        return False


class _ChildState:
    """What the child holds: one warm Transcriber, its live sessions, the cancel events."""

    def __init__(self, send: Callable[[Message], None]) -> None:
        self.send = send
        self.transcriber: Transcriber | None = None
        self.config: Config | None = None
        self.lives: dict[int, LiveDictation] = {}
        self.cancels: dict[int, threading.Event] = {}

    def whisper(self, config: Config) -> Transcriber:
        from core.voice.transcriber import Transcriber

        if self.transcriber is None or self.config != config:
            if self.transcriber is not None:
                self.transcriber.close()
            choice, device, compute_type = config
            self.transcriber = Transcriber(_FixedSettings(device, compute_type), choice=choice)
            self.config = config
        return self.transcriber

    def handle(self, message: Message) -> None:
        """One request from the parent, ``(op, id, *args)`` as ``_Pool.call`` and the live
        methods send them; its values are narrowed here, at the pipe."""
        op, ident, *args = message
        if not isinstance(ident, int):
            log.error("voice request without an id: %r", op)
            return
        try:
            if op == "load":
                self.reply(ident, self.whisper(_config(args[0])).warm_up())
            elif op == "file":
                config, path, language = args
                cancel = self.cancels[ident] = threading.Event()
                future = self.whisper(_config(config)).submit(
                    Path(str(path)),
                    language=_language(language),
                    progress=lambda f, text: self.send(("progress", ident, f, text)),
                    cancel=cancel,
                )
                self.reply(ident, future)
            elif op == "live_open":
                from core.voice.live import LiveDictation

                config, language = args
                self.lives[ident] = LiveDictation(
                    self.whisper(_config(config)),
                    language=_language(language),
                    on_partial=lambda text: self.send(("partial", ident, text)),
                )
            elif op == "live_feed":
                live = self.lives.get(ident)
                if live is not None and isinstance(args[0], bytes):
                    live.feed(args[0])
            elif op == "live_finish":
                session = args[0]
                live = self.lives.pop(session, None) if isinstance(session, int) else None
                if live is None:
                    raise TranscriptionError(CRASHED)
                self.cancels[ident] = live.cancel_event
                self.reply(ident, live.finish())
            elif op == "cancel":
                if ident in self.cancels:
                    self.cancels[ident].set()
                live = self.lives.pop(ident, None)
                if live is not None:
                    live.cancel()
        except BaseException as exc:
            self.send(("err", ident, _portable(exc)))

    def reply(self, ident: int, future: Future[T]) -> None:
        def done(fut: Future[T]) -> None:
            self.cancels.pop(ident, None)
            error = fut.exception()
            if error is not None:
                self.send(("err", ident, _portable(error)))
            else:
                self.send(("ok", ident, fut.result()))

        future.add_done_callback(done)

    def close(self) -> None:
        for live in self.lives.values():
            live.cancel()
        if self.transcriber is not None:
            self.transcriber.close()


def _config(value: object) -> Config:
    """The parent's ``Config`` tuple: it and this child are the same module's two ends."""
    if not (isinstance(value, tuple) and len(value) == 3):
        raise TranscriptionError(f"语音识别收到了无法识别的设置：{value!r}")
    return cast(Config, value)


def _language(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling (every ``TranscriptionError`` does), else its text in
    a ``TranscriptionError`` the parent can show."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return TranscriptionError(f"语音识别过程中出错：{error}")
    return error


def child_main(conn: Connection) -> None:
    """The child: read requests until ``quit`` or the parent goes away (see module doc)."""
    send_lock = threading.Lock()

    def send(message: Message) -> None:
        with send_lock, contextlib.suppress(OSError, ValueError, EOFError):  # parent gone
            conn.send(message)

    state = _ChildState(send)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            break
        if message[0] == "quit":
            break
        state.handle(message)
    state.close()
