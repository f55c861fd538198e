"""Smoke-test the frozen one-folder bundle: does the shipped executable do the owner's basics?

    python installer/smoke.py [dist/InquiryBridge]

Every step runs the frozen executable (not Python) with a fresh temporary data folder (``--home``),
``QT_QPA_PLATFORM=offscreen`` and a fixed ``INQUIRY_BRIDGE_NOW``, offline. A step fails on a
non-zero exit, on anything written to stderr, or when its output is wrong:

1. ``ingest --eml-dir <bundle>/_internal/resources/demo --offline``: the demo mailbox shipped
   inside the bundle goes through the real intake pipeline (its spawned parser worker too).
2. ``inquiries --json``: valid JSON, a non-empty list of inquiries with ids and stages.
3. ``screenshot --window board --lang zh_CN``: a PNG of real size (the board with the demo rows,
   Chinese UI, rendered by the bundled Qt platform plugin, fonts and translations).
4. ``transcribe`` of a sentence spoken by espeak-ng, as WAV and as Ogg/Opus (what Telegram voice
   notes are), with the bundled tiny.en model: the transcript holds the sentence's key words
   (CTranslate2, the VAD model on onnxruntime and PyAV's FFmpeg all run frozen).
5. ``app --quit-after S``: the tray application starts headless, shows its window, loads the
   board and quits by itself; exit 0, nothing on stderr, and its log has no warning, error or
   traceback. Run three times; the time from launch to the app's "ready" log line is the frozen
   cold start (best of three; printed, target < 2 s).

Exit status 1 on the first failure, with the step, its stderr and the log.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BUNDLE = ROOT / "dist" / "InquiryBridge"
FIXED_NOW = "2026-11-30T10:00:00+11:00"  # a Sydney working-day morning, as in the tests
SENTENCE = "Please send the customer a quote for the kitchen window."
KEY_WORDS = ("customer", "quote", "kitchen", "window")
READY_LINE = "ready: window shown, board loaded"
COLD_START_TARGET_S = 2.0
# Lines Qt's offscreen platform plugin prints when a window is shown or raised, frozen or not (it
# has no window manager to pass them to). Anything else on stderr fails a step.
OFFSCREEN_NOISE = (
    "This plugin does not support propagateSizeHints()",
    "This plugin does not support raise()",
)


class SmokeFailure(Exception):
    pass


def executable(bundle: Path) -> Path:
    return bundle / ("InquiryBridge.exe" if os.name == "nt" else "InquiryBridge")


def frozen_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INQUIRY_BRIDGE_")}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        INQUIRY_BRIDGE_NOW=os.environ.get("INQUIRY_BRIDGE_NOW", FIXED_NOW),
        INQUIRY_BRIDGE_HOME=str(home),  # belt and braces: every step also passes --home
    )
    for leak in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHON_KEYRING_BACKEND"):
        env.pop(leak, None)
    return env


def unexpected(stderr: str) -> str:
    return "\n".join(
        line for line in stderr.splitlines() if line.strip() and line.strip() not in OFFSCREEN_NOISE
    )


def run(
    exe: Path, home: Path, args: Sequence[str], *, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    cmd = [str(exe), "--home", str(home), *args]
    done = subprocess.run(
        cmd,
        env=frozen_env(home),
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0 or unexpected(done.stderr):
        raise SmokeFailure(
            f"`{' '.join(args)}` exited {done.returncode}\n--- stderr ---\n{done.stderr}"
            f"\n--- stdout (tail) ---\n{done.stdout[-2000:]}"
        )
    return done


def log_problems(home: Path) -> list[str]:
    """Lines of the app's log at WARNING or above, and tracebacks."""
    bad = []
    for log in sorted((home / "logs").glob("*.log*")):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            fields = line.split(" ", 3)
            level = fields[2] if len(fields) > 2 else ""
            if level in ("WARNING", "ERROR", "CRITICAL") or "Traceback" in line:
                bad.append(f"{log.name}: {line}")
    return bad


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise SmokeFailure(f"{path.name} is not a PNG")
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def speak(out_dir: Path) -> list[Path]:
    """The sentence as WAV (espeak-ng) and, when PyAV is importable here, as Ogg/Opus."""
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        raise SmokeFailure("espeak-ng is not installed (apt-get install espeak-ng)")
    wav = out_dir / "sentence.wav"
    subprocess.run([espeak, "-s", "150", "-w", str(wav), SENTENCE], check=True, capture_output=True)
    clips = [wav]
    try:
        import av
    except ImportError:
        return clips
    ogg = out_dir / "sentence.ogg"
    with av.open(str(wav)) as src, av.open(str(ogg), "w") as dst:
        stream = dst.add_stream("libopus", rate=48000)
        stream.layout = "mono"
        resampler = av.AudioResampler(format="s16", layout="mono", rate=48000)
        for frame in src.decode(src.streams.audio[0]):
            frame.pts = None
            for chunk in resampler.resample(frame):
                for packet in stream.encode(chunk):
                    dst.mux(packet)
        for packet in stream.encode(None):
            dst.mux(packet)
    clips.append(ogg)
    return clips


