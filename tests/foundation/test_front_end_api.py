"""``App``'s front-end API (``core.app.FrontEnd``) and its runtime handles stay apart.

Every public member of ``App`` is either in the typed front-end API or named a runtime handle
(a new one must be placed); the API holds no handle; and the front ends (``desktop/``,
``core/cli/``) never touch a handle, except the hosts of the background work, named with what
they use (the list may only shrink).
"""

from __future__ import annotations

import ast
from pathlib import Path

from core.app import App, FrontEnd
from core.app.api import RUNTIME_HANDLES

ROOT = Path(__file__).resolve().parents[2]
FRONT_ENDS = (ROOT / "desktop", ROOT / "core" / "cli")
HOSTS: dict[str, frozenset[str]] = {
    "desktop/sync.py": frozenset({"scheduler"}),  # the supervisor's pollers, for 立即同步
    "core/cli/serve.py": frozenset({"lease"}),  # status: who holds the runner lease
    "core/cli/graph.py": frozenset({"sync_runtime"}),  # sync --once: one round by hand
}


def _public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def _app_members() -> set[str]:
    """``App``'s methods and properties, and the attributes its ``__init__`` sets."""
    tree = ast.parse((ROOT / "core" / "app" / "facade.py").read_text(encoding="utf-8"))
    assigned = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and isinstance(node.ctx, ast.Store)
        and not node.attr.startswith("_")
    }
    return _public(App) | assigned


def _api_members() -> set[str]:
    return _public(FrontEnd) | set(FrontEnd.__annotations__)


def test_every_app_member_is_front_end_api_or_a_runtime_handle() -> None:
    api = _api_members()
    assert api & RUNTIME_HANDLES == set()
    assert sorted(_app_members() - api - RUNTIME_HANDLES) == []
    assert sorted(api - _app_members()) == []  # the API names nothing App lacks


def test_front_ends_use_no_runtime_handle() -> None:
    found = {}
    for folder in FRONT_ENDS:
        for path in sorted(folder.rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
            extra = (used & RUNTIME_HANDLES) - HOSTS.get(name, frozenset())
            if extra:
                found[name] = sorted(extra)
    assert found == {}
