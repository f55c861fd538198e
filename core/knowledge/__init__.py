"""The owner's trade knowledge (知识库): one plain Markdown file he writes, read by the prompts.

Why a file and not rows: it is *his* text — products, options, glass, lead times, warranty,
price rules, standards (AS 2047), answers to common questions — and he should be able to open
``<data folder>/knowledge.md`` in any editor, copy it to a new PC or hand it to his office
manager. The app never writes a fact into it on its own: the desktop's 知识库 page saves what he
typed, and an addition the assistant proposes is written only after he confirms it
(``core.agent.proposals``, kind ``knowledge``).

Because he wrote it, the fact guard counts it as his word (``core.drafts.reply_model`` adds it to a
draft's evidence as ``Text.owner``): "4 weeks" in a draft is not flagged when his lead-time
section says 4 周, and still is when it does not.

Modules: ``base`` (the file: load, save atomically and owner-only, add one line to a section),
``search`` (what a prompt gets: the whole text while small, the matching paragraphs when large).

``search`` (and the glossary it reads) loads on first use of one of its names: the board, the
tray and the CLI's listings build the knowledge service but never search.

Layer row: errors, glossary.
"""

from typing import TYPE_CHECKING, Any

from core.knowledge.base import (
    SECTIONS,
    KnowledgeBase,
    KnowledgeChanged,
    KnowledgeDoc,
    SharedText,
    knowledge_for,
    skeleton,
)

if TYPE_CHECKING:
    from core.knowledge.search import EXCERPT_CHARS, WHOLE_CHARS, Excerpt, excerpt, outline
else:
    _SEARCH = {"EXCERPT_CHARS", "WHOLE_CHARS", "Excerpt", "excerpt", "outline"}

    def __getattr__(name: str) -> Any:
        if name in _SEARCH:
            from core.knowledge import search

            return getattr(search, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "EXCERPT_CHARS",
    "SECTIONS",
    "WHOLE_CHARS",
    "Excerpt",
    "KnowledgeBase",
    "KnowledgeChanged",
    "KnowledgeDoc",
    "SharedText",
    "excerpt",
    "knowledge_for",
    "outline",
    "skeleton",
]
