"""The command line as a new user meets it on his first day (issue 42, item 9): the real
``inquiry-bridge`` command, run as a process over a temporary data folder, with wrong input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff]")
NOW = "2027-03-01T09:00:00+11:00"  # the injected clock: the help's example follows it


def _command() -> list[str]:
    script = Path(sys.executable).parent / "inquiry-bridge"
    return [str(script)] if script.exists() else [sys.executable, "-m", "desktop.launcher"]


def _run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "INQUIRY_BRIDGE_NOW": NOW}
    env.pop("INQUIRY_BRIDGE_HOME", None)
    return subprocess.run(
        [*_command(), *args, "--home", str(home)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )


def _one_line(done: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    """The error's Chinese and English halves; there is exactly one line and no traceback."""
    err = done.stderr.strip()
    assert done.returncode != 0, done
    assert "Traceback" not in err and err.count("\n") == 0, err
    zh, sep, en = err.partition(" / ")
    assert sep and CJK.search(zh), err
    return zh, en


def test_a_folder_without_mail_fails_and_says_so_in_words(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "prices.eml").write_text("width,height\n1200,900\n", encoding="utf-8")
    (folder / "todo.eml").write_text("call the glass supplier\n", encoding="utf-8")
    done = _run(tmp_path / "home", "ingest", "--eml-dir", str(folder), "--offline")
    assert done.returncode == 1, done
    assert "failed:" not in done.stdout and "no_sender" not in done.stdout
    assert "不是邮件" in done.stdout and "not an email" in done.stdout
    zh, en = _one_line(done)
    assert "都不是邮件" in zh and "is an email" in en and not CJK.search(en)


def test_a_screenshot_into_a_missing_folder_makes_no_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "dir"
    done = _run(tmp_path / "home", "screenshot", "--window", "board", "--lang", "en", "--out",
                str(missing / "x.png"))  # fmt: skip
    zh, en = _one_line(done)
    assert not missing.parent.exists()
    assert "不存在" in zh and "does not exist" in en and str(missing) in en


def test_an_unknown_inquiry_is_told_in_english_in_the_english_half(tmp_path: Path) -> None:
    for args in (("stage", "999", "measure"), ("draft-files", "999"), ("reject", "999")):
        zh, en = _one_line(_run(tmp_path / "home", *args))
        assert "999" in zh and "999" in en
        assert not CJK.search(en), en


def test_importing_a_csv_as_a_voice_model_is_not_a_failed_download(tmp_path: Path) -> None:
    csv = tmp_path / "contacts.csv"
    csv.write_text("name,email\nA,a@example.com\n", encoding="utf-8")
    zh, en = _one_line(_run(tmp_path / "home", "voice-model", "import", str(csv)))
    assert "下载" not in zh and "download" not in en.lower()
    assert "不是模型文件夹" in zh and "not a model folder" in en and not CJK.search(en)


def test_sync_help_names_imap_mailboxes_and_the_example_time_is_tomorrow(tmp_path: Path) -> None:
    sync = _run(tmp_path / "home", "sync", "--help")
    assert sync.returncode == 0 and "IMAP" in sync.stdout and "Microsoft 365" in sync.stdout
    appointment = _run(tmp_path / "home", "appointment", "--help")
    assert "2027-03-02 10:00" in appointment.stdout  # the day after the injected clock
    zh, en = _one_line(_run(tmp_path / "home", "appointment", "1", "--at", "next tuesday"))
    assert "2027-03-02 10:00" in zh and "2027-03-02 10:00" in en
    assert "2026-12-03" not in zh + en


@pytest.mark.parametrize("bad_home", ["file", "dir/file/inner"])
def test_a_data_folder_that_is_a_file_is_one_line(tmp_path: Path, bad_home: str) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("x", encoding="utf-8")
    (tmp_path / "dir" / "file").write_text("x", encoding="utf-8")
    zh, en = _one_line(_run(tmp_path / bad_home, "inquiries"))
    assert "数据文件夹" in zh and "data folder" in en


def test_more_wrong_input_is_told_not_ignored(tmp_path: Path) -> None:
    """A typo'd status, an empty instruction and an empty --home: each one line, non-zero."""
    done = _run(tmp_path / "home", "drafts", "--status", "pending")
    assert done.returncode == 2 and "pending_approval" in done.stderr, done
    zh, en = _one_line(_run(tmp_path / "home", "draft", "1", "--instruction", " "))
    assert zh.startswith("inquiry-bridge: 输入有误") and "draft's state" not in en
    empty = subprocess.run(
        [*_command(), "inquiries", "--home", ""],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "INQUIRY_BRIDGE_NOW": NOW},
    )
    assert empty.returncode == 2 and "数据文件夹不能为空" in empty.stderr, empty
