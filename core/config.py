"""Every setting in one place: key, type, default, one-line description, environment override.

Values come from ``settings.toml`` in the data folder, then the ``INQUIRY_BRIDGE_*`` variables of
docs/contracts.md override them. Secrets are *not* settings: they live in the OS keyring (``secrets``).
The settings dialog and the CLI both read this table, so adding a setting means one line here.
"""

from __future__ import annotations

import os
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias, TypeGuard, TypeVar

import tomli_w

from core.errors import ConfigError
from core.tempfiles import partial_file

# What a setting holds: its declared ``type`` below (a list holds strings; the one table,
# ``drive.stage_folders``, maps a name to strings). ``_coerce`` makes every value one of these.
SettingValue: TypeAlias = str | int | float | bool | list[str] | dict[str, list[str]]
_S = TypeVar("_S", str, int, float, bool)


@dataclass(frozen=True)
class Setting:
    key: str  # "section.name"
    type: type
    default: SettingValue
    description: str
    env: str | None = None


GLOSSARY_STAGE_FOLDERS = {
    "未报价顾客": ["inquiry", "measure"],
    "厂家已报价": ["quoting"],
    "已报价顾客": ["follow_up"],
    "已确定并付定金顾客": ["ordered", "production", "install", "done"],
}

SETTINGS: tuple[Setting, ...] = (
    # general
    Setting("general.language", str, "zh_CN", "UI language: zh_CN or en"),
    Setting("general.start_at_login", bool, False, "Start the tray app when the user logs in"),
    Setting("general.company_name", str, "", "Company name used in drafts (the wizard asks)"),
    Setting("general.owner_name", str, "", "Owner's name for signatures"),
    Setting(
        "general.owner_addresses",
        list,
        [],
        "The company's own mail addresses (mail from them is outgoing, never a customer)",
    ),
    Setting(
        "general.office_address",
        str,
        "",
        "Office address: where the evening briefing's measuring route starts",
    ),
    Setting("general.phone_region", str, "AU", "Default region for phone numbers without +code"),
    Setting("general.timezone", str, "Australia/Sydney", "Business time zone for display/schedule"),
    # company: the profile a quote PDF carries (name, ABN, address, phone, logo) and its terms
    Setting("company.name", str, "", "Company name on quotes ('' = general.company_name)"),
    Setting("company.abn", str, "", "Australian Business Number printed on quotes"),
    Setting("company.address", str, "", "Company address printed on quotes"),
    Setting("company.phone", str, "", "Company phone printed on quotes"),
    Setting("company.email", str, "", "Company email printed on quotes"),
    Setting("company.logo", str, "", "Logo image (PNG/JPEG path) printed on quotes"),
    Setting("company.deposit_percent", int, 30, "Deposit asked when a quote is accepted, in %"),
    Setting("company.quote_valid_days", int, 30, "Days a quote stays valid"),
    # store
    Setting(
        "store.url",
        str,
        "",
        "The store as a SQLAlchemy URL (postgresql+psycopg://USER@HOST:PORT/DB); empty: SQLite "
        "in the data folder",
        "INQUIRY_BRIDGE_DATABASE_URL",
    ),
    # intake
    Setting("intake.attachment_max_mb", int, 25, "Largest attachment stored, in MB"),
    Setting(
        "intake.mail_max_mb",
        int,
        1024,
        "Largest mail read, in MB; a larger one is kept on disk and recorded failed:too_large",
    ),
    Setting("intake.max_attempts", int, 3, "LLM attempts for a pending message before failed"),
    # llm
    Setting(
        "llm.base_url",
        str,
        "",
        "OpenAI-compatible endpoint; empty = rules only",
        "INQUIRY_BRIDGE_LLM_BASE_URL",
    ),
    Setting(
        "llm.provider",
        str,
        "",
        "Provider preset (openai, azure, deepseek, qwen, moonshot, zhipu, ollama, lmstudio, "
        "llamacpp); empty = known from the address, or a generic OpenAI-compatible server",
        "INQUIRY_BRIDGE_LLM_PROVIDER",
    ),
    Setting(
        "llm.tier1", str, "gpt-4o-mini", "Small model: classification", "INQUIRY_BRIDGE_LLM_TIER1"
    ),
    Setting(
        "llm.tier2",
        str,
        "gpt-4o",
        "Mid model: extraction, drafting, translation",
        "INQUIRY_BRIDGE_LLM_TIER2",
    ),
    Setting(
        "llm.tier3",
        str,
        "gpt-4o",
        "Large model: the interactive assistant",
        "INQUIRY_BRIDGE_LLM_TIER3",
    ),
    Setting("llm.concurrency", int, 10, "Concurrent LLM calls"),
    Setting("llm.timeout_seconds", float, 60.0, "Timeout of one LLM call"),
    Setting("llm.local_concurrency", int, 1, "Concurrent calls to a model on this PC"),
    Setting("llm.local_timeout_seconds", float, 600.0, "Timeout of one call to a model on this PC"),
    Setting("llm.max_retries", int, 2, "Client retries on 429/5xx"),
    Setting("llm.use_json_schema", bool, True, "Ask for response_format json_schema"),
    # graph
    Setting(
        "graph.base_url",
        str,
        "https://graph.microsoft.com/v1.0",
        "Microsoft Graph base URL",
        "INQUIRY_BRIDGE_GRAPH_URL",
    ),
    Setting("graph.client_id", str, "", "Azure app (public client) id for sign-in"),
    Setting("graph.authority", str, "https://login.microsoftonline.com/common", "MSAL authority"),
    Setting("graph.first_sync_days", int, 30, "Days of mail fetched on the first sync"),
    Setting("graph.max_concurrency", int, 4, "Concurrent Graph requests per mailbox"),
    Setting("graph.mail_poll_minutes", int, 5, "Minutes between mail polls"),
    Setting("graph.drive_poll_minutes", int, 10, "Minutes between OneDrive polls"),
    Setting("graph.sync_sent_items", bool, True, "Also sync Sent Items (history, 14-day warning)"),
    Setting("graph.write_categories", bool, True, "Write class/stage as Outlook categories"),
    Setting("graph.send_per_minute", int, 30, "Exchange send limit per minute"),
    # an IMAP/SMTP mailbox instead of Graph mail (core.mailbox); the password is a secret
    Setting("imap.provider", str, "", "Mailbox preset: gmail, qq, 163, 126, icloud, other"),
    Setting(
        "imap.url",
        str,
        "",
        "IMAP mailbox: imap://USER@HOST:PORT (STARTTLS) or imaps://USER@HOST:PORT",
        "INQUIRY_BRIDGE_IMAP_URL",
    ),
    Setting(
        "smtp.url",
        str,
        "",
        "SMTP submission: smtp://USER@HOST:PORT (STARTTLS) or smtps://USER@HOST:PORT",
        "INQUIRY_BRIDGE_SMTP_URL",
    ),
    Setting(
        "smtp.append_sent",
        bool,
        True,
        "Append the sent copy to the Sent folder (off where the provider files it, e.g. Gmail)",
    ),
    Setting("imap.write_keywords", bool, True, "Write class/stage back as IMAP keywords"),
    Setting("imap.idle_seconds", int, 600, "Longest IMAP IDLE wait before a poll anyway"),
    # what the app accepts from an IMAP server, whatever the server claims (core.mailbox)
    Setting(
        "imap.command_timeout_seconds",
        int,
        60,
        "Longest wait for one IMAP command (more while data keeps coming at 16 KB/s)",
    ),
    Setting("imap.round_timeout_seconds", int, 1800, "Longest one IMAP sync round may take"),
    Setting("imap.max_line_kb", int, 1024, "Longest IMAP response line accepted (KB)"),
    Setting("imap.max_literal_kb", int, 32768, "Largest IMAP literal read at once (KB)"),
    Setting("imap.max_command_kb", int, 131072, "Most bytes one IMAP command may answer (KB)"),
    Setting("imap.max_round_mb", int, 4096, "Most bytes one IMAP sync round reads (MB)"),
    Setting("imap.max_message_mb", int, 200, "Largest mail fetched from IMAP (MB)"),
    Setting("imap.max_untagged", int, 100000, "Most untagged responses to one IMAP command"),
    # drive
    Setting("drive.root", str, "", "OneDrive folder holding the stage folders ('' = root)"),
    Setting("drive.stage_folders", dict, GLOSSARY_STAGE_FOLDERS, "Stage folder name -> stages"),
    Setting("drive.create_customer_folders", bool, False, "Create a folder for new inquiries"),
    # schedule
    Setting("schedule.paused", bool, False, "Sync paused by the owner"),
    Setting(
        "runner.takeover_seconds",
        int,
        90,
        "A dead runner's background work is taken over within this many seconds (heartbeat "
        "every quarter of it, stale after two thirds)",
        "INQUIRY_BRIDGE_LEASE_SECONDS",
    ),
    Setting("schedule.quiet_hours_start", str, "21:00", "Quiet hours start (Sydney time)"),
    Setting("schedule.quiet_hours_end", str, "07:00", "Quiet hours end (Sydney time)"),
    Setting("schedule.briefing_time", str, "20:00", "Evening briefing time (Sydney time)"),
    # drafts
    Setting("drafts.style_notes", str, "", "Standing preferences for the tone of replies"),
    Setting("drafts.signature", str, "", "Signature appended to English replies"),
    Setting(
        "drafts.recent_contact_days", int, 14, "Warn when the customer was mailed this recently"
    ),
    Setting("drafts.factory_address", str, "", "The factory's email (forward_to_factory drafts)"),
    Setting(
        "drafts.auto_first_reply",
        bool,
        True,
        "Draft the first reply to a new A/B inquiry when a model is set up (waits for approval)",
    ),
    # telegram
    Setting("telegram.enabled", bool, False, "Mirror alerts to Telegram"),
    Setting(
        "telegram.base_url",
        str,
        "https://api.telegram.org",
        "Bot API base URL",
        "INQUIRY_BRIDGE_TELEGRAM_URL",
    ),
    Setting("telegram.chat_id", str, "", "Paired owner chat id", "INQUIRY_BRIDGE_TELEGRAM_CHAT_ID"),
    Setting("telegram.poll_timeout", int, 30, "Long-poll timeout in seconds"),
    # voice
    Setting(
        "voice.model_dir",
        str,
        "",
        "Local CTranslate2 Whisper model folder ('' = bundled)",
        "INQUIRY_BRIDGE_WHISPER_MODEL",
    ),
    Setting(
        "voice.hub_endpoint",
        str,
        "",
        "Hugging Face Hub (or mirror) to download voice models from ('' = huggingface.co)",
        "HF_ENDPOINT",
    ),
    Setting("voice.device", str, "cpu", "Whisper device: cpu or cuda"),
    Setting("voice.compute_type", str, "int8", "Whisper compute type"),
    Setting("voice.language", str, "auto", "Dictation language: auto, zh or en"),
    Setting("voice.max_seconds", int, 120, "Longest recording"),
)

