"""Memory duplicate-check benchmark: how often the cheap pre-filter lets the model be asked.

    .venv/bin/python benchmarks/memory_dedupe.py [--customers 40] [--per-customer 6]

A store with ``customers`` inquiries gets ``per-customer`` notes each (budget, colours, access,
timing, products…: mostly different facts), then one paraphrase per customer of its first note.
Every note goes through ``core.agent.memory_dedupe.propose_memories`` against a loopback model
that judges like a careful cheap model (the paraphrase pairs are "same", all else "different").
Printed: notes saved, model requests, the pairs a model-for-every-pair check would have asked,
paraphrases merged, and the time per note (pre-filter, model round trip and write included).
Exit status 1 when a paraphrase was not merged or an unrelated note was.
"""

from __future__ import annotations

import argparse
import asyncio
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
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")

from sqlalchemy import func, select  # noqa: E402

from core.agent.memory_dedupe import Candidate, propose_memories  # noqa: E402
from core.clock import FakeClock  # noqa: E402
from core.db.models import Memory  # noqa: E402
from core.llm.client import LLMClient  # noqa: E402
from core.services import build_services  # noqa: E402
from tests.drafts.support import add_inquiry  # noqa: E402
from tests.support.llm_server import LLMServer, last_user_text  # noqa: E402

FACTS = [
    "{n} has a tight budget",
    "{n} wants black frames on every window",
    "{n} works night shifts, call after 2pm",
    "{n} needs double glazing for the street side",
    "{n} has a dog, keep the side gate shut",
    "{n} prefers email to phone calls",
    "{n} asked for a builder's discount",
    "{n} lives on a steep block, bring the long ladder",
]
PARAPHRASE = "{n}'s budget is limited"
_DATA = re.compile(r"<data>\n?(.*?)\n?</data>", re.DOTALL)


def judge(request: dict[str, Any]) -> Any:
    new, shown = _DATA.findall(last_user_text(request))
    text = json.loads(new)
    for line in shown.splitlines():
        kept = json.loads(line)
        if "budget is limited" in text and "tight budget" in kept["text"]:
            return {"same_as": kept["id"], "reason": "the same fact"}
    return {"same_as": None, "reason": "different"}


async def run(customers: int, per: int, home: Path) -> int:
    services = build_services(home, clock=FakeClock())
    names = [f"Customer{i:03d} Smith" for i in range(customers)]
    for i, name in enumerate(names):
        add_inquiry(services, email=f"c{i}@example.com", name=name)
    notes = [
        Candidate("customer_note", f.format(n=n.split()[0])) for n in names for f in FACTS[:per]
    ]
    notes += [Candidate("customer_note", PARAPHRASE.format(n=n.split()[0])) for n in names]
    with LLMServer(judge) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        llm = LLMClient(services.settings, services.secrets, services.store, services.clock)
        started = time.perf_counter()
        saved = await propose_memories(services, llm, notes)
        elapsed = time.perf_counter() - started
        await llm.aclose()
        asked = len(srv.chat_requests)
    with services.store.session() as s:
        merged = s.scalar(select(func.count()).where(Memory.seen_count == 2)) or 0
    services.close()
    naive = sum(range(per + 1)) * customers  # every new note against each earlier one of his
    print(f"notes proposed:          {len(notes)}")
    print(f"memories saved:          {len(saved)}")
    print(f"paraphrases merged:      {merged} of {customers}")
    print(f"model requests:          {asked}  (a model call per same-customer pair: {naive})")
    print(f"time per note:           {elapsed / len(notes) * 1000:.1f} ms")
    ok = merged == customers and len(saved) == customers * per
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--customers", type=int, default=40)
    parser.add_argument("--per-customer", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        return asyncio.run(run(args.customers, args.per_customer, Path(home)))


if __name__ == "__main__":
    raise SystemExit(main())
