"""The first real transcription, cold: how long it stalls the event loop (issue 28).

    .venv/bin/python benchmarks/voice_stall.py [--runs 3] [--path old|new|both]

``budgets.py`` measures voice notes that are refused before Whisper; this one transcribes. Each
run is a FRESH interpreter (nothing imported, nothing warm) started after dropping the page
cache where that is allowed (as root: ``sync; echo 3 > /proc/sys/vm/drop_caches``; otherwise
the line says "cache kept"), so faster-whisper, CTranslate2 and the model are read from disk as
at the owner's first voice note after a reboot. In it an App is built, a 10 ms ticker runs on
the asyncio loop, and an espeak-ng voice note (Ogg Vorbis, as Telegram's notes are read by
libsndfile) is transcribed the way the bot does it (``transcriber.submit`` awaited):

* ``old``: the in-process ``shared_transcriber`` (Whisper on a worker thread of this process);
* ``new``: ``App.voice.transcriber()`` (Whisper in the App's spawned child, ``core.voice.worker``).

Printed per run: the longest gap the ticker saw (the loop stall; target < 100 ms), the wall time
to the transcript, the peak RSS of the loop's process and (new) of the Whisper child. Figures
vary with the machine's load: they are printed, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NOTE = "Please send the customer a quote for the kitchen window. Call the builder next week."


def _drop_caches() -> str:
    try:
        subprocess.run(["sync"], check=True)
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
    except OSError as exc:
        return f"cache kept ({exc.strerror})"
    return "cache dropped"


def _note(folder: Path) -> Path:
    wav = folder / "note.wav"
    subprocess.run(["espeak-ng", "-s", "150", "-w", str(wav), NOTE], check=True)
    ogg = folder / "note.ogg"
    subprocess.run(["sox", str(wav), "-r", "16000", str(ogg)], check=True)
    return ogg


async def _measure(path: str, note: Path) -> dict[str, float | str]:
    from core.app import build_app

    app = build_app(tempfile.mkdtemp())
    try:
        if path == "old":
            from core.voice.transcriber import shared_transcriber

            transcriber = shared_transcriber(app.settings)
        else:
            transcriber = app.voice.transcriber()  # type: ignore[assignment]
        worst = 0.0
        done = asyncio.Event()

        async def ticker() -> None:
            nonlocal worst
            last = time.perf_counter()
            while not done.is_set():
                await asyncio.sleep(0.01)
                now = time.perf_counter()
                worst = max(worst, now - last - 0.01)
                last = now

        tick = asyncio.ensure_future(ticker())
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        result = await asyncio.wrap_future(transcriber.submit(note, language="en"))
        wall = time.perf_counter() - started
        done.set()
        await tick
        loop_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    finally:
        await app.aclose()
        app.close()  # joins the Whisper child: its peak is in RUSAGE_CHILDREN now
    child_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "stall_ms": worst * 1000,
        "wall_s": wall,
        "loop_rss_mb": loop_rss,
        "child_rss_mb": child_rss if path == "new" else 0.0,
        "text": result.text,
        "faster_whisper_here": "faster_whisper" in sys.modules,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--path", choices=("old", "new", "both"), default="both")
    parser.add_argument("--child", nargs=2, metavar=("PATH", "NOTE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(_measure(args.child[0], Path(args.child[1])))))
        return 0
    paths = ("old", "new") if args.path == "both" else (args.path,)
    with tempfile.TemporaryDirectory() as folder:
        note = _note(Path(folder))
        for run in range(1, args.runs + 1):
            for path in paths:  # interleaved, so the machine's load falls on both alike
                cache = _drop_caches()
                out = subprocess.run(
                    [sys.executable, __file__, "--child", path, str(note)],
                    capture_output=True,
                    text=True,
                    check=True,
                    cwd=ROOT,
                )
                got = json.loads(out.stdout.strip().splitlines()[-1])
                print(
                    f"run {run} {path:3}  stall {got['stall_ms']:6.1f} ms  "
                    f"wall {got['wall_s']:5.2f} s  loop RSS {got['loop_rss_mb']:5.0f} MB  "
                    f"child RSS {got['child_rss_mb']:5.0f} MB  "
                    f"faster_whisper in loop process: {got['faster_whisper_here']}  ({cache})  "
                    f"{got['text'][:40]!r}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
