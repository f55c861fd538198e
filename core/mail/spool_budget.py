"""One round's share of the disk for big mail, the same rule for every mailbox (IMAP and Graph).

Why: a big mail is fetched to a file in the spool before the pipeline stores its raw copy and
takes its attachments out, so at its peak it takes about ``DISK_FACTOR`` times its size on the
data folder's disk. A round of many 300 MB mails, or one on a nearly full disk, must not fill the
disk the database lives on. So a round stops taking big mail once it has spooled
``ROUND_SPOOL_BYTES`` (its first big mail is always taken, or one over the budget would never
come) or when the disk could not hold the next one (``has_room``: ``DISK_FACTOR`` x its size plus
``FREE_FLOOR_BYTES`` free). What it leaves waits for the next round, in order; each source keeps
it in its own way (IMAP: the cursor stops before the lowest UID left; Graph: the ids are kept in
the store beside the delta link, ``core.graph.mail_sync``).

``RoundBudget`` is that rule for one round; its ``short`` says what a refusal for disk space
needs, so the owner can be told (``DiskShort``, raised as an alert by the runtimes).
"""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

ROUND_SPOOL_BYTES = 1_000_000_000  # big mail spooled in one round (three 300 MB mails)
FREE_FLOOR_BYTES = 256_000_000  # left free on the disk after a big mail is in
DISK_FACTOR = 3  # the spool file, the stored raw copy, the attachments taken out of it


def free_bytes(spool: Path) -> int:
    """Free space on the spool's disk (the data folder's: the spool is ``cache/spool`` in it)."""
    folder = spool
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return shutil.disk_usage(folder).free


def needed_bytes(size: int) -> int:
    """Free space a ``size``-byte mail needs to be fetched, stored and taken apart."""
    return size * DISK_FACTOR + FREE_FLOOR_BYTES


def has_room(spool: Path, size: int) -> bool:
    """Whether the disk holds a ``size``-byte mail fetched, stored and taken apart."""
    return free_bytes(spool) >= needed_bytes(size)


@dataclass(frozen=True)
class DiskShort:
    """A round left mail for later because the disk was nearly full."""

    waiting: int  # mails left for the next round (big or not: the order is kept)
    need_bytes: int  # free space the first mail left behind needs
    free_bytes: int  # free space there was

    @property
    def missing_bytes(self) -> int:
        """How much the owner must free for that mail to come in."""
        return max(0, self.need_bytes - self.free_bytes)


@dataclass
class RoundBudget:
    """The rule above for one round: ``admit`` each big mail before it is fetched.

    Attributes: spooled (bytes of big mail admitted), refused ("budget" | "disk" | ""),
    need/free (the disk figures of a "disk" refusal).
    """

    spool: Path
    limit: int = field(default_factory=lambda: ROUND_SPOOL_BYTES)
    spooled: int = 0
    refused: str = ""
    need: int = 0
    free: int = 0

    def admit(self, size: int | None, *, beside: int = 0) -> bool:
        """Whether the round may spool a ``size``-byte mail now; logs why not.

        ``beside``: the size of a big mail fetched before it and still being stored (a source
        that downloads the next batch while the last is ingested): its raw copy and attachments
        are yet to land, ``DISK_FACTOR - 1`` times its size, so that much free space is spoken for.
        """
        size = size or 0
        if self.spooled and self.spooled + size > self.limit:
            log.info("spool budget of this round used; big mail left for the next round")
            self.refused = "budget"
            return False
        free = free_bytes(self.spool)
        need = needed_bytes(size) + (DISK_FACTOR - 1) * beside
        if free < need:
            log.warning(
                "disk nearly full (%d MB free): a %d MB mail waits for the next round",
                free // 1_000_000,
                size // 1_000_000,
            )
            self.refused, self.need, self.free = "disk", need, free
            return False
        self.spooled += size
        return True

    def short(self, waiting: int) -> DiskShort | None:
        """What the owner is told when ``waiting`` mails were left for want of disk space."""
        if self.refused != "disk" or not waiting:
            return None
        return DiskShort(waiting, self.need, self.free)
