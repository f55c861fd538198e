"""A stage changed outside the tray app moves the customer's OneDrive folder at the next sync, once.

The folder move a stage change owes is a row in the store (``owed_writes``), written with the
change: ``stage`` on the command line, ``ask`` and the assistant on Telegram change the stage in
processes that never talk to OneDrive (or are gone by the next round); ``sync --once`` (a fresh
process: the restart in between) or the ``telegram`` runner does the move, exactly once, and the
next poll reads no move back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from core.clock import parse_now
from tests.conftest import TEST_NOW
from tests.support.graph_server import GraphServer
from tests.support.llm_server import LLMServer
from tests.support.telegram_server import TelegramServer

OWNER = 4242
FOLDERS = ("未报价顾客", "厂家已报价", "已报价顾客")


@pytest.fixture
def drive(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[GraphServer, dict[str, str]]]:
    """Mail from Amy Lee in the inbox; her folder in 未报价顾客 on the loopback OneDrive."""
    with GraphServer(page_size=5, now=lambda: parse_now(TEST_NOW)) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", srv.token or "")
        folders = {n: srv.drive_add(n, parent_id=srv.drive_root_id, folder=True) for n in FOLDERS}
        folders["amy"] = srv.drive_add(
            "Amy Lee - Ryde", parent_id=folders["未报价顾客"], folder=True
        )
        srv.add_message(
            subject="Quote for a sliding door",
            from_addr="amy.lee@example.com",
            from_name="Amy Lee",
            body="Hi, please quote a sliding door for 12 Pope St, Ryde. Call 0412 345 678. Amy Lee",
            received_at=parse_now(TEST_NOW),
        )
        yield srv, folders


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _first_sync(capsys: pytest.CaptureFixture[str], home: Path) -> int:
    out = _run(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert "matched=1" in out
    [inquiry] = json.loads(_run(capsys, "inquiries", "--json", "--home", str(home)))
    return int(inquiry["id"])


def _moves(graph: GraphServer) -> list[Any]:
    return graph.requests_to(r"/me/drive/items/[^/]+$", "PATCH")


def _owed(
    capsys: pytest.CaptureFixture[str], home: Path, kind: str = "drive_move"
) -> list[dict[str, Any]]:
    rows = json.loads(_run(capsys, "owed", "--json", "--home", str(home)))
    return [r for r in rows if r["kind"] == kind]


def _stage(capsys: pytest.CaptureFixture[str], home: Path) -> str:
    [inquiry] = json.loads(_run(capsys, "inquiries", "--json", "--home", str(home)))
    return str(inquiry["stage"])


def _assert_moved_once_and_quiet_after(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    graph: GraphServer,
    folders: dict[str, str],
    outcome: str = "moved to 厂家已报价",
) -> None:
    assert len(_moves(graph)) == 1
    assert (amy := graph.drive_item(folders["amy"])) is not None
    assert amy["parentReference"]["id"] == folders["厂家已报价"]
    [owed] = _owed(capsys, home)
    assert owed["status"] == "done" and owed["outcome"] == outcome
    again = _run(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert "stage_changes=0" in again and "folders_moved=0" in again
    assert len(_moves(graph)) == 1  # the next poll moves nothing and reads no move back
    assert _stage(capsys, home) == "quoting"


def test_a_stage_changed_on_the_command_line_moves_the_folder_at_the_next_sync(
    drive: tuple[GraphServer, dict[str, str]], home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graph, folders = drive
    inquiry = _first_sync(capsys, home)
    out = _run(
        capsys, "stage", str(inquiry), "quoting", "--reason", "报价已发厂家", "--home", str(home)
    )
    assert "下次同步时移动" in out
    [owed] = _owed(capsys, home)  # queued with the change, in the store, visible
    assert owed["status"] == "pending" and owed["inquiry_id"] == inquiry
    assert "inquiry → quoting" in owed["reason"]
    assert _moves(graph) == []  # the command itself never talked to OneDrive

    out = _run(capsys, "sync", "--once", "--offline", "--home", str(home))  # a new process
    assert "folders_moved=1" in out and "stage_changes=0" in out
    _assert_moved_once_and_quiet_after(capsys, home, graph, folders)
    # Outlook shows the new stage too: the category write was owed and done by the same sync
    [owed] = _owed(capsys, home, "outlook_categories")
    assert owed["status"] == "done"
    [message] = graph.folder_messages("inbox")
    assert "阶段-报价中" in message["categories"]


def test_a_move_whose_answer_was_lost_is_not_sent_twice(
    drive: tuple[GraphServer, dict[str, str]], home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Graph did the move but the answer never came: the row waits, the delta shows the folder
    where it went, and the next pass closes the row without a second PATCH."""
    graph, folders = drive
    inquiry = _first_sync(capsys, home)
    _run(capsys, "stage", str(inquiry), "quoting", "--home", str(home))
    graph.fail(r"/me/drive/items/[^/]+$", method="PATCH", drop_after=True)
    out = _run(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert "stage_changes=0" in out  # the delta's echo of the move is not a stage change
    _assert_moved_once_and_quiet_after(capsys, home, graph, folders, "already in 厂家已报价")


def test_an_outage_keeps_the_move_for_a_later_process(
    drive: tuple[GraphServer, dict[str, str]], home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graph, folders = drive
    inquiry = _first_sync(capsys, home)
    _run(capsys, "stage", str(inquiry), "quoting", "--home", str(home))
    graph.fail(r"/me/drive/items/[^/]+$", method="PATCH", status=503, times=2)
    out = _run(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert "folders_moved=0" in out
    [owed] = _owed(capsys, home)
    assert owed["status"] == "pending" and "503" in (owed["last_error"] or "")
    out = _run(capsys, "sync", "--once", "--offline", "--home", str(home))  # after a restart
    assert "folders_moved=1" in out
    assert len(_moves(graph)) == 3  # two refused, one done
    assert (amy := graph.drive_item(folders["amy"])) is not None
    assert amy["parentReference"]["id"] == folders["厂家已报价"]
    again = _run(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert "folders_moved=0" in again and "stage_changes=0" in again


class StageModel:
    """The assistant's model: move inquiry 1 to quoting with the tool, then say so."""

    def __call__(self, request: dict[str, Any]) -> Any:
        if any(m.get("role") == "tool" for m in request.get("messages", [])):
            return "已把 Amy Lee 改为「报价中」。"
        if request.get("tools"):
            args = {"inquiry_id": 1, "to_stage": "quoting", "reason": "老板说报价已发厂家"}
            return [{"name": "change_stage", "arguments": args}]
        return "好的。"


def test_a_stage_changed_by_ask_moves_the_folder_at_the_next_sync(
    drive: tuple[GraphServer, dict[str, str]],
    home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    graph, folders = drive
    assert _first_sync(capsys, home) == 1
    with LLMServer(StageModel()) as llm:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm.base_url)
        _run(capsys, "ask", "Amy Lee 改成报价中", "--home", str(home))
    assert _stage(capsys, home) == "quoting" and _moves(graph) == []
    _run(capsys, "sync", "--once", "--offline", "--home", str(home))
    _assert_moved_once_and_quiet_after(capsys, home, graph, folders)


def test_a_stage_changed_from_telegram_is_moved_by_the_telegram_runner(
    drive: tuple[GraphServer, dict[str, str]],
    home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The headless runner has no OneDrive watcher, but it talks to Graph: it does the move."""
    graph, folders = drive
    assert _first_sync(capsys, home) == 1
    with TelegramServer() as tg, LLMServer(StageModel()) as llm:
        monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_URL", tg.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_TOKEN", tg.token)
        monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_CHAT_ID", str(OWNER))
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm.base_url)
        tg.push_message(OWNER, "Amy Lee 改成报价中")
        _run(capsys, "telegram", "--once", "--home", str(home))
        assert any("报价中" in m.text for m in tg.sent)
    assert _stage(capsys, home) == "quoting"
    _assert_moved_once_and_quiet_after(capsys, home, graph, folders)
