"""Mail transports stay in their adapters (issue 40): no module outside them imports httpx,
imaplib or smtplib.

The sender used to import httpx to guess whether a Graph failure was "transient", beside a
second guess for SMTP: each mailbox kind leaked into the at-most-once argument. Now the
adapters (``core.graph`` for Microsoft Graph, ``core.mailbox`` for IMAP/SMTP) map their
failures into ``core.errors.MailerError``, and everything above them sees only the port. The
few other httpx users talk to other services (Telegram, the calendar, the TLS bundle) or build
the Graph client at the composition root; each is named here with why, so a new one is a
decision, not an accident. Checked on the source (``ast``: function-local and
``TYPE_CHECKING`` imports count).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRANSPORTS = frozenset({"httpx", "imaplib", "smtplib"})

# the adapters: their own transports
ADAPTERS = {
    "core/graph": {"httpx"},  # Microsoft Graph (mail, drafts, OneDrive)
    "core/mailbox": {"imaplib", "smtplib"},  # IMAP intake, SMTP submission
}
# not mail: other services' clients, or the composition root building the Graph adapter
OTHERS = {
    "core/app/facade.py": {"httpx"},  # a Telegram client for the settings page's token test
    "core/app/telegram.py": {"httpx"},  # the Telegram runner's client
    "core/app/graph_runtime.py": {"httpx"},  # the Graph client's transport (tests inject one)
    "core/notify/telegram_client.py": {"httpx"},  # the Bot API
    "core/telegram/runner.py": {"httpx"},  # the Bot API's long poll
    "core/tls.py": {"httpx"},  # the CA bundle every client shares
}


def _transports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found & TRANSPORTS


def _allowed(rel: str) -> set[str]:
    for folder, names in ADAPTERS.items():
        if rel.startswith(folder + "/"):
            return names
    return OTHERS.get(rel, set())


def test_no_module_outside_the_adapters_imports_a_mail_transport() -> None:
    wrong = {}
    for base in ("core", "desktop"):
        for path in sorted((ROOT / base).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            extra = _transports(path) - _allowed(rel)
            if extra:
                wrong[rel] = sorted(extra)
    assert wrong == {}, f"mail transports outside their adapters: {wrong}"


def test_the_sender_and_the_mail_port_know_no_transport() -> None:
    """The at-most-once argument is written against the port only."""
    for rel in (
        "core/drafts/sender.py",
        "core/drafts/submit_once.py",
        "core/drafts/send_journal_keeper.py",
        "core/mail/ports.py",
    ):
        assert _transports(ROOT / rel) == set(), rel


def test_the_allowances_are_still_needed() -> None:
    """An allowance nobody uses any more is removed, so the list stays the truth."""
    for rel, names in OTHERS.items():
        assert _transports(ROOT / rel) & names, f"{rel} no longer imports {names}: drop it"
