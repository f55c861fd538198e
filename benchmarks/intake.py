"""Intake benchmark: 1,000 generated messages through the real pipeline and a slow loopback model.

    .venv/bin/python benchmarks/intake.py [--messages 1000] [--latency 0.2] [--concurrency 10]

Generates a realistic mix — rule-skippable mail (auto-replies, newsletters), new inquiries, supplier
mail (not inquiries) and customer replies carrying their quoted history — and ingests it in arrival
order into a temporary data folder, against ``tests.support.llm_server.LLMServer`` answering every
call after ``--latency`` seconds. The responder plays the model with simple rules on what the
prompt contains (subject, "Re:", supplier words).

Prints (from the ``llm_calls`` ledger, not from counters in the code under test):
    messages/s; LLM calls per message by tier and by disposition; prompt tokens per threaded message
    with and without quote stripping; wall time / floor (floor = calls × latency ÷ concurrency);
    pipeline CPU per message (this process, its event-loop thread, its parser worker processes —
    the meaningful figure when the machine is shared, since wall time then depends on others).
Targets: ≤ 1.3× floor; 0 calls for skipped mail; ≤ 2 calls per inquiry email; stripping cuts
prompt tokens on threaded mail by ≥ 50 %. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from core.clock import SystemClock  # noqa: E402
from core.db.models import LLMCall, Message  # noqa: E402
from core.events import EventBus  # noqa: E402
from core.intake.pipeline import IntakePipeline  # noqa: E402
from core.llm.client import LLMClient  # noqa: E402
from core.mail.source import RawMessage  # noqa: E402
from core.secrets import Secrets  # noqa: E402
from core.services import Services, build_services  # noqa: E402
from tests.support.llm_server import LLMServer, last_user_text, system_text  # noqa: E402

SUBURBS = [
    "Ryde",
    "Blacktown",
    "Epping",
    "Parramatta",
    "Castle Hill",
    "Hornsby",
    "Penrith",
    "Chatswood",
    "Strathfield",
    "Kellyville",
    "Dundas",
    "Westmead",
    "Eastwood",
    "Northmead",
]
PRODUCTS = [
    ("sliding window", "sliding_window"),
    ("awning window", "awning_window"),
    ("stacker door", "stacker_door"),
    ("security door", "security_door"),
    ("shower screen", "shower_screen"),
    ("flyscreen", "flyscreen"),
    ("bifold door", "bifold_door"),
    ("double hung window", "double_hung_window"),
]
FIRST = [
    "Amy",
    "Ben",
    "Chloe",
    "Dev",
    "Ella",
    "Finn",
    "Grace",
    "Hugo",
    "Isla",
    "Jack",
    "Kai",
    "Lena",
    "Mia",
    "Noah",
    "Olivia",
    "Priya",
    "Quinn",
    "Ruby",
    "Sam",
    "Tom",
    "Wei",
    "Yuki",
]
LAST = ["Nguyen", "Smith", "Chen", "Patel", "Brown", "Wilson", "Tran", "Kowalski", "Li", "Jones"]
OWN = "sales@aurorawindows.com.au"
CPU_SECONDS: list[float] = []  # process CPU of each run (all threads)
LOOP_CPU_SECONDS: list[float] = []  # CPU of the event loop's thread during each run
WORKER_CPU_SECONDS: list[float] = []  # CPU of the parser worker processes of each run
START = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def _email(**fields: Any) -> bytes:
    msg = EmailMessage()
    for name in ("From", "To", "Subject", "Message-ID", "In-Reply-To", "References"):
        value = fields.get(name.lower().replace("-", "_").replace("from", "from_"))
        if value:
            msg[name] = value
    msg["Date"] = format_datetime(fields["date"])
    for name, value in fields.get("headers", {}).items():
        msg[name] = value
    msg.set_content(fields["body"])
    return bytes(msg)


def _skip_mail(rnd: random.Random, i: int, mid: str, when: datetime) -> bytes:
    """An auto-reply or a newsletter: the prefilter's to skip."""
    if rnd.random() < 0.5:
        data = _email(
            from_=f"Office <office{i}@builder.example>",
            to=OWN,
            subject=f"Automatic reply: Job {i}",
            message_id=mid,
            date=when,
            body="I am out of the office until Monday and will reply on my return.",
            headers={"Auto-Submitted": "auto-replied"},
        )
    else:
        data = _email(
            from_="Trade News <news@trade.example>",
            to=OWN,
            message_id=mid,
            date=when,
            subject=f"Trade night #{i} and price index",
            body="Our monthly newsletter. " * 20,
            headers={"List-Unsubscribe": "<mailto:u@trade.example>", "Precedence": "bulk"},
        )
    return data


