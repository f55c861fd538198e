"""A hostile IMAP server can neither stop intake nor swamp the machine (issue 40).

Each test runs the real ``sync --once`` in a child process against ``ImapFaultServer`` and
reads the child's peak memory (``RUSAGE_CHILDREN``): before, a folder named ``&AAAA-`` made
every sync fail with an English ``UnicodeDecodeError``, a SELECT without UIDVALIDITY raised
``IndexError``, a message listed at 1,000 bytes and sent as 1.2 GB pushed the process past
1.3 GB, endless untagged FETCH lines reached 2.4 GB, and a trickle kept the sync running.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.app import build_app
from tests.support.imap_fault_server import PASSWORD, Faults, FaultyMessage, ImapFaultServer
from tests.support.mailbox_mail import inquiry

ROOT = Path(__file__).resolve().parents[2]
PEAK_RSS_MB = 500


def _mail(count: int) -> list[FaultyMessage]:
    return [FaultyMessage(uid, inquiry(uid)) for uid in range(1, count + 1)]


_PEAK = "\nPEAK_RSS_KB="
_PEAKS: list[float] = []
# runs the command as its child and reports that child's peak RSS (kB) as its last stderr line
_MEASURED = (
    "import resource, subprocess, sys; code = subprocess.call(sys.argv[1:]); "
    f"sys.stderr.write({_PEAK!r} + str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); "
    "sys.exit(code)"
)


def _sync_once(server: ImapFaultServer, home: Path, **settings: int | bool) -> tuple[int, str]:
    """``sync --once --offline`` in a child (the suite's clock), with small caps for speed."""
    app = build_app(home)
    app.settings.update(dict(settings))  # keywords are written back too (the default)
    app.close()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "INQUIRY_BRIDGE_IMAP_URL": server.url,
        "INQUIRY_BRIDGE_MAIL_PASSWORD": PASSWORD,
    }
    env.pop("INQUIRY_BRIDGE_SMTP_URL", None)
    command = [sys.executable, "-m", "core.cli.main", "sync", "--once", "--offline"]
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *command, "--home", str(home)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,  # the bound: a hostile server never keeps the sync running
    )
    said, _, peak = done.stderr.rpartition(_PEAK)
    _PEAKS.append(int(peak.strip() or 0) / 1024)
    return done.returncode, done.stdout + said


def _stored(home: Path) -> int:
    from sqlalchemy import func, select

    from core.db.models import Message
    from core.db.store import Store
    from core.paths import DataPaths

    store = Store(DataPaths(home).database)
    try:
        with store.session() as session:
            return int(session.scalar(select(func.count(Message.id))) or 0)
    finally:
        store.close()


def _peak_rss_mb() -> float:
    """The highest peak RSS of this test's sync children. Read by a fresh wrapper process per
    child: the suite's own RUSAGE_CHILDREN holds the biggest child any earlier test ran."""
    return max(_PEAKS, default=0.0)


@pytest.fixture(autouse=True)
def _fresh_peaks() -> None:
    _PEAKS.clear()


@pytest.fixture(autouse=True)
def _linux_only() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("peak memory of a child is read from getrusage (Linux)")


def test_bad_folder_name_missing_uidvalidity_and_a_size_lie_still_sync_inbox(
    tmp_path: Path,
) -> None:
    messages = _mail(4)
    faults = Faults(bad_folder=True, no_uidvalidity=True, size_lie=3)
    with ImapFaultServer(messages, faults) as server:
        code, said = _sync_once(server, tmp_path / "home", **{"imap.max_literal_kb": 1024})
        assert code == 0, said
        assert "new=3" in said and "refused=1" in said and "vanished" not in said, said
        assert "UnicodeDecodeError" not in said and "IndexError" not in said
        # a second round: nothing new, nothing doubled, though UIDs cannot be trusted
        code, said = _sync_once(server, tmp_path / "home", **{"imap.max_literal_kb": 1024})
        assert code == 0 and "new=0" in said, said
    assert _stored(tmp_path / "home") == 3
    assert server.streamed < 200 * 1024 * 1024  # the lie was not read to its end
    assert _peak_rss_mb() < PEAK_RSS_MB


def test_endless_untagged_fetch_lines_end_the_round_with_one_clear_line(tmp_path: Path) -> None:
    with ImapFaultServer(_mail(2), Faults(endless_fetch=True)) as server:
        code, said = _sync_once(server, tmp_path / "home")
    assert code != 0
    lines = [line for line in said.splitlines() if line.strip()]
    assert len(lines) == 1 and "收信 IMAP 服务器" in lines[0], said
    assert "Traceback" not in said
    assert _peak_rss_mb() < PEAK_RSS_MB


def test_a_server_that_trickles_is_given_up_on_at_the_command_deadline(tmp_path: Path) -> None:
    faults = Faults(trickle=True, trickle_seconds=1.0)
    with ImapFaultServer(_mail(1), faults) as server:
        code, said = _sync_once(server, tmp_path / "home", **{"imap.command_timeout_seconds": 3})
    assert code != 0
    lines = [line for line in said.splitlines() if line.strip()]
    assert len(lines) == 1 and "收信 IMAP 服务器太慢" in lines[0], said


def test_the_same_server_without_faults_delivers_every_message(tmp_path: Path) -> None:
    """The double is honest when asked to be: what the tests above miss is the faults' doing."""
    with ImapFaultServer(_mail(3)) as server:
        code, said = _sync_once(server, tmp_path / "home")
    assert code == 0 and "new=3" in said and "refused" not in said, said
    assert _stored(tmp_path / "home") == 3


def test_the_command_cap_is_per_command_not_per_connection(tmp_path: Path) -> None:
    """60 messages over one connection read about 40 KB in all, but no one command
    answers with more than 16 KB: every message arrives."""
    with ImapFaultServer(_mail(60)) as server:
        code, said = _sync_once(server, tmp_path / "home", **{"imap.max_command_kb": 16})
    assert code == 0 and "new=60" in said, said
