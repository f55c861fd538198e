"""The demo data set: the bundled demo mailbox ingested into a separate demo data folder.

A newcomer without a Microsoft account clicks 试用示例数据 and sees a populated board in seconds.
The demo goes through the real intake pipeline (offline: rules only, no network), so what the
board shows is what the product really does with such mail; nothing is faked in the store.
Three touches make it feel current: the messages' dates are shifted so the newest arrived a couple
of hours ago (by the injected clock), an inquiry still in its first stage has waited there since
its first email, and the stage moves in ``resources/demo/stages.json`` are replayed through the real ``StageService``
at their "days ago" times, so the stage bar, overdue markers and stage history all have something
to show. Opened again weeks later, ``refresh_dates`` moves every date in the demo folder forward
by the time that passed, so a reply debt still reads days, never "260 天". It never touches the
owner's real data folder.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path

from sqlalchemy import DateTime, func, select, update
from sqlalchemy.orm import Session

from core import tasks
from core.clock import Clock, naive_utc, utc
from core.db.models import AppState, Base, Inquiry, Message, StageEvent
from core.demo_drafts import write_sample_drafts
from core.glossary import resources_dir
from core.inquiry.stages import StageService
from core.intake.pipeline import IngestReport, IntakePipeline
from core.mail.source import RawMessage
from core.services import Services

DEMO_STATE_KEY = "demo_loaded_at"
# the demo folder's own company profile (fictional); the owner's real settings start empty
DEMO_PROFILE = {
    "general.company_name": "Aurora Windows & Doors",
    "general.owner_name": "Michael Chen",
    "general.office_address": "1 Parramatta Rd, Granville NSW 2142",
    "drafts.signature": "Kind regards,\nMichael Chen\nAurora Windows & Doors",
    "general.owner_addresses": ["sales@aurorawindows.com.au"],
}
_DATE = re.compile(rb"^Date:[ \t]*(.+?)\r?$", re.MULTILINE | re.IGNORECASE)
_FROM = re.compile(rb"^From:.*?<?([\w.+-]+@[\w.-]+)>?\s*\r?$", re.MULTILINE | re.IGNORECASE)


def _literal(replacement: bytes) -> Callable[[re.Match[bytes]], bytes]:
    """A ``re.sub`` replacement taken as is (no backslash escapes in a date header)."""
    return lambda _match: replacement


def demo_dir() -> Path:
    return resources_dir() / "demo"


@dataclass(frozen=True)
class DemoResult:
    report: IngestReport
    inquiries: int
    already_loaded: bool = False


class _FixedClock:
    """A clock standing at one moment (stage moves replayed "days ago")."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at

    async def sleep(self, seconds: float) -> None:  # pragma: no cover - never used
        return None


def _date_of(raw: bytes) -> datetime | None:
    match = _DATE.search(raw.split(b"\n\n", 1)[0] if b"\n\n" in raw else raw)
    if not match:
        return None
    try:
        return utc(parsedate_to_datetime(match.group(1).decode("ascii", "replace")))
    except (TypeError, ValueError):
        return None


def shifted_messages(folder: Path, now: datetime, own_addresses: list[str]) -> list[RawMessage]:
    """The demo .eml files as RawMessages, dates moved so the newest is two hours old."""
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".eml")
    raws = [(p, p.read_bytes()) for p in files]
    dates = [d for _, raw in raws if (d := _date_of(raw)) is not None]
    shift = (utc(now) - timedelta(hours=2)) - max(dates) if dates else timedelta(0)
    own = {a.lower() for a in own_addresses}
    messages = []
    for path, raw in raws:
        date = _date_of(raw)
        received = None
        if date is not None:
            received = date + shift
            header, sep, body = raw.partition(b"\n\n")
            new_date = format_datetime(received).encode("ascii")
            header = _DATE.sub(_literal(b"Date: " + new_date), header, count=1)
            raw = header + sep + body
        sender = _FROM.search(raw)
        outgoing = bool(sender and sender.group(1).decode("ascii", "replace").lower() in own)
        messages.append(
            RawMessage(
                raw=raw,
                source="demo",
                source_ref=path.name,
                folder="sent" if outgoing else "inbox",
                received_at=received,
            )
        )
    return messages


def _replay_stages(services: Services, moves: list[dict[str, object]], clock: Clock) -> int:
    now = utc(clock.now())
    done = 0
    for move in moves:
        email = str(move["email"]).lower()
        with services.store.session() as session:
            inquiry_id = session.scalar(
                select(Inquiry.id).where(Inquiry.customer_email == email).order_by(Inquiry.id)
            )
        if inquiry_id is None:
            continue
        at = now - timedelta(days=float(str(move.get("days_ago", 0))))
        stages = StageService(services.store, services.bus, _FixedClock(at))
        if stages.advance(
            inquiry_id, str(move["stage"]), reason=str(move.get("reason", "")), triggered_by="owner"
        ):
            done += 1
    return done


