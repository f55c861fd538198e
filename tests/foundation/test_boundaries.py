"""core/ must never import Qt, qasync or desktop: the desktop is one client of core, not part."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
FORBIDDEN = ("PySide6", "qasync", "desktop", "shiboken6", "PyQt5", "PyQt6")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


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
