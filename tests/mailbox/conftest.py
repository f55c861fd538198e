"""Fixtures of the IMAP/SMTP tests: a Dovecot server per test (skipped where none is installed)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import dovecot as dovecot_support
from tests.support.dovecot import DovecotServer


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    """Its folder is outside pytest's owner-only tree: under root, Dovecot's own users must be
    able to reach the passwd-file and the maildir."""
    if not dovecot_support.available():
        pytest.skip("dovecot-imapd is not installed (.ci/run installs it)")
    root = Path(tempfile.mkdtemp(prefix="ib-dovecot-"))
    server = DovecotServer(root).start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def imap_env(monkeypatch: pytest.MonkeyPatch, dovecot: DovecotServer) -> DovecotServer:
    """The contract variables pointing the app at the Dovecot account."""
    monkeypatch.setenv("INQUIRY_BRIDGE_IMAP_URL", dovecot.url)
    monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", dovecot.password)
    return dovecot