def _supplier_mail(i: int, mid: str, when: datetime) -> bytes:
    """A supplier's order acknowledgement: one classify call, not an inquiry."""
    data = _email(
        from_="Orders <orders@extrusions.example>",
        to=OWN,
        message_id=mid,
        date=when,
        subject=f"Sales order acknowledgement SO-{40000 + i}",
        body=f"Supplier order SO-{40000 + i} confirmed: 24 lengths of 6 m mill finish. "
        "Delivery Tuesday.",
    )
    return data


def _new_mail(
    rnd: random.Random, i: int, mid: str, when: datetime, threads: list[dict[str, Any]]
) -> bytes:
    """A new inquiry; starts a thread later replies pick from."""
    name = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
    suburb = rnd.choice(SUBURBS)
    words, key = rnd.choice(PRODUCTS)
    address = f"{rnd.randint(1, 120)} {rnd.choice(['Quarry', 'Elm', 'Bali', 'Oak'])} St"
    phone = f"04{rnd.randint(10, 99)} {rnd.randint(100, 999)} {rnd.randint(100, 999)}"
    email = f"{name.lower().replace(' ', '.')}.{i}@example.com"
    subject = f"Quote for {words} - {suburb}"
    body = (
        f"Hello,\n\nWe would like a quote for a {words} at {address}, {suburb}. "
        f"The opening is about {rnd.randint(6, 30) * 100} x {rnd.randint(6, 24) * 100} mm "
        "and the frame should be white powder coat. We are renovating the back of the "
        "house and would like it done before winter if possible. Please let us know "
        "what information you need from us and when someone could come out.\n\n"
        f"Thanks,\n{name}\n{phone}\n"
    )
    data = _email(
        from_=f"{name} <{email}>",
        to=OWN,
        subject=subject,
        message_id=mid,
        date=when,
        body=body,
    )
    threads.append(
        {
            "name": name,
            "email": email,
            "subject": subject,
            "ids": [mid],
            "history": [(when, name, body)],
            "suburb": suburb,
            "key": key,
        }
    )
    return data


