from __future__ import annotations

from pathlib import Path

import pytest

from core.config import SETTINGS, Settings
from core.errors import ConfigError, SecretStoreUnavailable
from core.secrets import LLM_API_KEY, Secrets


def test_every_setting_has_type_default_and_description() -> None:
    keys = [s.key for s in SETTINGS]
    assert len(keys) == len(set(keys))
    for spec in SETTINGS:
        assert spec.description and "." in spec.key
        assert isinstance(spec.default, spec.type)


def test_file_then_environment(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    settings = Settings(path, environ={})
    settings.set("llm.tier1", "small-model")
    settings.set("graph.first_sync_days", 7)
    again = Settings(path, environ={"INQUIRY_BRIDGE_LLM_TIER1": "from-env"})
    assert again.get("llm.tier1") == "from-env"
    assert again.overridden_by_env("llm.tier1")
    assert again.get("graph.first_sync_days") == 7
    assert Settings(path, environ={}).get("llm.tier1") == "small-model"


def test_broken_settings_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("[llm\nbroken", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        Settings(path, environ={})
    assert "设置有误" in info.value.user_message()


def test_bad_type_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('[graph]\nfirst_sync_days = "many"\n', encoding="utf-8")
    with pytest.raises(ConfigError):
        Settings(path, environ={})


def test_secrets_roundtrip_and_env_override() -> None:
    secrets = Secrets(service="inquiry-bridge-test", environ={})
    secrets.set(LLM_API_KEY, "sk-test")
    assert secrets.get(LLM_API_KEY) == "sk-test"
    assert (
        Secrets("inquiry-bridge-test", environ={"INQUIRY_BRIDGE_LLM_API_KEY": "env"}).get(
            LLM_API_KEY
        )
        == "env"
    )
    secrets.delete(LLM_API_KEY)
    assert secrets.get(LLM_API_KEY) is None


def test_no_keyring_backend_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring
    from keyring.backends import fail

    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())
    secrets = Secrets(service="inquiry-bridge-test", environ={})
    assert secrets.get(LLM_API_KEY) is None
    assert not secrets.available()
    with pytest.raises(SecretStoreUnavailable) as info:
        secrets.set(LLM_API_KEY, "x")
    assert "密钥库" in info.value.user_message()
