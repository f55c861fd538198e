"""The ordered concurrent pump: admitted jobs in, understood concurrently, applied in order.

Why it is shaped like this: admission runs in arrival order and the model calls of many messages
run concurrently (bounded by ``LLMClient``), while applying happens one batch at a time, again in
arrival order, so a reply always finds the inquiry its parent created. The queue between the two
sides is the in-flight window: it is what keeps memory bounded on a long source.

This module knows nothing about the store or the model: the layers hand it their steps.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import os
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from core import tasks
from core.intake.jobs import IngestReport, Job, Run, Understanding
from core.intake.worker_pool import WorkerPool
from core.mail.source import RawMessage

if TYPE_CHECKING:
    from core.intake.worker_pool import Parsing

MERGE_BATCH = 32  # most messages applied in one writer transaction
ADMIT_CHUNK = 16  # most arrived messages recorded in one writer transaction
PARSE_AHEAD = 32  # messages read from the source and parsing ahead of admission
_NOTHING = object()


class _Ending(enum.Enum):
    END = "end"


_END = _Ending.END  # the reader's last arrival: the source is done
# what the reader hands on: a message with its parsing, the source's failure, or the end
Arrival: TypeAlias = "tuple[RawMessage, Parsing] | BaseException | Literal[_Ending.END]"

Understand = Callable[[Job, Run], Coroutine[Any, Any, Understanding]]
FinishBatch = Callable[[list[Job], Run], Awaitable[None]]


async def pump(
    admitted: AsyncIterator[Job | None],
    run: Run,
    *,
    window: int,
    understand: Understand,
    finish_batch: FinishBatch,
) -> IngestReport:
    """Feed admitted jobs to the merge loop in order, with backpressure.

    ``admitted`` yields a ``Job`` for each message that needs understanding/merging; admission
    has already recorded everything else in ``run.report``.
    """
    queue: asyncio.Queue[Job | None] = asyncio.Queue(maxsize=window)
    consumer = asyncio.create_task(merge_loop(queue, run, finish_batch))
    started: list[Job] = []
    try:
        async for job in admitted:
            if not isinstance(job, Job):
                continue
            started.append(job)
            job.task = asyncio.create_task(understand(job, run))
            await _put(queue, job, consumer)
        await _put(queue, None, consumer)
        await consumer
    except BaseException:
        aclose = getattr(admitted, "aclose", None)
        if aclose is not None:
            await asyncio.gather(aclose(), return_exceptions=True)
        consumer.cancel()
        for job in started:
            if job.task is not None:
                job.task.cancel()
        await asyncio.gather(consumer, *(j.task for j in started if j.task), return_exceptions=True)
        raise
    return run.report


async def merge_loop(queue: asyncio.Queue[Job | None], run: Run, finish_batch: FinishBatch) -> None:
    """Apply understood jobs in arrival order; consecutive ready jobs share a transaction.

    Batching is what keeps the single SQLite writer from becoming the bottleneck when many
    model answers arrive together; a batch is still all-or-nothing (``finish_batch`` retries a
    failing batch message by message).
    """
    carry: Job | object | None = _NOTHING
    while True:
        job = await queue.get() if carry is _NOTHING else carry
        carry = _NOTHING
        if job is None:
            return
        assert isinstance(job, Job)
        if job.task is not None:
            await asyncio.shield(job.task)
        batch = [job]
        while len(batch) < MERGE_BATCH and not queue.empty():
            nxt = queue.get_nowait()
            if nxt is None or (nxt.task is not None and not nxt.task.done()):
                carry = nxt
                break
            batch.append(nxt)
        try:
            await finish_batch(batch, run)
        finally:
            for item in batch:
                item.done.set()


async def arrival_chunks(
    raws: AsyncIterator[RawMessage], parser: WorkerPool
) -> AsyncGenerator[list[tuple[RawMessage, Parsing]]]:
    """What has arrived, in order, up to ``ADMIT_CHUNK`` messages at a time.

    A reader task pulls from the source and starts parsing ahead (in a worker process once the
    run is long enough, see ``WorkerPool``); each chunk pairs a message with its parsing. A chunk
    handed on is the consumer's (``Admission.admit_chunk`` deletes what it does not store); the
    parsings read ahead but never handed on, when the run stops early, are deleted here.
    """
    arrivals: asyncio.Queue[Arrival] = asyncio.Queue(maxsize=PARSE_AHEAD)
    reader = asyncio.create_task(_read_ahead(raws, arrivals, parser))
    chunk: list[tuple[RawMessage, Parsing]] = []
    try:
        finished = False
        while not finished:
            chunk = []
            item = await arrivals.get()
            while True:
                if item is _END:
                    finished = True
                    break
                if isinstance(item, BaseException):
                    raise item
                chunk.append(item)
                if len(chunk) >= ADMIT_CHUNK or arrivals.empty():
                    break
                item = arrivals.get_nowait()
            if chunk:
                handed, chunk = chunk, []
                yield handed
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
        while not arrivals.empty():
            item = arrivals.get_nowait()
            if isinstance(item, tuple):
                chunk.append(item)
        await discard_parsings(chunk)


async def discard_parsings(pairs: list[tuple[RawMessage, Parsing]]) -> None:
    """Delete the spool files of parsings nobody will admit (a run that stopped early): a big
    mail's parse wrote its attachments to the spool (``core.mail.oversize``), and left there they
    would wait for the six-hour sweep. A parsing still running is waited for, as it may yet write.
    """
    for _raw, parsing in pairs:
        outcome: object = parsing
        if isinstance(parsing, asyncio.Future):
            done = await asyncio.gather(parsing, return_exceptions=True)
            outcome = done[0]
        parsed = outcome[0] if isinstance(outcome, tuple) and outcome else None
        for part in getattr(parsed, "attachments", None) or []:
            spooled = getattr(part, "spooled", None)
            if spooled:
                with contextlib.suppress(OSError):
                    await tasks.io(os.unlink, spooled)


async def _read_ahead(
    raws: AsyncIterator[RawMessage], out: asyncio.Queue[Arrival], parser: WorkerPool
) -> None:
    try:
        async for raw in raws:
            await out.put((raw, parser.submit(raw.parse_input)))
    except asyncio.CancelledError:
        await _close(raws)  # the source's own files (a stream's downloads) go now, not at GC
        raise
    except BaseException as exc:  # the source failed: admission re-raises it in order
        await out.put(exc)
        return
    await out.put(_END)


async def _close(raws: AsyncIterator[RawMessage]) -> None:
    aclose = getattr(raws, "aclose", None)
    if aclose is not None:
        await asyncio.gather(aclose(), return_exceptions=True)


async def aiter_of(items: Iterable[RawMessage]) -> AsyncIterator[RawMessage]:
    for item in items:
        yield item


async def _put(
    queue: asyncio.Queue[Job | None], item: Job | None, consumer: asyncio.Task[None]
) -> None:
    """``queue.put`` that fails fast when the consumer died instead of waiting forever."""
    if consumer.done():
        consumer.result()  # re-raises the consumer's exception
        raise RuntimeError("merge loop ended early")
    put = asyncio.ensure_future(queue.put(item))
    done, _ = await asyncio.wait({put, consumer}, return_when=asyncio.FIRST_COMPLETED)
    if put not in done:
        put.cancel()
        consumer.result()
        raise RuntimeError("merge loop ended early")
