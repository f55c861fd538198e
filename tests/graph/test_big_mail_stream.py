"""A big mail from Outlook is streamed from ``$value`` to a file, never held whole; a failed
transfer leaves nothing behind and the mail comes in once on the next round."""

from __future__ import annotations

import hashlib
import tracemalloc
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from core.app.graph_runtime import GraphRuntime
from core.clock import FakeClock
from core.db.models import Attachment, Message, SyncCursor
from core.errors import GraphError
from core.graph.client import StaticToken
from core.intake.pipeline import build_pipeline
from core.services import Services
from tests.support.big_inputs import plans_mail
from tests.support.graph_server import GraphServer

MB = 1_000_000


@pytest.fixture
async def runtime(services: Services, graph: GraphServer):
    services.settings.set("graph.base_url", graph.base_url)
    services.settings.set("intake.attachment_max_mb", 60)
    rt = GraphRuntime(
        services,
        pipeline=build_pipeline(services, offline=True),
        token_provider=StaticToken("test-token"),
    )
    yield rt
    await rt.aclose()


def _stored_plans(services: Services) -> bytes:
    with services.store.session() as s:
        [row] = s.scalars(select(Attachment).where(Attachment.filename == "plans.pdf")).all()
        assert row.filename == "plans.pdf" and row.stored_path
        return hashlib.sha256((services.paths.home / row.stored_path).read_bytes()).digest()


def _spool_files(services: Services) -> list[Path]:
    spool = services.paths.spool
    return sorted(spool.iterdir()) if spool.exists() else []


async def test_a_40_mb_mail_is_streamed_to_disk_and_its_plans_stored_whole(
    runtime: GraphRuntime,
    graph: GraphServer,
    clock: FakeClock,
    services: Services,
    tmp_path: Path,
) -> None:
    graph.add_message(subject="Door", body="Quote a door for 9 High St.")
    await runtime.mail_round()  # a running app: its modules loaded, its first sync done
    source = tmp_path / "big.eml"
    plans = plans_mail(source, 40, clock.now() - timedelta(hours=1))
    gid = graph.add_message(raw_path=source, received_at=clock.now() - timedelta(hours=1))
    small = graph.add_message(subject="Flyscreen", body="Quote a flyscreen please, 2 Elm St.")
    tracemalloc.start()
    try:
        report, _ = await runtime.mail_round()
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.new == 2
    assert _stored_plans(services) == plans  # the very PDF the customer sent
    assert peak < source.stat().st_size / 8, f"peak {peak / MB:.1f} MB"
    # the big one alone, as a plain GET; the small one still inside a $batch
    [streamed] = graph.requests_to(rf"/{gid}/\$value$")
    assert streamed.batch is None
    assert all(r.batch for r in graph.requests_to(rf"/{small}/\$value$"))
    with services.store.session() as s:
        row = s.scalars(select(Message).where(Message.source_id == gid)).one()
        assert row.subject == "Plans for 5 George St" and row.disposition == "new_inquiry"
        assert "5 George St, Ryde" in (row.body_text or "")
        raw_copy = services.paths.home / (row.raw_path or "")
    assert raw_copy.stat().st_size == source.stat().st_size
    assert _spool_files(services) == []  # the downloaded file is gone once it is stored
    delta = graph.requests_to(r"/inbox/messages/delta$")[0]
    assert "0x0E08" in delta.query["$expand"]  # the size was asked for