def _reply_mail(
    rnd: random.Random, mid: str, when: datetime, threads: list[dict[str, Any]]
) -> bytes:
    """A customer's reply quoting the whole thread so far (our answer included)."""
    thread = rnd.choice(threads)
    ours = (
        f"Hi {thread['name'].split()[0]},\n\nThanks for your email. We can come out on "
        "Thursday between 1 and 3pm to measure. It usually takes about 45 minutes and we "
        "will bring glass samples so you can compare standard and double glazed units. "
        "Our quote will follow within two working days of the measure. In the meantime "
        "you may like to look at the colour chart and the hardware options on our "
        "website; most customers choose between white, monument and black, and the "
        "standard lead time after the order is four to five weeks.\n\nKind regards,"
        "\nDavid Zhou\nAurora Windows & Doors\nUnit 4, 12 Station Rd, Seven Hills NSW "
        "2147\nM 0400 118 652 | T (02) 9624 3370 | www.aurorawindows.com.au\n\n"
        "This email and any attachments are confidential and intended only for the "
        "addressee. If you have received it in error, please notify the sender and "
        "delete it. Quotes are valid for 30 days and subject to a site measure.\n"
    )
    thread["history"].append((when - timedelta(hours=3), "Aurora Windows & Doors", ours))
    new_text = rnd.choice(
        [
            "Thursday is fine, the side gate is unlocked.",
            "Could you also confirm the colour options?",
            "Thanks, we accept the quote. When can you install?",
            "Is double glazing much more expensive?",
        ]
    )
    quoted = ""
    outlook = rnd.random() < 0.5  # Outlook header blocks or Gmail "> " quoting
    for at, who, text in reversed(thread["history"]):
        if outlook:
            quoted += (
                f"\n\n-----Original Message-----\nFrom: {who}\n"
                f"Sent: {at:%A, %d %B %Y %I:%M %p}\nTo: {OWN}\n"
                f"Subject: {thread['subject']}\n\n{text}"
            )
        else:
            lines = "\n".join("> " + ln for ln in text.splitlines())
            quoted += f"\n\nOn {at:%a, %d %b %Y at %H:%M}, {who} wrote:\n{lines}"
    body = f"{new_text}\n\n{thread['name'].split()[0]}{quoted}\n"
    data = _email(
        from_=f"{thread['name']} <{thread['email']}>",
        to=OWN,
        subject=f"Re: {thread['subject']}",
        message_id=mid,
        date=when,
        in_reply_to=thread["ids"][-1],
        references=" ".join(thread["ids"]),
        body=body,
    )
    thread["ids"].append(mid)
    thread["history"].append((when, thread["name"], new_text))
    return data


def generate(n: int, seed: int = 7) -> tuple[list[RawMessage], dict[str, str]]:
    """``n`` messages in arrival order and the kind of each (by Message-ID)."""
    rnd = random.Random(seed)
    out: list[RawMessage] = []
    kinds: dict[str, str] = {}
    threads: list[dict[str, Any]] = []
    for i in range(n):
        when = START + timedelta(minutes=7 * i)
        mid = f"<bench.{i}@mail.example>"
        roll = rnd.random()
        if roll < 0.15:
            kind, data = "skip", _skip_mail(rnd, i, mid, when)
        elif roll < 0.22:
            kind, data = "supplier", _supplier_mail(i, mid, when)
        elif roll < 0.60 or not threads:
            kind, data = "new", _new_mail(rnd, i, mid, when, threads)
        else:
            kind, data = "reply", _reply_mail(rnd, mid, when, threads)
        kinds[mid] = kind
        out.append(RawMessage(raw=data, source="eml", source_ref=f"{i:04d}.eml"))
    return out, kinds


def responder(request: dict[str, Any]) -> Any:
    """Plays the model with simple rules on what the prompt contains."""
    system, user = system_text(request), last_user_text(request)
    subject = (re.search(r"^Subject: (.*)$", user, re.M) or [None, ""])[1]
    if "sort incoming email" in system:
        if subject.lower().startswith("re:"):
            label = "R"
        elif "order" in subject.lower() or "supplier" in user.lower():
            label = "C"
        else:
            label = "B"
        return {
            "labels": [label],
            "confidence": "high",
            "reason": "benchmark",
            "has_site_address": True,
            "needs_measure": False,
            "has_sizes": True,
            "new_project": False,
        }
    products = [key for words, key in PRODUCTS if words in user.lower()][:1]
    suburb = next((s for s in SUBURBS if s in subject), None)
    phone = re.search(r"\b04\d\d \d{3} \d{3}\b", user)
    return {
        "customer_name": None,
        "email": None,
        "phone": phone.group(0) if phone else None,
        "address": None,
        "suburb": suburb if not subject.lower().startswith("re:") else None,
        "product_types": products,
        "dimensions": [],
        "urgency": "normal",
        "language": "en",
    }


async def _aiter(items: list[RawMessage]) -> AsyncIterator[RawMessage]:
    for item in items:
        yield item


