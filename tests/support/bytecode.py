"""The app's own modules compiled to bytecode, as an install has them (pip and the bundle
compile at install). A checkout run under ``PYTHONDONTWRITEBYTECODE=1`` keeps no ``.pyc`` of
``core/`` and ``desktop/``, so a timed child would measure Python compiling ~200 modules (~12%
of a cold start), not the app starting. Written once to ``__pycache__`` (ignored by git)."""

from __future__ import annotations

import compileall
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def compile_app() -> None:
    for package in ("core", "desktop"):
        compileall.compile_dir(ROOT / package, quiet=1)
