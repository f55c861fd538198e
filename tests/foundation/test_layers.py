"""The layer table: which ``core`` packages each package may import, checked on the source.

One row per package (or top-level module) of ``core``; a package imports only what its row
names (``ast``, so function-local and ``TYPE_CHECKING`` imports count). The table has no cycle,
so the packages stack: ``text``/``clock``/``errors`` at the bottom, then ``db``, ``mail``,
``llm``, the domain (``inquiry``, ``intake``, ``graph``, ``drafts``, ``rhythm``…), then the
composition root ``app`` and the front ends ``telegram`` and ``cli`` on top. Each package's
docstring quotes its row ("Layer row: …"), and this test keeps the two the same.

Adding an import outside the row fails here: widen the row (and the docstring) only when the
dependency points down the stack; an import that would close a cycle means the shared piece
belongs in a lower package (as the fact scanner moved to ``core.text.facts``).
"""

from __future__ import annotations

import ast
import graphlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"
DESKTOP = ROOT / "desktop"

LAYERS: dict[str, set[str]] = {
    "agent": {
        "clock",
        "config",
        "db",
        "drafts",
        "drive",
        "errors",
        "events",
        "glossary",
        "graph",
        "inquiry",
        "intake",
        "knowledge",
        "llm",
        "memory",
        "provenance",
        "quotes",
        "rhythm",
        "services",
        "tasks",
        "text",
    },
    "app": {
        "agent",
        "autostart",
        "clock",
        "config",
        "db",
        "demo",
        "drafts",
        "drive",
        "errors",
        "events",
        "glossary",
        "graph",
        "import_lock",
        "inquiry",
        "intake",
        "knowledge",
        "llm",
        "logging_setup",
        "mail",
        "mailbox",
        "memory",
        "notify",
        "paths",
        "phones",
        "quotes",
        "rhythm",
        "schedule",
        "secrets",
        "services",
        "sources",
        "stats",
        "tasks",
        "text",
        "voice",
    },
    "autostart": set(),
    "cli": {
        "app",
        "clock",
        "db",
        "drafts",
        "errors",
        "evals",
        "inquiry",
        "logging_setup",
        "mail",
        "rhythm",
        "runtime",
        "secrets",
        "tasks",
        "telegram",
        "voice",
    },
    "clock": set(),
    "config": {"errors", "tempfiles"},
    "db": {"clock", "errors", "tasks", "tempfiles"},
    "demo": {
        "clock",
        "db",
        "demo_drafts",
        "glossary",
        "inquiry",
        "intake",
        "mail",
        "services",
        "tasks",
    },
    "demo_drafts": {"clock", "db", "drafts", "glossary"},
    "drafts": {
        "clock",
        "config",
        "db",
        "errors",
        "events",
        "inquiry",
        "knowledge",
        "llm",
        "mail",
        "mailbox",
        "memory",
        "paths",
        "provenance",
        "quotes",
        "secrets",
        "services",
        "tasks",
        "text",
    },
    "drive": {
        "clock",
        "config",
        "db",
        "errors",
        "events",
        "graph",
        "inquiry",
        "tasks",
        "tempfiles",
    },
    "errors": set(),
    "evals": {"app", "db", "llm", "services", "sources"},
    "events": set(),
    "glossary": set(),
    "graph": {
        "clock",
        "config",
        "db",
        "errors",
        "events",
        "glossary",
        "inquiry",
        "intake",
        "mail",
        "paths",
        "secrets",
        "services",
        "tasks",
        "tls",
    },
    "import_lock": set(),
    "inquiry": {
        "clock",
        "db",
        "errors",
        "events",
        "glossary",
        "llm",
        "memory",
        "paths",
        "services",
        "text",
        "workdays",
    },
    "intake": {
        "clock",
        "config",
        "db",
        "errors",
        "events",
        "glossary",
        "import_lock",
        "inquiry",
        "llm",
        "mail",
        "paths",
        "services",
        "tasks",
        "tempfiles",
        "text",
    },
    "knowledge": {"errors", "glossary"},
    "llm": {"clock", "config", "db", "errors", "secrets"},
    "log_redact": set(),
    "logging_setup": {"log_redact"},
    "mail": {"errors", "text"},
    "mailbox": {
        "clock",
        "config",
        "db",
        "errors",
        "events",
        "intake",
        "mail",
        "secrets",
        "services",
        "tasks",
    },
    "memory": {"clock", "db"},
    "nsw_holidays": set(),
    "notify": {
        "agent",
        "clock",
        "config",
        "db",
        "drafts",
        "errors",
        "events",
        "glossary",
        "inquiry",
        "mail",
        "phones",
        "rhythm",
        "secrets",
        "services",
        "tasks",
        "text",
        "tls",
        "voice",
    },
    "paths": {"errors"},
    "phones": set(),
    "provenance": set(),
    "quotes": {"clock", "db", "errors", "glossary", "inquiry", "text"},
    "runtime": {"app", "events", "tasks", "telegram"},
    "rhythm": {
        "clock",
        "config",
        "db",
        "errors",
        "events",
        "glossary",
        "graph",
        "inquiry",
        "phones",
        "secrets",
        "services",
        "stats",
        "tasks",
        "text",
        "workdays",
    },
    "schedule": {"clock", "drafts", "errors", "events", "import_lock", "services"},
    "secret_file": set(),
    "secrets": {"errors", "secret_file"},
    "services": {"clock", "config", "db", "errors", "events", "paths", "secrets"},
    "sources": {"graph", "mail", "tasks"},
    "stats": {"clock", "db", "inquiry", "llm"},
    "tasks": set(),
    "telegram": {
        "app",
        "drafts",
        "errors",
        "events",
        "notify",
        "tasks",
        "tls",
    },
    "tempfiles": set(),
    "text": set(),
    "tls": {"tasks"},
    "voice": {"errors", "tasks", "text"},
    "workdays": {"clock", "nsw_holidays"},
}

