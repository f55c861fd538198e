"""Budgets on outside input: peak memory and event-loop stalls for the hostile cases of issue 28.

    .venv/bin/python benchmarks/budgets.py [--rows 1048576] [--voice-minutes 30] [--mail-mb 300]
                                           [--skip-mail] [--only xlsx|voice|mail|graph|imap]

Every input is made here (nothing big is committed):

* **xlsx**: a workbook whose sheet declares a million formatted empty rows and 16,384 columns
  (``tests.support.big_inputs``), read by the assistant's ``read_text`` (worker process);
* **voice**: a 30-minute Telegram voice note (sox: real Ogg audio), once with its true stated
  duration and once claiming 3 s, handled by one ``TelegramRunner`` round against the loopback
  Bot API together with a ``/status`` (neither reaches Whisper: the first real transcription, cold, is
  ``benchmarks/voice_stall.py``);
* **mail**: a ``--mail-mb`` MB message (a base64 attachment) through ``ingest --offline`` in a
  child process, once as it comes (the attachment over the 25 MB cap: counted, not written) and
  once with ``attachment_max_mb`` raised so the attachment is decoded to disk and stored. The
  child's peak RSS is the figure (its parser process included); the loop stall is not measured
  there (n/a), so the mail is then ingested once more on this process's own event loop, with
  the ticker beside it (as in the tray app);
* **graph**: the same mail synced from the loopback Graph server (``tests.support.graph_server``
  serving it from its file) by one ``GraphRuntime.mail_round`` in a child process: listed with
  its size, streamed from ``$value`` to the spool and ingested from there. The child's peak RSS
  is the figure, with the loop stall its ticker saw (the server's thread shares that process and
  its GIL, so the stall is an upper bound). For scale, a smaller mail is also synced the old way
  (``$batch``, base64 inside JSON, held whole) with streaming switched off; that figure includes
  the loopback server building the same JSON in the process, so it overstates the client's share;
* **imap**: the same mail appended to a real Dovecot (``tests.support.dovecot``, skipped where it
  is not installed) and synced by ``sync --once --offline`` in a child process: listed with its
  ``RFC822.SIZE`` and fetched in ``BODY.PEEK[]<offset.length>`` pieces to the spool. The child's
  peak RSS is the figure.

For each: wall time, peak RSS of this process and of its children (``ru_maxrss``), and the
longest gap a 10 ms ticker on the event loop saw (the loop stall; target < 100 ms). Figures
vary with the machine's load: they are printed, not asserted. A stall over 50 ms is explained
under its figure by ``benchmarks.stall_watch`` (a watchdog thread sampling the loop thread's stack
and ``gc.callbacks`` recording collections), so an outlier names its cause; the in-process ingest
prints that summary even when quiet, for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.stall_watch import StallWatch  # noqa: E402
from tests.support.big_inputs import empty_rows_xlsx  # noqa: E402
from tests.support.telegram_server import TelegramServer  # noqa: E402

OWNER = 4242


def _mb(kilobytes: int) -> float:
    return kilobytes / 1024 if sys.platform != "darwin" else kilobytes / 1024 / 1024


def _peaks() -> tuple[float, float]:
    return (
        _mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss),
        _mb(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss),
    )


_last_watch: StallWatch | None = None  # the stall sampler of the latest ``_watched``


async def _watched(work: Callable[[], Awaitable[Any]]) -> tuple[Any, float, float]:
    """(result, seconds, longest loop gap in ms) of ``work`` with a 10 ms ticker beside it,
    and a stall sampler (``StallWatch``) whose findings ``_line`` prints under the figure."""
    global _last_watch
    gaps = [0.0]
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    watch = StallWatch(threshold=0.05)

    async def ticker() -> None:
        last = loop.time()
        while not stop.is_set():
            await asyncio.sleep(0.01)
            watch.beat()
            now = loop.time()
            gaps.append(now - last - 0.01)
            last = now

    beat = asyncio.ensure_future(ticker())
    await asyncio.sleep(0.05)
    watch.start()
    start = time.perf_counter()
    try:
        result = await work()
    finally:
        elapsed = time.perf_counter() - start
        stop.set()
        await beat
        watch.stop()
        _last_watch = watch
    return result, elapsed, max(gaps) * 1000


def _line(name: str, seconds: float, stall_ms: float, note: str = "") -> None:
    own, children = _peaks()
    print(
        f"{name:<34} {seconds:7.2f} s   loop stall max {stall_ms:6.1f} ms   "
        f"peak RSS self {own:6.0f} MB, children {children:6.0f} MB  {note}",
        flush=True,
    )
    if _last_watch is not None and stall_ms > _last_watch.threshold * 1000:
        print("\n".join(_last_watch.report()), flush=True)  # what the loop did meanwhile


async def bench_xlsx(folder: Path, rows: int) -> None:
    from core.drive.files import read_text

    made = time.perf_counter()
    path = empty_rows_xlsx(folder / "quote.xlsx", rows=rows)
    size = path.stat().st_size / 1_000_000
    print(
        f"xlsx: {rows:,} rows declared, {size:.1f} MB on disk, made in {time.perf_counter() - made:.1f} s"
    )
    text, seconds, stall = await _watched(lambda: read_text(path, max_chars=20_000))
    _line("assistant reads the xlsx", seconds, stall, f"({len(text)} chars of text)")
    code = f"from core.drive.extract import extract_text; extract_text({str(path)!r}, 20_000)"
    worker = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    _pid, _status, usage = os.wait4(worker.pid, 0)
    print(f"{'  the same read, alone in a process':<34} peak RSS {_mb(usage.ru_maxrss):6.0f} MB")


def _ogg(path: Path, seconds: int) -> bytes:
    subprocess.run(
        ["sox", "-n", "-r", "16000", "-c", "1", str(path), "synth", str(seconds), "pinknoise",
         "vol", "0.05"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return path.read_bytes()


async def bench_voice(folder: Path, minutes: int) -> None:
    from core.clock import FakeClock
    from core.services import build_services
    from core.telegram.runner import TelegramRunner

    audio = _ogg(folder / "long.ogg", minutes * 60)
    print(f"voice: {minutes} min of Ogg Vorbis, {len(audio) / 1_000_000:.1f} MB")
    with TelegramServer() as tg:
        os.environ["INQUIRY_BRIDGE_TELEGRAM_URL"] = tg.base_url
        os.environ["INQUIRY_BRIDGE_TELEGRAM_TOKEN"] = tg.token
        os.environ["INQUIRY_BRIDGE_TELEGRAM_CHAT_ID"] = str(OWNER)
        services = build_services(folder / "home", clock=FakeClock())
        try:
            tg.push_message(OWNER, "/status")  # warm-up: the bot's imports, as in a running app
            warm = TelegramRunner(services)
            await warm.run_once()
            await warm.aclose()
            for name, stated in (("stated", minutes * 60), ("claims 3 s", 3)):
                tg.push_voice(OWNER, audio, duration=stated, suffix="ogg")
                tg.push_message(OWNER, "/status")
                runner = TelegramRunner(services)

                async def round_(r: TelegramRunner = runner) -> None:
                    try:
                        await r.run_once()
                    finally:
                        await r.aclose()

                _, seconds, stall = await _watched(round_)
                texts = [m.visible for m in tg.sent_to(OWNER)][-2:]
                said = "; ".join(t.splitlines()[0][:40] for t in texts)
                _line(f"telegram round, voice {name}", seconds, stall, f"replies: {said}")
        finally:
            services.close()


def bench_mail(folder: Path, megabytes: int) -> None:
    eml = folder / "eml"
    eml.mkdir()
    path = eml / "001.eml"
    chunk = os.urandom(57 * 1024)
    import base64

    with path.open("wb") as out:
        out.write(
            b"From: Big Sender <big@example.com>\r\nTo: sales@aurorawindows.com.au\r\n"
            b"Subject: Plans for the whole house\r\nMessage-ID: <big-1@example.com>\r\n"
            b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n'
            b"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            b"Please quote all windows for 3 Main St, Ryde. Plans attached.\r\n"
            b"--b1\r\nContent-Type: application/pdf; name=plans.pdf\r\n"
            b"Content-Disposition: attachment; filename=plans.pdf\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n"
        )
        encoded = base64.encodebytes(chunk)
        while out.tell() < megabytes * 1_000_000:
            out.write(encoded)
        out.write(b"--b1--\r\n")
    size = path.stat().st_size / 1_000_000
    for name, cap_mb in (("cap 25 MB", 25), ("stored", megabytes + 10)):
        home = folder / f"mailhome-{cap_mb}"
        home.mkdir()
        (home / "settings.toml").write_text(f"[intake]\nattachment_max_mb = {cap_mb}\n")
        start = time.perf_counter()
        worker = subprocess.Popen(
            [sys.executable, "-m", "core.cli.main", "ingest", "--eml-dir", str(eml),
             "--offline", "--home", str(home)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        assert worker.stdout is not None
        output = worker.stdout.read()
        _pid, status, usage = os.wait4(worker.pid, 0)  # its own peak, parser process included
        worker.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        result = output.strip().splitlines()[-1][:60] if output.strip() else ""
        stored = sum(p.stat().st_size for p in (home / "attachments").rglob("*") if p.is_file())
        print(
            f"ingest of a {size:.0f} MB mail ({name}) {seconds:7.2f} s   loop stall n/a   "
            f"peak RSS {_mb(usage.ru_maxrss):6.0f} MB (exit {worker.returncode})   "
            f"attachment bytes stored {stored / 1_000_000:.0f} MB  {result}",
            flush=True,
        )


async def bench_mail_in_process(folder: Path) -> None:
    """The same mail ingested on this process's event loop (as the tray app does): the stall."""
    from core.clock import FakeClock
    from core.intake.pipeline import build_pipeline
    from core.services import build_services
    from core.sources.eml import EmlFolderSource

    services = build_services(folder / "loophome", clock=FakeClock())
    warm = folder / "warm"
    warm.mkdir()
    (warm / "001.eml").write_bytes((ROOT / "resources/demo/01-sarah-mitchell.eml").read_bytes())
    try:
        pipeline = build_pipeline(services, offline=True)
        # first a small mail, as in a running app: imports and first-use caches are not the mail's
        _small, seconds, stall = await _watched(
            lambda: pipeline.ingest_source(EmlFolderSource(warm))
        )
        _line("first small mail on the loop (warm-up)", seconds, stall)
        source = EmlFolderSource(folder / "eml")
        report, seconds, stall = await _watched(lambda: pipeline.ingest_source(source))
        _line("ingest on the event loop", seconds, stall, f"(processed {report.processed})")
        if _last_watch is not None and stall <= _last_watch.threshold * 1000:
            print("\n".join(_last_watch.report()), flush=True)  # the quiet case, for comparison
    finally:
        services.close()


