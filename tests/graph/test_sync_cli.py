"""``inquiry-bridge sync --once`` against the loopback Graph server, through the real CLI.

Done-when of the Graph issue: every message (read or unread, across pages) lands in the same store
as ``ingest``; a second run makes one delta request per watched resource and changes nothing; a
410 resyncs without duplicates; a sync killed mid-round resumes with nothing lost or doubled.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from core.cli.main import main
from core.clock import parse_now
from tests.conftest import TEST_NOW
from tests.support.graph_server import GraphServer

ROOT = Path(__file__).resolve().parents[2]


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], what: str, home: Path) -> list[dict]:
    code, out, err = _cli(capsys, what, "--json", "--home", str(home))
    assert code == 0, err
    return json.loads(out)


def _fill(srv: GraphServer, n: int = 12) -> list[str]:
    """n inquiries from distinct customers (half already read in Outlook) + one own sent mail."""
    now = parse_now(TEST_NOW)  # the app's clock in tests, not the machine's
    ids = []
    for i in range(n):
        ids.append(
            srv.add_message(
                subject=f"Quote for sliding door {i}",
                from_addr=f"customer{i}@example.com",
                from_name=f"Customer {i}",
                body=(
                    f"Hi, we need a new sliding door for our house at {i} George St, Ryde. "
                    f"Please call me on 0412 345 {i:03d}. Thanks, Customer {i}"
                ),
                received_at=now - timedelta(hours=n - i),
                is_read=i % 2 == 0,
            )
        )
    srv.add_message(
        folder="sentitems",
        subject="Re: Quote for sliding door 0",
        from_addr="sales@aurorawindows.com.au",
        to=["customer0@example.com"],
        body="Thanks, we will measure on Friday.",
        received_at=now - timedelta(minutes=5),
    )
    return ids


@pytest.fixture
def live_graph(monkeypatch: pytest.MonkeyPatch) -> GraphServer:
    with GraphServer(page_size=5) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", srv.token or "")
        yield srv


def test_sync_once_ingests_every_message_and_an_idle_rerun_changes_nothing(
    live_graph: GraphServer, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(live_graph)
    code, _out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    mail = _json(capsys, "mail", home)
    server_ids = {m["internetMessageId"] for m in live_graph.folder_messages("inbox")}
    assert {m["message_id"] for m in mail} >= server_ids  # read and unread alike, all pages
    assert len(mail) == 13
    assert sum(1 for m in mail if m["disposition"] == "new_inquiry") == 12
    assert sum(1 for m in mail if m["disposition"] == "skipped:outgoing") == 1
    inquiries = _json(capsys, "inquiries", home)
    assert len(inquiries) == 12
    # across pages: page size 5 → 3 inbox pages; then the round pages once more through the
    # echo of its own category writes (12 changed messages, known: nothing downloaded)
    assert len(live_graph.requests_to(r"/inbox/messages/delta$")) == 3 + 3
    # every $value fetched exactly once
    assert len(live_graph.requests_to(r"/\$value$")) == 13
    # Outlook shows the board's picture: categories on the customers' messages
    assert {c["displayName"] for c in live_graph.master_categories} >= {
        "询盘-A 上门量尺",
        "阶段-询盘",
    }
    assert any(m["categories"] for m in live_graph.folder_messages("inbox"))

    live_graph.reset_stats()
    code, _out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    per_resource = sorted(r.path.rsplit("/v1.0", 1)[-1] for r in live_graph.requests)
    assert per_resource == [
        "/me/drive/root/delta",
        "/me/mailFolders/inbox/messages/delta",
        "/me/mailFolders/sentitems/messages/delta",
    ]
    assert _json(capsys, "mail", home) == mail
    assert _json(capsys, "inquiries", home) == inquiries


def test_graph_and_eml_land_in_the_same_store(
    live_graph: GraphServer, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    eml_dir = tmp_path / "eml"
    eml_dir.mkdir()
    now = parse_now(TEST_NOW)  # the app's clock in tests, not the machine's
    for i in range(3):
        gid = live_graph.add_message(
            subject=f"Window quote {i}",
            from_addr=f"w{i}@example.com",
            body=f"Need 2 awning windows 1200x900 in Ryde please. Phone 0413 111 22{i}",
            received_at=now - timedelta(hours=5 - i),
        )
        (eml_dir / f"{i:03d}.eml").write_bytes(live_graph._messages[gid]["_raw"])
    # one message only as .eml (arrived before the account was connected)
    live_graph.add_message(subject="Graph only", from_addr="g@example.com", body="Bifold door?")
    code, _, err = _cli(
        capsys, "ingest", "--eml-dir", str(eml_dir), "--offline", "--home", str(home)
    )
    assert code == 0, err
    code, out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    assert "new=1" in out and "known=3" in out  # the three .eml twins are not fetched again
    mail = _json(capsys, "mail", home)
    assert len(mail) == 4
    assert len({m["message_id"] for m in mail}) == 4


def test_a_410_resyncs_without_duplicates(
    live_graph: GraphServer, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(live_graph, 6)
    assert _cli(capsys, "sync", "--once", "--offline", "--no-drive", "--home", str(home))[0] == 0
    before = _json(capsys, "mail", home)
    live_graph.expire_sync_state()
    live_graph.add_message(subject="After expiry", from_addr="late@example.com", body="Hi")
    code, out, err = _cli(capsys, "sync", "--once", "--offline", "--no-drive", "--home", str(home))
    assert code == 0, err
    assert "resynced=inbox,sent" in out
    after = _json(capsys, "mail", home)
    assert len(after) == len(before) + 1
    assert len({m["message_id"] for m in after}) == len(after)


def test_removed_messages_are_kept_and_marked(
    live_graph: GraphServer, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = _fill(live_graph, 3)
    assert _cli(capsys, "sync", "--once", "--offline", "--no-drive", "--home", str(home))[0] == 0
    live_graph.remove_message(ids[0])
    code, out, _ = _cli(capsys, "sync", "--once", "--offline", "--no-drive", "--home", str(home))
    assert code == 0 and "removed=1" in out
    assert len(_json(capsys, "mail", home)) == 4  # nothing is lost


def test_signed_out_sync_says_so_in_one_line(
    live_graph: GraphServer,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", "expired-token")
    code, _out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 1
    assert err.count("\n") == 1 and "需要重新登录微软账户" in err and "Traceback" not in err


def test_a_killed_sync_resumes_without_loss_or_duplicates(
    live_graph: GraphServer, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(live_graph, 24)
    live_graph.latency = 0.02  # slow enough to kill it mid-round
    env = {**os.environ, "INQUIRY_BRIDGE_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "core.cli.main", "sync", "--once", "--offline", "--no-drive"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while len(live_graph.requests_to(r"/\$value$")) < 8 and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert len(live_graph.requests_to(r"/\$value$")) >= 8  # killed mid-round, not before it
    assert proc.returncode == -signal.SIGKILL
    fetched_before_kill = len(live_graph.requests_to(r"/\$value$"))
    assert fetched_before_kill < 25  # it really died mid-round
    live_graph.latency = 0.0
    code, _out, err = _cli(capsys, "sync", "--once", "--offline", "--no-drive", "--home", str(home))
    assert code == 0, err
    mail = _json(capsys, "mail", home)
    assert len(mail) == 25
    assert len({m["message_id"] for m in mail}) == 25
    assert sorted(m["disposition"] for m in mail).count("new_inquiry") == 24
