"""A virtual microphone: a private PulseAudio server with a null speaker and a mic fed by it.

Why a real sound server: QtMultimedia's microphone path (``QMediaDevices``, ``QAudioSource``,
its state and error enums) only runs against a device. CI machines have none, so a test gets a
PulseAudio daemon of its own (Debian's ``pulseaudio``): a null sink ``ib_speaker`` and a source
``ib_mic`` remapped from its monitor (Qt hides ``.monitor`` sources), set as the default input.
Whatever ``paplay`` plays into the speaker, the microphone hears.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SPEAKER = "ib_speaker"
MICROPHONE = "ib_mic"


@dataclass(frozen=True)
class VirtualMic:
    server: str  # PULSE_SERVER for clients, e.g. unix:/tmp/…/native
    env: dict[str, str]  # the environment a client process needs to reach it

    def play(self, wav: Path) -> subprocess.Popen[bytes]:
        """Start playing ``wav`` into the speaker the microphone listens to."""
        return subprocess.Popen(["paplay", "-d", SPEAKER, str(wav)], env=self.env)


@contextlib.contextmanager
def virtual_microphone(root: Path) -> Iterator[VirtualMic]:
    """Run the server for the block; raises RuntimeError naming the package when it is missing."""
    exe = shutil.which("pulseaudio")
    if exe is None or shutil.which("pactl") is None or shutil.which("paplay") is None:
        raise RuntimeError(
            "pulseaudio is not installed (apt-get install pulseaudio pulseaudio-utils)"
        )
    runtime, home = root / "run", root / "home"
    runtime.mkdir(parents=True, exist_ok=True)
    home.mkdir(parents=True, exist_ok=True)
    runtime.chmod(0o700)
    socket = runtime / "native"
    env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "HOME": str(home),
        "PULSE_SERVER": f"unix:{socket}",
    }
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    log = (root / "pulseaudio.log").open("wb")
    daemon = subprocess.Popen(
        [
            exe, "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
            "--use-pid-file=no", "--log-target=stderr",
            "-L", f"module-native-protocol-unix socket={socket} auth-anonymous=1",
            "-L", f"module-null-sink sink_name={SPEAKER}",
            "-L", f"module-remap-source source_name={MICROPHONE} master={SPEAKER}.monitor",
        ],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while True:
            ready = subprocess.run(["pactl", "set-default-source", MICROPHONE], env=env)
            if ready.returncode == 0:
                break
            if daemon.poll() is not None or time.monotonic() > deadline:
                log.flush()
                tail = (root / "pulseaudio.log").read_text(errors="replace")[-600:]
                raise RuntimeError(f"pulseaudio did not start: {tail}")
            time.sleep(0.1)
        yield VirtualMic(env["PULSE_SERVER"], env)
    finally:
        daemon.terminate()
        try:
            daemon.wait(5)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
        log.close()
