"""What "a backup after every change" costs, against the owner-journal-replay alternative.

    .venv/bin/python benchmarks/backup_cost.py [--inquiries 20000]

Builds a data folder with N inquiries (one message each, realistic body sizes), then prints:
the database size; the time of one owed backup (SQLite online backup + the quick_check that
keeps damaged copies out); the time a write waits for it (none: the copy runs beside the
writer, measured as the slowest write during a backup); and the per-commit cost of the owner
journal line and the send journal's fsynced line. Issue 28 asked which of the two designs is
simpler: backups need no per-action replay code at all; this prints what they cost.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.db.backup import backup_database  # noqa: E402
from core.db.models import AuditEntry, Inquiry, Message  # noqa: E402
from core.db.send_journal import SUBMITTING, SendJournal  # noqa: E402
from core.db.store import Store  # noqa: E402

BODY = "Hi, please quote a sliding door 2400 x 2100 for our place, call me any time. " * 12


def _fill(store: Store, count: int) -> None:
    now = datetime(2026, 11, 30, 9, 0)
    batch = 2000
    for start in range(0, count, batch):

        def do(session, start=start):  # type: ignore[no-untyped-def]
            for n in range(start, min(start + batch, count)):
                inquiry = Inquiry(
                    classification="B",
                    stage="inquiry",
                    stage_changed_at=now,
                    customer_name=f"Customer {n}",
                    customer_email=f"c{n}@example.com",
                    created_at=now,
                    updated_at=now,
                )
                session.add(inquiry)
                session.flush()
                session.add(
                    Message(
                        message_id=f"<{n}@example.com>",
                        source="eml",
                        folder="inbox",
                        direction="in",
                        from_addr=f"c{n}@example.com",
                        subject=f"Door {n}",
                        received_at=now,
                        body_text=BODY,
                        body_full=BODY,
                        disposition="new_inquiry",
                        inquiry_id=inquiry.id,
                        created_at=now,
                        updated_at=now,
                    )
                )

        store.write(do)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inquiries", type=int, default=20000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        store = Store(home / "inquiry-bridge.sqlite3")
        _fill(store, args.inquiries)
        size = store.path.stat().st_size / 1e6
        times = []
        for _ in range(3):
            started = time.perf_counter()
            backup_database(store.path, home / "backups", reason="bench")
            times.append(time.perf_counter() - started)
        # the slowest owner write while a backup copies
        slowest = 0.0
        copying = threading.Thread(
            target=backup_database, args=(store.path, home / "backups"), kwargs={"reason": "b2"}
        )
        copying.start()
        while copying.is_alive():
            started = time.perf_counter()
            store.write(
                lambda s: s.add(
                    AuditEntry(
                        entity="inquiry",
                        entity_id=1,
                        action="edit_field",
                        detail={},
                        actor="owner",
                        at=datetime(2026, 11, 30, 9, 0),
                    )
                )
            )
            slowest = max(slowest, time.perf_counter() - started)
        copying.join()
        journal = SendJournal(home / "sends.journal")
        lines = []
        for n in range(50):
            started = time.perf_counter()
            journal.record(SUBMITTING, n, f"<{n}@x>", at=datetime.now(UTC), recipients=["a@b"])
            lines.append(time.perf_counter() - started)
        owner = []
        for _ in range(50):
            started = time.perf_counter()
            store.write(
                lambda s: s.add(
                    AuditEntry(
                        entity="note",
                        entity_id=1,
                        action="add_note",
                        detail={},
                        actor="owner",
                        at=datetime(2026, 11, 30, 9, 0),
                    )
                )
            )
            owner.append(time.perf_counter() - started)
        store.owed_backup.close()
        store.close()
    print(f"inquiries: {args.inquiries}, database: {size:.1f} MB")
    print(f"one backup (copy + quick_check): median {statistics.median(times):.3f} s")
    print(f"slowest owner write during a backup: {slowest * 1000:.1f} ms")
    print(f"send journal line (fsync): median {statistics.median(lines) * 1000:.2f} ms")
    print(f"owner write incl. its journal line: median {statistics.median(owner) * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
