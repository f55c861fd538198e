"""Fixtures of the IMAP/SMTP tests: a Dovecot server per test (skipped where none is installed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.drafts.support import DraftingModel
from tests.support import dovecot as dovecot_support
from tests.support.dovecot import DovecotServer
from tests.support.llm_server import LLMServer
from tests.support.smtp_server import SmtpServer


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    if not dovecot_support.available():
        pytest.skip("dovecot-imapd is not installed (.ci/run installs it)")
    with dovecot_support.running() as server:
        yield server


@pytest.fixture
def imap_env(monkeypatch: pytest.MonkeyPatch, dovecot: DovecotServer) -> DovecotServer:
    """The contract variables pointing the app at the Dovecot account."""
    monkeypatch.setenv("INQUIRY_BRIDGE_IMAP_URL", dovecot.url)
    monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", dovecot.password)
    return dovecot


@pytest.fixture
def smtp(dovecot: DovecotServer) -> Iterator[SmtpServer]:
    """A real SMTP server (aiosmtpd) accepting the Dovecot account's user and password."""
    server = SmtpServer(dovecot.user, dovecot.password).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def account(monkeypatch, dovecot: DovecotServer, smtp: SmtpServer):  # type: ignore[no-untyped-def]
    """An IMAP (Dovecot) + SMTP (aiosmtpd) account and a drafting model, by the contract
    variables."""
    model = DraftingModel()
    with LLMServer(model) as llm:
        monkeypatch.setenv("INQUIRY_BRIDGE_IMAP_URL", dovecot.url)
        monkeypatch.setenv("INQUIRY_BRIDGE_SMTP_URL", smtp.url)
        monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", dovecot.password)
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm.base_url)
        yield dovecot, smtp
