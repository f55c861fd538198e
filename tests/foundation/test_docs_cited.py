"""Every document a source file cites is in the repository (#43).

A user clones only this repository; a docstring that sends the reader to a design page kept
somewhere else is a dead end. Markdown names in code are either repository paths (``docs/…``,
``installer/README.md``), prompt files under ``core/llm/prompts/``, or the owner's own knowledge
file in his data folder (``knowledge.md``, not a document of ours).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b")
DATA_FILES = {"knowledge.md"}  # the owner's 知识库 in his data folder
SOURCES = ("core", "desktop", "tests", "benchmarks", "installer", "translations")


def _documents() -> set[str]:
    found = {str(p.relative_to(ROOT)) for p in ROOT.rglob("*.md") if ".venv" not in p.parts}
    return found | {Path(p).name for p in found}


def _known(name: str, documents: set[str]) -> bool:
    """A path relative to the repository, or a tail of one (``prompts/x.md`` in core/llm)."""
    return name in documents or any(doc.endswith("/" + name) for doc in documents)


def test_every_cited_markdown_document_exists_in_the_repository() -> None:
    documents = _documents()
    missing: list[str] = []
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__).resolve():
                continue
            for name in CITED.findall(path.read_text(encoding="utf-8")):
                bare = name.lstrip("./")
                if Path(bare).name in DATA_FILES or _known(bare, documents):
                    continue
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "cites a document not in the repository:\n" + "\n".join(missing)


def test_the_check_sees_a_missing_document() -> None:
    """The pattern must catch the way the old docstrings cited the outside design page."""
    assert CITED.findall("rules from DESIGN.md principle 7") == ["DESIGN.md"]
    assert "DESIGN.md" not in _documents()
