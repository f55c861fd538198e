"""Every tool of the registry: a closed JSON schema, a short activity label in Chinese and
English, and a test that calls it through the loopback model."""

from __future__ import annotations

import re
from pathlib import Path

from core.agent import tools as agent_tools
from core.agent.tools import REGISTRY, tool_labels

SEED_TOOLS = {
    "search_customers", "search_emails", "today_numbers", "pending_items", "thread_history",
    "list_customer_files", "read_customer_file", "find_attachments", "create_customer_folder",
    "change_stage", "audit_pipeline", "draft_reply", "forward_to_factory", "batch_drafts",
    "propose_appointment", "remember", "list_memories", "retire_memory",
}  # fmt: skip


def test_the_seed_tool_set_is_there() -> None:
    assert set(REGISTRY) >= SEED_TOOLS


def test_every_tool_is_typed_and_labelled() -> None:
    for name, tool in REGISTRY.items():
        schema = tool.spec()["function"]["parameters"]
        assert schema["type"] == "object" and schema["additionalProperties"] is False, name
        assert set(schema["required"]) <= set(schema["properties"]), name
        assert re.search(r"[\u4e00-\u9fff]", tool.label_zh) and tool.label_zh.endswith("…"), name
        assert tool.label_en.endswith("…") and not re.search(r"[\u4e00-\u9fff]", tool.label_en)
        assert tool_labels(name) == (tool.label_zh, tool.label_en)
    assert tool_labels("no_such_tool") == ("正在处理…", "Working…")
    assert tool_labels("search_customers") == ("正在查找客户…", "Looking up customers…")


def test_every_tool_is_called_by_a_test() -> None:
    here = Path(__file__).parent
    sources = "".join(p.read_text(encoding="utf-8") for p in here.glob("test_*.py"))
    untested = [
        n for n in REGISTRY if f'("{n}",' not in sources and f'"name": "{n}"' not in sources
    ]
    assert untested == []


def test_the_package_keeps_its_old_imports() -> None:
    from core.agent.tools import REGISTRY as registry
    from core.agent.tools import ToolContext, active_memories

    assert registry is agent_tools.REGISTRY and callable(active_memories)
    assert "from_drafting" in vars(ToolContext)


def test_each_tool_declares_what_it_reads_writes_and_may_claim_in_one_record() -> None:
    from core.agent.assertions import KINDS
    from core.agent.conversation import DRAFTING_TOOLS, FILE_TOOLS
    from core.agent.loop import CUSTOMER_CONTENT_TOOLS
    from core.agent.tools.base import GATED_WRITES

    # the lists the loop and the front ends use are read off the records, not kept beside them
    assert {n for n, t in REGISTRY.items() if t.drafts} == DRAFTING_TOOLS == {
        "draft_reply", "revise_draft", "forward_to_factory", "batch_drafts",
    }  # fmt: skip
    assert {"find_attachments"} == FILE_TOOLS
    assert {n for n, t in REGISTRY.items() if t.reads_customer_content} == CUSTOMER_CONTENT_TOOLS
    assert {"get_inquiry", "search_emails", "thread_history", "read_customer_file"} <= (
        CUSTOMER_CONTENT_TOOLS
    )
    gated = {n: t.gated for n, t in REGISTRY.items() if t.gated}
    assert gated == {
        "change_stage": {"stage"}, "add_note": {"note"}, "remember": {"memory"},
        "create_customer_folder": {"folder"},
    }  # fmt: skip
    assert {"stage", "note", "memory", "folder"} == GATED_WRITES
    for name, tool in REGISTRY.items():
        assert tool.backs <= set(KINDS), name
        assert bool(tool.writes) or not tool.backs, (
            name
        )  # a tool that writes nothing backs no assertion
    # batch drafting takes no model-written rows: the schema has no place for them
    batch = REGISTRY["batch_drafts"].spec()["function"]["parameters"]
    assert set(batch["properties"]) == {"instruction", "csv_path"}
