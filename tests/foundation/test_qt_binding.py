"""Guard on the pinned PySide6: 6.12.0's Python-side ``Signal.emit`` drops a reference to
``True`` on every call, and the interpreter aborts (``bool_dealloc``) once enough have leaked —
the dictation level meter alone emits thousands of times. pyproject pins a release without it;
this fails loudly if the pin is ever moved to a broken one."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    level = Signal(float)
    tick = Signal()


def test_frequent_signals_do_not_drain_references_to_true(qapp) -> None:  # type: ignore[no-untyped-def]
    emitter = _Emitter()
    before = sys.getrefcount(True)
    for _ in range(2000):
        emitter.level.emit(0.5)
        emitter.tick.emit()
    assert sys.getrefcount(True) >= before - 5
