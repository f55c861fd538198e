"""Crafted mail in the views (offscreen): how long the inquiry detail takes to open a mail of
deeply nested tables, an HTML banner, ``file:``/UNC images and ``search-ms:`` links, and how the
escaping Markdown renderer scales with its input.

    .venv/bin/python benchmarks/inert_render.py [--depths 14,18,40] [--sizes 10000,100000,1000000]

Target (issue 29): the detail view opens in under 1 s at every depth (Qt's rich text took 22 s
at 14 tables and over 200 s at 18); the renderer's time per character stays flat. Prints one
line per figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")


async def detail_seconds(depth: int) -> float:
    """Seconds from asking for the crafted inquiry to its detail view painted."""
    from PySide6.QtWidgets import QApplication
    from sqlalchemy import select

    from core.app import App
    from core.db.models import Inquiry
    from core.intake.pipeline import build_pipeline
    from core.mail.source import RawMessage
    from core.services import build_services
    from desktop.context import build_context
    from desktop.detail import InquiryDetailView
    from tests.support.crafted_mail import SENDER, crafted_mail
    from tests.support.resource_spy import write_png

    home = Path(tempfile.mkdtemp(prefix="inert-bench-"))
    write_png(home / "pixel.png")
    services = build_services(str(home))
    pipeline = build_pipeline(services, offline=True)
    await pipeline.ingest(RawMessage(crafted_mail(home, 9, depth), "eml", "crafted.eml"))
    await pipeline.aclose()
    with services.store.session() as s:
        inquiry_id = s.scalars(select(Inquiry.id).where(Inquiry.customer_email == SENDER)).one()
    ctx = build_context(App(services))
    view = InquiryDetailView(ctx)
    view.resize(1200, 800)
    view.show()
    started = time.perf_counter()
    view.show_inquiry(inquiry_id)
    await view.ready()
    QApplication.processEvents()
    view.grab()
    elapsed = time.perf_counter() - started
    view.close()
    ctx.hub.detach()
    ctx.notifications.detach()
    services.close()
    return elapsed


def renderer_figures(sizes: list[int]) -> None:
    from core.text.inert import markdown_rich_text
    from tests.support.crafted_mail import BANNER, nested_tables

    unit = f"{BANNER}\n{nested_tables(18)}\n**bold** [x](search-ms:q) ![i](file:///x.png)\n"
    for size in sizes:
        text = (unit * (size // len(unit) + 1))[:size]
        started = time.perf_counter()
        markdown_rich_text(text)
        elapsed = time.perf_counter() - started
        print(
            f"renderer {size:>9,} chars: {elapsed * 1000:8.1f} ms ({elapsed / size * 1e6:.2f} µs/char)"
        )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depths", default="14,18,40")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    args = parser.parse_args()
    import qasync

    from desktop.app import make_qapp

    qapp = make_qapp()
    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner:
        for depth in (int(d) for d in args.depths.split(",")):
            seconds = runner.run(detail_seconds(depth))
            verdict = "ok" if seconds < 1.0 else "SLOW"
            print(
                f"detail view, {depth:>3} nested tables: {seconds:.3f} s (target < 1 s: {verdict})"
            )
    renderer_figures([int(s) for s in args.sizes.split(",")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
