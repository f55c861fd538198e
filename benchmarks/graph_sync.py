"""Graph sync benchmark: a first sync of a large mailbox, then idle polls, against loopback Graph.

    .venv/bin/python benchmarks/graph_sync.py [--messages 5000] [--idle-polls 20]
                                              [--sink pipeline|null] [--latency 0.002]

Prints:
* first sync: messages, seconds, messages/s; HTTP requests (delta pages + ``$batch`` envelopes
  of ≤ 20 MIME downloads or category PATCHes; target well under Outlook's 10,000 per 10 minutes)
  and the *operations Graph counts* against that limit (each batch part counts: the request
  budget keeps the round under 9,000, deferring category writes it has no room for); the peak
  number of operations in flight seen by the *server* (batch parts included; must never exceed
  graph.max_concurrency = 4) and any 429 (target none);
* idle polls: requests per poll and per watched resource (target exactly 1 each: Inbox delta,
  Sent Items delta, OneDrive delta), LLM calls and inquiry/message writes (target 0).

``--sink pipeline`` (default) runs the real intake pipeline *offline* (rules only, no LLM) into a
temporary data folder, so messages/s includes parsing, prefiltering, extraction and merging;
``--sink null`` measures the Graph layer alone. The LLM server is not used: the point here is
Graph traffic; ``benchmarks/`` of the intake owns LLM throughput.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import func, select

from core.app.graph_runtime import GraphRuntime
from core.db.models import Inquiry, LLMCall, Message
from core.events import InquiryCreated, InquiryUpdated, RecordingBus, StageChanged
from core.graph.client import RequestBudget, StaticToken
from core.intake.pipeline import build_pipeline
from core.services import Services, build_services
from tests.support.graph_server import GraphServer

SUBURBS = ["Ryde", "Epping", "Hurstville", "Parramatta", "Chatswood", "Bondi", "Manly"]
PRODUCTS = ["sliding door", "awning window", "bifold door", "shower screen", "flyscreen"]


class NullSink:
    """Counts what it is given; stands in for the pipeline when only Graph is measured."""

    def __init__(self) -> None:
        self.ingested = 0

    async def ingest_batch(self, raws: list) -> None:
        self.ingested += len(raws)

    async def record_removed(self, graph_id: str) -> None:
        return None


def fill(srv: GraphServer, n: int) -> None:
    now = datetime.now(UTC)
    span = timedelta(days=29).total_seconds()
    for i in range(n):
        customer = i % max(1, n // 3)  # about three messages per customer
        srv.add_message(
            subject=f"Quote for {PRODUCTS[i % len(PRODUCTS)]} #{customer}",
            from_addr=f"customer{customer}@example.com",
            from_name=f"Customer {customer}",
            body=(
                f"Hi, we would like a quote for a {PRODUCTS[i % len(PRODUCTS)]} at "
                f"{customer} Main Rd, {SUBURBS[customer % len(SUBURBS)]}. "
                f"Phone 04{customer % 100:02d} 123 {customer % 1000:03d}. Thanks"
            ),
            received_at=now - timedelta(seconds=span * (n - i) / n),
            is_read=i % 3 == 0,
        )
    for i in range(max(1, n // 50)):
        srv.add_message(
            folder="sentitems",
            subject=f"Re: Quote #{i}",
            from_addr="sales@aurorawindows.com.au",
            to=[f"customer{i}@example.com"],
            body="Thanks, we will be in touch.",
            received_at=now - timedelta(hours=i),
        )
    root = srv.drive_root_id
    stages = {
        name: srv.drive_add(name, parent_id=root, folder=True)
        for name in ("未报价顾客", "厂家已报价", "已报价顾客", "已确定并付定金顾客")
    }
    for i in range(50):
        srv.drive_add(f"Customer {i}", parent_id=stages["未报价顾客"], folder=True)


def counts(services) -> tuple[int, int, int, str, str]:  # type: ignore[no-untyped-def]
    with services.store.session() as s:
        return (
            s.scalar(select(func.count()).select_from(LLMCall)) or 0,
            s.scalar(select(func.count()).select_from(Inquiry)) or 0,
            s.scalar(select(func.count()).select_from(Message)) or 0,
            str(s.scalar(select(func.max(Inquiry.updated_at)))),
            str(s.scalar(select(func.max(Message.updated_at)))),
        )


async def run(args: argparse.Namespace) -> int:
    home = Path(tempfile.mkdtemp(prefix="ib-graph-bench-"))
    bus = RecordingBus()
    services = build_services(home, bus=bus)
    with GraphServer(page_size=args.page_size) as srv:
        srv.latency = args.latency
        t = time.perf_counter()
        fill(srv, args.messages)
        print(
            f"mailbox: {args.messages} inbox + {max(1, args.messages // 50)} sent messages "
            f"(built in {time.perf_counter() - t:.1f} s), 55 OneDrive folders"
        )
        services.settings.set("graph.base_url", srv.base_url)
        sink = NullSink() if args.sink == "null" else None
        runtime = GraphRuntime(
            services,
            pipeline=sink or build_pipeline(services, offline=True),
            token_provider=StaticToken(srv.token or ""),
        )
        runtime.client.budget = RequestBudget(services.clock, limit=args.budget)
        runtime.attach()
        print(
            f"sink: {'null (Graph layer only)' if sink else 'intake pipeline, offline (rules, no LLM)'}"
        )

        ok = await first_sync(args, srv, services, runtime)
        ok &= await idle_polls(args, srv, services, runtime, bus)
        await runtime.aclose()
    services.close()
    print("RESULT:", "OK" if ok else "FAILED")
    return 0 if ok else 1


async def first_sync(
    args: argparse.Namespace, srv: GraphServer, services: Services, runtime: GraphRuntime
) -> bool:
    """The first mail and drive rounds: throughput, requests, batches, concurrency."""
    ok = True
    t = time.perf_counter()
    report, _ = await runtime.mail_round()
    drive = await runtime.drive_round()
    elapsed = time.perf_counter() - t
    http = [r for r in srv.requests if r.batch is None]
    envelopes = [r for r in http if r.path.endswith("/$batch")]
    operations = [r for r in srv.requests if not r.path.endswith("/$batch")]
    values = [r for r in srv.requests_to(r"/[$]value$") if r.batch is not None]
    patches = [r for r in srv.requests_to(r"/me/messages/[^/]+$", "PATCH") if r.batch]
    throttled = [r for r in srv.requests if r.status == 429]
    print(
        f"first sync: {report.new} messages in {elapsed:.1f} s = {report.new / elapsed:.0f} "
        f"messages/s"
    )
    print(
        f"  HTTP requests: {len(http)} ({report.delta_requests} mail delta pages incl. the "
        f"echo of our category writes, {drive.delta_requests} drive pages, "
        f"{len(envelopes)} $batch envelopes, {len(http) - len(envelopes) - report.delta_requests - drive.delta_requests} other)"
    )
    print(
        f"  operations Graph counts (batch parts count one each): {len(operations)} "
        f"({len(values)} $value, {len(patches)} category PATCHes); budget {args.budget} per "
        f"10 min, waited {runtime.client.budget.waited:.0f} s; 429 answers: {len(throttled)}"
    )
    print(
        f"  category writes deferred to later rounds by the budget: {runtime.categories.deferred}"
    )
    peak = srv.peak_in_flight
    print(
        f"peak concurrency (server-observed, batch parts included): {peak} (limit 4) "
        f"{'OK' if peak <= 4 else 'EXCEEDED'}; client slots {runtime.client.peak_in_flight}"
    )
    ok &= peak <= 4 and runtime.client.peak_in_flight <= 4
    # every download and PATCH went in full batches: at most one part-filled envelope per
    # batch call beyond ceil(parts / 20), plus the pages and a handful of single requests
    full = -(-len(values) // 20) + -(-len(patches) // 20)
    ok &= len(envelopes) <= full + 3  # + master categories + the last, partial batches
    ok &= len(operations) <= args.budget and not throttled
    ok &= report.new == args.messages + max(1, args.messages // 50)
    return ok


async def idle_polls(
    args: argparse.Namespace,
    srv: GraphServer,
    services: Services,
    runtime: GraphRuntime,
    bus: RecordingBus,
) -> bool:
    """Polls with nothing new: one request per watched resource, no model calls, no writes."""
    ok = True
    # The first round wrote categories; its own echo was absorbed in that round.
    before = counts(services)
    events_before = len(bus.events)
    per_poll: list[int] = []
    per_resource: set[tuple[str, int]] = set()
    for _ in range(args.idle_polls):
        srv.reset_stats()
        await runtime.mail_round()
        await runtime.drive_round()
        http = [r for r in srv.requests if r.batch is None]
        per_poll.append(len(http))
        by_path: dict[str, int] = {}
        for req in http:
            by_path[req.path] = by_path.get(req.path, 0) + 1
        per_resource.update(by_path.items())
    after = counts(services)
    writes = [
        e
        for e in bus.events[events_before:]
        if isinstance(e, InquiryCreated | InquiryUpdated | StageChanged)
    ]
    resources = sorted({p for p, _ in per_resource})
    print(
        f"idle polls: {args.idle_polls}; requests per poll min/max = "
        f"{min(per_poll)}/{max(per_poll)} over {len(resources)} watched resources"
    )
    for path in resources:
        n = max(c for p, c in per_resource if p == path)
        print(f"  {path.split('/v1.0', 1)[-1]}: {n} request(s) per poll")
    llm_calls = after[0] - before[0]
    inquiry_writes = int(after[1] != before[1] or after[3] != before[3]) + len(writes)
    message_writes = int(after[2] != before[2] or after[4] != before[4])
    print(
        f"idle LLM calls: {llm_calls}; inquiry writes: {inquiry_writes}; "
        f"message writes: {message_writes}"
    )
    ok &= all(c == 1 for _, c in per_resource) and max(per_poll) == len(resources) == 3
    ok &= llm_calls == 0 and inquiry_writes == 0 and message_writes == 0
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--idle-polls", type=int, default=20)
    parser.add_argument("--sink", choices=("pipeline", "null"), default="pipeline")
    parser.add_argument("--page-size", type=int, default=50)
    parser.add_argument("--latency", type=float, default=0.002, help="server seconds/request")
    parser.add_argument(
        "--budget", type=int, default=9000, help="Graph operations per 10 minutes (Outlook: 10,000)"
    )
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
