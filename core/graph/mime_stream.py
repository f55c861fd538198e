"""A big message's MIME streamed from ``/me/messages/{id}/$value`` to a file, never held whole.

Why: ``$batch`` returns ``$value`` bodies base64-encoded inside one JSON envelope, so a 300 MB
mail would sit in memory as ~400 MB of JSON text, again as a decoded string and again as bytes.
The delta listing asks for each message's size (``PidTagMessageSize``, see ``listed_size``); a
message estimated over ``STREAM_ABOVE`` is fetched alone with a plain GET whose body is written
to ``<spool>/graph-<random>.eml.part``, hashed as it goes, fsynced and renamed to
``graph-<random>.eml``. The pipeline reads that file as it reads a big ``.eml`` (``RawMessage``
with ``path``); mail sync deletes it once the batch is ingested. A transfer that fails (a 503, a
dropped connection, a cancelled round) leaves no file: the partial one is deleted before the
retry or the error, so a round that gives up repeats cleanly next time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from pathlib import Path
from typing import Any

import httpx

from core import tasks
from core.graph.client import GraphClient
from core.mail.oversize import OVERSIZE_BYTES

# The size Outlook reports is of the stored item (attachments in binary); the MIME carries them
# base64-encoded, a third bigger. So a message is streamed once its listed size reaches 3/4 of
# the size from which the parser reads a mail from disk: no MIME over that comes through $batch.
STREAM_ABOVE = OVERSIZE_BYTES * 3 // 4
# PidTagMessageSize as a single-value extended property (MS-OXPROPS 2.797: 0x0E08, PtypInteger32)
SIZE_PROPERTY = "Integer 0x0E08"
SIZE_EXPAND = f"singleValueExtendedProperties($filter=id eq '{SIZE_PROPERTY}')"
PREFIX = "graph-"


def listed_size(entry: dict[str, Any]) -> int | None:
    """The message size from the listing's expanded extended property, if Graph gave it.

    Graph answers the id in its own spelling (``"Integer 0xe08"``) and the value as a string.
    """
    for prop in entry.get("singleValueExtendedProperties") or []:
        kind, _, tag = str(prop.get("id", "")).partition(" ")
        try:
            if kind.lower() == "integer" and int(tag, 16) == 0x0E08:
                return int(str(prop.get("value")))
        except ValueError:
            return None
    return None


def is_big(entry: dict[str, Any]) -> bool:
    size = listed_size(entry)
    return size is not None and size >= STREAM_ABOVE


async def download_mime(client: GraphClient, url: str, spool: Path) -> tuple[Path, str]:
    """``url``'s body in a new file under ``spool``; returns (its path, its sha256 hex)."""
    spool.mkdir(parents=True, exist_ok=True)
    target = spool / f"{PREFIX}{secrets.token_hex(8)}.eml"

    async def consume(response: httpx.Response) -> str:
        return await _write(response, target)

    digest = await client.stream(url, consume)
    return target, digest


async def _write(response: httpx.Response, target: Path) -> str:
    """One attempt: body → ``target.part`` → fsync → rename; nothing left if it fails."""
    tmp = target.with_name(target.name + ".part")
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            async for block in response.aiter_bytes():  # as the socket gives it (≤ 64 KB)
                out.write(block)  # to the page cache: microseconds
                digest.update(block)
            out.flush()
            await tasks.io(os.fsync, out.fileno())  # the disk may take seconds
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return digest.hexdigest()
