"""EmlFolderSource: every .eml in the folder, in name order, as raw bytes with its identity."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.mail.source import MessageStream, RawMessage
from core.sources.eml import EmlFolderSource


async def test_yields_eml_files_in_name_order(tmp_path: Path) -> None:
    for name, body in [("010.eml", b"ten"), ("002.eml", b"two"), ("001.EML", b"one")]:
        (tmp_path / name).write_bytes(body)
    (tmp_path / "notes.txt").write_text("not mail")
    (tmp_path / "sub.eml").mkdir()  # a folder named like a message is not a message

    source = EmlFolderSource(tmp_path)
    assert isinstance(source, MessageStream)
    got = [raw async for raw in source]
    assert [(r.source_ref, r.raw) for r in got] == [
        ("001.EML", b"one"),
        ("002.eml", b"two"),
        ("010.eml", b"ten"),
    ]
    assert all(r.source == "eml" and r.folder == "inbox" and r.source_id is None for r in got)


async def test_empty_folder_yields_nothing(tmp_path: Path) -> None:
    assert [raw async for raw in EmlFolderSource(tmp_path)] == []


async def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not a folder"):
        _ = [raw async for raw in EmlFolderSource(tmp_path / "nope")]


def test_raw_message_is_immutable() -> None:
    raw = RawMessage(raw=b"x", source="graph", source_ref="AAMk", source_id="AAMk", folder="sent")
    with pytest.raises(AttributeError):
        raw.folder = "inbox"  # type: ignore[misc]