# What the desktop imports from core: ``core.app`` (``App``, ``build_app`` and the few functions
# needed before an App exists) and ``core.app.types`` (the data its services return). The one
# exception is the process's entry point, ``desktop/launcher.py``: ``inquiry-bridge`` is one
# program with two front ends, and the launcher hands headless commands to ``core.cli.main``
# without importing Qt (``core.cli`` cannot import the desktop, so the entry lives here).
# The tray process also hosts the background work (``core.runtime``: the supervisor, which
# starts the Telegram front end beside the pollers); ``desktop/sync.py`` hosts it. Routing it
# through ``core.app`` would make ``core.app`` import what sits above it (a loop in the table),
# so the one import is declared here.
# String imports (``importlib.import_module("core…")``, ``__import__``, ``find_spec``) of core
# are never allowed in the desktop: a declared import must be a plain ``import`` the scan sees.
DESKTOP_IMPORTS = frozenset({"core.app", "core.app.types"})
ENTRY_POINT_IMPORTS = {
    "desktop/launcher.py": frozenset({"core.cli.main"}),
    "desktop/sync.py": frozenset({"core.runtime"}),
}

ROW_LINE = re.compile(r"Layer row:\s*(.*?)\.\s*$", re.S)


def unit_of(path: Path) -> str:
    """The row a file of ``core`` belongs to: its package, or the top-level module."""
    return path.relative_to(CORE).parts[0].removesuffix(".py")


def core_imports(path: Path) -> set[str]:
    """The ``core`` rows ``path`` imports (``from core import x`` counts as ``x``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "core":
                names = [f"core.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        found |= {n.split(".")[1] for n in names if n.startswith("core.")}
    return found


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("core")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "core":
                found |= {f"core.{a.name}" for a in node.names}
            elif node.module.startswith("core."):
                found.add(node.module)
    return found


STRING_IMPORTERS = frozenset({"import_module", "__import__", "find_spec", "find_loader"})


def string_imports(path: Path) -> set[str]:
    """``core`` modules ``path`` loads by name (``importlib.import_module("core.x")``,
    ``__import__("core.x")``, ``importlib.util.find_spec("core.x")``), which ``import``
    statements do not show; a name built at run time (not a literal) counts as ``core?``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name not in STRING_IMPORTERS or not node.args:
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            if first.value == "core" or first.value.startswith("core."):
                found.add(first.value)
        else:
            found.add("core?")  # a computed name: could be anything
    # a name handed to a loader indirectly (``offload(importlib.import_module, "core.x")``)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Call) and any(
            (isinstance(a, ast.Attribute) and a.attr in STRING_IMPORTERS)
            or (isinstance(a, ast.Name) and a.id in STRING_IMPORTERS)
            for a in node.args
        ):
            names = [a.value for a in node.args if isinstance(a, ast.Constant)]
            named = {n for n in names if isinstance(n, str)}
            found |= {n for n in named if n == "core" or n.startswith("core.")}
            if not named:
                found.add("core?")  # a computed name: could be anything
    return found


def test_every_package_has_a_row() -> None:
    units = {unit_of(p) for p in CORE.rglob("*.py") if p.name != "__init__.py" or p.parent != CORE}
    assert sorted(units - set(LAYERS)) == []  # a new package needs its row
    assert sorted(set(LAYERS) - units) == []  # a row for something gone


