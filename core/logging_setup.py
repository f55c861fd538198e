"""Rotating log files in the data folder. Secrets never reach a log: redaction filter below."""

from __future__ import annotations

import logging
import re
from logging.handlers import RotatingFileHandler
from pathlib import Path

_SECRET = re.compile(
    r"(?i)(authorization:\s*bearer\s+|api[_-]?key[=:]\s*|bot)([A-Za-z0-9._:\-]{12,})"
)


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        redacted = _SECRET.sub(lambda m: m.group(1) + "***", msg)
        if redacted != msg:
            record.msg, record.args = redacted, ()
        return True


def setup_logging(folder: Path, level: int = logging.INFO) -> None:
    root = logging.getLogger()
    target = folder / "inquiry-bridge.log"
    for handler in root.handlers:
        if isinstance(handler, RotatingFileHandler) and Path(handler.baseFilename) == target:
            return
    folder.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(target, maxBytes=2_000_000, backupCount=5, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets())
    root.addHandler(handler)
    root.setLevel(min(root.level or level, level) if root.handlers[:-1] else level)
    for noisy in ("httpx", "httpcore", "openai", "faster_whisper", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
