"""Generated customer mail for the IMAP tests: distinct, realistic inquiries, made here.

``inquiries(n)`` writes n messages from n customers (Sydney suburbs, glossary products, phones,
some senders with Chinese names encoded as RFC 2047, one in GB2312), dated on the days before
the suite's clock, each with its own Message-ID. Deterministic: the same n gives the same bytes.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from email.header import Header
from email.utils import format_datetime

from core.clock import parse_now
from tests.conftest import TEST_NOW

SUBURBS = [
    "Epping",
    "Ryde",
    "Burwood",
    "Hurstville",
    "Parramatta",
    "Chatswood",
    "Eastwood",
    "Strathfield",
    "Castle Hill",
    "Hornsby",
    "Kellyville",
    "Rhodes",
    "Zetland",
]
PRODUCTS = [
    ("sliding door", "2400 x 2100"),
    ("bifold door", "3600 x 2100"),
    ("awning window", "1200 x 900"),
    ("casement window", "600 x 1200"),
    ("shower screen", "900 x 2000"),
    ("flyscreen", "1800 x 1200"),
    ("double hung window", "900 x 1500"),
    ("louvre window", "600 x 900"),
]
NAMES = [
    "Amy Lee",
    "Ben Carter",
    "王伟",
    "Chloe Smith",
    "李娜",
    "Daniel Brown",
    "Emily Wilson",
    "张敏",
    "Frank Murphy",
    "Grace Taylor",
    "Henry Nguyen",
    "陈静",
    "Isla Martin",
]


def when(index: int, count: int) -> datetime:
    """Delivery time of message ``index``: spread over the 20 days before the suite's now."""
    now = parse_now(TEST_NOW)
    return now - timedelta(days=20) + timedelta(hours=index * (20 * 24 - 2) / max(count, 1))


def inquiry(index: int, count: int = 45) -> bytes:
    name = NAMES[index % len(NAMES)]
    suburb = SUBURBS[index % len(SUBURBS)]
    product, size = PRODUCTS[index % len(PRODUCTS)]
    addr = f"customer{index:02d}@example.com"
    display = Header(name, "utf-8").encode() if not name.isascii() else name
    body = (
        f"Hello,\r\n\r\nWe would like a quote for a new aluminium {product}, about {size} mm,"
        f" for our home at {index + 3} Station Street, {suburb} NSW. Could someone come and"
        f" measure? My mobile is 0412 {index:03d} {(index * 7) % 1000:03d}.\r\n\r\n"
        f"Kind regards,\r\n{name}\r\n"
    )
    headers = [
        f"From: {display} <{addr}>",
        "To: sales@aurorawindows.com.au",
        f"Subject: Quote request {index + 1}: {product} in {suburb}",
        f"Date: {format_datetime(when(index, count))}",
        f"Message-ID: <inquiry-{index:02d}.{count}@mail.example.com>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: 8bit",
    ]
    return ("\r\n".join(headers) + "\r\n\r\n" + body).encode("utf-8")


def inquiries(count: int = 45) -> list[bytes]:
    return [inquiry(i, count) for i in range(count)]
