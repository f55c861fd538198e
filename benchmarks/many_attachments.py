"""A mail with 10,000 attachments: ingest time and memory, and how fast its detail view opens.

    .venv/bin/python benchmarks/many_attachments.py [--parts 10000]

Issue 40 measured, before the cap per mail: a 1.4 MB mail of 10,000 parts took 17.6 s and
808 MB to open in the detail view; one of 100,000 parts took 69 s and 654 MB to ingest and
wrote 100,000 files. Targets: ingest under 60 s and 500 MB, detail view open under 2 s.

Each step runs in a child process of its own (``ingest --offline``; then the desktop's
``InquiryDetailView`` offscreen), so its peak memory is its own (``os.wait4``). Exit status 1
when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
NOW = "2026-11-30T10:00:00+11:00"


def many_parts_mail(parts: int) -> bytes:
    import datetime

    msg = EmailMessage()
    msg["From"] = "Site Builder <site@example.com>"
    msg["To"] = "sales@aurorawindows.com.au"
    msg["Subject"] = "Quote for sliding doors, photos attached"
    msg["Date"] = format_datetime(datetime.datetime(2026, 11, 28, 9, 0, tzinfo=datetime.UTC))
    msg["Message-ID"] = "<many-parts@example.com>"
    msg.set_content(
        "Hi,\n\nPlease quote a sliding door 2400 x 2100 and two awning windows for our house "
        "at 12 Park Rd, Ryde. Photos of every opening attached. Call me on 0412 555 010.\n\n"
        "Thanks\nSam\n"
    )
    for i in range(parts):
        msg.add_attachment(
            f"photo {i}".encode(), maintype="image", subtype="jpeg", filename=f"p{i:05d}.jpg"
        )
    return bytes(msg)


def run_child(args: list[str]) -> tuple[int, float, float, str]:
    """(exit code, wall seconds, peak RSS MB, stdout) of one child process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "INQUIRY_BRIDGE_NOW": NOW}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    out = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, time.perf_counter() - started, usage.ru_maxrss / 1024, out


def open_detail(home: Path) -> None:
    """Child: open the desktop's detail view of the one inquiry; print the seconds it took."""
    os.environ.setdefault("QT_API", "pyside6")  # qasync picks this binding
    import qasync
    from PySide6.QtWidgets import QApplication

    from core.app import App
    from core.services import build_services
    from desktop.context import build_context
    from desktop.detail import InquiryDetailView
    from desktop.i18n import LanguageManager

    qapp = QApplication.instance() or QApplication([])
    services = build_services(home)
    LanguageManager(services.paths.cache).apply("zh_CN")
    ctx = build_context(App(services))

    async def main() -> float:
        from sqlalchemy import select

        from core.db.models import Inquiry

        [inquiry_id] = services.store.write(lambda s: list(s.scalars(select(Inquiry.id))))
        started = time.perf_counter()
        view = InquiryDetailView(ctx)
        view.resize(1200, 900)
        view.show()
        view.show_inquiry(inquiry_id)
        await view.ready()
        await asyncio.sleep(0)
        view.grab()
        elapsed = time.perf_counter() - started
        files = sum(len(m.attachments) for m in view.detail.messages)
        not_kept = sum(m.attachments_not_kept for m in view.detail.messages)
        print(f"files listed {files}, not kept {not_kept}")
        return elapsed

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner:
        elapsed = runner.run(main())
    ctx.hub.detach()
    ctx.notifications.detach()
    print(f"{elapsed:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=int, default=10_000)
    parser.add_argument("--detail", type=Path, help=argparse.SUPPRESS)  # the child's side
    args = parser.parse_args()
    if args.detail is not None:
        open_detail(args.detail)
        return 0
    with tempfile.TemporaryDirectory(prefix="many-attachments-") as tmp:
        folder, home = Path(tmp) / "eml", Path(tmp) / "home"
        folder.mkdir()
        raw = many_parts_mail(args.parts)
        (folder / "many.eml").write_bytes(raw)
        print(f"mail: {args.parts} attachments, {len(raw) / 1e6:.1f} MB")
        code, wall, rss, _ = run_child(
            ["-m", "core.cli.main", "ingest", "--eml-dir", str(folder), "--offline",
             "--home", str(home)]
        )  # fmt: skip
        files = sum(1 for p in (home / "attachments").rglob("*") if p.is_file())
        print(f"ingest: exit {code}, {wall:.1f} s, peak RSS {rss:.0f} MB, {files} files written")
        print("  (target < 60 s and < 500 MB)")
        dcode, dwall, drss, out = run_child([str(Path(__file__).resolve()), "--detail", str(home)])
        lines = out.strip().splitlines()
        seconds = float(lines[-1]) if dcode == 0 and lines else float("inf")
        print(f"detail view: {lines[0] if lines else '?'}; opened in {seconds:.2f} s "
              f"(child total {dwall:.1f} s, peak RSS {drss:.0f} MB) (target < 2 s)")  # fmt: skip
    ok = code == 0 and wall < 60 and rss < 500 and dcode == 0 and seconds < 2
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
