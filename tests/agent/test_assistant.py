"""The assistant over a loopback OpenAI-compatible server that answers with real tool calls.

The server plays the model: on the owner's question it calls ``search_inquiries``, then
``draft_reply`` with the id the search returned, then answers in Chinese using the tool result.
What is checked is what the owner would notice: the draft exists and waits for approval, nothing
was approved or sent, the ledger has the calls, and bad tool calls come back as errors instead
of crashing the turn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from core.agent import tools as agent_tools
from core.agent.loop import Assistant
from core.agent.tools.drive_access import CustomerDrive
from core.app.graph_runtime import GraphRuntime
from core.db.models import Draft, DraftEvent, Inquiry, LLMCall, Memory
from core.drafts.decisions import OwnerDecisions
from core.drafts.drafting import Drafting, build_drafting
from core.drafts.edits import OwnerEdits
from core.drafts.sender import DraftSender
from core.graph.calendar import OutlookCalendar
from core.graph.mailer import GraphMailer
from core.inquiry.search import refresh_search_text
from core.llm.client import LLMClient
from core.rhythm.appointments import Appointments
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, schema_name


def _tool_results(request: dict[str, Any]) -> list[str]:
    return [m["content"] for m in request["messages"] if m.get("role") == "tool"]


class ScriptedModel:
    """Tool calls that depend on what earlier tool results said (as a model's would)."""

    def __call__(self, request: dict[str, Any]) -> Any:
        name = schema_name(request)
        if name:  # the composer's structured call (tier 2)
            return {
                "subject": "Re: Sliding door quote",
                "body_en": "Dear Jane,\n\nThank you for your enquiry. We can measure on site "
                "next Tuesday.\n\nKind regards",
                "body_zh": "亲爱的 Jane：\n\n感谢您的询价。我们可以在下周二上门测量。\n\n此致",
            }
        results = _tool_results(request)
        if not results:
            return [{"name": "search_inquiries", "arguments": {"query": "0412 345 678"}}]
        if len(results) == 1:
            found = json.loads(results[0])["inquiries"]
            return [
                {
                    "name": "draft_reply",
                    "arguments": {"inquiry_id": found[0]["id"], "instruction": "下周二上门量尺"},
                }
            ]
        return f"已为客户起草回复，状态：{json.loads(results[1])['status']}。草稿尚未发送，请在待审批中确认。"


@pytest.fixture
async def llm(services):  # type: ignore[no-untyped-def]
    with LLMServer(ScriptedModel()) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        yield client, server
        await client.aclose()


async def test_question_to_pending_draft_never_sent(services, llm) -> None:  # type: ignore[no-untyped-def]
    client, server = llm
    inquiry_id, _ = add_inquiry(services)
    services.store.write(lambda s: refresh_search_text(s.get(Inquiry, inquiry_id)))
    assistant = Assistant(services, client, build_drafting(services, client))

    reply = await assistant.ask("给 0412 345 678 那位客户回信，下周二上门量尺")

    assert [c.name for c in reply.tool_calls] == ["search_inquiries", "draft_reply"]
    assert "DRAFT_PENDING_APPROVAL — NOT SENT" in reply.tool_calls[1].result
    assert "尚未发送" in reply.text
    with services.store.session() as s:
        drafts = s.scalars(select(Draft)).all()
        assert [(d.inquiry_id, d.status) for d in drafts] == [(inquiry_id, "pending_approval")]
        statuses = {e.to_status for e in s.scalars(select(DraftEvent))}
        assert statuses.isdisjoint({"approved", "sending", "sent"})
        purposes = [c.purpose for c in s.scalars(select(LLMCall).order_by(LLMCall.id))]
    assert purposes.count("assistant") == 3
    tool_request = next(r for r in server.chat_requests if r.body.get("tools"))
    offered = {t["function"]["name"] for t in tool_request.body["tools"]}
    assert offered == set(agent_tools.REGISTRY)


OWNER_ONLY = {
    "approve",
    "reject",
    "send",
    "send_due",
    "reconcile",
    "delete_abandoned",
    "send_reply",
    "confirm",
    "create_measure",
}


def _reachable(root: Any) -> list[Any]:
    """Every project object reachable from ``root`` through attributes, containers, bound
    methods and closures (third-party objects are not entered: they hold none of ours)."""
    seen: set[int] = set()
    out: list[Any] = []
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, str | bytes | int | float | bool | type(None)):
            continue
        seen.add(id(obj))
        if isinstance(obj, dict):
            todo += list(obj.values())
            continue
        if isinstance(obj, list | tuple | set | frozenset):
            todo += list(obj)
            continue
        if hasattr(obj, "__self__") and hasattr(obj, "__func__"):  # a bound method
            todo.append(obj.__self__)
            continue
        if callable(obj) and getattr(obj, "__closure__", None):
            todo += [c.cell_contents for c in obj.__closure__ if c.cell_contents is not None]
            continue
        module = type(obj).__module__ or ""
        if not module.startswith(("core.", "tests.")):
            continue
        out.append(obj)
        todo += list(getattr(obj, "__dict__", {}).values())
        for slot in getattr(type(obj), "__slots__", ()):
            todo.append(getattr(obj, slot, None))
    return out


