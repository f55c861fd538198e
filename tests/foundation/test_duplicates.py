"""Each rule is written once: no run of six identical lines stands in two places of core/ or desktop/ (#43).

Why a test: a rule copied (an address check, a field list, a status move with its event row)
drifts, and the copies then give different verdicts for the same input. The ``duplicates`` tool
(the tool library's duplicate finder) is not on every machine that runs the suite, so this is its
"identical" half written down with its rules: lines are compared with white space folded; blank
lines, comments, lines of punctuation alone, docstrings and import statements are passed over; a
*pair* is two places that share a run of six or more such lines; a run standing in more than
eight places is too common to be anybody's rule and is left out. Lines alike but for names and
values (the tool's "shape" pairs) are places to look, not a verdict, and are not held here.

Where it differs from the tool, it is on purpose: the tool reads the names inside a
parenthesized import as code (two views importing the same six Qt widgets make a "pair") and
passes over a one-line docstring but not a longer one (so a copied function whose copy has a
two-line docstring hides). When the tool and this test disagree, read the rows: the fix is one
helper, one parameter record or one protocol where the logic is the same -- never a rename.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MIN_LINES = 6
TOO_COMMON = 8  # places a run may stand in before it is left out as an idiom
_SPACE = re.compile(r"\s+")
_WORDISH = re.compile(r"\w")


def _passed_over(source: str) -> set[int]:
    """Lines of bare string statements (docstrings: prose, like comments) and of import
    statements, all of a parenthesized one (a list of names is not a rule)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        value = node.value if isinstance(node, ast.Expr) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            lines.update(range(value.lineno, (value.end_lineno or value.lineno) + 1))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def _lines(path: Path) -> list[tuple[int, str]]:
    """The lines that count, each with its line number, white space folded."""
    source = path.read_text(encoding="utf-8")
    prose = _passed_over(source)
    kept: list[tuple[int, str]] = []
    for number, raw in enumerate(source.splitlines(), start=1):
        line = _SPACE.sub(" ", raw).strip()
        if number in prose or not line or line.startswith("#") or not _WORDISH.search(line):
            continue
        kept.append((number, line))
    return kept


def identical_pairs(base: Path, folders: list[str]) -> dict[tuple[str, str], tuple[int, int]]:
    """Every pair of places sharing a run of ``MIN_LINES`` identical lines: one row a pair of
    files (a file may pair with itself), with the first line of the run on each side."""
    places: dict[tuple[str, ...], list[tuple[str, int, int]]] = defaultdict(list)
    for folder in folders:
        for path in sorted((base / folder).rglob("*.py")):
            name = path.relative_to(base).as_posix()
            lines = _lines(path)
            for i in range(len(lines) - MIN_LINES + 1):
                run = tuple(text for _, text in lines[i : i + MIN_LINES])
                places[run].append((name, i, lines[i][0]))
    pairs: dict[tuple[str, str], tuple[int, int]] = {}
    for spots in places.values():
        if len(spots) < 2 or len(spots) > TOO_COMMON:
            continue
        for a, (file_a, index_a, line_a) in enumerate(spots):
            for file_b, index_b, line_b in spots[a + 1 :]:
                if file_a == file_b and abs(index_a - index_b) < MIN_LINES:
                    continue  # a run overlapping itself (a repeated line) is one place
                pairs.setdefault((file_a, file_b), (line_a, line_b))
    return pairs


def test_no_identical_runs_in_core_or_desktop() -> None:
    pairs = identical_pairs(ROOT, ["core", "desktop"])
    shown = [f"{a}:{la} ~ {b}:{lb}" for (a, b), (la, lb) in sorted(pairs.items())]
    assert not shown, "the same six lines stand twice; make one helper:\n" + "\n".join(shown)


def test_the_finder_finds_a_copied_rule(tmp_path: Path) -> None:
    """The detector itself: a rule pasted into a second module is found, with imports, comments
    and blank lines around it passed over, and a mere re-indent does not hide it."""
    rule = "\n".join(f"    value_{i} = check(value_{i - 1}, limit={i})" for i in range(1, 8))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(f"import os\n\ndef a():\n{rule}\n", encoding="utf-8")
    indented = rule.replace("    ", "        ")
    (tmp_path / "pkg" / "b.py").write_text(
        f"# a copy\nclass B:\n    def b(self):\n{indented}\n", encoding="utf-8"
    )
    (tmp_path / "pkg" / "c.py").write_text(
        "\n".join(f"x_{i} = {i}" for i in range(20)) + "\n", encoding="utf-8"
    )
    (tmp_path / "pkg" / "d.py").write_text(
        "from x import (\n" + "".join(f"    name_{i},\n" for i in range(9)) + ")\n"
        f'def d():\n    """A docstring\n    of two lines."""\n{rule}\n',
        encoding="utf-8",
    )
    (tmp_path / "pkg" / "e.py").write_text(
        "from y import (\n" + "".join(f"    name_{i},\n" for i in range(9)) + ")\n",
        encoding="utf-8",
    )
    assert sorted(identical_pairs(tmp_path, ["pkg"])) == [
        ("pkg/a.py", "pkg/b.py"),
        ("pkg/a.py", "pkg/d.py"),
        ("pkg/b.py", "pkg/d.py"),
    ]
