"""How long an audio file is, read from its container without decoding it or loading a codec.

Why: a voice note's length is checked before Whisper sees it (a client may state 3 s for a
30-minute note, ``core.notify.bot``), and that check runs beside the Telegram loop. Asking PyAV
(``container.duration``) meant importing it: ``av._core`` loads FFmpeg's shared libraries (72 MB)
with the GIL held, so the loop stood still for the whole load — 80–180 ms on a cold disk cache,
on an I/O-lane thread all the same. Telegram's voice notes are Ogg (Opus; sox and others write
Vorbis), and Ogg says its length in plain bytes: the last page's granule position counts the
samples. So Ogg and WAV are read here in pure Python (the first page and the last 128 KB); only
another container falls back to a decoder's metadata (libsndfile, then PyAV where installed).

``audio_seconds`` never raises: ``None`` means "not known here", and Whisper says whether the
file is readable at all.
"""

from __future__ import annotations

import contextlib
import logging
import struct
import wave
from pathlib import Path
from typing import BinaryIO

log = logging.getLogger(__name__)

OGG_CAPTURE = b"OggS"
OGG_HEADER = struct.Struct("<4sBBqIIIB")  # capture, version, flags, granule, serial, seq, crc, n
OGG_MAX_PAGE = OGG_HEADER.size + 255 + 255 * 255  # 65,307 bytes: the tail holds the last page
OPUS_RATE = 48_000  # Opus granule positions always count 48 kHz samples (RFC 7845 §4)


def audio_seconds(path: Path) -> float | None:
    """The length of the audio in ``path`` in seconds; ``None`` when it cannot be told.

    Ogg and WAV never load a native library (see the module docstring); anything else asks
    libsndfile, then PyAV, for their metadata (a decoder is imported, nothing is decoded)."""
    try:
        with path.open("rb") as stream:
            magic = stream.read(4)
            if magic == OGG_CAPTURE:
                return _ogg_seconds(stream)
            if magic == b"RIFF":
                return _wav_seconds(path)
    except (OSError, ValueError, EOFError, struct.error, wave.Error) as exc:
        log.info("audio length of %s not read from its container: %s", path.name, exc)
        return None
    return _decoder_seconds(path)


def _ogg_seconds(stream: BinaryIO) -> float | None:
    """Samples at the last page of the first logical stream over the codec's rate.

    Opus: (granule - pre-skip) / 48 kHz; Vorbis: granule / the identification header's rate.
    Another codec in Ogg (FLAC, Speex) gives ``None``."""
    stream.seek(0)
    first = stream.read(OGG_MAX_PAGE)
    header = _page_at(first, 0, len(first))
    if header is None:
        return None
    serial, granule, body = header
    del granule
    if body.startswith(b"OpusHead") and len(body) >= 19:
        rate, skip = OPUS_RATE, int(struct.unpack_from("<H", body, 10)[0])
    elif body.startswith(b"\x01vorbis") and len(body) >= 16:
        rate, skip = int(struct.unpack_from("<I", body, 12)[0]), 0
    else:
        return None
    if rate <= 0:
        return None
    last = _last_granule(stream, serial)
    if last is None:
        return None
    return max(0, last - skip) / rate


def _page_at(data: bytes, at: int, end: int) -> tuple[int, int, bytes] | None:
    """(serial, granule, first packet's bytes) of a well-formed page at ``data[at:]`` that ends
    by ``end``; ``None`` for anything else (a chance "OggS" inside the audio, a cut page)."""
    if at + OGG_HEADER.size > end:
        return None
    capture, version, _flags, granule, serial, _seq, _crc, count = OGG_HEADER.unpack_from(data, at)
    table_at = at + OGG_HEADER.size
    if capture != OGG_CAPTURE or version != 0 or table_at + count > end:
        return None
    lacing = data[table_at : table_at + count]
    body_at = table_at + count
    if body_at + sum(lacing) > end:
        return None
    first_packet = 0
    for size in lacing:
        first_packet += size
        if size < 255:
            break
    return serial, granule, data[body_at : body_at + first_packet]


def _last_granule(stream: BinaryIO, serial: int) -> int | None:
    """The granule position of the stream's last page that has one (a page where no packet
    ends says -1), found in the file's last 128 KB as Ogg decoders do; its checksum must hold,
    so four chance bytes "OggS" in the audio are not taken for it."""
    size = stream.seek(0, 2)
    start = max(0, size - 2 * OGG_MAX_PAGE)
    stream.seek(start)
    tail = stream.read()
    at = tail.rfind(OGG_CAPTURE)
    while at != -1:
        page = _page_at(tail, at, len(tail))
        if page is not None and page[0] == serial and page[1] >= 0 and _crc_holds(tail, at):
            return page[1]
        at = tail.rfind(OGG_CAPTURE, 0, at)
    return None


def _crc_holds(data: bytes, at: int) -> bool:
    """The page's CRC-32 (polynomial 0x04C11DB7, unreflected, over the page with its checksum
    field zeroed), as every Ogg writer stores it."""
    count = data[at + OGG_HEADER.size - 1]
    end = (
        at
        + OGG_HEADER.size
        + count
        + sum(data[at + OGG_HEADER.size : at + OGG_HEADER.size + count])
    )
    page = bytearray(data[at:end])
    stored = int(struct.unpack_from("<I", page, 22)[0])
    page[22:26] = b"\0\0\0\0"
    crc = 0
    for byte in page:
        crc = ((crc << 8) & 0xFFFFFFFF) ^ _CRC_TABLE[(crc >> 24) ^ byte]
    return crc == stored


def _crc_table() -> tuple[int, ...]:
    table = []
    for index in range(256):
        value = index << 24
        for _bit in range(8):
            value = ((value << 1) ^ 0x04C11DB7) if value & 0x80000000 else value << 1
        table.append(value & 0xFFFFFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def _wav_seconds(path: Path) -> float | None:
    with wave.open(str(path), "rb") as wav:
        rate = wav.getframerate()
        return wav.getnframes() / rate if rate else None


def _decoder_seconds(path: Path) -> float | None:
    """Metadata of a container read here by neither function above (mp3, m4a, FLAC): these
    import a native decoder (a stall of the loop the first time; Telegram's notes are Ogg)."""
    with contextlib.suppress(Exception):
        import soundfile

        info = soundfile.info(str(path))
        if info.samplerate and info.frames:
            return float(info.frames) / float(info.samplerate)
    with contextlib.suppress(Exception):  # PyAV: development venvs only, the bundle leaves it out
        import av

        with av.open(str(path)) as container:
            return container.duration / 1_000_000 if container.duration else None
    return None


__all__ = ["audio_seconds"]
