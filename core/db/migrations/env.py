"""Alembic environment: runs on the connection handed in by ``core.db.store``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from core.db import shared_tables  # noqa: F401  (its tables join Base.metadata)
from core.db.models import Base, include_name

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        url = config.get_main_option("sqlalchemy.url")
        if not url:
            raise RuntimeError("alembic: no connection handed in and no sqlalchemy.url set")
        engine = create_engine(url)
        with engine.begin() as conn:
            context.configure(
                connection=conn,
                target_metadata=target_metadata,
                render_as_batch=True,
                include_name=include_name,
            )
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        include_name=include_name,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
