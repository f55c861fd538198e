"""The local SQLite store: models, migrations and the single-writer ``Store``.

Layer row: clock, errors, tasks, tempfiles.
"""

from core.db.store import Store

__all__ = ["Store"]
