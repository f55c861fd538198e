"""Windows kept by an attribute must be asked whether they still exist before they are reused.

A dialog with ``WA_DeleteOnClose`` (or one whose parent window was replaced, e.g. after leaving
the demo) is deleted by Qt while the Python attribute still points at it; touching it then
raises "Internal C++ object already deleted". Every "show it again, or make a new one" decision
goes through ``showing`` so a closed window is simply rebuilt.
"""

from __future__ import annotations

from typing import TypeGuard
from typing import TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget
from shiboken6 import isValid

_O = TypeVar("_O", bound=QObject)
_W = TypeVar("_W", bound=QWidget)


def alive(widget: _O | None) -> TypeGuard[_O]:
    """The widget exists on the C++ side (not None, not deleted by Qt).

    A ``TypeGuard`` (not ``TypeIs``): a false answer does not mean ``None`` — the Python
    wrapper may still exist after Qt deleted the C++ object.
    """
    return widget is not None and isValid(widget)


def showing(widget: _W | None) -> TypeGuard[_W]:
    """The widget exists and is on screen: raise it instead of building another."""
    return alive(widget) and bool(widget.isVisible())
