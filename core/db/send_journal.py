"""The send journal: every attempt to submit an email, written down outside the database first.

Why a file and not a table: a send is a fact about the world (the customer has the email), and
the database can be set back by ``repair`` to a backup taken before the send. A restored draft
that says ``approved`` would then go out a second time. The journal sits beside the database
(``<data folder>/sends.journal``), is never replaced by a restore, and is append-only JSON lines,
each fsynced before the call that submits the email:

* ``submitting`` — written *before* the submit call (Graph ``/send``, an SMTP ``DATA``): from
  here on the email may have gone out;
* ``submitted``  — the mailbox accepted it (or it was found in Sent Items);
* ``not_sent``   — the mailbox showed it did not go out (the draft still in Drafts, a refusal).

The rule every send path applies (``verdict``): a ``submitted`` line means *sent*, whatever the
database says; a ``submitting`` line without an outcome means *ask the mailbox's Sent Items* by
its Message-ID before anything is submitted; ``not_sent`` (or no line) leaves the draft free.

The journal is kept twice: ``sends.journal`` and a mirror, ``backups/sends.journal``, each line
appended and fsynced to both. Reading takes every line either copy holds, so a copy that was
emptied, cut short or overwritten with garbage (a bad disk, a hand edit) cannot make a sent draft
look unsent after a restore: without the mirror, a journal lost beside a backup taken before the
send let ``send-due`` submit the draft a second time. The primary must be written before any
submit; the mirror is best effort (a failure is logged).

On PostgreSQL (several desks, one store, no shared folder) the journal is the store's journal
``sends`` instead (``SharedLines``, ``core.db.shared_files``): a desk must see what another desk
submitted, and the app's own ``repair`` (the restore this file guards against) is SQLite's;
PostgreSQL is restored with its own tools. Each line is committed before the submit, as the file
line is fsynced.

Keys are mailbox-agnostic: the local draft id with its creation stamp (ids can be reused after a
restore), the RFC 5322 Message-ID, and an optional remote id (the Outlook item id; None for
SMTP). The subject is kept only as a hash (the journal is not a second copy of the mail), the
recipients as addresses so the owner can be told who got what.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from core.clock import naive_utc
from core.db.journal_file import append_fsynced

log = logging.getLogger(__name__)

JOURNAL_NAME = "sends.journal"
SHARED_NAME = "sends"  # the journal's name in the store on PostgreSQL
MIRROR_FOLDER = "backups"  # the mirror: ``<data folder>/backups/sends.journal``
SUBMITTING = "submitting"
SUBMITTED = "submitted"
NOT_SENT = "not_sent"
PHASES = (SUBMITTING, SUBMITTED, NOT_SENT)

# what ``verdict`` answers
FREE = "free"
SENT = "sent"
ASK_MAILBOX = "ask_mailbox"


def subject_hash(subject: str) -> str:
    """A short, stable fingerprint of a subject line (the words themselves stay in the store)."""
    return hashlib.sha256(subject.strip().encode("utf-8")).hexdigest()[:16]


def stamp(moment: datetime | None) -> str | None:
    """A draft's creation time as the journal writes it (naive ISO, to the microsecond)."""
    return naive_utc(moment).isoformat() if moment is not None else None


@dataclass(frozen=True)
class SendEntry:
    """One journal line."""

    phase: str
    draft_id: int
    message_id: str | None
    at: str  # ISO 8601 with offset, from the injected clock
    remote_id: str | None = None
    recipients: tuple[str, ...] = ()
    subject_hash: str = ""
    draft_created: str | None = None  # ``stamp(draft.created_at)``: tells reused ids apart
    note: str = ""

    def matches(self, draft_id: int, draft_created: str | None) -> bool:
        """Whether this line is about that draft (same id, and same creation when both known)."""
        if self.draft_id != draft_id:
            return False
        return (
            self.draft_created is None
            or draft_created is None
            or (self.draft_created == draft_created)
        )


@dataclass(frozen=True)
class Verdict:
    """What the journal says about one draft, and the newest line it read."""

    state: str  # FREE | SENT | ASK_MAILBOX
    entry: SendEntry | None = None


class SharedLines(Protocol):
    """A journal kept in the store (``core.db.shared_files.TableFiles``)."""

    def append_line(self, journal: str, line: bytes) -> None: ...
    def lines(self, journal: str) -> list[bytes]: ...


