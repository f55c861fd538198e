"""Importing this holds the garbage collector back for the start (``desktop.start_gc``).

The whole effect is the import's, so that the launcher can make it before its other imports
(``import desktop.gc_held`` first): a statement between imports would not be an import.
"""

from __future__ import annotations

from desktop.start_gc import hold

hold()
