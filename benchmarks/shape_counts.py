"""The shape figures of issue #23's closing note, for this tree or another checkout.

Why a script: the note compares main before and after the composition root, the task runner and
the layer table; the figures must be reproducible, and both trees must be counted by the same
rules. So the rules are this tree's tests (``tests/foundation/test_composition_root.py``'s wiring
scan, ``tests/foundation/test_layers.py``'s import scan), applied to the tree given.

    python benchmarks/shape_counts.py            # this tree
    python benchmarks/shape_counts.py /path/old  # another checkout (e.g. ``git archive`` of main)

Figures:
- wiring sites: functions (and files) outside the composition root (``core/app/``, and a client's
  own module for its HTTP pool) that construct a client or a service;
- offload sites: ``threading.Thread``, ``*PoolExecutor``, ``asyncio.to_thread`` and
  ``run_in_executor`` calls outside the one task runner (``core/tasks.py``), in core/ and desktop/;
- ``Any`` in annotations (parameters, returns, annotated assignments) in core/ and desktop/;
- package knots: strongly connected groups of two or more ``core`` packages by their imports.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parents[1]
OFFLOADERS = frozenset(
    {"Thread", "ThreadPoolExecutor", "ProcessPoolExecutor", "to_thread", "run_in_executor"}
)
TASK_RUNNER = "core/tasks.py"


def _load(name: str) -> ModuleType:
    path = HERE / "tests" / "foundation" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_shape_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    sys.path.insert(0, str(HERE))
    spec.loader.exec_module(module)
    return module


def _files(root: Path) -> list[Path]:
    return [p for top in ("core", "desktop") for p in sorted((root / top).rglob("*.py"))]


def wiring(root: Path) -> tuple[int, int]:
    scan = _load("test_composition_root")
    sites = scan.wiring_sites(scan.all_sites(root))
    return len(sites), len({path for path, _function in sites})


def offloads(root: Path) -> tuple[int, int]:
    per_file: Counter[str] = Counter()
    for path in _files(root):
        relative = path.relative_to(root).as_posix()
        if relative == TASK_RUNNER:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in OFFLOADERS:
                    per_file[relative] += 1
    return sum(per_file.values()), len(per_file)


def _any_in(annotation: ast.AST | None) -> int:
    if annotation is None:
        return 0
    n = 0
    for node in ast.walk(annotation):
        named = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
        if named == "Any":
            n += 1
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            with contextlib.suppress(SyntaxError):  # a string annotation ("dict[str, Any]")
                n += _any_in(ast.parse(node.value, mode="eval"))
    return n


def any_annotations(root: Path) -> dict[str, int]:
    counts: dict[str, int] = {"core": 0, "desktop": 0}
    for path in _files(root):
        top = path.relative_to(root).parts[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                a = node.args
                for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
                    counts[top] += _any_in(arg.annotation if arg else None)
                counts[top] += _any_in(node.returns)
            elif isinstance(node, ast.AnnAssign):
                counts[top] += _any_in(node.annotation)
    return counts


def knots(root: Path) -> list[list[str]]:
    layers = _load("test_layers")
    core = root / "core"
    graph: dict[str, set[str]] = {}
    for path in sorted(core.rglob("*.py")):
        if path.parent == core and path.name == "__init__.py":
            continue
        unit = path.relative_to(core).parts[0].removesuffix(".py")
        graph.setdefault(unit, set()).update(layers.core_imports(path) - {unit})
    # Tarjan's strongly connected components
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def main(argv: list[str]) -> int:
    root = Path(argv[1]).resolve() if len(argv) > 1 else HERE
    functions, files = wiring(root)
    sites, site_files = offloads(root)
    anys = any_annotations(root)
    print(f"tree: {root}")
    print(f"wiring sites: {functions} functions in {files} files outside the composition root")
    print(f"offload sites: {sites} in {site_files} files outside {TASK_RUNNER}")
    print(
        f"Any in annotations: {sum(anys.values())} (core {anys['core']}, desktop {anys['desktop']})"
    )
    found = knots(root)
    print(f"package knots: {len(found)}" + "".join(f"\n  {' ↔ '.join(g)}" for g in found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
