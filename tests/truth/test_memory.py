"""Memory hygiene: a proposal is kept but used nowhere until the owner confirms it; a retired
memory is kept but used nowhere again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.agent.memory import confirm_memory, retire_memory, save_memory
from core.agent.tools import active_memories
from core.cli.main import main
from core.drafts.reply_model import contact_context, with_memories


def _used(services) -> tuple[list[str], str]:  # type: ignore[no-untyped-def]
    with services.store.session() as s:
        ctx = with_memories(s, contact_context({"email": "a@b.com"}, services.settings))
        return active_memories(s), ctx.memory_text


def test_proposal_confirm_retire(services, home: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    memory_id, status = save_memory(
        services, "business_rule", "报价有效期30天", source="agent", proposal=True
    )
    assert status == "proposed"
    prompts, draft_memories = _used(services)
    assert prompts == [] and "30天" not in draft_memories

    assert main(["memories", "--json", "--home", str(home)]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["id"], row["status"], row["source"]) == (memory_id, "proposed", "agent")

    assert confirm_memory(services, memory_id).status == "active"
    prompts, draft_memories = _used(services)
    assert any("30天" in p for p in prompts) and "30天" in draft_memories

    assert main(["memories", "retire", str(memory_id), "--home", str(home)]) == 0
    assert "retired" in capsys.readouterr().out
    prompts, draft_memories = _used(services)
    assert prompts == [] and "30天" not in draft_memories
    assert retire_memory(services, memory_id).status == "retired"  # idempotent, kept

    assert main(["memories", "confirm", "999", "--home", str(home)]) == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
