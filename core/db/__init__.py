"""The local SQLite store: models, migrations and the single-writer ``Store``."""

from core.db.store import Store

__all__ = ["Store"]