def time_app_start(exe: Path, home: Path, quit_after: float) -> float:
    """Launch ``app --quit-after``; seconds from launch to the "ready" log line; checks it quit
    cleanly."""
    log = home / "logs" / "inquiry-bridge.log"
    seen = len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0
    cmd = [str(exe), "--home", str(home), "app", "--quit-after", str(quit_after)]
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        env=frozen_env(home),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    ready_at = None
    while ready_at is None and proc.poll() is None:
        if log.exists():
            lines = log.read_text(encoding="utf-8", errors="replace").splitlines()[seen:]
            if any(READY_LINE in line for line in lines):
                ready_at = time.perf_counter() - started
                break
        time.sleep(0.005)
    try:
        out, err = proc.communicate(timeout=quit_after + 60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise SmokeFailure(f"the app did not quit within {quit_after + 60:.0f} s") from None
    if proc.returncode != 0 or unexpected(err):
        raise SmokeFailure(f"`app` exited {proc.returncode}\n--- stderr ---\n{err}\n{out[-2000:]}")
    if ready_at is None:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()[seen:]
        if not any(READY_LINE in line for line in lines):
            raise SmokeFailure(f"the app quit without logging {READY_LINE!r}")
        ready_at = time.perf_counter() - started  # it got there between two polls, just now
    return ready_at


def smoke(bundle: Path, *, quit_after: float = 4.0, runs: int = 3) -> dict[str, float]:
    exe = executable(bundle)
    if not exe.exists():
        raise SmokeFailure(f"no executable at {exe}")
    demo = bundle / "_internal" / "resources" / "demo"
    if not demo.is_dir():
        raise SmokeFailure(f"the demo mailbox is not in the bundle ({demo})")
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="ib-smoke-") as tmp:
        home = Path(tmp) / "home"

        def step(name: str) -> float:
            print(f"smoke: {name}", flush=True)
            return time.perf_counter()

        t = step("ingest the demo mailbox offline")
        run(exe, home, ["ingest", "--eml-dir", str(demo), "--offline"])
        figures["ingest_s"] = time.perf_counter() - t

        step("inquiries --json")
        try:
            inquiries = json.loads(run(exe, home, ["inquiries", "--json"]).stdout)
        except json.JSONDecodeError as exc:
            raise SmokeFailure(f"`inquiries --json` printed invalid JSON: {exc}") from exc
        if not isinstance(inquiries, list) or not inquiries:
            raise SmokeFailure("the demo mailbox produced no inquiries")
        if not all(isinstance(i, dict) and "id" in i for i in inquiries):
            raise SmokeFailure(f"inquiries without ids: {inquiries[:1]}")
        figures["inquiries"] = len(inquiries)

        step("screenshot of the board in Chinese")
        shot = Path(tmp) / "board.png"
        run(exe, home, ["screenshot", "--window", "board", "--lang", "zh_CN", "--out", str(shot)])
        if not shot.is_file():
            raise SmokeFailure("screenshot wrote no file")
        width, height = png_size(shot)
        if width < 600 or height < 400 or shot.stat().st_size < 20_000:
            raise SmokeFailure(
                f"screenshot looks empty: {width}x{height}, {shot.stat().st_size} bytes"
            )
        figures["screenshot_kb"] = shot.stat().st_size / 1024

        for clip in speak(Path(tmp)):
            t = step(f"transcribe {clip.suffix} with the bundled model")
            text = run(exe, home, ["transcribe", str(clip), "--language", "en"]).stdout
            missing = [w for w in KEY_WORDS if w not in text.lower()]
            if missing:
                raise SmokeFailure(f"transcript of {clip.name} lacks {missing}: {text!r}")
            figures[f"transcribe_{clip.suffix[1:]}_s"] = time.perf_counter() - t

        starts = []
        for i in range(runs):
            step(f"tray app headless, quits after {quit_after:g} s (run {i + 1}/{runs})")
            starts.append(time_app_start(exe, home, quit_after))
        problems = log_problems(home)
        if problems:
            raise SmokeFailure("the log is not clean:\n" + "\n".join(problems[:20]))
        figures["cold_start_s"] = min(starts)
        figures["cold_start_first_s"] = starts[0]
        figures["cold_start_worst_s"] = max(starts)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="smoke-test the frozen one-folder bundle")
    parser.add_argument("bundle", nargs="?", type=Path, default=DEFAULT_BUNDLE)
    parser.add_argument("--quit-after", type=float, default=4.0, metavar="SECONDS")
    args = parser.parse_args(argv)
    try:
        figures = smoke(args.bundle.resolve(), quit_after=args.quit_after)
    except (SmokeFailure, subprocess.SubprocessError, OSError) as exc:
        print(f"smoke test FAILED: {exc}", file=sys.stderr)
        return 1
    report(figures)
    return 0


def report(figures: dict[str, float]) -> None:
    cold = figures["cold_start_s"]
    verdict = "ok" if cold < COLD_START_TARGET_S else "MISSED"
    print(
        f"smoke test passed: {int(figures['inquiries'])} demo inquiries, board screenshot "
        f"{figures['screenshot_kb']:.0f} KB, transcripts right (wav {figures['transcribe_wav_s']:.1f} s"
        + (f", ogg {figures['transcribe_ogg_s']:.1f} s" if "transcribe_ogg_s" in figures else "")
        + "), tray app quit cleanly with a clean log"
    )
    print(
        f"frozen cold start (launch → window shown, board loaded; offscreen): best {cold:.2f} s "
        f"(first {figures['cold_start_first_s']:.2f} s, worst {figures['cold_start_worst_s']:.2f} s)"
        f" — target < {COLD_START_TARGET_S:g} s: {verdict}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