async def test_no_tool_can_approve_or_send(services, llm) -> None:  # type: ignore[no-untyped-def]
    names = " ".join(agent_tools.REGISTRY).lower()
    assert "approve" not in names and "send" not in names
    # every module of the tools package, not only its __init__
    for module in sorted(Path(agent_tools.__file__).parent.glob("*.py")):
        source = module.read_text(encoding="utf-8")
        assert ".approve(" not in source and ".send(" not in source, module.name
        assert "send_due" not in source and ".confirm(" not in source, module.name
        for owner_only in ("core.graph.mailer", "core.app.graph_runtime", "core.drafts.decisions",
                           "core.drafts.sender", "core.drafts.edits"):  # fmt: skip
            assert owner_only not in source, (module.name, owner_only)
    # by construction: the tools' context holds a composer and a reader, and nothing reachable
    # from it can approve, reject or send — even when the assistant is built from the owner's
    # full drafting (the desktop and the CLI hand it that)
    client, _server = llm
    drafting = build_drafting(services, client)
    context = Assistant(services, client, drafting).context
    assert set(vars(context)) == {
        "services",
        "composer",
        "reader",
        "drive",
        "customer_content_seen",
        "owner_words",  # a Text: the owner's words of the turn, no capability
        "current_inquiry_id",
        "propose_only",
        "memory_judge",  # asks the cheap model one question: does a memory repeat another?
        "proposals",  # ids of proposals a tool stored this turn, no capability
        "channel",  # a name (desktop, telegram, cli)
        "focus",  # inquiry ids the turn's tools settled on, no capability
    }
    assert type(context.drive) is CustomerDrive  # OneDrive's files and folders, not Graph whole
    objects = _reachable(context)
    assert any(o is drafting.composer for o in objects) and any(
        o is drafting.reader for o in objects
    )
    assert any(o is context.drive for o in objects)
    forbidden = (
        OwnerDecisions,
        OwnerEdits,
        DraftSender,
        Drafting,
        GraphMailer,
        GraphRuntime,
        Appointments,
        OutlookCalendar,
    )
    assert [o for o in objects if isinstance(o, forbidden)] == []
    reaching = [(type(o).__name__, m) for o in objects for m in OWNER_ONLY if hasattr(o, m)]
    assert reaching == []


async def test_bad_tool_calls_come_back_as_errors(services) -> None:  # type: ignore[no-untyped-def]
    calls = iter(
        [
            [{"name": "no_such_tool", "arguments": {}}],
            [{"name": "get_inquiry", "arguments": "{not json"}],
            [
                {
                    "name": "change_stage",
                    "arguments": {"inquiry_id": 999, "to_stage": "measure", "reason": "x"},
                }
            ],
            [{"name": "remember", "arguments": {"kind": "boss_pref", "text": "报价都含GST"}}],
            "好的，已记住。",
        ]
    )
    with LLMServer(lambda _req: next(calls)) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        try:
            reply = await Assistant(services, client, build_drafting(services, client)).ask(
                "记住：报价都含GST"
            )
        finally:
            await client.aclose()
    results = [c.result for c in reply.tool_calls]
    assert results[0].startswith("ERROR: there is no tool")
    assert results[1].startswith("ERROR: invalid arguments")
    assert results[2].startswith("ERROR")
    assert results[3].startswith("MEMORY_SAVED")
    assert reply.text == "好的，已记住。"
    with services.store.session() as s:
        assert [m.text for m in s.scalars(select(Memory))] == ["报价都含GST"]


def test_ask_cli_without_endpoint_is_one_clear_line(home, capsys) -> None:  # type: ignore[no-untyped-def]
    from core.cli.main import main

    assert main(["ask", "你好", "--home", str(home)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "AI" in err[0]
