"""No import circle among ``core.*`` modules, nor among ``desktop.*`` modules — function-local
and ``TYPE_CHECKING`` imports included.

A late import inside a function hides a circle from Python but not from a reader: the two modules
still cannot be understood, tested or moved apart. The graph is built from the source with ``ast``
(nothing is imported), one node per module; ``import a.b`` and ``from a import b`` point at the
module named (a package's ``__init__`` only when that is what is named).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"

# Circles among modules outside the intake/graph/mail/drive/llm/voice packages that are still
# open; each entry is the sorted module list of one strongly connected component. Remove an
# entry when its circle is broken (the test fails on a stale entry too).
ALLOWED: set[tuple[str, ...]] = set()


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(name: str, modules: set[str]) -> str | None:
    """The longest prefix of ``name`` that is a known module (``core.x.Y`` → ``core.x``)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(path: Path, name: str, modules: set[str]) -> set[str]:
    """Every project module ``path`` imports, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] or [base]
        for target in targets:
            resolved = _resolve(target, modules)
            if resolved is not None and resolved != name:
                found.add(resolved)
    return found


def import_graph(root: Path = ROOT, package: str = "core") -> dict[str, set[str]]:
    files = {module_name(p, root): p for p in (root / package).rglob("*.py")}
    modules = set(files)
    return {name: imports_of(path, name, modules) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(tuple(sorted(component)))
    return sorted(found)


def test_no_import_circle_among_core_modules() -> None:
    graph = import_graph()
    assert len(graph) > 50
    found = set(cycles(graph))
    assert sorted(found - ALLOWED) == []
    assert sorted(ALLOWED - found) == [], "an allowed circle is gone: remove it from ALLOWED"


def test_no_import_circle_among_desktop_modules() -> None:
    """The windows never import the app that builds them, nor a window its opener: what a
    window needs of the running app is ``desktop.context.Shell``, handed in on the context."""
    graph = import_graph(package="desktop")
    assert len(graph) > 50
    assert {"desktop.app", "desktop.main_window", "desktop.context"} <= set(graph)
    assert cycles(graph) == []


def test_the_scan_sees_function_local_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "core"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from core import b\n")
    (pkg / "b.py").write_text("def late():\n    from core.a import thing\n    return thing\n")
    (pkg / "c.py").write_text("from . import a\n")
    graph = import_graph(tmp_path)
    assert graph["core.b"] == {"core.a"} and graph["core.c"] == {"core.a"}
    assert cycles(graph) == [("core.a", "core.b")]
