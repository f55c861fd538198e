"""The shape figures of issue #23's closing note, for this tree or another checkout.

Why a script: the note compares main before and after the composition root, the task runner and
the layer table; the figures must be reproducible, and both trees must be counted by the same
rules. So the rules are this tree's tests (``tests/foundation/test_composition_root.py``'s wiring
scan, ``tests/foundation/test_layers.py``'s import scan), applied to the tree given.

    python benchmarks/shape_counts.py            # this tree
    python benchmarks/shape_counts.py /path/old  # another checkout (e.g. ``git archive`` of main)
    python benchmarks/shape_counts.py --ours     # and where each "ours" Any is
    python benchmarks/shape_counts.py --json     # and where each "JSON payload" Any is

Figures:
- wiring sites: functions (and files) outside the composition root (``core/app/``, and a client's
  own module for its HTTP pool) that construct a client or a service;
- offload sites: ``threading.Thread``, ``*PoolExecutor``, ``asyncio.to_thread`` and
  ``run_in_executor`` calls outside the one task runner (``core/tasks.py``), in core/ and desktop/;
- ``Any`` in annotations (parameters, returns, annotated assignments) in core/ and desktop/,
  by reason, told from the annotation's shape: "JSON payload" (the value type of
  ``dict[str, Any]``/``Mapping[str, Any]``; told by shape alone, so a dict of ours written
  that way counts here too: ``--json`` lists them to audit), "forwarding *args/**kwargs" (a bare ``*args: Any``
  or ``**kwargs: Any``), "library forces it" (the ``LIBRARY_ANY`` list below, one reason each)
  and "ours" (the rest, which should carry a real type; ``--ours`` lists them);
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


# Where a library forces ``Any``: ``path::qualname`` (the function, or ``scope.name`` of an
# annotated assignment) -> why. Every other bare ``Any`` outside a JSON payload or a forwarding
# ``*args``/``**kwargs`` counts as "ours" and should carry a real type.
LIBRARY_ANY: dict[str, str] = {
    "core/db/owed.py::claim.result": "SQLAlchemy types Session.execute(update) as a Result "
    "without rowcount",
    "core/graph/auth.py::_secure_file_persistence": "msal_extensions ships no types",
    "core/graph/auth.py::build_persistence": "msal_extensions ships no types",
    "core/graph/auth.py::MsalAuth.__init__.self._app": "msal ships no types",
    "core/graph/auth.py::MsalAuth.__init__.self._cache": "msal_extensions ships no types",
    "core/graph/auth.py::MsalAuth.cache": "msal_extensions ships no types",
    "core/graph/auth.py::MsalAuth.app": "msal ships no types",
    "core/secret_file.py::ProtectedFile._dpapi": "msal_extensions ships no types",
    "core/voice/download.py::_quiet_tqdm": "tqdm ships no types (a subclass of its class)",
    "core/voice/transcriber.py::Transcriber.__init__.self._model": "faster-whisper ships no types",
    "core/voice/live.py::speech_in.options": "faster-whisper ships no types (its VadOptions)",
    "core/voice/transcriber.py::Transcriber._recognise": "faster-whisper's TranscriptionInfo, "
    "untyped",
    "desktop/board/model.py::BoardModel.data": "PySide6's stub: QAbstractItemModel.data returns "
    "Any (a QVariant: str, QBrush, QFont, int… by role)",
    "desktop/board/model.py::BoardModel.headerData": "PySide6's stub: "
    "QAbstractItemModel.headerData returns Any (a QVariant)",
    "desktop/inert.py::InertBrowser.loadResource": "PySide6's stub: QTextBrowser.loadResource "
    "returns Any (a QVariant: QByteArray, QImage… by resource type)",
}

REASONS = ("JSON payload", "forwarding *args/**kwargs", "library forces it", "ours")
JSON_CONTAINERS = frozenset({"dict", "Dict", "Mapping", "MutableMapping"})
# Aliases of ``Any`` (``X: TypeAlias = Any``, ``X = Any`` at a module's top) are seen through:
# each use counts as an ``Any``. These name decoded JSON (any JSON value, not only an object:
# ``core.db.models.JSONValue``), so their uses count as "JSON payload"; any other alias of
# ``Any`` counts by where it is used, like ``Any`` itself.
JSON_ALIASES = frozenset({"JSONValue"})
_ALIASES: set[str] = set()  # the aliases of ``Any`` in the tree counted (``any_sites``)


def _is_any(node: ast.AST) -> bool:
    named = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return named == "Any" or named in _ALIASES


def _is_json_alias(node: ast.AST) -> bool:
    named = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return named in _ALIASES and named in JSON_ALIASES


def _any_aliases(root: Path) -> set[str]:
    """The names bound to ``Any`` at the top of a module of core/ or desktop/."""
    found: set[str] = set()
    for path in _files(root):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                target, value = node.target.id, node.value
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                target, value = node.targets[0].id, node.value
            else:
                continue
            named = value.id if isinstance(value, ast.Name) else getattr(value, "attr", None)
            if named == "Any":
                found.add(target)
    return found


def _anys(annotation: ast.AST | None) -> list[bool]:
    """One entry per ``Any`` (or alias of it) in ``annotation``: whether it is a JSON payload's
    value type (``dict[str, Any]``, ``Mapping[str, Any]``, or a ``JSON_ALIASES`` name)."""
    if annotation is None:
        return []
    found: list[bool] = []
    json_values: set[int] = set()
    for node in ast.walk(annotation):
        if (
            isinstance(node, ast.Subscript)
            and (
                getattr(node.value, "id", None) in JSON_CONTAINERS
                or getattr(node.value, "attr", None) in JSON_CONTAINERS
            )
            and isinstance(node.slice, ast.Tuple)
            and len(node.slice.elts) == 2
            and getattr(node.slice.elts[0], "id", None) == "str"
        ):
            json_values.add(id(node.slice.elts[1]))
    for node in ast.walk(annotation):
        if _is_any(node):
            found.append(id(node) in json_values or _is_json_alias(node))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            with contextlib.suppress(SyntaxError):  # a string annotation ("dict[str, Any]")
                found += _anys(ast.parse(node.value, mode="eval"))
    return found


def any_sites(root: Path) -> list[tuple[str, str, str, str]]:
    """Every ``Any`` in an annotation of core/ and desktop/: (top, ``path::qualname``, the
    annotated name, reason)."""
    sites: list[tuple[str, str, str, str]] = []
    _ALIASES.clear()
    _ALIASES.update(_any_aliases(root))

    def visit(node: ast.AST, scope: list[str], relative: str, top: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, [*scope, child.name], relative, top)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                where = f"{relative}::{'.'.join([*scope, child.name])}"
                a = child.args
                named: list[tuple[str, ast.AST | None, bool]] = [
                    (arg.arg, arg.annotation, False)
                    for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]
                ]
                named += [(f"*{v.arg}", v.annotation, True) for v in (a.vararg, a.kwarg) if v]
                named.append(("return", child.returns, False))
                for name, annotation, star in named:
                    for is_json in _anys(annotation):
                        sites.append((top, where, name, _reason(where, is_json, star, annotation)))
                visit(child, [*scope, child.name], relative, top)
            elif isinstance(child, ast.AnnAssign):
                target = child.target
                name = target.id if isinstance(target, ast.Name) else ast.unparse(target)
                where = f"{relative}::{'.'.join([*scope, name])}"
                for is_json in _anys(child.annotation):
                    sites.append((top, where, name, _reason(where, is_json, False, None)))
            else:
                visit(child, scope, relative, top)

    for path in _files(root):
        relative = path.relative_to(root).as_posix()
        visit(ast.parse(path.read_text(encoding="utf-8")), [], relative, relative.split("/")[0])
    return sites


def _reason(where: str, is_json: bool, star: bool, annotation: ast.AST | None) -> str:
    if is_json:
        return "JSON payload"
    if star and annotation is not None and _is_any(annotation):
        return "forwarding *args/**kwargs"
    if where in LIBRARY_ANY:
        return "library forces it"
    return "ours"


def any_annotations(root: Path) -> dict[str, int]:
    counts: dict[str, int] = {"core": 0, "desktop": 0}
    for top, *_rest in any_sites(root):
        counts[top] += 1
    return counts


def any_reasons(root: Path) -> Counter[str]:
    return Counter(reason for _top, _where, _name, reason in any_sites(root))


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
    paths = [a for a in argv[1:] if not a.startswith("--")]
    root = Path(paths[0]).resolve() if paths else HERE
    functions, files = wiring(root)
    sites, site_files = offloads(root)
    anys = any_annotations(root)
    print(f"tree: {root}")
    print(f"wiring sites: {functions} functions in {files} files outside the composition root")
    print(f"offload sites: {sites} in {site_files} files outside {TASK_RUNNER}")
    print(
        f"Any in annotations: {sum(anys.values())} (core {anys['core']}, desktop {anys['desktop']})"
    )
    reasons = any_reasons(root)
    for reason in REASONS:
        print(f"  {reason}: {reasons[reason]}")
    for flag, listed in (("--json", "JSON payload"), ("--ours", "ours")):
        if flag in argv:
            print(f"  {listed}:")
            for _top, where, name, reason in any_sites(root):
                if reason == listed:
                    print(f"    {where} ({name})")
    found = knots(root)
    print(f"package knots: {len(found)}" + "".join(f"\n  {' ↔ '.join(g)}" for g in found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
