"""Rotating log files in the data folder. Secrets and message content never reach a log.

Two nets on the file handler: ``RedactSecrets`` (bearer tokens, API keys, bot tokens) on the
message, and ``RedactingFormatter``, which redacts customer content (``core.log_redact``) from
the message and from the exception text and stack of every record.
"""

from __future__ import annotations

import logging
import re
from logging.handlers import RotatingFileHandler
from pathlib import Path

from core.log_redact import redact_text, redact_traceback

_SECRET = re.compile(
    r"(?i)(authorization:\s*bearer\s+|api[_-]?key[=:]\s*|bot)([A-Za-z0-9._:\-]{12,})"
)
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def redact_secrets(text: str) -> str:
    return _SECRET.sub(lambda m: m.group(1) + "***", text)


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        redacted = redact_secrets(msg)
        if redacted != msg:
            record.msg, record.args = redacted, ()
        return True


class RedactingFormatter(logging.Formatter):
    """The line as ``logging.Formatter`` writes it, with content redacted in the message, the
    exception text and the stack (the time, level and logger name are left alone)."""

    def format(self, record: logging.LogRecord) -> str:
        message = redact_secrets(redact_text(record.getMessage()))
        clean = logging.makeLogRecord(record.__dict__)
        clean.msg, clean.args = message, ()
        clean.exc_info, clean.exc_text, clean.stack_info = None, None, None
        line = super().format(clean)
        if record.exc_info:
            line += "\n" + redact_secrets(redact_traceback(self.formatException(record.exc_info)))
        elif record.exc_text:
            line += "\n" + redact_secrets(redact_traceback(record.exc_text))
        if record.stack_info:
            line += "\n" + redact_secrets(redact_traceback(self.formatStack(record.stack_info)))
        return line


class QuietFileHandler(RotatingFileHandler):
    """A log file that gives up silently when it cannot be written (disk full, read-only
    folder): the owner then reads the command's one line, not logging's own tracebacks."""

    def handleError(self, record: logging.LogRecord) -> None:
        return None


def setup_logging(folder: Path, level: int = logging.INFO) -> None:
    root = logging.getLogger()
    target = folder / "inquiry-bridge.log"
    for handler in root.handlers:
        if isinstance(handler, RotatingFileHandler) and Path(handler.baseFilename) == target:
            return
    folder.mkdir(parents=True, exist_ok=True)
    handler = QuietFileHandler(target, maxBytes=2_000_000, backupCount=5, encoding="utf-8")
    handler.setFormatter(RedactingFormatter(FORMAT))
    handler.addFilter(RedactSecrets())
    root.addHandler(handler)
    root.setLevel(min(root.level or level, level) if root.handlers[:-1] else level)
    for noisy in ("httpx", "httpx2", "httpcore", "openai", "faster_whisper", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def setup_logging_or_none(folder: Path, level: int = logging.INFO) -> bool:
    """``setup_logging``, or (a read-only or full folder) no log file at all: False then.

    Why: the command goes on and says what is wrong in its own one line; without any handler
    logging's ``lastResort`` would print every logged traceback on stderr before that line.
    """
    try:
        setup_logging(folder, level)
        return True
    except OSError:
        silence_stderr_logging()
        return False


def silence_stderr_logging() -> None:
    """A handler that drops records, so logging never falls back to printing on stderr."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.NullHandler())
