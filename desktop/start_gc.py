"""The cyclic garbage collector held back while the process starts (#44).

Importing the app makes tens of thousands of objects that live as long as the process (modules,
classes, the ORM's mappers, Qt's wrappers) and almost no garbage. At Python's default thresholds
the collector runs hundreds of times over them on the way, each full pass walking every one:
about a tenth of the CPU of ``inquiries --json`` and of a cold start to the board. ``hold``
raises the thresholds (the collector still runs, rarely, so nothing can pile up
unbounded); ``release`` moves what start-up made to the permanent generation (``gc.freeze``: the
later passes skip it) and restores the thresholds. The launcher holds it before anything else
(by importing ``desktop.gc_held`` first) and releases once the App is built (a command) or the
board has painted (the tray app). Importing this module changes nothing: elsewhere (tests,
tools) nothing is held and ``release`` is a no-op.
"""

from __future__ import annotations

import gc

_DEFAULT = gc.get_threshold()
# a cold start to the board allocates ~150,000 objects net: at 100,000 one young-generation pass
# still walked them all (~30 ms of ~1 s); at 500,000 none runs before the board has painted
_START = (500_000, 20, 100)
_held = False


def hold() -> None:
    """Raise the thresholds for the start (idempotent)."""
    global _held
    if not _held and gc.get_threshold() == _DEFAULT:
        gc.set_threshold(*_START)
        _held = True


def release() -> None:
    """Start-up is over: freeze what it made, collect at the default thresholds again."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.set_threshold(*_DEFAULT)
