"""``store copy --to URL``: move an existing install's SQLite store into PostgreSQL.

The copy itself (empty target only, one transaction, every row checked, the source untouched)
is ``core.db.copy``'s, reached through ``core.app.copy_store_home``; this prints its report.
It registers ``needs_app=False``: an ``App`` would open the store the settings name (maybe
already the PostgreSQL one), while the source is the data folder's own SQLite file.
"""

from __future__ import annotations

import argparse

from core.app import check_store_url, copy_store_home


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    store = sub.add_parser(
        "store",
        parents=[common],
        help="数据库：把 SQLite 数据库复制到 PostgreSQL / the store: copy this folder's SQLite "
        "store into PostgreSQL",
        description="数据库：把本数据文件夹的 SQLite 数据库复制到 PostgreSQL / "
        "the store: copy this folder's SQLite store into PostgreSQL",
    )
    # the subcommand is required: only ``copy`` reaches a handler, and it opens the source store
    # itself, read-only (an App would open it for writing and migrate it)
    store.set_defaults(handler=cmd_store_copy, needs_app=False)
    actions = store.add_subparsers(dest="store_command", required=True)
    copy = actions.add_parser(
        "copy",
        parents=[common],
        help="复制到空的 PostgreSQL 数据库，逐行核对 / copy into an EMPTY PostgreSQL database, "
        "checked row for row",
        description="复制到一个空的 PostgreSQL 数据库，逐行核对；原数据库不变 / copy into an "
        "empty PostgreSQL database, checked row for row; the source is not changed",
    )
    copy.add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="目标数据库地址（密码写在地址里或 ~/.pgpass）/ the target: "
        "postgresql+psycopg://USER@HOST:PORT/DB (password in the URL or ~/.pgpass)",
    )
    copy.set_defaults(handler=cmd_store_copy, needs_app=False)
    check = actions.add_parser(
        "check",
        parents=[common],
        help="测试一个数据库地址，不做任何改动 / test a store URL; changes nothing",
        description="测试一个 PostgreSQL 数据库地址（连得上吗、密码对吗、里面是什么），不做任何改动 / "
        "test a PostgreSQL store URL (reachable, password, what it holds); changes nothing",
    )
    check.add_argument(
        "--url",
        required=True,
        metavar="URL",
        help="要测试的数据库地址 / the address to test: postgresql+psycopg://USER@HOST:PORT/DB",
    )
    check.set_defaults(handler=cmd_store_check, needs_app=False)


def cmd_store_copy(args: argparse.Namespace, _app: None) -> int:
    print(copy_store_home(getattr(args, "home", None), str(args.to)).text())
    return 0


def cmd_store_check(args: argparse.Namespace, _app: None) -> int:
    print(check_store_url(str(args.url)))
    return 0