_BY_KEY = {s.key: s for s in SETTINGS}


def setting(key: str) -> Setting:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise ConfigError(f"unknown setting {key!r}") from None


def _coerce(spec: Setting, value: object, origin: str) -> SettingValue:
    """``value`` (from the file, the environment or a form) as ``spec``'s type, or ConfigError."""
    if spec.type is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in {"1", "true", "yes", "on"}:
            return True
        if isinstance(value, str) and value.strip().lower() in {"0", "false", "no", "off", ""}:
            return False
    elif spec.type in (int, float) and isinstance(value, int | float | str):
        if not isinstance(value, bool):
            try:
                return int(value) if spec.type is int else float(value)
            except (ValueError, OverflowError):
                pass
    elif spec.type is str:
        return str(value)
    elif spec.type is list and _is_strings(value):
        return list(value)
    elif spec.type is list and isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    elif (
        spec.type is dict
        and isinstance(value, dict)
        and all(isinstance(k, str) and _is_strings(v) for k, v in value.items())
    ):
        return {k: list(v) for k, v in value.items()}
    raise ConfigError(f"{spec.key} from {origin}: expected {spec.type.__name__}, got {value!r}")


def coerce(key: str, value: object, origin: str) -> SettingValue:
    """``value`` as ``key``'s declared type (ConfigError naming ``origin`` when it is not one)."""
    return _coerce(setting(key), value, origin)


