"""The files of a Whisper model on disk: hashing, checking a download, installing a folder.

Shared by ``core.voice.download``'s two ways in (Hub download and offline import): a file whose
size or hash does not match the Hub's metadata is deleted, never installed, and a model folder
replaces an older copy only once it is complete.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

from core.errors import ModelDownloadError


@dataclass(frozen=True)
class RemoteFile:
    """One model file as the Hub describes it (sha256 for LFS files, else the git blob id)."""

    name: str
    size: int
    sha256: str | None
    blob_id: str | None


def sha256_file(path: Path) -> str:
    """The sha256 the Hub lists for LFS files (model.bin) and our manifest records."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def git_blob_sha1(path: Path) -> str:
    """Git's blob id: the only hash the Hub gives for small, non-LFS files."""
    digest = hashlib.sha1(b"blob %d\x00" % path.stat().st_size)
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_file(path: Path, remote: RemoteFile) -> None:
    """Size, then hash, against the Hub's metadata; a bad file is deleted, never installed."""
    size = path.stat().st_size
    if size != remote.size:
        path.unlink(missing_ok=True)
        raise ModelDownloadError(
            f"下载的 {remote.name} 大小不对（{size} 字节，应为 {remote.size}），已删除，请重试"
        )
    if remote.sha256:
        ok = sha256_file(path) == remote.sha256
    elif remote.blob_id:
        ok = git_blob_sha1(path) == remote.blob_id
    else:
        ok = True  # the Hub gave no hash for this small file; its size matched
    if not ok:
        path.unlink(missing_ok=True)
        raise ModelDownloadError(
            f"下载的 {remote.name} 校验失败（文件已损坏或被篡改），已删除，未启用该模型。请重试或换一个镜像"
        )


def install_folder(staging: Path, target: Path) -> Path:
    """Move a complete, verified folder into place (replacing an older copy)."""
    if target.exists():
        old = target.with_name(target.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        target.replace(old)
        staging.replace(target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging.replace(target)
    return target


def find_model_folder(root: Path) -> Path | None:
    """The folder holding model.bin: ``root`` itself or the first one below it."""
    if (root / "model.bin").is_file():
        return root
    for candidate in sorted(root.rglob("model.bin")):
        return candidate.parent
    return None