def test_each_package_imports_only_its_row() -> None:
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        if path.parent == CORE and path.name == "__init__.py":
            continue
        unit = unit_of(path)
        for name in sorted(core_imports(path) - LAYERS[unit] - {unit}):
            offenders.append(f"{path.relative_to(ROOT)} imports core.{name} (row {unit})")
    assert offenders == []


def test_each_row_names_only_what_its_package_imports() -> None:
    """A row wider than the imports says a dependency that is not there: the docstring quoting
    it misleads the reader, and the slack lets a new import in unseen. Narrow it instead."""
    used: dict[str, set[str]] = {}
    for path in CORE.rglob("*.py"):
        if path.parent == CORE and path.name == "__init__.py":
            continue
        unit = unit_of(path)
        used.setdefault(unit, set()).update(core_imports(path) - {unit})
    slack = {unit: sorted(row - used.get(unit, set())) for unit, row in LAYERS.items()}
    assert {unit: names for unit, names in slack.items() if names} == {}


def test_the_table_has_no_cycle() -> None:
    graphlib.TopologicalSorter(LAYERS).prepare()  # raises CycleError naming the loop


def test_each_package_docstring_quotes_its_row() -> None:
    wrong = []
    for unit, row in sorted(LAYERS.items()):
        init = CORE / unit / "__init__.py"
        if not init.exists():
            continue  # a top-level module: its row is here only
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        found = ROW_LINE.search(doc)
        said = set(re.findall(r"[a-z_]+", found.group(1))) - {"nothing"} if found else None
        if said != row:
            wrong.append(f"core/{unit}: docstring says {sorted(said or [])}, table {sorted(row)}")
    assert wrong == []


def test_the_desktop_imports_only_core_app_and_its_types() -> None:
    beyond = {}
    for path in DESKTOP.rglob("*.py"):
        name = path.relative_to(ROOT).as_posix()
        extra = _imported_modules(path) - DESKTOP_IMPORTS - ENTRY_POINT_IMPORTS.get(name, set())
        hidden = {f"{m} (by name)" for m in string_imports(path)}
        if extra or hidden:
            beyond[name] = sorted(extra | hidden)
    assert beyond == {}


def test_the_desktop_scan_sees_imports_by_name(tmp_path: Path) -> None:
    """``import_module``/``__import__``/``find_spec`` with a core name, direct or handed to an
    offload, are seen (``desktop/sync.py`` once loaded the Telegram runner this way)."""
    bad = tmp_path / "x.py"
    bad.write_text(
        "import importlib, importlib.util\n"
        "async def f(offload):\n"
        "    await offload(importlib.import_module, 'core.telegram.runner')\n"
        "    importlib.import_module('core.db')\n"
        "    __import__('core.graph')\n"
        "    importlib.util.find_spec('core.mail')\n"
        "    importlib.util.find_spec('PySide6.QtPdf')\n"
        "    importlib.import_module(name)\n"
    )
    assert string_imports(bad) == {
        "core.telegram.runner",
        "core.db",
        "core.graph",
        "core.mail",
        "core?",
    }


def test_the_scan_sees_late_and_from_core_imports(tmp_path: Path) -> None:
    bad = tmp_path / "x.py"
    bad.write_text("from core import db\ndef f():\n    import core.graph.client\n")
    assert core_imports(bad) == {"db", "graph"}
    cyclic = {"a": {"b"}, "b": {"a"}}
    try:
        graphlib.TopologicalSorter(cyclic).prepare()
    except graphlib.CycleError:
        pass
    else:  # pragma: no cover - the check above would be worthless
        raise AssertionError("a two-package loop was not seen")


FRONT_ENDS = (CORE / "cli", CORE / "telegram")


def test_the_cli_and_telegram_front_ends_use_the_app_only() -> None:
    """No ``core.services`` import, no ``.services`` of an App, no store session and no client
    of their own in ``core/cli`` or ``core/telegram``: all of it is ``App``'s (``core.app``)."""
    offenders = []
    for folder in FRONT_ENDS:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            where = path.relative_to(ROOT)
            if "services" in core_imports(path):
                offenders.append(f"{where} imports core.services")
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr in {"services", "store"}:
                    offenders.append(f"{where}:{node.lineno} uses .{node.attr}")
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in {"TelegramClient", "LLMClient", "GraphClient"}
                ):
                    offenders.append(f"{where}:{node.lineno} builds a {node.func.id}")
    assert offenders == []


def test_front_ends_never_reach_for_the_apps_services() -> None:
    """The desktop, the CLI and the Telegram front end talk to ``App`` and its typed services;
    none reads ``.services`` (the core's container of store, settings and bus) off anything."""
    front = [
        *DESKTOP.rglob("*.py"),
        *(CORE / "cli").rglob("*.py"),
        *(CORE / "telegram").rglob("*.py"),
    ]
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in front
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "services"
    ]
    assert found == []