async def run(
    raws: list[RawMessage], home: Path, base_url: str, concurrency: int, *, strip: bool
) -> tuple[float, Services]:
    services = build_services(
        home, clock=SystemClock(), bus=EventBus(), secrets=Secrets(environ={})
    )
    services.settings.update(
        {"llm.base_url": base_url, "llm.concurrency": concurrency, "llm.max_retries": 0}
    )
    llm = LLMClient(services.settings, services.secrets, services.store, services.clock)
    pipeline = IntakePipeline(services, llm, strip_quotes_enabled=strip)
    children = _children_cpu()  # the model process is still running: not counted here
    started, cpu, loop_cpu = time.perf_counter(), time.process_time(), time.thread_time()
    await pipeline.ingest_source(_aiter(raws))
    wall = time.perf_counter() - started
    CPU_SECONDS.append(time.process_time() - cpu)
    LOOP_CPU_SECONDS.append(time.thread_time() - loop_cpu)
    WORKER_CPU_SECONDS.append(_children_cpu() - children)  # workers are reaped at run end
    await llm.aclose()
    return wall, services


def _children_cpu() -> float:
    """CPU of reaped child processes (POSIX; 0 elsewhere, where the worker figure is omitted)."""
    try:
        import resource
    except ImportError:
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def latencies(services: Services) -> list[int]:
    with services.store.session() as s:
        return [int(ms) for (ms,) in s.execute(select(LLMCall.latency_ms)).all()]


def ledger(services: Services) -> tuple[dict[str, str], list[tuple[int, int, int]]]:
    with services.store.session() as s:
        dispositions = dict(s.execute(select(Message.message_id, Message.disposition)).all())
        pks = dict(s.execute(select(Message.id, Message.message_id)).all())
        calls = [
            (pks.get(pk), tier, tokens)
            for pk, tier, tokens in s.execute(
                select(LLMCall.message_pk, LLMCall.tier, LLMCall.prompt_tokens)
            ).all()
        ]
    return dispositions, calls  # type: ignore[return-value]


