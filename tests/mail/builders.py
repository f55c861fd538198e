"""Builds small raw messages for tests, so each case states only the headers it is about."""

from __future__ import annotations


def build_raw(
    headers: dict[str, str] | list[tuple[str, str]],
    body: str = "Hello,\n\nPlease quote two awning windows.\n\nJane\n",
    *,
    content_type: str = "text/plain; charset=utf-8",
) -> bytes:
    """A minimal single-part message; multipart bodies are written out literally by the tests."""
    items = list(headers.items()) if isinstance(headers, dict) else list(headers)
    names = {k.lower() for k, _ in items}
    defaults = [
        ("From", "Jane Citizen <jane@example.com>"),
        ("To", "sales@aurorawindows.com.au"),
        ("Subject", "Awning windows"),
        ("Date", "Tue, 24 Mar 2026 10:00:00 +1100"),
        ("Message-ID", "<test@example.com>"),
    ]
    items = [(k, v) for k, v in defaults if k.lower() not in names] + items
    if "content-type" not in names:
        items += [("MIME-Version", "1.0"), ("Content-Type", content_type)]
    head = "".join(f"{k}: {v}\r\n" for k, v in items)
    return (head + "\r\n" + body.replace("\n", "\r\n")).encode("utf-8")
