"""Testing a store URL before switching to it: what is there, without changing anything.

The 数据库 settings page's 测试 button and ``store check --url`` ask this before the owner
switches his desk to a PostgreSQL store. It only reads: it connects (refused login, no server),
reads ``alembic_version`` and the table names, and counts inquiries when the database is one of
ours. Nothing is created, migrated or written (a database of another application, or one made
by a newer version of this program, is refused with its one Chinese line and left as it was).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, inspect, select
from sqlalchemy.engine import URL, Engine

from core.db.dialect import POSTGRESQL, check_url
from core.db.store import _revisions, explain_pg, make_pg_engine, migration_heads, refuse_unknown
from core.errors import InquiryBridgeError, StoreUrlBad


@dataclass(frozen=True)
class StoreProbe:
    """What a usable URL holds: ``empty`` (the tables are made on switching, or filled by
    ``store copy``), or ``ours`` (another desk's store: ``inquiries`` of them, ``current``
    False when switching will upgrade its schema first)."""

    where: str
    state: str  # "empty" | "ours"
    inquiries: int = 0
    current: bool = True

    def text(self) -> str:
        if self.state == "empty":
            return (
                f"可以使用：{self.where} 是空的数据库；切换后新建表，或先用“store copy”把本机数据"
                "复制过去 / usable: an empty database; tables are made on switching, or copy this "
                "desk's data into it first with store copy"
            )
        upgrade = (
            ""
            if self.current
            else "；切换时会先升级它的表结构 / its schema is upgraded on switching"
        )
        return (
            f"可以使用：{self.where} 里已有询盘桥的数据（{self.inquiries} 个询盘），切换后与使用它的"
            f"电脑共用{upgrade} / usable: it holds Inquiry Bridge data ({self.inquiries} inquiries), "
            "shared with the desks that use it"
        )


def probe_store(url: str) -> StoreProbe:
    """What ``url`` holds, read only; one ``InquiryBridgeError`` (a Chinese line) when it
    cannot be used: a wrong URL, no server, a refused login, another application's data, a
    newer schema."""
    parsed = check_url(url.strip())
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() != POSTGRESQL:
        raise StoreUrlBad(shown)
    engine = make_pg_engine(parsed)
    try:
        return _look(engine, parsed, shown)
    finally:
        engine.dispose()


def _look(engine: Engine, parsed: URL, shown: str) -> StoreProbe:
    try:
        with engine.connect() as conn:  # never committed: a probe leaves no trace
            current = _revisions(conn)
            refuse_unknown(conn, current)
            if not current:
                return StoreProbe(shown, "empty")
            count = 0
            if inspect(conn).has_table("inquiries"):
                from core.db.models import Inquiry

                count = int(conn.scalar(select(func.count()).select_from(Inquiry)) or 0)
            conn.rollback()
            return StoreProbe(shown, "ours", count, current == migration_heads())
    except InquiryBridgeError:
        raise
    except Exception as exc:
        raise explain_pg(exc, parsed) from exc


__all__ = ["StoreProbe", "probe_store"]
