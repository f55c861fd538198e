from __future__ import annotations

import ast
from pathlib import Path

import pytest

from core import config
from core.config import SETTINGS, Setting, Settings
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

    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())  # type: ignore[no-untyped-call]
    secrets = Secrets(service="inquiry-bridge-test", environ={})
    assert secrets.get(LLM_API_KEY) is None
    assert not secrets.available()
    with pytest.raises(SecretStoreUnavailable) as info:
        secrets.set(LLM_API_KEY, "x")
    assert "密钥库" in info.value.user_message()


def test_typed_accessors_return_the_declared_type(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    Settings(path, environ={}).update(
        {"graph.first_sync_days": "7", "general.owner_addresses": "a@x.au, b@x.au"}
    )
    settings = Settings(path, environ={"INQUIRY_BRIDGE_LLM_TIER1": "from-env"})
    assert settings.number("graph.first_sync_days") == 7
    assert settings.text("llm.tier1") == "from-env"
    assert settings.decimal("llm.timeout_seconds") == 60.0
    assert settings.flag("llm.use_json_schema") is True
    assert settings.strings("general.owner_addresses") == ["a@x.au", "b@x.au"]
    folders = settings.string_lists("drive.stage_folders")
    assert folders["厂家已报价"] == ["quoting"]
    folders["厂家已报价"].append("changed")  # a copy: neither the default nor the file changes
    assert settings.string_lists("drive.stage_folders")["厂家已报价"] == ["quoting"]


def test_an_environment_override_is_coerced_to_the_declared_type(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no int setting has an environment variable yet; the accessor must still give an int
    spec = Setting("test.count", int, 1, "a test's", "INQUIRY_BRIDGE_TEST_COUNT")
    monkeypatch.setitem(config._BY_KEY, spec.key, spec)
    settings = Settings(tmp_path / "settings.toml", environ={"INQUIRY_BRIDGE_TEST_COUNT": "7"})
    assert settings.number("test.count") == 7
    bad = Settings(tmp_path / "settings.toml", environ={"INQUIRY_BRIDGE_TEST_COUNT": "seven"})
    with pytest.raises(ConfigError, match="INQUIRY_BRIDGE_TEST_COUNT"):
        bad.number("test.count")


def test_reading_a_setting_as_another_type_is_a_config_error(tmp_path: Path) -> None:
    settings = Settings(tmp_path / "settings.toml", environ={})
    with pytest.raises(ConfigError, match=r"general\.language is a str setting, read as int"):
        settings.number("general.language")
    with pytest.raises(ConfigError, match=r"llm\.concurrency"):
        settings.text("llm.concurrency")
    with pytest.raises(ConfigError, match=r"schedule\.paused"):
        settings.number("schedule.paused")  # a bool is not a number here
    with pytest.raises(ConfigError, match="unknown setting"):
        settings.text("general.no_such_key")


def test_a_list_or_table_of_other_than_strings_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("[general]\nowner_addresses = [1, 2]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="owner_addresses"):
        Settings(path, environ={})
    path.write_text('[drive.stage_folders]\n"未报价顾客" = "inquiry"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="stage_folders"):
        Settings(path, environ={})


ACCESSORS = {
    "text": str,
    "number": int,
    "decimal": float,
    "flag": bool,
    "strings": list,
    "string_lists": dict,
}


def _typed_reads(root: Path) -> list[tuple[str, int, str, str]]:
    """(file, line, accessor, key) of every ``x.text("a.b")``-style read with a literal key."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ACCESSORS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and "." in node.args[0].value
                and " " not in node.args[0].value
            ):
                found.append((str(path), node.lineno, node.func.attr, node.args[0].value))
    return found


def test_every_typed_read_in_the_code_names_a_setting_of_that_type() -> None:
    """mypy cannot see a key's declared type, so a typo'd key or a flag read as text would
    only surface as a ConfigError when that screen opens: this reads the source instead."""
    repo = Path(__file__).resolve().parents[2]
    declared = {spec.key: spec.type for spec in SETTINGS}
    reads = _typed_reads(repo / "core") + _typed_reads(repo / "desktop")
    assert len(reads) > 100  # the scan sees the code it guards
    wrong = [
        (file, line, key)
        for file, line, accessor, key in reads
        if declared.get(key) is not ACCESSORS[accessor]
    ]
    assert wrong == []