def _is_strings(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _copy(value: SettingValue) -> SettingValue:
    """A list or table the caller may change without changing the settings (or a default)."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return {k: list(v) for k, v in value.items()}
    return value


class SettingsReader(ABC):
    """Reading settings: ``get`` for generic code (the settings dialog, a copy of every value),
    and one accessor per declared type for the rest. An accessor returns exactly its type;
    asking one for a key of another type (``number("general.language")``) is a programming
    error and raises ConfigError naming the key."""

    @abstractmethod
    def get(self, key: str) -> SettingValue:
        """The value of ``key`` (its declared type), env overrides applied."""

    def __getitem__(self, key: str) -> SettingValue:
        return self.get(key)

    def text(self, key: str) -> str:
        return self._scalar(key, str)

    def number(self, key: str) -> int:
        return self._scalar(key, int)

    def decimal(self, key: str) -> float:
        return self._scalar(key, float)

    def flag(self, key: str) -> bool:
        return self._scalar(key, bool)

    def _scalar(self, key: str, wanted: type[_S]) -> _S:
        """``key``'s value as ``wanted`` (a bool is no int here, though Python says it is)."""
        value = self._declared(key, wanted)
        if isinstance(value, wanted) and (wanted is bool or not isinstance(value, bool)):
            return value
        raise _misread(key, value)

    def strings(self, key: str) -> list[str]:
        value = self._declared(key, list)
        if isinstance(value, list):
            return value
        raise _misread(key, value)

    def string_lists(self, key: str) -> dict[str, list[str]]:
        """A table of names to strings (``drive.stage_folders``)."""
        value = self._declared(key, dict)
        if isinstance(value, dict):
            return value
        raise _misread(key, value)

    def _declared(self, key: str, wanted: type) -> SettingValue:
        """``get(key)``, once ``key`` is known to be declared ``wanted``."""
        declared = setting(key).type
        if declared is not wanted:
            raise ConfigError(f"{key} is a {declared.__name__} setting, read as {wanted.__name__}")
        return self.get(key)


def _misread(key: str, value: SettingValue) -> ConfigError:
    return ConfigError(f"{key}: {value!r} is not of its declared type")


class Settings(SettingsReader):
    """Settings of one data folder. ``get`` applies env overrides; ``set`` writes the file."""

    def __init__(self, path: Path, environ: dict[str, str] | None = None) -> None:
        self.path = path
        self._environ = environ if environ is not None else os.environ
        self._file: dict[str, SettingValue] = {}
        self.reload()

    def reload(self) -> None:
        self._file = {}
        if not self.path.exists():
            return
        try:
            raw = tomllib.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{self.path}: {exc}") from exc
        for section, values in raw.items():
            if not isinstance(values, dict):
                continue
            for name, value in values.items():
                key = f"{section}.{name}"
                if key in _BY_KEY:
                    self._file[key] = _coerce(_BY_KEY[key], value, str(self.path))

    def get(self, key: str) -> SettingValue:
        spec = setting(key)
        if spec.env and self._environ.get(spec.env):
            return _coerce(spec, self._environ[spec.env], spec.env)
        return _copy(self._file.get(key, spec.default))

    def overridden_by_env(self, key: str) -> bool:
        spec = setting(key)
        return bool(spec.env and self._environ.get(spec.env))

    def set(self, key: str, value: SettingValue) -> None:
        self.update({key: value})

    def update(self, values: Mapping[str, object]) -> None:
        """Save ``values`` (a form's, so each is coerced to its key's type or ConfigError)."""
        for key, value in values.items():
            self._file[key] = _coerce(setting(key), value, "update")
        self._write()

    def items(self) -> Iterator[tuple[Setting, SettingValue]]:
        for spec in SETTINGS:
            yield spec, self.get(spec.key)

    def _write(self) -> None:
        nested: dict[str, dict[str, SettingValue]] = {}
        for key, value in self._file.items():
            section, name = key.split(".", 1)
            nested.setdefault(section, {})[name] = value
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with partial_file(self.path, ".tmp") as tmp:
            tmp.write_text(tomli_w.dumps(nested), encoding="utf-8")
