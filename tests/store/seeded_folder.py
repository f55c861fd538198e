"""A benchmark-shaped data folder: seeded inquiries with their raw mail, attachments on some,
a knowledge base and sent drafts in the send journal; and what the app shows of it.

Shared by ``benchmarks/store_copy.py`` (50,000 inquiries) and the test that copies a smaller one
(``tests/store/test_copy_seeded_folder.py``): ``store copy`` must move every row *and* file, and
the app must then start on PostgreSQL with nothing lost (``app_view`` before == after).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select, update

from core.cli.main import main
from core.db.models import Attachment, Message
from core.db.send_journal import SUBMITTED, SendJournal
from core.intake.records import load_raw, save_raw, store_attachment_files
from core.services import Services
from tests.desktop.seed import seed_inquiries

KNOWLEDGE = "## 交货期\n\n- 推拉门 4 周\n\n## 保修\n\n- 铝框 10 年\n"


@dataclass
class _Part:
    """An attachment as the parser hands it over (``records.AttachmentLike``)."""

    filename: str | None
    content_type: str
    size: int
    payload: bytes
    is_inline: bool = False


def _raw(mid: str, sender: str | None, name: str | None, body: str | None) -> bytes:
    return (
        f"From: {name} <{sender}>\r\nTo: sales@aurorawindows.com.au\r\n"
        f"Subject: Quote please\r\nMessage-ID: {mid}\r\n"
        f"Date: Sun, 01 Mar 2026 09:00:00 +0000\r\nContent-Type: text/plain\r\n\r\n{body}\r\n"
    ).encode()


def seed_folder(services: Services, inquiries: int, *, attachment_every: int = 10) -> None:
    """``seed_inquiries`` with messages, then each message's raw mail saved as intake saves it
    (``records.save_raw``), a PDF plan on every ``attachment_every``-th, the knowledge base and
    three sent drafts in the send journal."""
    seed_inquiries(services, inquiries, messages=True)
    with services.store.session() as s:
        rows = s.execute(
            select(
                Message.id, Message.message_id, Message.from_addr, Message.from_name,
                Message.body_text, Message.inquiry_id,
            ).order_by(Message.id)
        ).all()  # fmt: skip
    rng = random.Random(11)
    paths_of: list[dict[str, Any]] = []
    parts: list[dict[str, Any]] = []
    for number, (pk, mid, sender, name, body, inquiry_id) in enumerate(rows, start=1):
        paths_of.append(
            {"id": pk, "raw_path": save_raw(services.paths, _raw(mid, sender, name, body))}
        )
        if number % attachment_every == 0:
            plan = b"%PDF-1.4 plan " + rng.randbytes(2_000 + rng.randrange(30_000))
            (kept,) = store_attachment_files(
                services.paths, [_Part(f"plan-{pk}.pdf", "application/pdf", len(plan), plan)], 25
            )
            parts.append(
                {
                    "message_pk": pk, "inquiry_id": inquiry_id, "filename": kept.filename,
                    "content_type": kept.content_type, "size": kept.size, "sha256": kept.sha256,
                    "stored_path": kept.stored_path, "is_inline": False,
                }
            )  # fmt: skip

    def _write(s: Any) -> None:
        s.execute(update(Message), paths_of)
        if parts:
            s.execute(insert(Attachment), parts)

    services.store.write(_write)
    (services.home / "knowledge.md").write_text(KNOWLEDGE, encoding="utf-8")
    journal = SendJournal.for_home(services.home)
    at = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    for draft in (1, 2, 3):
        journal.record(SUBMITTED, draft, f"<sent-{draft}@aurora>", at=at)


def _cli(*argv: str) -> Any:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0, argv
    return json.loads(out.getvalue())


def app_view(home: Path, *, every: int = 1) -> dict[str, Any]:
    """What the app shows of the folder: ``inquiries --json``, ``mail --json``, ``status
    --json`` (but which engine), the facade's board total, and a digest of every raw mail and
    attachment (every ``every``-th: at 50,000 a desk's first read of each costs a round trip)
    as the app reads them, the knowledge base and the journal's verdicts."""
    from core.app import App
    from core.inquiry.board import BoardQuery
    from core.services import build_services

    status = _cli("status", "--json", "--home", str(home))
    status.pop("store", None)
    view: dict[str, Any] = {
        "inquiries": _cli("inquiries", "--json", "--home", str(home)),
        "mail": _cli("mail", "--json", "--home", str(home)),
        "status": status,
    }
    services = build_services(home)
    app = App(services)
    try:
        view["board_total"] = asyncio.run(app.inquiries.page(BoardQuery())).total
        files = hashlib.sha256()
        with services.store.session() as s:
            raw_paths = s.scalars(select(Message.raw_path).order_by(Message.id)).all()[::every]
            attachment_ids = s.scalars(select(Attachment.id).order_by(Attachment.id)).all()
            attachment_ids = attachment_ids[::every]
        for raw_path in raw_paths:
            raw = load_raw(services.paths, raw_path)
            files.update(raw if isinstance(raw, bytes) else b"<missing>")
        for attachment_id in attachment_ids:
            found = asyncio.run(app.inquiries.attachment_file(attachment_id))
            files.update(found.path.read_bytes() if found is not None else b"<missing>")
        view["files"] = [len(raw_paths), len(attachment_ids), files.hexdigest()]
        view["knowledge"] = asyncio.run(app.knowledge.load()).text
        journal = SendJournal.for_home(services.home, services.paths.shared)
        view["sent"] = [journal.verdict(d).state for d in (1, 2, 3)]
    finally:
        app.close()
    return view


__all__ = ["KNOWLEDGE", "app_view", "seed_folder"]
