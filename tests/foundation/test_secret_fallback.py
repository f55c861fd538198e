"""No OS keyring: a saved key lands in the owner-only file, survives, and the owner is told where."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from core.secrets import LLM_API_KEY, TELEGRAM_TOKEN, Secrets
from core.services import build_services

FAIL_BACKEND = "keyring.backends.fail.Keyring"


@pytest.fixture
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring
    from keyring.backends import fail

    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", FAIL_BACKEND)
    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())  # type: ignore[no-untyped-call]


def test_a_key_saved_without_keyring_is_kept_and_located(no_keyring: None, home: Path) -> None:
    services = build_services(home)
    try:
        where_zh, where_en = services.secrets.set(LLM_API_KEY, "sk-owner-123")
        assert "本机受保护文件" in where_zh and str(home) in where_zh and "protected" in where_en
        assert services.secrets.get(LLM_API_KEY) == "sk-owner-123"
        assert services.secrets.location(LLM_API_KEY) == (where_zh, where_en)
        assert services.secrets.location(TELEGRAM_TOKEN) is None
    finally:
        services.close()
    secret_file = home / "secrets.bin"
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    # never in the settings file or the database
    assert b"sk-owner-123" not in (home / "inquiry-bridge.sqlite3").read_bytes()
    settings = home / "settings.toml"
    assert not settings.exists() or "sk-owner-123" not in settings.read_text("utf-8")


def test_a_second_process_can_use_the_key(no_keyring: None, home: Path) -> None:
    services = build_services(home)
    services.secrets.set(LLM_API_KEY, "sk-owner-456")
    services.close()
    probe = (
        "from core.secrets import LLM_API_KEY; from core.services import build_services; "
        f"s = build_services({str(home)!r}); print(s.secrets.get(LLM_API_KEY)); s.close()"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("INQUIRY_BRIDGE_")}
    env["PYTHON_KEYRING_BACKEND"] = FAIL_BACKEND
    env["INQUIRY_BRIDGE_NOW"] = "2026-11-30T10:00:00+11:00"
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "sk-owner-456"


def test_deleting_removes_the_fallback_copy(no_keyring: None, tmp_path: Path) -> None:
    secrets = Secrets("inquiry-bridge-test", environ={}, fallback=tmp_path / "secrets.bin")
    secrets.set(TELEGRAM_TOKEN, "123:abc")
    secrets.delete(TELEGRAM_TOKEN)
    assert secrets.get(TELEGRAM_TOKEN) is None
    assert "123:abc" not in (tmp_path / "secrets.bin").read_text("utf-8")


def test_a_working_keyring_wins_and_no_copy_lingers_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "secrets.bin"
    path.write_text('{"llm_api_key": "old-fallback"}', encoding="utf-8")
    secrets = Secrets("inquiry-bridge-test", environ={}, fallback=path)
    assert secrets.get(LLM_API_KEY) == "old-fallback"  # written when there was no keyring
    assert secrets.set(LLM_API_KEY, "sk-new")[0] == "系统密钥库"
    assert secrets.get(LLM_API_KEY) == "sk-new"
    assert "old-fallback" not in path.read_text("utf-8")
    secrets.delete(LLM_API_KEY)


def test_a_keyring_backend_that_cannot_load_is_no_keyring(
    monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    """PYTHON_KEYRING_BACKEND naming a package that is not installed (a typo, a test setting
    left in the shell) stopped the tray app at start with 'ModuleNotFoundError: No module named
    keyrings'. Now it is no keyring: the key goes to the owner-only file and he is told so."""
    import keyring

    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings_not_installed.file.Keyring")
    monkeypatch.setattr(keyring.core, "_keyring_backend", None)  # load from the environment
    services = build_services(home)
    try:
        assert services.secrets.available() is False
        assert services.secrets.get(LLM_API_KEY) is None
        where_zh, _ = services.secrets.set(LLM_API_KEY, "sk-owner-789")
        assert "本机受保护文件" in where_zh
        assert services.secrets.get(LLM_API_KEY) == "sk-owner-789"
        services.secrets.delete(LLM_API_KEY)
        assert services.secrets.location(LLM_API_KEY) is None
    finally:
        services.close()
