"""What the drafting windows need from the app's drafting: its four capability objects.

Why a Protocol and not ``core.drafts.drafting.Drafting``: the app hands these windows
``core.app.lazy.LazyDrafts``, which builds the real ``Drafting`` on first attribute access (so the
board opens without importing drafting) and is no subclass of it. Both answer these four names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Protocol

if TYPE_CHECKING:  # the names as ``Drafting`` declares them (annotations only: see the module)
    from core.app.types import DraftComposer
    from core.app.types import DraftReader
    from core.app.types import OwnerDecisions
    from core.app.types import OwnerEdits


class DraftingParts(Protocol):
    """``Drafting`` or ``LazyDrafts``: composer, owner edits, owner decisions, reader."""

    @property
    def composer(self) -> DraftComposer: ...

    @property
    def edits(self) -> OwnerEdits: ...

    @property
    def decisions(self) -> OwnerDecisions: ...

    @property
    def reader(self) -> DraftReader: ...