@contextlib.contextmanager
def model_process(latency: float) -> Iterator[str]:
    """The loopback model in its own process, as a real endpoint is: its CPU is not ours."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(latency)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().strip()
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=10)


def serve(latency: float) -> int:
    with LLMServer(responder, latency=latency) as srv:
        print(srv.base_url, flush=True)
        sys.stdin.read()  # until the benchmark closes our stdin
    return 0


@dataclass
class Measured:
    """What the two runs recorded (from the ledger, not from counters in the code under test)."""

    wall: float
    dispositions: dict[str, str]
    calls: list[Any]  # (message id, tier, prompt tokens)
    call_ms: list[int]
    plain_calls: list[Any]


def measure(args: argparse.Namespace, raws: list[RawMessage], kinds: dict[str, str]) -> Measured:
    """The timed run, then the threaded mail again without stripping on a fast model."""
    with tempfile.TemporaryDirectory() as tmp, model_process(args.latency) as url:
        wall, services = asyncio.run(
            run(raws, Path(tmp) / "home", url, args.concurrency, strip=True)
        )
        dispositions, calls = ledger(services)
        call_ms = latencies(services)
        services.close()
    # the same threaded mail without stripping, on a fast model (only tokens matter here)
    threaded = [r for r in raws if kinds[_mid(r)] in ("new", "reply")]
    with tempfile.TemporaryDirectory() as tmp, model_process(0.0) as url:
        _, plain_services = asyncio.run(
            run(threaded, Path(tmp) / "home", url, args.concurrency, strip=False)
        )
        _, plain_calls = ledger(plain_services)
        plain_services.close()
    return Measured(wall, dispositions, calls, call_ms, plain_calls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--serve", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        return serve(args.serve)
    raws, kinds = generate(args.messages)
    m = measure(args, raws, kinds)
    n, wall = len(raws), m.wall
    per_message: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for mid, tier, tokens in m.calls:
        per_message[mid].append((tier, tokens))
    floor = len(m.calls) * args.latency / args.concurrency
    print(f"messages: {n} ({dict(Counter(kinds.values()))})")
    print(f"dispositions: {dict(Counter(v.split(':')[0] for v in m.dispositions.values()))}")
    print(
        f"wall: {wall:.2f} s  ->  {n / wall:.1f} messages/s  "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print_costs(args, m, n)
    per_kind: dict[str, list[int]] = defaultdict(list)
    for mid, kind in kinds.items():
        per_kind[kind].append(len(per_message.get(mid, [])))
    for kind, counts in sorted(per_kind.items()):
        print(f"  {kind:<8} calls/message: mean {sum(counts) / len(counts):.2f} max {max(counts)}")
    cut = token_cut(per_message, m.plain_calls, kinds)
    ratio = wall / floor if floor else float("inf")
    print(
        f"floor: {floor:.2f} s (calls x {args.latency} s / {args.concurrency})  "
        f"wall/floor: {ratio:.2f}  (max in flight {args.concurrency})"
    )
    skipped_calls = max(per_kind.get("skip", [0]))
    inquiry_calls = max(per_kind.get("new", [0]) + per_kind.get("reply", [0]))
    checks = {
        "wall <= 1.3x floor": ratio <= 1.3,
        "0 calls for skipped mail": skipped_calls == 0,
        "<= 2 calls per inquiry email": inquiry_calls <= 2,
        "stripping cuts threaded prompt tokens >= 50%": cut >= 0.5,
    }
    for name, ok in checks.items():
        print(f"  [{'ok' if ok else 'MISSED'}] {name}")
    return 0 if all(checks.values()) else 1


def print_costs(args: argparse.Namespace, m: Measured, n: int) -> None:
    """CPU per message, model latency as the client saw it, calls by tier."""
    process_ms, loop_ms = CPU_SECONDS[0] / n * 1000, LOOP_CPU_SECONDS[0] / n * 1000
    worker_ms = WORKER_CPU_SECONDS[0] / n * 1000
    print(
        f"pipeline CPU per message: {process_ms + worker_ms:.1f} ms = process {process_ms:.1f} ms "
        f"(event-loop thread {loop_ms:.1f} ms) + parser worker {worker_ms:.1f} ms  "
        "(the figure to compare on a loaded machine; the model server is not counted)"
    )
    mean_ms = sum(m.call_ms) / max(1, len(m.call_ms))
    print(
        f"model call latency seen by the client: mean {mean_ms:.0f} ms "
        f"(server sleeps {args.latency * 1000:.0f} ms); calls in flight on average "
        f"{sum(m.call_ms) / 1000 / m.wall:.2f} of {args.concurrency}"
    )
    by_tier = Counter(t for _, t, _ in m.calls)
    total_calls = len(m.calls)
    print(
        f"LLM calls: {total_calls}  by tier: {dict(sorted(by_tier.items()))}  "
        f"per message: {total_calls / n:.2f} "
        f"(tier1 {by_tier[1] / n:.2f}, tier2 {by_tier[2] / n:.2f})"
    )


def token_cut(
    per_message: dict[str, list[tuple[int, int]]],
    plain_calls: list[Any],
    kinds: dict[str, str],
) -> float:
    """How much quote stripping cut the prompt tokens of replies (printed, and returned)."""
    stripped = [sum(t for _, t in per_message[m]) for m, k in kinds.items() if k == "reply"]
    plain_per: dict[str, int] = defaultdict(int)
    for mid, _, tokens in plain_calls:
        plain_per[mid] += tokens
    unstripped = [plain_per[m] for m, k in kinds.items() if k == "reply"]
    s_mean = sum(stripped) / max(1, len(stripped))
    u_mean = sum(unstripped) / max(1, len(unstripped))
    cut = 1 - s_mean / u_mean if u_mean else 0.0
    print(
        f"prompt tokens per threaded message: with stripping {s_mean:.0f}, "
        f"without {u_mean:.0f}  ->  cut {cut:.0%}"
    )
    return cut


def _mid(raw: RawMessage) -> str:
    match = re.search(rb"^Message-ID: (<[^>]+>)", raw.raw, re.M)
    return match.group(1).decode() if match else ""


if __name__ == "__main__":
    raise SystemExit(main())
