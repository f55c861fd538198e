"""Who is sending a draft right now: a lock held from before the send claim to its outcome.

Why: the send claim (``approved → sending``, a conditional UPDATE) keeps two processes from
*starting* one send, but a draft left in ``sending`` is also what a crash leaves, and
``reconcile`` settles those by asking the mailbox. With more than one process on a store (a
``serve`` on a box, the owner's CLI or desk), one process's reconcile would otherwise find the
draft another process is submitting *right now* (SMTP: marked ``smtp:prepared``, its bytes on
their way), call it "never left", put it back to ``approved`` and send it a second time. So a
sender holds this lock for the whole send, and reconcile settles only a draft whose lock it can
take: a live sender keeps it; a dead one (``kill -9``, a lost machine) has let it go.

The lock dies with its holder on both engines, never by a timer:

* PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on a connection kept for the
  send; the server drops it when that connection ends, however the process died;
* SQLite: a file lock (``filelock``: fcntl on POSIX, msvcrt on Windows) beside the database,
  dropped by the OS with the process's file descriptor. Each holder opens its own descriptor, so
  two senders in one process exclude each other too.

Taking it never waits: a lock held elsewhere means "someone is on it", and the caller skips.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout
from sqlalchemy import text

from core import tasks
from core.db.dialect import POSTGRESQL

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from core.db.store import Store

log = logging.getLogger(__name__)

NAMESPACE = 0x1B5E  # the first key of the two-int advisory lock: "a draft being sent"
FOLDER = ".send-locks"  # beside the SQLite database
BUSY = (
    "草稿 {id} 正由另一个询盘桥程序发送，未重复发送 / draft {id} is being sent by another "
    "Inquiry Bridge process; not sent twice"
)


class HeldSend:
    """One held lock; ``release`` lets it go (idempotent)."""

    def __init__(
        self, conn: Connection | None = None, key: int = 0, file: FileLock | None = None
    ) -> None:
        self._conn = conn
        self._key = {"ns": NAMESPACE, "id": key}
        self._file = file

    def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.execute(text("SELECT pg_advisory_unlock(:ns, :id)"), self._key)
                conn.close()
            except Exception as exc:  # a broken connection: the server drops its locks
                log.info("releasing a send lock: %s", exc)
                with contextlib.suppress(Exception):
                    conn.invalidate()
        file, self._file = self._file, None
        if file is not None:
            file.release(force=True)


def try_hold(store: Store, draft_id: int) -> HeldSend | None:
    """The send lock of ``draft_id``, or None when a live process holds it. Blocking I/O
    (a query or a file): callers run it on the I/O lane."""
    if store.kind == POSTGRESQL:
        conn = store.engine.connect()
        key = {"ns": NAMESPACE, "id": int(draft_id)}
        try:
            got = conn.execute(text("SELECT pg_try_advisory_lock(:ns, :id)"), key).scalar()
            conn.commit()  # the lock is the session's, not the transaction's
        except Exception:
            conn.close()
            raise
        if not got:
            conn.close()
            return None
        return HeldSend(conn=conn, key=int(draft_id))
    folder = Path(store.path).parent / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(folder / f"draft-{int(draft_id)}.lock"), timeout=0, thread_local=False)
    try:
        lock.acquire()
    except Timeout:
        return None
    return HeldSend(file=lock)


@contextlib.asynccontextmanager
async def holding(store: Store, draft_id: int) -> AsyncIterator[bool]:
    """``try_hold`` on the I/O lane for the block: True when this process holds the lock
    (released at the end), False while a live process does."""
    held = await tasks.io(try_hold, store, draft_id)
    try:
        yield held is not None
    finally:
        if held is not None:
            await tasks.io(held.release)
