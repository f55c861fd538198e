"""A damaged database at start-up: a dialog in Chinese with a Repair button, not a silent exit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from core.cli.main import main
from core.errors import DatabaseDamaged, DataFolderUnusable
from desktop.errors_ui import startup_error_box
from desktop.i18n import LanguageManager
from desktop.launcher import gui_app
from tests.conftest import CORPUS
from tests.support.qt import read_next_message_box

ROOT = Path(__file__).resolve().parents[2]


def test_the_damaged_database_dialog_offers_repair_in_chinese(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    LanguageManager(tmp_path / "cache").apply("zh_CN")
    box, repair = startup_error_box(DatabaseDamaged("/data/inquiry-bridge.sqlite3"))
    try:
        assert "数据库已损坏" in box.text() and "修复" in box.text()
        assert repair is not None and repair.text() == "修复"
    finally:
        box.deleteLater()
    box, repair = startup_error_box(DataFolderUnusable("/nowhere"))
    try:
        assert repair is None  # nothing to repair: the words say what to check
        assert "数据文件夹无法使用" in box.text()
        assert isinstance(box, QMessageBox)
    finally:
        box.deleteLater()


@pytest.mark.corpus
def test_repair_from_the_dialog_starts_the_app_on_the_restored_store(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    for path in sorted(CORPUS.glob("*.eml"))[:12]:
        shutil.copy(path, folder / path.name)
    assert main(["ingest", "--eml-dir", str(folder), "--offline"]) == 0
    database = home / "inquiry-bridge.sqlite3"
    database.write_bytes(b"\xff" * database.stat().st_size)
    asked: list[BaseException] = []

    def choose_repair(exc: BaseException) -> bool:
        asked.append(exc)
        return True

    told: list[object] = []
    app = gui_app(str(home), ask=choose_repair, tell=told.append)
    services = app._services
    try:
        assert isinstance(asked[0], DatabaseDamaged)
        assert len(told) == 1 and "重新导入邮件" in told[0].text("zh_CN")  # type: ignore[attr-defined]
        with services.store.session() as session:
            from sqlalchemy import func, select

            from core.db.models import Message

            assert session.scalar(select(func.count(Message.id))) == 12
    finally:
        app.close()


def test_closing_the_dialog_ends_with_the_one_line(home: Path) -> None:
    database = home / "inquiry-bridge.sqlite3"
    database.write_bytes(b"\x00not a database" * 100)
    with pytest.raises(DatabaseDamaged):
        gui_app(str(home), ask=lambda exc: False)


def test_a_full_disk_met_while_running_is_one_chinese_sentence(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A write that meets a full disk raises SQLAlchemy's error; the dialog says what it means."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from desktop.errors_ui import message_for

    LanguageManager(tmp_path / "cache").apply("zh_CN")
    raw = OperationalError(
        "INSERT INTO messages …", ("Amy",), sqlite3.OperationalError("database or disk is full")
    )
    text = message_for(raw)
    assert "磁盘空间已满" in text and "Amy" not in text and "INSERT" not in text


def test_a_read_only_folder_at_start_is_a_chinese_dialog_not_a_crash(  # type: ignore[no-untyped-def]
    app, home: Path, tmp_path: Path
) -> None:
    """The folder opens and reads, but nothing can be written: the owner reads why in a dialog
    (no Repair: there is nothing to repair), and closing it ends with the CLI's one line."""

    from tests.support.failing_fs import failing

    folder = tmp_path / "eml"
    folder.mkdir()
    shutil.copy(ROOT / "resources" / "demo" / "13-li-na-utf8.eml", folder)
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    LanguageManager(home / "cache").apply("zh_CN")
    shown = read_next_message_box()
    with failing("readonly", home), pytest.raises(DataFolderUnusable):
        gui_app(str(home))  # the real dialog, shown modally
    [(text, buttons)] = shown
    assert "数据文件夹无法使用" in text and str(home) in text
    assert "修复" not in buttons
