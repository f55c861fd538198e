"""What the desktop reaches through ``App`` instead of importing ``core``: the voice service, the
connection tests, Telegram pairing and the desktop's support (demo, sign-in, sync scheduler)."""

from __future__ import annotations

import socket
import wave
from pathlib import Path

import pytest

from core.app import App, build_app, cache_dir
from core.app.types import TELEGRAM_TOKEN, SystemClock
from core.clock import FakeClock
from core.errors import TranscriptionError
from core.events import RecordingBus
from core.paths import DataPaths
from core.schedule import SyncScheduler
from core.voice.audio import SAMPLE_RATE
from tests.support.telegram_server import TelegramServer


@pytest.fixture
def app(home: Path, clock: FakeClock):  # type: ignore[no-untyped-def]
    built = build_app(home, clock=clock, bus=RecordingBus())
    yield built
    built.close()


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_app_carries_the_front_ends_services(app: App) -> None:
    assert app.voice.settings is app.settings and app.voice.paths is app.paths
    assert app.connection_tests is not None and app.telegram is not None
    assert app.desktop is not None
    assert isinstance(SystemClock().now().year, int)  # the types module re-exports the clock


def test_voice_writes_and_joins_recordings_in_the_data_folder(app: App) -> None:
    app.paths.audio.mkdir(parents=True, exist_ok=True)
    parts, frames = [], SAMPLE_RATE // 4  # a quarter second each, 16-bit mono
    for i in range(2):
        path = app.paths.audio / f"part{i}.wav"
        with app.voice.wav_writer(path) as writer:
            writer.write(b"\x00\x01" * frames)
        parts.append(path)
    joined = app.voice.concat_wavs(parts, app.paths.audio / "note.wav")
    with wave.open(str(joined)) as wav:
        assert wav.getframerate() == SAMPLE_RATE
        assert wav.getnframes() == 2 * frames  # both parts, in order


def test_voice_model_choice_and_selection_go_through_the_settings(
    app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("INQUIRY_BRIDGE_WHISPER_MODEL", raising=False)
    empty = tmp_path / "no-model"
    empty.mkdir()
    app.voice.select_model(empty)
    assert app.settings.get("voice.model_dir") == str(empty)
    with pytest.raises(TranscriptionError):
        app.voice.model_choice()  # an empty folder is no model: said, never downloaded
    with pytest.raises(TranscriptionError):
        app.voice.check_model_dir(empty)
    assert app.voice.is_multilingual(empty) is None
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    app.settings.set("voice.hub_endpoint", "http://127.0.0.1:9/")
    assert app.voice.hub_endpoint() == "http://127.0.0.1:9"


def test_telegram_pairing_makes_and_forgets_codes(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One place for Telegram state: the settings page's pairing facts are ``App.telegram``'s,
    the same service the runner and ``telegram`` in the CLI use (no second pairing service)."""
    monkeypatch.delenv("INQUIRY_BRIDGE_TELEGRAM_TOKEN", raising=False)
    assert not hasattr(app, "telegram_pairing")
    pairing = app.telegram
    assert pairing.token() is None and not pairing.token_from_env()
    assert pairing.current_pairing_code() is None and pairing.owner() is None
    code = pairing.new_pairing_code()
    assert pairing.current_pairing_code() == code
    app.secrets.set(TELEGRAM_TOKEN, "123:abc")
    assert pairing.token() == "123:abc"
    monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_TOKEN", "456:def")
    assert pairing.token_from_env()
    pairing.unpair()  # nobody paired: nothing to forget, no error
    assert pairing.owner() is None


async def test_the_telegram_test_builds_its_client_in_the_root_and_names_the_bot(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TelegramServer() as tg:
        monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_URL", tg.base_url)
        answer = await app.connection_tests.telegram(tg.token)
        assert answer.verdict == "ok" and answer.bot_name == "ib_test_bot"
        assert (await app.connection_tests.telegram("999:wrong")).verdict == "bad_token"
    monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_URL", f"http://127.0.0.1:{_dead_port()}")
    assert (await app.connection_tests.telegram("1:x")).verdict == "offline"


def test_desktop_support_knows_the_account_and_builds_the_scheduler(app: App) -> None:
    assert not app.desktop.account_configured() and not app.desktop.preset_graph_token()
    app.paths.token_cache.write_bytes(b"{}")
    assert app.desktop.account_configured()
    assert isinstance(app.scheduler(app.graph(offline=True)), SyncScheduler)
    assert app.desktop.publisher_client_id() == ""  # empty in a source checkout


def test_cache_dir_names_the_folder_without_opening_it(tmp_path: Path) -> None:
    home = tmp_path / "not-yet"
    assert cache_dir(home) == DataPaths(home).cache
    assert not home.exists()
