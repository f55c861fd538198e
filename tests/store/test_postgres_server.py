"""The test PostgreSQL itself: a fresh database per test, trust on loopback, one password role."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from tests.support import postgres


def test_each_test_gets_an_empty_database_of_its_own(
    pg_url: str, postgres_server: postgres.PostgresServer
) -> None:
    engine = create_engine(pg_url)
    with engine.begin() as conn:
        assert (
            conn.execute(text("SELECT count(*) FROM pg_tables WHERE schemaname='public'")).scalar()
            == 0
        )
        conn.execute(text("CREATE TABLE t (x int)"))
    engine.dispose()
    other = create_engine(postgres_server.new_database())
    with other.connect() as conn:
        assert (
            conn.execute(text("SELECT count(*) FROM pg_tables WHERE schemaname='public'")).scalar()
            == 0
        )
    other.dispose()


def test_the_password_role_is_refused_a_wrong_password(
    pg_url: str, postgres_server: postgres.PostgresServer
) -> None:
    database = pg_url.rsplit("/", 1)[1]
    wrong = create_engine(postgres_server.url(database, postgres.PASSWORD_ROLE, "wrong"))
    with pytest.raises(OperationalError, match="password"):
        wrong.connect()
    wrong.dispose()
    right = create_engine(postgres_server.url(database, postgres.PASSWORD_ROLE, postgres.PASSWORD))
    with right.connect() as conn:
        assert conn.execute(text("SELECT current_user")).scalar() == postgres.PASSWORD_ROLE
    right.dispose()