def _write_mail(path: Path, megabytes: int) -> None:
    import base64

    chunk = os.urandom(57 * 1024)
    encoded = base64.encodebytes(chunk)
    with path.open("wb") as out:
        out.write(
            b"From: Big Sender <big@example.com>\r\nTo: sales@aurorawindows.com.au\r\n"
            b"Subject: Plans for the whole house\r\nMessage-ID: <big-g@example.com>\r\n"
            b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n'
            b"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            b"Please quote all windows for 3 Main St, Ryde. Plans attached.\r\n"
            b"--b1\r\nContent-Type: application/pdf; name=plans.pdf\r\n"
            b"Content-Disposition: attachment; filename=plans.pdf\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n"
        )
        while out.tell() < megabytes * 1_000_000:
            out.write(encoded)
        out.write(b"--b1--\r\n")


def bench_graph_mail(folder: Path, megabytes: int, batch_megabytes: int) -> None:
    """Sync a big mail from loopback Graph in a child process; print its peak RSS."""
    runs = [("streamed", megabytes, "stream")]
    if batch_megabytes:
        runs.append(("$batch, the old way", batch_megabytes, "batch"))
    for name, size_mb, mode in runs:
        path = folder / f"graph-{size_mb}.eml"
        _write_mail(path, size_mb)
        home = folder / f"graphhome-{mode}"
        home.mkdir()
        (home / "settings.toml").write_text(f"[intake]\nattachment_max_mb = {size_mb + 10}\n")
        worker = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--graph-child", str(path),
             str(home), mode],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert worker.stdout is not None
        output = worker.stdout.read().strip()
        _pid, status, usage = os.wait4(worker.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        print(
            f"graph sync of a {path.stat().st_size / 1e6:.0f} MB mail ({name}) "
            f"peak RSS {_mb(usage.ru_maxrss):6.0f} MB (exit {code})   {output.splitlines()[-1:]}",
            flush=True,
        )
        path.unlink()


def bench_imap_mail(folder: Path, megabytes: int) -> None:
    """Sync a big mail from a real Dovecot in a child ``sync --once``; print its peak RSS."""
    from tests.support import dovecot

    if not dovecot.available():
        print("imap: dovecot is not installed, skipped", flush=True)
        return
    path = folder / f"imap-{megabytes}.eml"
    _write_mail(path, megabytes)
    home = folder / "imaphome"
    home.mkdir()
    (home / "settings.toml").write_text(f"[intake]\nattachment_max_mb = {megabytes + 10}\n")
    with dovecot.running() as server:
        # appended by a process of its own: this one must not grow by the mail, since a child
        # forked from it starts with its resident size (and ru_maxrss keeps that across exec)
        append = (
            "import sys, time; from pathlib import Path; from tests.support.dovecot import "
            "DovecotServer; s = DovecotServer.__new__(DovecotServer); s.port = int(sys.argv[1]); "
            "s.user, s.password = sys.argv[2], sys.argv[3]; "
            "s.append(Path(sys.argv[4]).read_bytes(), when=time.time() - 3600)"
        )
        subprocess.run(
            [sys.executable, "-c", append, str(server.port), server.user, server.password,
             str(path)],
            cwd=ROOT, check=True,
        )  # fmt: skip
        env = {
            **os.environ,
            "INQUIRY_BRIDGE_IMAP_URL": server.url,
            "INQUIRY_BRIDGE_MAIL_PASSWORD": server.password,
        }
        start = time.perf_counter()
        worker = subprocess.Popen(
            [sys.executable, "-m", "core.cli.main", "sync", "--once", "--offline",
             "--home", str(home)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert worker.stdout is not None
        output = worker.stdout.read().strip()
        _pid, status, usage = os.wait4(worker.pid, 0)
        seconds = time.perf_counter() - start
    stored = sum(p.stat().st_size for p in (home / "attachments").rglob("*") if p.is_file())
    print(
        f"imap sync of a {path.stat().st_size / 1e6:.0f} MB mail (pieces) {seconds:7.2f} s   "
        f"peak RSS {_mb(usage.ru_maxrss):6.0f} MB (exit {os.waitstatus_to_exitcode(status)})   "
        f"attachment bytes stored {stored / 1e6:.0f} MB  {output.splitlines()[-1:]}",
        flush=True,
    )
    path.unlink()


async def _graph_child(mail: Path, home: Path, mode: str) -> None:
    from core.app.graph_runtime import GraphRuntime
    from core.clock import FakeClock
    from core.graph.client import StaticToken
    from core.intake.pipeline import build_pipeline
    from core.services import build_services
    from tests.support.graph_server import GraphServer

    clock = FakeClock()
    services = build_services(home, clock=clock)
    with GraphServer(now=clock.now) as srv:
        services.settings.set("graph.base_url", srv.base_url)
        runtime = GraphRuntime(
            services,
            pipeline=build_pipeline(services, offline=True),
            token_provider=StaticToken(srv.token or ""),
        )
        if mode == "batch":
            runtime.mail.spool = None
        srv.add_message(subject="Door", body="Quote a door for 9 High St.")
        await runtime.mail_round()  # warm-up: a running app
        srv.add_message(raw_path=mail)
        (report, _), seconds, stall = await _watched(runtime.mail_round)
        stored = sum(p.stat().st_size for p in (home / "attachments").rglob("*") if p.is_file())
        await runtime.aclose()
    services.close()
    print(
        f"{seconds:.2f} s, loop stall max {stall:.0f} ms, new={report.new}, "
        f"attachment bytes stored {stored / 1e6:.0f} MB"
    )


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--graph-child":
        asyncio.run(_graph_child(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_048_576)
    parser.add_argument("--voice-minutes", type=int, default=30)
    parser.add_argument("--mail-mb", type=int, default=300)
    parser.add_argument("--skip-mail", action="store_true")
    parser.add_argument("--only", choices=("xlsx", "voice", "mail", "graph", "imap"))
    parser.add_argument("--graph-batch-mb", type=int, default=60, help="0: skip the $batch run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.only in (None, "xlsx"):
            asyncio.run(bench_xlsx(folder, args.rows))
        if args.only in (None, "voice"):
            asyncio.run(bench_voice(folder, args.voice_minutes))
        if args.only == "mail" or (args.only is None and not args.skip_mail):
            bench_mail(folder, args.mail_mb)
            asyncio.run(bench_mail_in_process(folder))
        if args.only == "graph" or (args.only is None and not args.skip_mail):
            bench_graph_mail(folder, args.mail_mb, args.graph_batch_mb)
        if args.only == "imap" or (args.only is None and not args.skip_mail):
            bench_imap_mail(folder, args.mail_mb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
