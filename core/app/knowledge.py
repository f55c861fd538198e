"""The owner's knowledge base (知识库) as the front ends use it: load, save, add, search.

Why a facade: the desktop's 知识库 page and the command line must not reach into
``core.knowledge`` (one door into the core). Every method runs the file work off the event loop.
A save names the version it was edited from, so an addition he confirmed in the chat meanwhile
is never overwritten (``KnowledgeChanged``: reload, then save).
"""

from __future__ import annotations

from core import tasks
from core.knowledge import (
    SECTIONS,
    KnowledgeBase,
    KnowledgeChanged,
    KnowledgeDoc,
    skeleton,
)
from core.services import Services

__all__ = ["KnowledgeChanged", "KnowledgeDoc", "KnowledgeService"]


class KnowledgeService:
    def __init__(self, services: Services) -> None:
        self._base = KnowledgeBase(services.paths.knowledge_file, services.paths.shared)

    @property
    def path(self) -> str:
        """Where the file is (the page shows it: he may edit it in any editor)."""
        return self._base.where

    @property
    def whole_chars(self) -> int:
        """Up to this size drafts and the assistant read the file whole."""
        from core.knowledge.search import WHOLE_CHARS

        return WHOLE_CHARS

    @staticmethod
    def sections() -> tuple[tuple[str, str], ...]:
        """(key, Chinese heading) of the suggested sections."""
        return SECTIONS

    @staticmethod
    def skeleton() -> str:
        """The empty outline of the suggested sections (headings only)."""
        return skeleton()

    async def load(self) -> KnowledgeDoc:
        return await tasks.io(self._base.load)

    async def save(self, text: str, version: str | None = None) -> KnowledgeDoc:
        """Save his text whole (atomic, owner-only); refused when the file changed since
        ``version`` was loaded."""
        return await tasks.io(self._base.save, text, version)

    async def add(self, section: str, line: str) -> KnowledgeDoc:
        """One line added to a section (what confirming an assistant proposal does)."""
        return await tasks.io(self._base.add, section, line)

    async def search(self, query: str) -> str:
        """What a prompt about ``query`` would get of the file."""
        from core.knowledge.search import excerpt

        doc = await self.load()
        return excerpt(doc.text, query).text
