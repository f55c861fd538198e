"""Issue 28: the owner's work is never only in the last backup, and ``repair`` says what came back.

Owner work (a draft, a note, a field edit, a stage move, a memory) is done after the newest
backup, through the facade and the CLI; then the database is damaged and ``repair`` runs.
Backups are owed after every change (``core.db.backup_schedule``), so all of it is there. When
the backup really is older than the work (here: the newer copies removed, as after a crash
before the owed copy), ``repair`` names each item it could not restore, in Chinese.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from core.agent.memory import save_memory
from core.app import build_app
from core.cli.main import main
from core.db.backup import list_backups
from tests.drafts.support import add_inquiry


def _run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def env(monkeypatch, llm_server, home):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm_server.base_url)
    return home


def _an_inquiry(home: Path) -> int:
    app = build_app(home)
    try:
        inquiry_id, _ = add_inquiry(app._services)
    finally:
        app.close()
    return inquiry_id


def _owner_work(capsys, home: Path, inquiry_id: int) -> None:  # type: ignore[no-untyped-def]
    app = build_app(home)
    try:

        async def work() -> None:
            await app.inquiries.add_note(inquiry_id, "客户下午三点后方便量尺寸")
            await app.inquiries.update_fields(inquiry_id, {"suburb": "Epping"})
            await app.inquiries.advance_stage(inquiry_id, "measure", reason="约好量尺")

        asyncio.run(work())
        save_memory(app._services, "boss_pref", "报价一律含GST", source="desktop")
    finally:
        app.close()
    code, _out, err = _run(
        capsys, "draft", str(inquiry_id), "--instruction", "报价15000含GST", "--home", str(home)
    )
    assert code == 0, err


def _damage_and_repair(capsys, home: Path) -> str:  # type: ignore[no-untyped-def]
    database = home / "inquiry-bridge.sqlite3"
    database.write_bytes(os.urandom(database.stat().st_size))
    code, out, err = _run(capsys, "repair", "--offline", "--home", str(home))
    assert code == 0, err
    return out


def _inquiry(capsys, home: Path, inquiry_id: int) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    rows = json.loads(_run(capsys, "inquiries", "--json", "--home", str(home))[1])
    return next(r for r in rows if r["id"] == inquiry_id)


def test_work_after_the_backup_is_all_there_after_repair(env, capsys):  # type: ignore[no-untyped-def]
    home = env
    inquiry_id = _an_inquiry(home)
    _owner_work(capsys, home, inquiry_id)
    out = _damage_and_repair(capsys, home)

    row = _inquiry(capsys, home, inquiry_id)
    assert row["stage"] == "measure" and row["suburb"] == "Epping"
    drafts = json.loads(_run(capsys, "drafts", "--json", "--home", str(home))[1])
    assert [d["status"] for d in drafts] == ["pending_approval"]
    memories = _run(capsys, "memories", "--home", str(home))[1]
    assert "报价一律含GST" in memories
    app = build_app(home)
    try:
        detail = asyncio.run(app.inquiries.detail(inquiry_id))
        assert "客户下午三点后方便量尺寸" in repr(detail)
    finally:
        app.close()
    assert not [line for line in out.splitlines() if line.startswith("无法恢复：")], out
    assert "没有丢失任何操作" in out
    assert "已恢复：" in out and "阶段变更" in out  # item by item, in Chinese


def test_work_missing_from_an_old_backup_is_named_item_by_item(env, capsys, tmp_path):  # type: ignore[no-untyped-def]
    home = env
    inquiry_id = _an_inquiry(home)
    kept = tmp_path / "kept"
    kept.mkdir()
    newest = list_backups(home / "backups")[0].path
    shutil.copy2(newest, kept / newest.name)
    _owner_work(capsys, home, inquiry_id)
    shutil.rmtree(home / "backups")  # the copies taken since are lost (a crash, a bad disk)
    shutil.copytree(kept, home / "backups")

    out = _damage_and_repair(capsys, home)
    missing = [line for line in out.splitlines() if line.startswith("无法恢复：")]
    kinds = "\n".join(missing)
    for word in ("草稿", "阶段变更", "修改", "记忆/备注"):
        assert word in kinds, out
    assert "measure" in kinds and "报价一律含GST" in kinds and "suburb" in kinds
    assert "没有丢失任何操作" not in out
    assert len(missing) >= 5


@pytest.mark.parametrize("loss", ["cut to 0 bytes", "removed"])
def test_a_database_cut_to_nothing_is_restored_from_the_backup(env, capsys, loss):  # type: ignore[no-untyped-def]
    """A 0-byte database passes SQLite's ``quick_check`` (an empty database): ``repair`` said
    "数据库完好", kept it, and every inquiry, draft and note was gone with a good backup unused;
    any other command made a fresh, empty board over it. Now a schema-less or missing database
    beside good backups is damaged: commands say so, ``repair`` restores the backup."""
    home = env
    inquiry_id = _an_inquiry(home)
    _owner_work(capsys, home, inquiry_id)
    database = home / "inquiry-bridge.sqlite3"
    if loss == "removed":
        database.unlink()
    else:
        database.write_bytes(b"")
    code, _out, err = _run(capsys, "inquiries", "--json", "--home", str(home))
    assert code == 1 and "repair" in err and "Traceback" not in err, err
    code, out, err = _run(capsys, "repair", "--offline", "--home", str(home))
    assert code == 0, err
    assert "数据库完好" not in out and "恢复备份" in out, out
    row = _inquiry(capsys, home, inquiry_id)
    assert row["stage"] == "measure" and row["suburb"] == "Epping"
    assert "没有丢失任何操作" in out


def test_a_send_the_store_lost_is_never_worded_as_do_it_again() -> None:
    """Both journals' send facts gone and the backup from before the send: the owner journal
    still names "#1 approved → sending / sending → sent". The report said "请重新操作" (please
    do it again) for them, which asks for the customer's second email."""
    from core.app.repair_report import RepairReport
    from core.db.owner_journal import OwnerItem

    at = "2026-11-30T10:00:00"
    report = RepairReport(
        owner_missing=[
            OwnerItem("draft", {"draft_id": 1, "to_status": s, "at": at}, f"#1 → {s}", at)
            for s in ("approved", "sending", "sent")
        ]
    )
    lines = report.lines()
    assert "请重新操作" in lines[-3]  # an approval can be done again
    for line in lines[-2:]:
        assert "请重新操作" not in line and "do it again" not in line
        assert "不要重复发送" in line and "do not send it again" in line
