"""Send-once when the process is killed mid-send (SIGKILL, no cleanup), then reconciled."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.drafts.support import CUSTOMER, add_inquiry

ROOT = Path(__file__).resolve().parents[2]


def _wait(predicate, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.005)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("kill_at", ["send", "patch"])
async def test_killed_mid_send_then_reconciled_sends_exactly_once(  # type: ignore[no-untyped-def]
    services, drafting, graph, home, kill_at
):
    gid = graph.add_message(subject="Bifold doors", from_addr=CUSTOMER, body="Price please")
    inquiry_id, _ = add_inquiry(services, source_id=gid, subject="Bifold doors")
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    await drafting.decisions.approve(draft_id, actor="owner")

    graph.latency = 0.4  # every request is held long enough to kill the sender in flight
    graph.reset_stats()
    env = {k: v for k, v in os.environ.items() if not k.startswith("INQUIRY_BRIDGE_")}
    env["PYTHONPATH"] = str(ROOT)
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.drafts.send_child",
            str(home),
            graph.base_url,
            graph.token,
            str(draft_id),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        pattern = r"/send$" if kill_at == "send" else r"/me/messages/[^/]+$"
        method = "POST" if kill_at == "send" else "PATCH"
        _wait(lambda: graph.requests_to(pattern, method) or child.poll() is not None)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=20)
        child.stdout.close()  # type: ignore[union-attr]
        child.stderr.close()  # type: ignore[union-attr]
    assert child.returncode == -signal.SIGKILL
    time.sleep(0.6)  # the server finishes what it had already received
    graph.latency = 0.0

    assert (await drafting.reader.get(draft_id)).status == "sending"  # the crash left it undecided
    assert len(graph.sent_log) == (1 if kill_at == "send" else 0)

    results = await drafting.decisions.send_due()  # reconcile, then send what is provably unsent
    assert len(graph.sent_log) == 1
    assert len(graph.folder_messages("sentitems")) == 1
    assert (await drafting.reader.get(draft_id)).status == "sent"
    assert [r.status for r in results] == ["sent"] if kill_at == "send" else ["waiting", "sent"]
    assert await drafting.decisions.send_due() == []
    assert len(graph.sent_log) == 1
