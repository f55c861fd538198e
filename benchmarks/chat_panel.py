"""Chat panel benchmark (offscreen): does the window keep answering while the assistant works?

    .venv/bin/python benchmarks/chat_panel.py [--inquiries 5000] [--latency 0.2] [--turns 3]

The main window over a seeded store, the chat panel open, a loopback model that answers every
request after ``--latency`` seconds with tool calls: five tool rounds (search, read, pipeline,
draft a reply — with the composer's own model call —, search again) and the answer in the sixth.
An asyncio ticker (every 10 ms) measures how late the loop runs while the turns go through the
panel exactly as when the owner presses Enter. Also: the time to show a long day's history.
Target (issue 14): loop lag p99 < 50 ms during a 6-round tool loop. Prints one line per figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")

from tests.support.llm_server import LLMServer, last_user_text, schema_name  # noqa: E402

TICK = 0.01


def six_round_model(request: dict[str, Any]) -> Any:
    """Five rounds of tool calls, then the answer (well within ``MAX_TOOL_ROUNDS``, 15)."""
    if schema_name(request):
        return {
            "subject": "Re: your enquiry",
            "body_en": "Dear customer,\n\nWe can measure on site next Tuesday.\n\nKind regards",
            "body_zh": "您好：\n\n我们下周二可以上门测量。\n\n此致",
        }
    done = sum(1 for m in request["messages"] if m.get("role") == "tool")
    found = re.search(r"\[current inquiry: #(\d+)\]", last_user_text(request))
    inquiry_id = int(found.group(1)) if found else 1
    script: list[tuple[str, dict[str, Any]]] = [
        ("search_inquiries", {"query": "Chen"}),
        ("get_inquiry", {"inquiry_id": inquiry_id}),
        ("pipeline_summary", {}),
        ("draft_reply", {"inquiry_id": inquiry_id, "instruction": "下周二上门量尺"}),
        ("search_inquiries", {"query": "Ryde"}),
    ]
    if done < len(script):
        name, arguments = script[done]
        return [{"name": name, "arguments": arguments}]
    return "已起草回复，**待审批**，尚未发送。\n\n- 本周新询盘：见上\n- 需要量尺：下周二"


class LagProbe:
    """How late an asyncio ticker wakes up (ms), while it runs."""

    def __init__(self, tick: float = TICK) -> None:
        self.tick = tick
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(self.tick)
            self.lags.append(max(0.0, (loop.time() - t - self.tick) * 1000))

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def percentile(self, q: float) -> float:
        ordered = sorted(self.lags)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def run_turns(panel: Any, texts: list[str], probe: LagProbe) -> float:
    """Each text through the panel as if typed + Enter; returns the seconds it took."""
    started = time.perf_counter()
    probe.start()
    for text in texts:
        panel.input.setPlainText(text)
        panel.send()
        while panel.busy:
            await asyncio.sleep(0.01)
    await probe.stop()
    return time.perf_counter() - started


async def bench(home: Path, inquiries: int, latency: float, turns: int) -> None:
    from core.app import App
    from core.services import build_services
    from desktop.context import build_context
    from desktop.main_window import MainWindow
    from tests.desktop.seed import seed_inquiries

    services = build_services(home)
    seed_inquiries(services, inquiries, messages=True)
    with LLMServer(six_round_model, latency=latency) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        ctx = build_context(App(services))
        window = MainWindow(ctx)
        window.resize(1366, 768)
        window.show()
        await window.board.ready()
        window.board.select_row(0)
        window.show_assistant()
        panel = window.chat.panel
        probe = LagProbe()
        seconds = await run_turns(panel, ["给他回复，说下周二上门量尺"] * turns, probe)
        rounds = len([r for r in server.chat_requests if r.body.get("tools")])
        print(
            f"{turns} turns x 6 rounds ({rounds} tool-loop requests, model latency "
            f"{latency * 1000:.0f} ms) in {seconds:.1f} s over {inquiries} inquiries; loop lag "
            f"p50 {probe.percentile(0.5):.1f} ms, p99 {probe.percentile(0.99):.1f} ms, "
            f"max {max(probe.lags):.1f} ms (target p99 < 50)"
        )
        history_figure(panel)
        for approval in list(window.pending.windows.values()):
            await approval.ready()
            approval.close()
        window.close()
        await ctx.app.aclose()
        ctx.close()


def history_figure(panel: Any) -> None:
    """A long day: 60 turns with Markdown answers, shown when the panel opens."""
    from desktop.chat.transcript import Entry

    entries = []
    for i in range(60):
        entries.append(Entry("user", f"第 {i} 个问题：Billy 的平面图在哪？"))
        entries.append(Entry("assistant", json.dumps({"i": i}) + "\n\n- **要点** 一\n- 要点二"))
    t = time.perf_counter()
    panel.transcript.set_entries(entries)
    print(f"a 60-turn day shown in {(time.perf_counter() - t) * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inquiries", type=int, default=5000)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--turns", type=int, default=3)
    args = parser.parse_args()
    import qasync

    from desktop.app import make_qapp

    qapp = make_qapp()
    with (
        tempfile.TemporaryDirectory() as tmp,
        asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner,
    ):
        runner.run(bench(Path(tmp) / "home", args.inquiries, args.latency, args.turns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
