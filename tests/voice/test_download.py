"""First-use model download against a loopback Hub: progress, resume, verification, selection.

The "Hub" is ``tests/support/hub_server.py`` serving a model folder made from the shipped tiny.en
files under the recommended repo id; the app's real download code (huggingface_hub underneath)
talks to it through ``HF_ENDPOINT``, exactly as it would talk to huggingface.co or a mirror.
"""

from __future__ import annotations

import json
import shutil
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import Settings
from core.errors import ModelDownloadError
from core.voice.download import (
    RECOMMENDED,
    DownloadCancelled,
    download_model,
    hub_endpoint,
    import_model,
    models_dir,
)
from core.voice.models import bundled_model_dir, resolve_model_dir
from core.voice.transcriber import Transcriber
from tests.support.hub_server import HubServer
from tests.voice.speech import SENTENCES, word_error_rate

pytestmark = pytest.mark.slow
REPO = RECOMMENDED.repo_id


@pytest.fixture(scope="module")
def model_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped tiny.en files, as the folder the fake Hub publishes."""
    bundled = bundled_model_dir()
    assert bundled is not None
    folder = tmp_path_factory.mktemp("published") / "faster-whisper-small"
    shutil.copytree(bundled, folder)
    return folder


@pytest.fixture
def hub(model_source: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HubServer]:
    with HubServer() as server:
        server.add_folder(REPO, model_source)
        monkeypatch.setenv("HF_ENDPOINT", server.endpoint)
        yield server


def _settings(home: Path) -> Settings:
    import os

    return Settings(home / "settings.toml", environ=dict(os.environ))


def test_first_use_download_reports_progress_verifies_and_is_selected(
    hub: HubServer, home: Path, model_source: Path, short_wav: Path
) -> None:
    settings = _settings(home)
    assert hub_endpoint(settings) == hub.endpoint  # HF_ENDPOINT reaches the manager
    seen: list[tuple[int, int]] = []
    folder = download_model(
        home, endpoint=hub_endpoint(settings), progress=lambda d, t: seen.append((d, t))
    )

    total = sum(p.stat().st_size for p in model_source.iterdir())
    assert folder == models_dir(home) / "faster-whisper-small"
    assert seen[-1] == (total, total) and all(t == total for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)  # never goes backwards
    assert len(seen) > 5  # model.bin arrives in several reported pieces
    for name in ("model.bin", "config.json", "tokenizer.json", "vocabulary.txt"):
        assert (folder / name).read_bytes() == (model_source / name).read_bytes()
    manifest = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    assert manifest["repo_id"] == REPO and manifest["revision"] == hub.repos[REPO].sha
    assert not (models_dir(home) / ".partial").exists()
    # only the Hub's file API was used, at the resolved commit
    assert any(p == f"/api/models/{REPO}/revision/main" for _, p, _ in hub.requests)
    assert all(
        f"/resolve/{hub.repos[REPO].sha}/" in p
        for m, p, _ in hub.requests
        if m == "GET" and "/resolve/" in p
    )

    settings.set("voice.model_dir", str(folder))  # what the app does on success
    choice = resolve_model_dir(settings)
    assert choice.path == folder and choice.name == "small" and choice.source == "settings"
    assert choice.size_bytes == total + (folder / "model.json").stat().st_size
    result = Transcriber(settings).transcribe_file(short_wav, language="en")  # it really loads
    assert word_error_rate(SENTENCES[0], result.text) <= 0.15, result.text


def test_an_interrupted_download_resumes_where_it_stopped(hub: HubServer, home: Path) -> None:
    size = len(hub.repos[REPO].files["model.bin"].data)
    cancel = threading.Event()
    seen: list[int] = []

    def progress(done: int, _total: int) -> None:
        seen.append(done)
        if done > 30_000_000:
            cancel.set()  # the owner presses cancel (or closes the app) mid-way

    with pytest.raises(DownloadCancelled):
        download_model(home, endpoint=hub.endpoint, progress=progress, cancel=cancel)
    (part,) = (models_dir(home) / ".partial").rglob("model.bin.part")
    kept = part.stat().st_size
    assert 20_000_000 < kept < size

    # next attempt: the connection also drops once mid-file (huggingface_hub retries with Range)
    hub.cut("model.bin", after_bytes=25_000_000)
    resumed: list[int] = []
    folder = download_model(home, endpoint=hub.endpoint, progress=lambda d, t: resumed.append(d))
    ranges = hub.gets_of("model.bin")
    assert ranges[0] == ""  # the first attempt started from zero
    assert ranges[1] == f"bytes={kept}-"  # the second continued from what was on disk
    assert len(ranges) == 3  # and once more after the dropped connection, further on
    again = int(ranges[2].removeprefix("bytes=").removesuffix("-"))
    assert kept < again < size
    config = len(hub.repos[REPO].files["config.json"].data)
    assert not [d for d in resumed if config < d < kept]  # progress jumps to what was on disk
    assert (folder / "model.bin").read_bytes() == hub.repos[REPO].files["model.bin"].data


def test_a_corrupted_file_is_refused_and_nothing_is_installed(hub: HubServer, home: Path) -> None:
    hub.corrupt("model.bin")
    settings = _settings(home)
    with pytest.raises(ModelDownloadError) as info:
        download_model(home, endpoint=hub.endpoint)
    assert "model.bin 校验失败" in info.value.user_message()
    assert not (models_dir(home) / "faster-whisper-small").exists()
    assert not list(models_dir(home).rglob("model.bin*"))  # the bad bytes are gone
    assert settings.get("voice.model_dir") == ""  # still the bundled model

    hub.corrupt("model.bin", on=False)  # the mirror is fixed: the next attempt succeeds
    folder = download_model(home, endpoint=hub.endpoint)
    assert (folder / "model.bin").stat().st_size == len(hub.repos[REPO].files["model.bin"].data)


def test_unreachable_hub_is_one_chinese_sentence_naming_the_mirror_setting(home: Path) -> None:
    with pytest.raises(ModelDownloadError) as info:
        download_model(home, endpoint="http://127.0.0.1:9")
    message = info.value.user_message()
    assert message.startswith("语音模型下载失败：无法从 http://127.0.0.1:9 下载模型")
    assert "镜像" in message and "\n" not in message


def test_import_from_a_zip_or_folder_checks_the_files(
    hub: HubServer, home: Path, tmp_path: Path, model_source: Path
) -> None:
    downloaded = download_model(home, endpoint=hub.endpoint)
    usb = tmp_path / "usb"
    usb.mkdir()
    archive = usb / "faster-whisper-small.zip"
    with zipfile.ZipFile(archive, "w") as zf:  # a model exported with its manifest, one level deep
        for path in downloaded.iterdir():
            zf.write(path, f"faster-whisper-small/{path.name}")
    other_home = tmp_path / "other-pc"
    folder = import_model(other_home, archive)
    assert folder == models_dir(other_home) / "faster-whisper-small"
    assert (folder / "model.bin").read_bytes() == (model_source / "model.bin").read_bytes()
    assert not (models_dir(other_home) / ".import").exists()

    broken = tmp_path / "broken"
    shutil.copytree(downloaded, broken)
    data = bytearray((broken / "model.bin").read_bytes())
    data[1000] ^= 0xFF
    (broken / "model.bin").write_bytes(bytes(data))
    with pytest.raises(ModelDownloadError, match=r"model\.bin（校验值不符）"):
        import_model(tmp_path / "third-pc", broken)

    empty = tmp_path / "photos"
    empty.mkdir()
    with pytest.raises(ModelDownloadError, match="没有 Whisper 模型"):
        import_model(tmp_path / "third-pc", empty)


def test_headless_download_and_import_select_the_model(
    hub: HubServer, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from core.cli.main import main

    assert main(["--home", str(home), "voice-model", "download"]) == 0  # HF_ENDPOINT from env
    out, err = capsys.readouterr()
    folder = models_dir(home) / "faster-whisper-small"
    assert out.strip() == str(folder) and "MB /" in err
    assert _settings(home).get("voice.model_dir") == str(folder)

    hub.corrupt("model.bin")
    other = home.parent / "other-home"
    assert main(["--home", str(other), "voice-model", "download"]) == 1
    out, err = capsys.readouterr()
    lines = err.splitlines()  # progress lines, then one line saying what went wrong
    assert out == "" and "校验失败" in lines[-1] and all("MB /" in x for x in lines[:-1])
    assert "Traceback" not in err

    assert main(["--home", str(other), "voice-model", "import", str(folder)]) == 0
    assert capsys.readouterr().out.strip() == str(models_dir(other) / "faster-whisper-small")