def _waiting_since_first_mail(session: Session) -> None:
    """A demo inquiry still in stage "inquiry" has waited there since its first email (not
    since the demo was loaded), so its days in stage and overdue marker read true."""
    firsts = session.execute(
        select(Message.inquiry_id, func.min(Message.received_at))
        .where(Message.inquiry_id.is_not(None), Message.direction == "in")
        .group_by(Message.inquiry_id)
    ).all()
    for inquiry_id, first in firsts:
        if first is None:
            continue
        session.execute(
            update(Inquiry)
            .where(Inquiry.id == inquiry_id, Inquiry.stage == "inquiry")
            .values(stage_changed_at=first)
        )
        session.execute(
            update(StageEvent)
            .where(StageEvent.inquiry_id == inquiry_id, StageEvent.from_stage.is_(None))
            .values(at=first)
        )


def refresh_dates(services: Services, *, tolerance: timedelta = timedelta(hours=1)) -> timedelta:
    """Move every date in the demo folder forward by the time since it was loaded (or last
    refreshed), so the demo reads as recent whenever it is opened. Returns the shift (zero when
    under ``tolerance`` or never loaded). Only for the demo folder: it rewrites every
    timestamp column of every table."""
    now = naive_utc(services.clock.now())

    def do(session: Session) -> timedelta:
        state = session.get(AppState, DEMO_STATE_KEY)
        if state is None:
            return timedelta(0)
        try:
            loaded = datetime.fromisoformat(str(state.value).strip('"'))
        except ValueError:
            return timedelta(0)
        shift = now - loaded.replace(tzinfo=None)
        if abs(shift) < tolerance:
            return timedelta(0)
        for table in Base.metadata.sorted_tables:
            if table.name == AppState.__tablename__:
                continue
            columns = [c for c in table.columns if isinstance(c.type, DateTime)]
            if not columns:
                continue
            keys = list(table.primary_key.columns)
            for row in session.execute(select(*keys, *columns)).all():
                moved = {
                    c.name: value + shift
                    for c, value in zip(columns, row[len(keys) :], strict=True)
                    if value is not None
                }
                if moved:
                    match = [k == row[i] for i, k in enumerate(keys)]
                    session.execute(table.update().where(*match).values(moved))
        session.merge(AppState(key=DEMO_STATE_KEY, value=now.isoformat(), updated_at=now))
        return shift

    return services.store.write(do)


def reopen_demo(services: Services) -> timedelta:
    """A demo folder opened again: dates moved up to now, its company profile and sample drafts
    present (folders loaded by an older version had neither). Returns the date shift."""
    shift = refresh_dates(services)
    apply_demo_profile(services)
    signature = services.settings.text("drafts.signature")
    services.store.write(lambda s: write_sample_drafts(s, services.clock, signature))
    return shift


def apply_demo_profile(services: Services) -> None:
    """The demo folder's fictional company (only where the demo's own settings are empty)."""
    profile = {k: v for k, v in DEMO_PROFILE.items() if not services.settings.get(k)}
    if profile:
        services.settings.update(profile)


async def load_demo(
    services: Services, *, folder: Path | None = None, pipeline: IntakePipeline | None = None
) -> DemoResult:
    """Ingest the demo mailbox into ``services`` (the demo data folder). Idempotent.

    Rules only: ``pipeline`` is ``App.pipeline(offline=True)`` (``App.load_demo``); without one
    a rules-only pipeline is made here, which needs no model client."""
    source = folder or demo_dir()

    def _state(session):  # type: ignore[no-untyped-def]
        return session.get(AppState, DEMO_STATE_KEY) is not None

    already = await services.store.read(_state)
    apply_demo_profile(services)
    if pipeline is None:
        pipeline = IntakePipeline(services, None, offline=True)
    own = services.settings.strings("general.owner_addresses")
    raws = shifted_messages(source, services.clock.now(), own)
    if already:  # loaded before: only files it lacks (their dates shifted again would read
        # as new messages under a reused Message-ID, doubling the demo on every 试用示例数据)

        def _stored(session):  # type: ignore[no-untyped-def]
            return set(session.scalars(select(Message.source_ref).where(Message.source == "demo")))

        stored = await services.store.read(_stored)
        raws = [raw for raw in raws if raw.source_ref not in stored]
    report = await pipeline.ingest_batch(raws)
    if not already:
        manifest = source / "stages.json"
        if manifest.exists():
            moves = json.loads(manifest.read_text(encoding="utf-8")).get("moves", [])
            await tasks.io(_replay_stages, services, moves, services.clock)
        await services.store.run(_waiting_since_first_mail)
        now = naive_utc(services.clock.now())

        def _mark(session):  # type: ignore[no-untyped-def]
            session.merge(AppState(key=DEMO_STATE_KEY, value=now.isoformat(), updated_at=now))

        await services.store.run(_mark)
    signature = services.settings.text("drafts.signature")
    await services.store.run(lambda s: write_sample_drafts(s, services.clock, signature))

    def _count(session):  # type: ignore[no-untyped-def]
        return len(session.scalars(select(Inquiry.id)).all())

    return DemoResult(report, await services.store.read(_count), already_loaded=already)
