"""Hostile mail: the messages the outside world sends that once stopped intake.

Used by the hostile-mail tests and ``benchmarks/hostile.py``. ``done_when_folder`` writes the
issue's named cases; ``fuzz_messages`` generates any number of mutated messages from a seed
(header poison, broken MIME, huge bodies, reused Message-IDs, random bytes), deterministically.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

ORDINARY_INQUIRY = (
    b"From: Jane Citizen <jane.citizen@example.com>\r\n"
    b"To: sales@aurorawindows.com.au\r\n"
    b"Subject: Quote for sliding door\r\n"
    b"Date: Mon, 30 Nov 2026 08:15:00 +1100\r\n"
    b"Message-ID: <ordinary-1@example.com>\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"\r\n"
    b"Hi, could you please quote an aluminium sliding door 2400 x 2100 for our house at\r\n"
    b"12 Smith Street, Epping NSW 2121? Please call me on 0412 345 678.\r\n"
    b"Thanks, Jane Citizen\r\n"
)


def _mail(
    *,
    sender: str,
    subject: str,
    body: bytes,
    message_id: str | None,
    date: str = "Mon, 30 Nov 2026 07:00:00 +1100",
    content_type: str = "text/plain; charset=utf-8",
    extra: bytes = b"",
) -> bytes:
    head = [
        f"From: {sender}",
        "To: sales@aurorawindows.com.au",
        f"Subject: {subject}",
        f"Date: {date}",
    ]
    if message_id is not None:
        head.append(f"Message-ID: {message_id}")
    head.append(f"Content-Type: {content_type}")
    return ("\r\n".join(head) + "\r\n").encode() + extra + b"\r\n" + body


def year_9999() -> bytes:
    return _mail(
        sender="Far Future <future@example.net>",
        subject="Windows for the year 9999",
        body=b"Please quote two awning windows 600 x 900 for 5 Long Road, Ryde.\r\n",
        message_id="<y9999@example.net>",
        date="Fri, 31 Dec 9999 23:59:59 -1200",
    )


def dimension_body(size: int = 5 * 1024 * 1024) -> bytes:
    line = b"Window 1200 x 900 mm, door 2400 x 2100 mm, 1500x600\r\n"
    return _mail(
        sender="Big Spec <bigspec@example.org>",
        subject="Schedule of openings",
        body=line * (size // len(line)),
        message_id="<bigspec-1@example.org>",
    )


def web_form(customer: str, suburb: str, product: str) -> bytes:
    """A website form mailer that reuses one fixed Message-ID for every submission."""
    body = (
        f"Name: {customer}\r\nEmail: {customer.split()[0].lower()}@example.com\r\n"
        f"Phone: 0412 000 111\r\nSuburb: {suburb}\r\n"
        f"Message: Please quote a {product} for our home in {suburb}.\r\n"
    ).encode()
    return _mail(
        sender="Website Form <forms@aurorawindows.com.au>",
        subject="New enquiry from the website",
        body=body,
        message_id="<webform@aurorawindows.com.au>",
        extra=f"Reply-To: {customer} <{customer.split()[0].lower()}@example.com>\r\n".encode(),
    )


def undeclared_ff() -> bytes:
    return _mail(
        sender="Byte Soup <soup@example.com>",
        subject="Broken bytes",
        body=b"Hello \xff\xfe\xff there, need a flyscreen \xff\r\n",
        message_id="<ff-1@example.com>",
        content_type="text/plain",
    )


def done_when_folder(folder: Path, *, big: int = 5 * 1024 * 1024) -> list[Path]:
    """The issue's folder: year 9999, 5 MB of dimensions, three web forms sharing one Message-ID,
    undeclared 0xFF, an empty file, then an ordinary inquiry (in name order)."""
    folder.mkdir(parents=True, exist_ok=True)
    cases = [
        year_9999(),
        dimension_body(big),
        web_form("Alice Wong", "Epping", "sliding door"),
        web_form("Bob Smith", "Ryde", "bifold door"),
        web_form("Carol Nguyen", "Hornsby", "awning window"),
        undeclared_ff(),
        b"",
        ORDINARY_INQUIRY,
    ]
    paths = []
    for index, data in enumerate(cases, start=1):
        path = folder / f"{index:03d}.eml"
        path.write_bytes(data)
        paths.append(path)
    return paths


# ----------------------------------------------------------------------------------- fuzzing

_POISON_DATES = [
    "Fri, 31 Dec 9999 23:59:59 -1200",
    "Mon, 01 Jan 0001 00:00:00 +1400",
    "Sat, 32 Feb 2026 25:61:61 +9999",
    "yesterday",
    "\xff\xfe",
    "Thu, 1 Jan 1970 00:00:00 -0000",
    "Tue, 10 Mar 99999999999 10:00:00 +0000",
    "",
]
_CHARSETS = ["utf-8", "gb2312", "x-unknown", "utf-7", "base64", "\x00", "big5", "us-ascii", ""]
_ENCODINGS = ["7bit", "base64", "quoted-printable", "x-uuencode", "8bit", "binary"]


def _random_header_value(rng: random.Random) -> str:
    choice = rng.randrange(6)
    if choice == 0:
        return (
            "=?utf-8?b?" + "".join(rng.choice("AZaz09+/=") for _ in range(rng.randrange(40))) + "?="
        )
    if choice == 1:
        return "=?" + rng.choice(_CHARSETS) + "?q?" + "=FF=00=E4" * rng.randrange(5) + "?="
    if choice == 2:
        return "A" * rng.randrange(1, 20000)
    if choice == 3:
        return "".join(chr(rng.randrange(0x80, 0x2FFF)) for _ in range(rng.randrange(30)))
    if choice == 4:
        return ",".join("<" * rng.randrange(3) + "x@y" for _ in range(rng.randrange(50)))
    return "normal text " + str(rng.random())


def _body(rng: random.Random) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(2000)))
    if kind == 1:
        return b"1200 x 900 mm\r\n" * rng.randrange(1, 20000)
    if kind == 2:
        return b"<table>" + b"<tr><td>cell</td><td>2400x2100</td></tr>" * rng.randrange(1, 5000)
    if kind == 3:
        return ("请报价推拉门 " * rng.randrange(1, 300)).encode(rng.choice(["gb18030", "utf-8"]))
    if kind == 4:
        return b"Please call 0412 345 678 re sliding door at 3 Some St, Ryde\r\n"
    if kind == 5:
        return b"x" * rng.randrange(0, 300000)
    if kind == 6:
        return b"\r\n".join(
            b"> " * rng.randrange(50) + b"quoted" for _ in range(rng.randrange(500))
        )
    return b"=" * rng.randrange(5000) + b"\xff" * rng.randrange(100)


def fuzz_message(rng: random.Random, index: int) -> bytes:
    """One hostile message; many share Message-IDs on purpose."""
    kind = rng.randrange(10)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 500)))
    if kind == 1:
        return b""
    headers: list[bytes] = []
    sender = rng.choice(
        [
            f"Customer {index} <c{index}@example.com>",
            "<>",
            "no address at all",
            _random_header_value(rng),
            f'"=?gb2312?b?xOO6wg==?=" <cn{index}@example.cn>',
        ]
    )
    headers.append(b"From: " + sender.encode("utf-8", "surrogateescape"))
    headers.append(b"To: sales@aurorawindows.com.au")
    headers.append(b"Subject: " + _random_header_value(rng).encode("utf-8", "replace")[:30000])
    headers.append(b"Date: " + rng.choice(_POISON_DATES).encode("utf-8", "replace"))
    mid = rng.choice([f"<fuzz-{index}@example.com>", "<fixed@form.example>", "", "<<<>>>"])
    if mid:
        headers.append(b"Message-ID: " + mid.encode())
    if rng.random() < 0.3:
        headers.append(b"In-Reply-To: <fixed@form.example>")
        headers.append(
            b"References: " + b" ".join(b"<r%d@x>" % i for i in range(rng.randrange(200)))
        )
    charset = rng.choice(_CHARSETS)
    encoding = rng.choice(_ENCODINGS)
    if rng.random() < 0.35:
        boundary = rng.choice(["b1", "", "\xff", "x" * 200])
        headers.append(
            f'Content-Type: multipart/mixed; boundary="{boundary}"'.encode("utf-8", "replace")
        )
        parts = []
        for _ in range(rng.randrange(0, 6)):
            name = rng.choice(["CON", "aux.pdf", "a" * 400 + ".pdf", "../../etc/passwd", "nul.txt"])
            parts.append(
                b'--b1\r\nContent-Type: application/pdf; name="' + name.encode() + b'"\r\n'
                b'Content-Disposition: attachment; filename="' + name.encode() + b'"\r\n'
                b"Content-Transfer-Encoding: " + encoding.encode() + b"\r\n\r\n" + _body(rng)
            )
        parts.append(
            b"--b1\r\nContent-Type: text/html; charset="
            + charset.encode("utf-8", "replace")
            + b"\r\n\r\n"
            + _body(rng)
        )
        body = b"\r\n".join(parts) + rng.choice([b"\r\n--b1--\r\n", b""])
    else:
        ctype = rng.choice(["text/plain", "text/html", "message/rfc822", "application/x-foo"])
        headers.append(f"Content-Type: {ctype}; charset={charset}".encode("utf-8", "replace"))
        headers.append(b"Content-Transfer-Encoding: " + encoding.encode())
        body = _body(rng)
    for _ in range(rng.randrange(3)):
        headers.append(b"X-" + _random_header_value(rng).encode("utf-8", "replace")[:60] + b": v")
    return b"\r\n".join(headers) + b"\r\n\r\n" + body


def fuzz_messages(count: int, seed: int = 13) -> Iterator[bytes]:
    rng = random.Random(seed)
    for index in range(count):
        yield fuzz_message(rng, index)
