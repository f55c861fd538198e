"""Getting a multilingual Whisper model onto this PC: download from the Hub (or a mirror), or import.

The owner speaks Mandarin; the bundled tiny.en cannot understand it. This module fetches the
recommended multilingual CTranslate2 model (``RECOMMENDED``: Systran/faster-whisper-small, about
486 MB) into the data folder (``<home>/models/<name>``) and returns its folder, which the caller
stores as ``voice.model_dir`` so it is used from then on.

Why it looks like this:
- **Through huggingface_hub**, so ``HF_ENDPOINT`` (or the ``voice.hub_endpoint`` setting) can point
  at a mirror reachable from China (e.g. https://hf-mirror.com). The file list with sizes and
  hashes comes from ``HfApi.model_info(files_metadata=True)``; each file is fetched with
  ``huggingface_hub.file_download.http_get`` from ``hf_hub_url`` at the resolved commit.
- **Resume**: huggingface_hub resumes within one call (a dropped connection is retried with a
  ``Range`` header) but deletes its temporary file when the call fails. We keep our own
  ``<file>.part`` under ``<home>/models/.partial/<repo>-<commit>/`` and pass its length as
  ``resume_size``, so a cancelled download, a closed app or a lost Wi-Fi continue where they
  stopped next time (at the same commit).
- **Verification**: each file's size and hash must match the Hub's metadata (sha256 for LFS files
  such as model.bin, the git blob sha1 for small files). A mismatch deletes the file and refuses
  the model: a half-written or tampered model.bin never becomes the active model.
- **Offline import** (``import_model``): a folder or a .zip (USB stick) holding model.bin,
  config.json and a vocabulary is checked, copied into the data folder, and verified against its
  ``model.json`` manifest when one came with it (a model exported by this app).

Progress is reported as ``progress(done_bytes, total_bytes)``; ``cancel`` is a
``threading.Event`` checked between network chunks (``DownloadCancelled``). Errors the owner can
act on are ``ModelDownloadError`` with a Chinese sentence. Blocking: run it off the UI thread.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any, BinaryIO

from core.errors import ModelDownloadError, ModelImportError
from core.voice.model_files import (
    RemoteFile,
    find_model_folder,
    install_folder,
    sha256_file,
    verify_file,
)
from core.voice.models import MANIFEST, VoiceSettings, check_model_dir

log = logging.getLogger(__name__)

ProgressFn = Callable[[int, int], None]
DEFAULT_ENDPOINT = "https://huggingface.co"
ALLOW_PATTERNS = (
    "config.json",
    "preprocessor_config.json",
    "model.bin",
    "tokenizer.json",
    "vocabulary.*",
)


@dataclass(frozen=True)
class HubModel:
    """A model the app knows how to fetch and describe before it is downloaded."""

    repo_id: str
    name: str  # short display name
    approx_bytes: int  # shown before the Hub is asked; the real total comes from its metadata
    languages: tuple[str, ...]

    @property
    def folder_name(self) -> str:
        return self.repo_id.rsplit("/", 1)[-1]


# faster-whisper "small": the smallest multilingual model whose Mandarin is usable for dictation
# (base and tiny mishear too much); int8 on 2 cores transcribes a 3 s piece in well under a second.
RECOMMENDED = HubModel(
    repo_id="Systran/faster-whisper-small",
    name="small",
    approx_bytes=486_000_000,
    languages=("zh", "en"),
)


class DownloadCancelled(ModelDownloadError):
    """The owner cancelled; the partial files are kept so the next attempt resumes."""

    def __init__(self, detail: str = "已取消，下次会从中断处继续") -> None:
        super().__init__(detail)


def models_dir(home: Path) -> Path:
    """Where downloaded and imported models live (inside the data folder, backed up with it)."""
    return Path(home) / "models"


def hub_endpoint(settings: VoiceSettings | None = None) -> str:
    """The Hub to download from: the ``voice.hub_endpoint`` setting (``HF_ENDPOINT`` overrides it),
    else huggingface.co."""
    value = ""
    if settings is not None:
        value = settings.text("voice.hub_endpoint")
    value = value or os.environ.get("HF_ENDPOINT", "")
    return (value.strip() or DEFAULT_ENDPOINT).rstrip("/")


def download_model(
    home: Path,
    model: HubModel = RECOMMENDED,
    *,
    endpoint: str | None = None,
    revision: str = "main",
    progress: ProgressFn | None = None,
    cancel: threading.Event | None = None,
) -> Path:
    """Download, verify and install ``model``; returns the installed folder. See the module doc."""
    endpoint = (endpoint or hub_endpoint()).rstrip("/")
    commit, files = _remote_files(model, endpoint, revision)
    total = sum(f.size for f in files)
    staging = models_dir(home) / ".partial" / f"{model.folder_name}-{commit[:12]}"
    staging.mkdir(parents=True, exist_ok=True)
    _check_space(staging, total - sum(_existing(staging, f) for f in files))
    done = 0
    for remote in files:
        final = staging / remote.name
        if not (final.is_file() and final.stat().st_size == remote.size):
            url = _file_url(model, remote, commit, endpoint)
            _fetch_file(url, staging, remote, endpoint, done, total, progress, cancel)
        done += remote.size
        _report(progress, done, total)
    _write_manifest(staging, model, commit, endpoint, files)
    target = install_folder(staging, models_dir(home) / model.folder_name)
    with contextlib.suppress(OSError):
        staging.parent.rmdir()  # only when no other partial download waits there
    log.info(
        "voice model %s@%s installed in %s (%d bytes)", model.repo_id, commit[:12], target, total
    )
    return target


def _remote_files(model: HubModel, endpoint: str, revision: str) -> tuple[str, list[RemoteFile]]:
    """The commit ``revision`` resolves to and the model files there (sizes and hashes)."""
    from huggingface_hub import HfApi

    try:
        info = HfApi(endpoint=endpoint).model_info(
            model.repo_id, revision=revision, files_metadata=True
        )
    except Exception as exc:  # httpx2 connect errors, HfHubHTTPError, RepositoryNotFoundError…
        raise ModelDownloadError(_network_message(endpoint, exc)) from exc
    commit = str(info.sha or "")
    files = [
        RemoteFile(
            s.rfilename,
            int(s.size or (s.lfs.size if s.lfs else 0)),
            s.lfs.sha256 if s.lfs else None,
            s.blob_id,
        )
        for s in info.siblings or []
        if any(fnmatch(s.rfilename, pattern) for pattern in ALLOW_PATTERNS)
    ]
    names = {f.name for f in files}
    if not commit or "model.bin" not in names or "config.json" not in names:
        raise ModelDownloadError(
            f"服务器上的 {model.repo_id} 不是完整的 CTranslate2 Whisper 模型（缺少 model.bin 或 config.json）"
        )
    return commit, files


def _file_url(model: HubModel, remote: RemoteFile, commit: str, endpoint: str) -> str:
    from huggingface_hub import hf_hub_url

    return str(hf_hub_url(model.repo_id, remote.name, revision=commit, endpoint=endpoint))


def _fetch_file(
    url: str,
    staging: Path,
    remote: RemoteFile,
    endpoint: str,
    base: int,
    total: int,
    progress: ProgressFn | None,
    cancel: threading.Event | None,
) -> None:
    """Fetch one file into ``<name>.part`` (resuming what is there), verify it, move it in place.

    ``base`` is the bytes of the files before this one, so progress counts the whole model.
    """
    from huggingface_hub.file_download import http_get
    from huggingface_hub.utils import build_hf_headers  # type: ignore[attr-defined]

    part = staging / (remote.name + ".part")
    resume = part.stat().st_size if part.is_file() else 0
    if resume > remote.size:
        part.unlink()
        resume = 0
    with part.open("ab") as fh:

        def on_bytes(n: int, b: int = base) -> None:
            _report(progress, b + n, total)

        sink = _ProgressFile(fh, on_bytes, cancel)
        _report(progress, base + resume, total)
        try:
            http_get(
                url,
                sink,  # type: ignore[arg-type]  # a file-like wrapper is all http_get needs
                resume_size=resume,
                headers=build_hf_headers(),
                expected_size=remote.size,
                displayed_filename=remote.name,
                tqdm_class=_quiet_tqdm(),
            )
        except DownloadCancelled:
            raise
        except Exception as exc:
            raise ModelDownloadError(_network_message(endpoint, exc)) from exc
    verify_file(part, remote)
    part.replace(staging / remote.name)


def _write_manifest(
    staging: Path, model: HubModel, commit: str, endpoint: str, files: list[RemoteFile]
) -> None:
    """``model.json``: where the model came from and its hashes, checked again on import."""
    manifest = {
        "repo_id": model.repo_id,
        "name": model.name,
        "revision": commit,
        "endpoint": endpoint,
        "languages": list(model.languages),
        "files": {f.name: {"size": f.size, "sha256": sha256_file(staging / f.name)} for f in files},
    }
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def import_model(home: Path, source: Path) -> Path:
    """Copy a model from a folder or a .zip (e.g. a USB stick) into the data folder; returns it.

    Raises ``ModelDownloadError`` (Chinese) for anything that is not a usable Whisper model, or
    whose files do not match the ``model.json`` manifest that came with it.
    """
    from core.errors import TranscriptionError

    source = Path(source).expanduser()
    root = models_dir(home)
    scratch = root / ".import"
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        if source.is_file() and zipfile.is_zipfile(source):
            with zipfile.ZipFile(source) as archive:
                for member in archive.infolist():
                    dest = (scratch / member.filename).resolve()
                    if not dest.is_relative_to(scratch.resolve()):
                        raise ModelImportError(
                            f"压缩包里有不安全的路径：{member.filename} / the zip holds an "
                            f"unsafe path: {member.filename}"
                        )
                archive.extractall(scratch)
            folder = find_model_folder(scratch)
        elif source.is_dir():
            folder = find_model_folder(source)
        else:
            raise ModelImportError(_not_a_model(source))
        if folder is None:
            raise ModelImportError(
                f"{source.name} 里没有 Whisper 模型（需要 model.bin、config.json 和 "
                f"tokenizer.json） / {source.name} holds no Whisper model (it needs model.bin, "
                "config.json and tokenizer.json)"
            )
        try:
            check_model_dir(folder)
        except TranscriptionError as exc:
            raise ModelImportError(exc.detail) from exc
        manifest = folder / MANIFEST
        if manifest.is_file():
            expected = json.loads(manifest.read_text(encoding="utf-8")).get("files", {})
            for name, meta in expected.items():
                path = folder / name
                if not path.is_file() or path.stat().st_size != int(meta["size"]):
                    raise ModelImportError(
                        f"模型文件不完整：{name}（大小不符），已拒绝导入 / model file {name} is "
                        "incomplete (wrong size); not imported"
                    )
                if meta.get("sha256") and sha256_file(path) != meta["sha256"]:
                    raise ModelImportError(
                        f"模型文件已损坏：{name}（校验值不符），已拒绝导入 / model file {name} is "
                        "damaged (checksum differs); not imported"
                    )
        name = folder.name if folder != scratch else source.stem
        staging = root / ".partial" / f"import-{name}"
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(folder, staging)
        return install_folder(staging, root / name)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _not_a_model(source: Path) -> str:
    """Why ``source`` cannot be imported: it is missing, or a file that is not a .zip."""
    if not source.exists():
        return f"找不到模型文件夹或压缩包：{source} / no model folder or zip at {source}"
    return (
        f"{source.name} 不是模型文件夹，也不是 .zip 压缩包：请选择 Whisper 模型所在的文件夹或"
        f"它的 .zip / {source.name} is not a model folder or a .zip file: choose the folder "
        "of a Whisper model, or its .zip"
    )


# -- helpers ------------------------------------------------------------------------------------
class _ProgressFile:
    """The file ``http_get`` writes into: counts bytes (progress) and stops on cancel."""

    def __init__(
        self, fh: BinaryIO, on_bytes: Callable[[int], None], cancel: threading.Event | None
    ) -> None:
        self._fh, self._on_bytes, self._cancel = fh, on_bytes, cancel

    def write(self, data: bytes) -> int:
        if self._cancel is not None and self._cancel.is_set():
            raise DownloadCancelled()
        written = self._fh.write(data)
        self._on_bytes(self._fh.tell())
        return written

    def tell(self) -> int:
        return self._fh.tell()

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._fh.seek(offset, whence)

    def truncate(self, size: int | None = None) -> int:
        return self._fh.truncate(size)

    def flush(self) -> None:
        self._fh.flush()


def _quiet_tqdm() -> Any:
    from tqdm.auto import tqdm

    class Quiet(tqdm):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

    return Quiet


def _report(progress: ProgressFn | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def _existing(staging: Path, f: RemoteFile) -> int:
    for path in (staging / f.name, staging / (f.name + ".part")):
        if path.is_file():
            return min(path.stat().st_size, f.size)
    return 0


def _check_space(folder: Path, needed: int) -> None:
    free = shutil.disk_usage(folder).free
    if needed > 0 and free < needed + 50_000_000:
        raise ModelDownloadError(
            f"磁盘空间不足：需要约 {needed / 1e6:.0f} MB，只剩 {free / 1e6:.0f} MB"
        )


def _network_message(endpoint: str, exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "404" in text or "RepoNotFound" in text or "RepositoryNotFound" in type(exc).__name__:
        return f"下载服务器 {endpoint} 上没有这个模型：{text}"
    return (
        f"无法从 {endpoint} 下载模型（{text}）。请检查网络，或在“设置 → 语音”中填写镜像地址"
        "（例如 https://hf-mirror.com），也可以从U盘导入模型"
    )
