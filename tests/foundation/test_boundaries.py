"""The layers' boundaries, checked on the import statements themselves (``ast``, so imports inside
functions count too):

* core/ never imports Qt, qasync or desktop: the desktop is one client of core, not part of it.
* desktop/ never imports the ORM (``core.db``) or SQLAlchemy: views talk to core through the
  ``core.app`` facade and the signal hub, never through sessions and models.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"
DESKTOP = ROOT / "desktop"
FORBIDDEN = ("PySide6", "qasync", "desktop", "shiboken6", "PyQt5", "PyQt6")
ORM = ("core.db", "sqlalchemy")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _orm_imports(path: Path) -> list[str]:
    """The ORM modules ``path`` imports; ``from core import db`` counts as ``core.db``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    orm = {n for n in found if any(n == m or n.startswith(m + ".") for m in ORM)}
    # report a module once, not once per name taken from it
    return sorted(n for n in orm if not any(n.startswith(o + ".") for o in orm))


def test_core_never_imports_qt_or_desktop() -> None:
    offenders = []
    files = list(CORE.rglob("*.py"))
    assert len(files) > 10
    for path in files:
        for name in _imports(path):
            if name.split(".")[0] in FORBIDDEN:
                offenders.append(f"{path.relative_to(CORE.parent)} imports {name}")
    assert offenders == []


def test_the_scan_catches_an_offender(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtCore import QObject\nimport qasync\n")
    assert [n.split(".")[0] for n in _imports(bad)] == ["PySide6", "qasync"]


def test_desktop_never_imports_the_orm_or_sqlalchemy() -> None:
    offenders = []
    files = list(DESKTOP.rglob("*.py"))
    assert len(files) > 10
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        offenders += [f"{rel} imports {n}" for n in _orm_imports(path)]
    assert offenders == []


def test_the_orm_scan_sees_function_local_and_from_imports(tmp_path: Path) -> None:
    bad = tmp_path / "view.py"
    bad.write_text(
        "from core import db\n"
        "def load():\n"
        "    from sqlalchemy import select\n"
        "    import core.db.models\n"
        "from core.dbx import fine\n"
    )
    assert _orm_imports(bad) == ["core.db", "sqlalchemy"]
