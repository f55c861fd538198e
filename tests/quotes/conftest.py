"""The quote tests reuse the mailbox tests' real servers (Dovecot per test, aiosmtpd)."""

from __future__ import annotations

from tests.mailbox.conftest import dovecot, smtp

__all__ = ["dovecot", "smtp"]