async def test_a_transfer_cut_mid_mail_leaves_no_file_and_the_next_round_takes_it_once(
    runtime: GraphRuntime,
    graph: GraphServer,
    clock: FakeClock,
    services: Services,
    tmp_path: Path,
) -> None:
    source = tmp_path / "big.eml"
    plans = plans_mail(source, 20, clock.now() - timedelta(hours=1))
    gid = graph.add_message(raw_path=source, received_at=clock.now() - timedelta(hours=1))
    attempts = runtime.client.max_attempts
    graph.fail(rf"/{gid}/\$value$", cut_after=5 * MB, times=attempts)  # every try breaks off
    with pytest.raises(GraphError):
        await runtime.mail_round()
    assert _spool_files(services) == []  # no partial download left
    with services.store.session() as s:
        assert s.scalars(select(Message)).all() == []
        assert s.get(SyncCursor, "graph:mail:inbox") is None  # the round did not count

    graph.fail(rf"/{gid}/\$value$", status=503, retry_after="7")  # busy once, then fine
    report, _ = await runtime.mail_round()
    assert report.new == 1 and 7.0 in clock.sleeps
    again, _ = await runtime.mail_round()
    assert again.new == 0
    with services.store.session() as s:
        [row] = s.scalars(select(Message)).all()
        assert row.source_id == gid and row.disposition == "new_inquiry"
    assert _stored_plans(services) == plans
    assert _spool_files(services) == []


@pytest.mark.parametrize(
    ("props", "size"),
    [
        ([{"id": "Integer 0xe08", "value": "40895043"}], 40895043),  # Graph's own spelling
        ([{"id": "Integer 0x0E08", "value": "12"}], 12),
        ([{"id": "String 0x0E08", "value": "12"}], None),
        ([], None),
    ],
)
def test_the_listed_size_is_read_as_graph_spells_it(
    props: list[dict[str, str]], size: int | None
) -> None:
    """A size misread as missing would send a 300 MB mail through $batch, into memory."""
    from core.graph.mime_stream import listed_size

    assert listed_size({"id": "x", "singleValueExtendedProperties": props}) == size


def test_no_batch_envelope_carries_more_than_12_mb_and_a_big_mail_goes_alone(
    tmp_path: Path,
) -> None:
    """Twenty 5 MB mails through one $batch would be 130 MB of base64 JSON in memory at once."""
    from core.graph.mail_sync import MailSync

    def entry(name: str, size: int) -> dict[str, object]:
        return {
            "id": name,
            "singleValueExtendedProperties": [{"id": "Integer 0xe08", "value": size}],
        }

    sync = MailSync(None, None, None, None, FakeClock(), spool=tmp_path)  # type: ignore[arg-type]
    entries = [entry(f"m{i}", 5 * MB) for i in range(5)] + [entry("big", 300 * MB)]
    entries += [entry(f"s{i}", 10_000) for i in range(25)]
    cuts = [[str(e["id"]) for e in batch] for batch in sync.batches(entries)]
    assert cuts[:4] == [["m0", "m1"], ["m2", "m3"], ["m4"], ["big"]]
    assert [len(c) for c in cuts[4:]] == [20, 5]
    assert [e for c in cuts for e in c] == [str(e["id"]) for e in entries]  # order kept


async def test_a_round_that_fails_mid_way_leaves_no_file_in_the_spool(
    runtime: GraphRuntime,
    graph: GraphServer,
    clock: FakeClock,
    services: Services,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The generic port path (``ingest_source`` over a ``GraphMessageSource``): two big mails,
    streamed to the spool and parsed ahead (their attachments spooled too), and the store fails
    while the first is recorded. Nothing is left for the six-hour sweep; the next round takes
    both once."""
    from core.intake import records
    from core.sources.graph import GraphMessageSource

    for n in range(2):
        source = tmp_path / f"big{n}.eml"
        plans_mail(source, 20, clock.now() - timedelta(hours=2 - n))
        graph.add_message(raw_path=source, received_at=clock.now() - timedelta(hours=2 - n))
    known_many = records.known_many

    def disk_gone(*args: object, **kwargs: object) -> object:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(records, "known_many", disk_gone)
    with pytest.raises(OSError):
        await runtime.pipeline.ingest_source(GraphMessageSource(runtime.mail))
    assert _spool_files(services) == []  # no streamed mail, no spooled attachment
    with services.store.session() as s:
        assert s.get(SyncCursor, "graph:mail:inbox") is None

    monkeypatch.setattr(records, "known_many", known_many)
    again = GraphMessageSource(runtime.mail)
    report = await runtime.pipeline.ingest_source(again)
    await again.commit()
    assert report.counts["new_inquiry"] == 1 and report.processed == 2  # one Message-ID: a reply
    assert _spool_files(services) == []
