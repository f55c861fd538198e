"""``core.app.types`` stays as cheap to import as the app's start, and still hands out the
assistant's turn events (they load with their module on first access)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_types_loads_neither_the_assistant_nor_drafting() -> None:
    probe = (
        "import sys, core.app.types; "
        "print(','.join(m for m in ('core.agent.conversation', 'core.drafts.drafting', 'httpx') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == ""


def test_the_turn_events_come_from_the_assistant_on_first_access() -> None:
    import core.agent.conversation as conversation
    import core.app.types as types

    assert types.TextDelta is conversation.TextDelta
    assert types.ToolActivity is conversation.ToolActivity
    assert types.TurnDone is conversation.TurnDone
    assert types.tool_label("search_customers") == conversation.tool_label("search_customers")
    with pytest.raises(AttributeError):
        types.NoSuchName  # noqa: B018
