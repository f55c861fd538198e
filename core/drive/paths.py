"""Local reconstruction of OneDrive paths, stage folders and customer-folder name matching.

OneDrive's delta gives each item its ``parentReference.id`` but usually no path, and moving or
renaming a folder does not list its children. So paths are never stored: they are rebuilt from the
``drive_items`` rows (id → name, parent id) whenever needed. These are pure functions over a
snapshot so the watcher can compare the picture *before* and *after* a delta round.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    name: str
    parent_id: str | None
    is_folder: bool
    deleted: bool = False


Tree = Mapping[str, Node]


def path_of(tree: Tree, item_id: str, *, limit: int = 64) -> str | None:
    """``/a/b/c`` for an item below the root ('' for the root); None if the chain is broken."""
    parts: list[str] = []
    current: str | None = item_id
    for _ in range(limit):
        if current is None:
            return None
        node = tree.get(current)
        if node is None or node.deleted:
            return None
        if node.parent_id is None:  # the drive root
            return "/" + "/".join(reversed(parts)) if parts else ""
        parts.append(node.name)
        current = node.parent_id
    return None  # a cycle: never trust it


def find_root(tree: Tree) -> str | None:
    for item_id, node in tree.items():
        if node.parent_id is None and not node.deleted:
            return item_id
    return None


def resolve_folder(tree: Tree, root_id: str, relative: str) -> str | None:
    """The folder at ``relative`` ('a/b', '' = the root) below ``root_id``."""
    current = root_id
    for part in [p for p in relative.replace("\\", "/").split("/") if p]:
        wanted = part.casefold()
        match = [
            i
            for i, n in tree.items()
            if n.parent_id == current
            and n.is_folder
            and not n.deleted
            and n.name.casefold() == wanted
        ]
        if not match:
            return None
        current = sorted(match)[0]
    return current


@dataclass(frozen=True)
class StageLayout:
    """Where the stage folders are: id of each stage folder → its configured name."""

    base_id: str | None
    folders: dict[str, str]  # stage folder id -> configured folder name

    def stage_folder_of(self, tree: Tree, item_id: str) -> str | None:
        """The stage folder directly containing this customer folder (None when not one)."""
        node = tree.get(item_id)
        if node is None or node.deleted or not node.is_folder:
            return None
        return node.parent_id if node.parent_id in self.folders else None


def stage_layout(
    tree: Tree, drive_root: str, stage_folders: Mapping[str, list[str]]
) -> StageLayout:
    root = find_root(tree)
    if root is None:
        return StageLayout(None, {})
    base = resolve_folder(tree, root, drive_root)
    if base is None:
        return StageLayout(None, {})
    wanted = {name.casefold(): name for name in stage_folders}
    folders: dict[str, str] = {}
    for item_id, node in tree.items():
        if node.parent_id == base and node.is_folder and not node.deleted:
            name = wanted.get(node.name.casefold().strip())
            if name is not None:
                folders[item_id] = name
    return StageLayout(base, folders)


_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


def normalise_name(text: str | None) -> str:
    """Case-, width- and punctuation-insensitive key: 'Amy  O'Neil (Ryde)' → 'amyoneilryde'."""
    if not text:
        return ""
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text).casefold())


def digits(text: str | None) -> str:
    return re.sub(r"\D", "", text or "")


@dataclass(frozen=True)
class Candidate:
    inquiry_id: int
    customer_name: str | None
    customer_email: str | None
    customer_phone: str | None
    has_folder: bool
    is_open: bool
    updated_at: str


def match_folder(folder_name: str, candidates: list[Candidate]) -> int | None:
    """The inquiry a customer folder belongs to, by name, e-mail or phone in the folder name.

    Deterministic: best rank wins (exact name > e-mail > name contained > phone); among equals an
    inquiry without a folder, then an open one, then the most recently updated, then the highest id.
    """
    key = normalise_name(folder_name)
    folder_digits = digits(folder_name)
    if not key:
        return None
    best: list[tuple[int, Candidate]] = []
    for cand in candidates:
        name = normalise_name(cand.customer_name)
        email = normalise_name(cand.customer_email)
        phone = digits(cand.customer_phone)
        rank = None
        if name and name == key:
            rank = 0
        elif email and email in key:
            rank = 1
        elif name and len(name) >= 3 and name in key:
            rank = 2
        elif len(phone) >= 9 and phone[-9:] in folder_digits:
            rank = 3
        if rank is not None:
            best.append((rank, cand))
    if not best:
        return None
    best.sort(
        key=lambda rc: (
            rc[0],
            rc[1].has_folder,
            not rc[1].is_open,
            _neg(rc[1].updated_at),
            -rc[1].inquiry_id,
        )
    )
    return best[0][1].inquiry_id


def _neg(text: str) -> tuple[int, ...]:
    """Sort key that orders ISO timestamps newest first."""
    return tuple(-ord(c) for c in text)
