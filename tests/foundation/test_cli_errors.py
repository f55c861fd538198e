"""Every CLI error names its real category and object, in one line, Chinese first (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli.main import main


def _err(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert err.count("\n") <= 1 and "Traceback" not in err
    return code, out, err


def test_approving_a_missing_draft_is_not_found(home: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = _err(capsys, "approve", "999", "--home", str(home))
    assert code == 1 and "找不到该项目" in err and "#999" in err and "Not found" in err
    assert "draft's state" not in err


def test_drafting_for_a_missing_inquiry_says_so_before_the_ai_settings(home: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = _err(capsys, "draft", "999", "--instruction", "报价", "--home", str(home))
    assert code == 1 and "找不到该项目" in err and "询盘 #999" in err
    assert "AI" not in err


def test_a_missing_csv_is_a_file_problem(home: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = _err(
        capsys, "batch-draft", "--csv", "/missing.csv", "--instruction", "问候", "--home", str(home)
    )
    assert code == 1 and "文件无法使用" in err and "/missing.csv" in err
    assert "Settings problem" not in err


def test_sync_before_any_sign_in_says_sign_in_first(home: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = _err(capsys, "sync", "--once", "--home", str(home))
    assert code == 1 and "尚未登录微软账户" in err and "inquiry-bridge signin" in err
    assert "重新登录" not in err and "again" not in err


def test_signing_out_when_never_signed_in_deletes_nothing(home: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _err(capsys, "signout", "--home", str(home))
    assert code == 0 and "无需退出" in out and "deleted" not in out


def test_ingest_with_an_unreachable_model_says_why_mail_waits(  # type: ignore[no-untyped-def]
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    (folder / "001.eml").write_text(
        "From: A <a@example.com>\nSubject: Quote\nMessage-ID: <u1@example.com>\n\n"
        "Please quote a sliding door for 3 Main St, Ryde.\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens
    code, out, _ = _err(capsys, "ingest", "--eml-dir", str(folder), "--home", str(home))
    assert code == 0 and "waiting for a retry 1" in out and "等待重试 1 封" in out
    assert "等待 AI 服务" in out and "http://127.0.0.1:9/v1" in out
    # the next run retries it first and then meets the same file: one message, counted once
    code, out, _ = _err(capsys, "ingest", "--eml-dir", str(folder), "--home", str(home))
    assert code == 0 and "processed 1," in out and "already known 0" in out
