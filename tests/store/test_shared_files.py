"""Raw mail, attachments, the knowledge base and the send journal, on both engines.

On SQLite they stay files in the data folder (unchanged). On PostgreSQL they are in the store
(``core.db.shared_files``): the folder keeps only this desk's cached copies, and a second desk
(another data folder, the same database) reads the mail and the customer's plan, edits the same
knowledge base and sees what the first one sent.
"""

from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from core.app.knowledge import KnowledgeService
from core.cli.main import main
from core.db.models import Attachment, Message
from core.db.send_journal import SENT, SUBMITTED, SUBMITTING, SendJournal
from core.db.shared_tables import stored_files
from core.inquiry.files import load_attachment_file
from core.intake.records import load_raw
from core.knowledge import KnowledgeChanged
from core.services import Services, build_services
from tests.intake.test_pipeline_support import make_email

PLAN = b"%PDF-1.4 site plan of 5 Elm St\n" * 3000
AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
def mail_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "incoming"
    folder.mkdir()
    (folder / "001.eml").write_bytes(
        make_email(
            subject="Security door quote - Strathfield",
            body="Hi, I need a hinged security door 820 x 2040 mm for 5 Elm St, Strathfield.\n"
            "Plan attached. Daniela Ferreira 0447 390 126",
            sender="Daniela Ferreira <daniferreira@icloud.com>",
            attachments=[("site-plan.pdf", "application/pdf", PLAN)],
        )
    )
    return folder


def _mail_and_plan(services: Services) -> tuple[bytes | None, bytes | None]:
    """What the owner gets when he opens the mail's original and its attachment."""
    with services.store.session() as session:
        message = session.scalars(select(Message)).one()
        attachment = session.scalars(select(Attachment)).one()
        file = load_attachment_file(session, services.paths, attachment.id)
    raw = load_raw(services.paths, message.raw_path)
    assert raw is None or isinstance(raw, bytes)
    return raw, file.path.read_bytes() if file is not None else None


def test_ingested_mail_and_its_attachment_read_back(
    home: Path, engine_kind: str, mail_folder: Path
) -> None:
    assert main(["ingest", "--eml-dir", str(mail_folder), "--offline"]) == 0
    services = build_services(home)
    try:
        raw, plan = _mail_and_plan(services)
        assert raw == (mail_folder / "001.eml").read_bytes()
        assert plan == PLAN
        with services.store.session() as session:
            in_store = session.scalar(select(func.count()).select_from(stored_files))
        in_folder = list((home / "mail").rglob("*.eml")) + list(
            (home / "attachments").rglob("*.pdf")
        )
        if engine_kind == "postgresql":  # in the store; the folder holds no mail of its own
            assert in_store == 2 and in_folder == []
        else:  # files, as always
            assert in_store == 0 and len(in_folder) == 2
    finally:
        services.close()


def test_knowledge_and_send_journal_on_both_engines(home: Path, engine_kind: str) -> None:
    services = build_services(home)
    try:
        knowledge = KnowledgeService(services)
        first = asyncio.run(knowledge.save("## 交货期\n\n- 推拉门 4 周\n"))
        asyncio.run(knowledge.add("warranty", "铝框保修 10 年"))
        assert "铝框保修 10 年" in asyncio.run(knowledge.load()).text
        with pytest.raises(KnowledgeChanged):  # the addition came after the page loaded
            asyncio.run(knowledge.save("## 交货期\n\n- 推拉门 3 周\n", first.version))
        assert "推拉门 4 周" in asyncio.run(knowledge.load()).text

        journal = SendJournal.for_home(services.paths.home, services.paths.shared)
        journal.record(SUBMITTING, 7, "<d7@x>", at=AT, recipients=["a@b.c"], subject="Quote")
        journal.record(SUBMITTED, 7, "<d7@x>", at=AT)
        assert journal.verdict(7).state == SENT
        files = [home / "knowledge.md", home / "sends.journal"]
        if engine_kind == "postgresql":
            assert not any(f.exists() for f in files)
        else:
            assert all(f.exists() for f in files)
    finally:
        services.close()


def test_a_second_desk_sees_the_first_desk_s_mail_knowledge_and_sends(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mail_folder: Path
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", pg_url)
    desk_a, desk_b = tmp_path / "office-pc", tmp_path / "laptop"
    assert main(["ingest", "--home", str(desk_a), "--eml-dir", str(mail_folder), "--offline"]) == 0
    a = build_services(desk_a)
    try:
        asyncio.run(KnowledgeService(a).save("## 保修\n\n- 五金件 2 年\n"))
        SendJournal.for_home(a.home, a.paths.shared).record(SUBMITTED, 3, "<d3@x>", at=AT)
    finally:
        a.close()

    b = build_services(desk_b)
    try:
        raw, plan = _mail_and_plan(b)
        assert raw == (mail_folder / "001.eml").read_bytes()
        assert plan == PLAN
        assert "五金件 2 年" in asyncio.run(KnowledgeService(b).load()).text
        assert SendJournal.for_home(b.home, b.paths.shared).verdict(3).state == SENT
        loaded = asyncio.run(KnowledgeService(b).load())
        asyncio.run(KnowledgeService(b).add("faq", "可以上门量尺寸"))
    finally:
        b.close()

    a = build_services(desk_a)
    try:  # desk A sees the laptop's addition, and a save from the older page is refused
        assert "可以上门量尺寸" in asyncio.run(KnowledgeService(a).load()).text
        with pytest.raises(KnowledgeChanged):
            asyncio.run(KnowledgeService(a).save("## 保修\n", loaded.version))
    finally:
        a.close()


def _folder_files(home: Path) -> dict[str, str]:
    """Every raw mail and attachment file, the knowledge file and the send journal, hashed."""
    files = [*(home / "mail").rglob("*"), *(home / "attachments").rglob("*")]
    files += [home / "knowledge.md", home / "sends.journal"]
    return {
        p.relative_to(home).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(files)
        if p.is_file()
    }


def test_store_copy_takes_the_folder_s_files_into_the_store(
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mail_folder: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An install moved with ``store copy``: a desk that never had the folder (the laptop) finds
    the mail, the plan, the knowledge base and what was sent."""
    office = tmp_path / "office-pc"
    assert main(["ingest", "--home", str(office), "--eml-dir", str(mail_folder), "--offline"]) == 0
    (office / "knowledge.md").write_text("## 保修\n\n- 五金件 2 年\n", encoding="utf-8")
    SendJournal.for_home(office).record(SUBMITTED, 4, "<d4@x>", at=AT)
    before = _folder_files(office)
    assert len(before) == 4

    assert main(["store", "copy", "--home", str(office), "--to", pg_url]) == 0
    said = capsys.readouterr().out
    assert "2 个邮件/附件文件" in said and "逐行核对无误" in said, said
    assert _folder_files(office) == before  # the folder's files are as they were

    monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", pg_url)
    laptop = build_services(tmp_path / "laptop")
    try:
        raw, plan = _mail_and_plan(laptop)
        assert raw == (mail_folder / "001.eml").read_bytes() and plan == PLAN
        assert "五金件 2 年" in asyncio.run(KnowledgeService(laptop).load()).text
        assert SendJournal.for_home(laptop.home, laptop.paths.shared).verdict(4).state == SENT
    finally:
        laptop.close()
