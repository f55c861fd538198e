"""The two ports of a mailbox: where mail comes from (``MessageSource``) and how a reply leaves
(``Mailer``). Microsoft Graph and IMAP/SMTP are one class each behind them.

``MessageSource`` — one round is *list → fetch → commit*:

* ``plan_round()`` lists what is new since the stored cursors (metadata only; messages the
  store already has are told apart here, by source id or Message-ID and delivery time) and
  returns a plan; nothing is downloaded and no cursor moves;
* ``new_items(plan)`` are the messages to download, oldest first;
* ``fetch(plan, items)`` downloads them as ``RawMessage`` (``source``, ``source_id``: a message's
  identity is its id at its source, not a Graph id);
* ``commit(plan)`` moves the cursors — called only after the pipeline committed every message
  of the plan. A crash before it repeats the round, and the listing step keeps the repeat free
  of duplicates.

``run_round`` drives any source through an intake sink in batches.

``Mailer`` — "submit once, find a sent message by Message-ID, keep drafts where the mailbox has
them". ``has_drafts`` says which of two shapes a mailer has:

* ``DraftMailer`` (Graph): the message is first a draft on the server, whose id and
  Message-ID are journalled before the one ``send_draft``; the draft's presence later says it
  did not go;
* ``SubmitMailer`` (SMTP): no server drafts; the Message-ID is fixed and journalled before the
  one ``submit``, which reports the moment its last byte left (``on_transmitted``); the sent
  copy is filed in Sent by the mailer.

The at-most-once argument written against these ports is ``core.drafts.sender``'s docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict, TypeVar, Unpack

from core.mail.source import RawMessage

PlanT = TypeVar("PlanT")
ItemT = TypeVar("ItemT")  # one listed message, as the source lists it
# the message a submit mailer builds MIME from (``core.mailbox.outgoing.Outgoing``, above mail)
OutT = TypeVar("OutT", contravariant=True)


class MessageSource(Protocol[PlanT, ItemT]):
    """A mailbox read incrementally: list, fetch, commit (see the module docstring)."""

    async def plan_round(self) -> PlanT: ...

    def new_items(self, plan: PlanT) -> Sequence[ItemT]: ...

    async def fetch(self, plan: PlanT, items: Sequence[ItemT]) -> list[RawMessage]: ...

    async def commit(self, plan: PlanT) -> None: ...


class IntakeSink(Protocol):
    """What a round feeds (``core.intake.pipeline.IntakePipeline``): the one sink protocol of
    every mailbox (IMAP and Graph used to declare a copy each)."""

    async def ingest_batch(self, raws: list[RawMessage]) -> object: ...


class RemovalSink(IntakeSink, Protocol):
    """A sink that also hears of messages deleted at their source (Graph's delta says so)."""

    async def record_removed(self, source_id: str) -> None: ...


def recorded_here(raws: Sequence[RawMessage], result: object) -> int:
    """How many of a fetched batch THIS process recorded: the sink's report (an
    ``IngestReport``) counts as ``already_known`` what another process on the folder (a second
    ``sync --once``, the tray app) recorded between this round's listing and its insert. Both
    rounds used to print ``new=`` for every message they fetched, so the two counts summed to
    twice the mail although each message was stored once. A sink that reports nothing (a test
    fake) recorded them all."""
    known = getattr(result, "already_known", 0)
    return len(raws) - known if isinstance(known, int) else len(raws)


async def run_round(
    source: MessageSource[PlanT, ItemT],
    sink: IntakeSink,
    *,
    batch_size: int,
    batches: Callable[[PlanT, list[ItemT]], Iterable[list[ItemT]]] | None = None,
) -> tuple[PlanT, int, int, int]:
    """One round: every new message fetched and ingested batch by batch, then the cursors
    committed. Returns (plan, recorded — by this process, see ``recorded_here`` —, known since
    the listing — recorded meanwhile by another —, vanished — listed but gone before the
    download).

    ``batches`` (default: ``batch_size`` at a time) cuts the items; it is iterated lazily, one
    batch after the previous one is ingested, so a source can stop early (a disk budget) and
    leave the rest for the next round — its ``commit`` then must not move past what it left.
    """
    plan = await source.plan_round()
    items = list(source.new_items(plan))
    size = max(1, batch_size)
    cuts = (
        batches(plan, items)
        if batches is not None
        else (items[start : start + size] for start in range(0, len(items), size))
    )
    recorded = raced = vanished = 0
    for batch in cuts:
        raws = await source.fetch(plan, batch)
        vanished += len(batch) - len(raws)
        if raws:
            here = recorded_here(raws, await sink.ingest_batch(raws))
            recorded += here
            raced += len(raws) - here
    await source.commit(plan)
    return plan, recorded, raced, vanished


@dataclass(frozen=True)
class DraftAttachment:
    """An attachment already on a server draft (to skip re-uploading after a retry)."""

    id: str
    name: str
    size: int
    content_type: str


class NewDraft(TypedDict, total=False):
    """A new draft's options: copies, and the marker that ties a copy found later to our draft."""

    cc: list[str] | None
    marker: str | None


class DraftChanges(TypedDict, total=False):
    """What an update sets on a draft (a part left out, or None, stays as it is)."""

    to: list[str] | str | None
    subject: str | None
    body: str | None
    cc: list[str] | None


class Mailer(Protocol):
    """What every mailer offers the sender."""

    kind: str  # "graph" | "smtp"
    has_drafts: bool

    async def find_sent(self, internet_message_id: str) -> bool: ...


class DraftMailer(Mailer, Protocol):
    """A mailbox with server-side drafts (Graph): create, fill, send the draft once."""

    async def create_reply_draft(
        self, graph_message_id: str, *, comment: str | None = None
    ) -> str: ...

    async def create_draft(
        self, to: list[str] | str, subject: str, body_html_or_text: str, **options: Unpack[NewDraft]
    ) -> str: ...

    async def update_draft(self, outlook_id: str, **changes: Unpack[DraftChanges]) -> None: ...

    async def internet_message_id(self, outlook_id: str) -> str | None: ...

    async def draft_exists(self, outlook_id: str) -> bool: ...

    async def send_draft(self, outlook_id: str) -> None: ...

    async def delete_draft(self, outlook_id: str) -> bool: ...

    async def list_attachments(self, outlook_id: str) -> list[DraftAttachment]: ...

    async def add_attachment(
        self, outlook_id: str, filename: str, content_type: str, data: bytes
    ) -> str | None: ...

    async def delete_attachment(self, outlook_id: str, attachment_id: str) -> bool: ...


class SubmitMailer(Mailer, Protocol[OutT]):
    """A mailbox that takes finished MIME (SMTP) and files the sent copy itself."""

    @property
    def sender(self) -> str: ...

    def new_message_id(self) -> str: ...

    def build(self, out: OutT, message_id: str) -> bytes: ...

    async def submit(self, out: OutT, raw: bytes, on_transmitted: Callable[[], None]) -> None: ...

    async def file_sent_copy(self, message_id: str, raw: bytes) -> bool: ...
