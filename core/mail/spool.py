"""The spool of big mails: files a mailbox adapter downloads to disk before intake parses them.

Why one module: the Graph stream (``core.graph.mime_stream``) and the IMAP partial fetch
(``core.mailbox.imap_big``) write to the same kind of spool, each under its own file prefix,
and the rules for getting rid of the files are the same for both: delete them once their
messages are ingested (or the round failed), and sweep what a killed process left behind.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

LEFTOVER_AGE_S = 6 * 3600  # a live round's files are minutes old at most


def discard(paths: list[Path]) -> None:
    """Delete downloaded files once their messages are ingested (or the round failed)."""
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink()


def sweep(spool: Path, prefix: str, now: float) -> None:
    """Files with ``prefix`` a killed process left in the spool; ``now`` from the app's clock,
    as ``core.intake.records.sweep_spool`` takes it."""
    with contextlib.suppress(OSError):
        for path in spool.glob(f"{prefix}*.eml*"):
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime > LEFTOVER_AGE_S:
                    path.unlink()
