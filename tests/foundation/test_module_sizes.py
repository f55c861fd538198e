"""Modules and functions stay small enough to read in one sitting.

Limits from issue 11: no module over 600 lines, no function over 80 (aims: 400 and 60). Checked
for the packages already brought under them; add a package to ``PACKAGES`` once it complies.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("intake", "graph", "mail", "sources", "drive", "llm", "voice")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
# Known long functions, by "file.py name". core/intake/extract.py is being reworked by the
# grounding work (validate_fields, 140 lines), outside the intake split; remove the entry when
# it is split (the test fails on a stale entry too).
ALLOWED_LONG = {"extract.py validate_fields"}


def _files() -> list[Path]:
    return sorted(p for name in PACKAGES for p in (ROOT / "core" / name).rglob("*.py"))


def long_functions(path: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append(f"{path.name}:{node.lineno} {node.name} ({length})")
    return found


def test_no_module_over_the_limit() -> None:
    files = _files()
    assert len(files) > 30
    too_long = [
        f"{p.relative_to(ROOT)} ({n})"
        for p in files
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    assert too_long == []


def test_no_function_over_the_limit() -> None:
    found = {f.split(":")[0] + " " + f.split(" ")[1] for p in _files() for f in long_functions(p)}
    assert sorted(found - ALLOWED_LONG) == []
    assert sorted(ALLOWED_LONG - found) == [], "an allowed function got short: remove it"


def test_the_scan_measures_a_function(tmp_path: Path) -> None:
    path = tmp_path / "long.py"
    path.write_text("def f():\n" + "    x = 1\n" * 81)
    assert len(long_functions(path)) == 1