class SendJournal:
    """Append-only, fsynced JSON lines; safe to append from several processes (``O_APPEND``,
    one ``write`` per line) and to read while another appends (a torn last line is skipped).
    With ``shared`` the lines are the store's instead of the files'."""

    def __init__(
        self, path: Path, mirror: Path | None = None, shared: SharedLines | None = None
    ) -> None:
        self.path = path
        self.mirror = mirror
        self.shared = shared
        self._lock = threading.Lock()

    @classmethod
    def for_home(cls, home: Path, shared: SharedLines | None = None) -> SendJournal:
        """The journal of the data folder ``home``; the store's when ``shared`` is given
        (``DataPaths.shared`` on PostgreSQL)."""
        return cls(home / JOURNAL_NAME, home / MIRROR_FOLDER / JOURNAL_NAME, shared)

    # ------------------------------------------------------------------ writing
    def record(
        self,
        phase: str,
        draft_id: int,
        message_id: str | None,
        *,
        at: datetime,
        remote_id: str | None = None,
        recipients: Iterable[str] = (),
        subject: str = "",
        draft_created: datetime | None = None,
        note: str = "",
    ) -> SendEntry:
        """Append one line and fsync it (file and, when new, its folder) before returning.
        An OSError (disk full, read-only folder) propagates: the caller must not submit."""
        if phase not in PHASES:
            raise ValueError(f"unknown send journal phase {phase!r}")
        entry = SendEntry(
            phase=phase,
            draft_id=int(draft_id),
            message_id=message_id,
            at=at.isoformat(),
            remote_id=remote_id,
            recipients=tuple(recipients),
            subject_hash=subject_hash(subject) if subject else "",
            draft_created=stamp(draft_created),
            note=note,
        )
        line = as_line(entry)
        if self.shared is not None:
            self.shared.append_line(SHARED_NAME, line.encode("utf-8"))
            return entry
        with self._lock:
            append_fsynced(self.path, line.encode("utf-8"))
            if self.mirror is not None:
                try:
                    self.mirror.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                    append_fsynced(self.mirror, line.encode("utf-8"))
                except OSError as exc:  # the primary holds the fact; only the spare is missing
                    log.warning("send journal mirror not written: %s", exc)
        return entry

    # ------------------------------------------------------------------ reading
    def entries(self) -> list[SendEntry]:
        """Every readable line, oldest first (a torn or foreign line is skipped, not fatal)."""
        return list(self._iter())

    def _iter(self) -> Iterator[SendEntry]:
        """Every line either copy holds, once: the copy with more readable lines gives the
        order (append order), lines only the other one kept follow."""
        if self.shared is not None:
            yield from _parse_lines(self.shared.lines(SHARED_NAME), SHARED_NAME)
            return
        copies = [_read_lines(self.path)]
        if self.mirror is not None:
            copies.append(_read_lines(self.mirror))
        copies.sort(key=len, reverse=True)
        seen: set[str] = set()
        for copy in copies:
            for entry in copy:
                key = repr(entry)  # a foreign line may hold unhashable values
                if key not in seen:
                    seen.add(key)
                    yield entry

    def verdict(self, draft_id: int, draft_created: datetime | str | None = None) -> Verdict:
        """The rule of the module docstring for one draft."""
        created = draft_created if isinstance(draft_created, str | None) else stamp(draft_created)
        newest: SendEntry | None = None
        for entry in self._iter():
            if not entry.matches(draft_id, created):
                continue
            if entry.phase == SUBMITTED:
                return Verdict(SENT, entry)
            newest = entry
        if newest is None or newest.phase == NOT_SENT:
            return Verdict(FREE, newest)
        return Verdict(ASK_MAILBOX, newest)

    def latest_by_draft(self) -> dict[tuple[int, str | None], Verdict]:
        """``verdict`` for every draft the journal knows, keyed by (draft id, creation stamp)."""
        found: dict[tuple[int, str | None], list[SendEntry]] = {}
        for entry in self._iter():
            found.setdefault((entry.draft_id, entry.draft_created), []).append(entry)
        result: dict[tuple[int, str | None], Verdict] = {}
        for key, lines in found.items():
            sent = next((e for e in lines if e.phase == SUBMITTED), None)
            if sent is not None:
                result[key] = Verdict(SENT, sent)
            elif lines[-1].phase == NOT_SENT:
                result[key] = Verdict(FREE, lines[-1])
            else:
                result[key] = Verdict(ASK_MAILBOX, lines[-1])
        return result


def as_line(entry: SendEntry) -> str:
    """One journal line as written (JSON, newline-terminated)."""
    return json.dumps(asdict(entry), ensure_ascii=False, separators=(",", ":")) + "\n"


def _read_lines(path: Path) -> list[SendEntry]:
    """The readable lines of one copy (a missing file is empty; a torn or foreign line is
    skipped, not fatal). Other OSErrors propagate: then nobody can tell what went out."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    return _parse_lines(raw.splitlines(), path.name)


def _parse_lines(lines: Iterable[bytes], name: str) -> list[SendEntry]:
    found: list[SendEntry] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            found.append(_entry(json.loads(line)))
        except (ValueError, TypeError) as exc:
            log.warning("%s line %d unreadable (%s); skipped", name, number, exc)
    return found


_OPTIONAL_TEXT = ("message_id", "remote_id", "draft_created")
_TEXT = ("at", "subject_hash", "note")


def _entry(data: object) -> SendEntry:
    """One line's fields, checked: a damaged copy can hold any JSON (``7``, ``[]``, a dict with
    a string id), and a line that only looks like an entry must be skipped, not trusted."""
    if not isinstance(data, dict):
        raise ValueError(f"not an object: {type(data).__name__}")
    if data.get("phase") not in PHASES:
        raise ValueError(f"unknown phase {data.get('phase')!r}")
    draft_id = data.get("draft_id")
    if not isinstance(draft_id, int) or isinstance(draft_id, bool):
        raise ValueError(f"draft_id {draft_id!r} is not a number")
    for key in _OPTIONAL_TEXT:
        if not isinstance(data.get(key), (str, type(None))):
            raise ValueError(f"{key} is not text")
    for key in _TEXT:
        if key in data and not isinstance(data[key], str):
            raise ValueError(f"{key} is not text")
    recipients = data.get("recipients") or []
    if not isinstance(recipients, list) or not all(isinstance(r, str) for r in recipients):
        raise ValueError("recipients are not a list of addresses")
    return SendEntry(**{**data, "recipients": tuple(recipients)})


__all__ = [
    "ASK_MAILBOX",
    "FREE",
    "JOURNAL_NAME",
    "NOT_SENT",
    "SENT",
    "SUBMITTED",
    "SUBMITTING",
    "SendEntry",
    "SendJournal",
    "SharedLines",
    "Verdict",
    "as_line",
    "subject_hash",
]
