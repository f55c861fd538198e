"""Work around a PySide6 6.12.0 reference-count bug in ``SignalInstance.emit``.

``emit()`` returns ``Py_True`` without taking a reference, so every signal emitted from Python
code drains one reference from ``True``; after a few hundred emits (a level meter emits ten per
second) CPython aborts with "Fatal Python error: bool_dealloc: deallocating True or False" — at
the latest when the interpreter exits. Qt-side emissions (``QTimer.timeout``, ``clicked``) are not
affected; only ``signal.emit(...)`` called from Python.

``install()`` measures the bug once (emit on a probe object, compare ``sys.getrefcount(True)``)
and, only when it is present, wraps ``SignalInstance.emit`` to give back the missing reference.
On a fixed PySide6 it does nothing. Idempotent and process-wide.
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal, SignalInstance

_installed = False


class _Probe(QObject):
    ping = Signal()


def emit_steals_a_reference() -> bool:
    probe = _Probe()
    before = sys.getrefcount(True)
    result = probe.ping.emit()
    after = sys.getrefcount(True)
    stolen = result is True and after < before + 1  # holding ``result`` should add one
    if stolen:
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(result))  # repair the probe's own emit
    del result
    return stolen


def install() -> bool:
    """Patch ``SignalInstance.emit`` if (and only if) it is broken; returns True when patched."""
    global _installed
    if _installed:
        return True
    if not emit_steals_a_reference():
        return False
    original = SignalInstance.emit
    incref = ctypes.pythonapi.Py_IncRef
    incref.argtypes = [ctypes.py_object]
    incref.restype = None

    def emit(self: SignalInstance, *args: object) -> object:
        result = original(self, *args)
        if result is True or result is False:
            incref(result)
        return result

    SignalInstance.emit = emit  # type: ignore[method-assign]
    _installed = True
    return True
