"""``sync``, ``signin``, ``signout`` and ``account``: Microsoft 365 from the command line.

``sync --once`` runs one mail round (Inbox and Sent Items delta → the same intake pipeline and
store as ``ingest``) and one OneDrive round, prints what happened and exits; ``sync`` without
``--once`` keeps polling on the schedule until Ctrl-C. ``INQUIRY_BRIDGE_GRAPH_URL`` and
``INQUIRY_BRIDGE_GRAPH_TOKEN`` point it at any Graph-compatible server with a ready token;
otherwise it uses the MSAL sign-in made with ``signin`` (device code in a terminal).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from core.app import App
from core.runtime import Supervisor

if TYPE_CHECKING:
    from core.mail.spool_budget import DiskShort


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    sync = sub.add_parser(
        "sync",
        parents=[common],
        help="poll the mailbox (Microsoft 365, or IMAP/SMTP) and OneDrive (once, or forever on "
        "the schedule)",
        description="同步邮箱（微软 365，或 IMAP/SMTP 邮箱，如 QQ、163、Gmail）和 OneDrive / sync "
        "the mailbox (Microsoft 365, or an IMAP/SMTP mailbox such as QQ, 163 or Gmail) and "
        "OneDrive",
    )
    sync.add_argument("--once", action="store_true", help="one round of each, then exit")
    sync.add_argument("--offline", action="store_true", help="no LLM: rules only for new mail")
    sync.add_argument("--no-drive", action="store_true", help="mail only")
    sync.set_defaults(handler=cmd_sync)

    signin = sub.add_parser(
        "signin",
        parents=[common],
        help="sign in to Microsoft 365",
        description="登录微软账户 / sign in to Microsoft 365",
    )
    signin.add_argument(
        "--browser", action="store_true", help="use the system browser instead of a device code"
    )
    signin.set_defaults(handler=cmd_signin)

    signout = sub.add_parser(
        "signout",
        parents=[common],
        help="sign out and delete the token cache",
        description="退出微软账户并删除令牌缓存 / sign out and delete the token cache",
    )
    signout.set_defaults(handler=cmd_signout)

    account = sub.add_parser(
        "account",
        parents=[common],
        help="show the signed-in account and where the token cache is",
        description="显示当前账户 / show the signed-in account",
    )
    account.set_defaults(handler=cmd_account)


def cmd_sync(args: argparse.Namespace, app: App) -> int:
    """One round (``--once``) here, or the supervisor's mail piece until Ctrl-C. Which mailbox
    (IMAP or Microsoft 365) is ``App.sync_runtime``'s one decision."""
    if not args.once:
        app.sync_runtime(offline=bool(args.offline))  # built here: the supervisor uses it
        return asyncio.run(_forever(app))
    runtime = app.sync_runtime(offline=bool(args.offline))
    imap = app.uses_imap()

    async def _once() -> int:
        runtime.attach()
        try:
            mail, retried = await runtime.mail_round()
            if retried is not None and retried.retried:
                print(f"重试待处理 / retried pending: {retried.summary()}")
            print(f"邮件 / mail{' (IMAP)' if imap else ''}: {mail.summary()}", flush=True)
            refused = int(getattr(mail, "refused", 0))  # IMAP: over the caps, skipped
            if refused:
                print(
                    f"收信 IMAP 服务器发来的 {refused} 封邮件超过了大小上限，未下载"
                    f" / {refused} message(s) from the IMAP server were over the size cap, "
                    "not fetched",
                    flush=True,
                )
            _say_disk_short(mail.disk)
            if not args.no_drive and not imap:
                drive = await runtime.drive_round()
                print(f"OneDrive: {drive.summary()}")
            return 0
        finally:
            runtime.detach()
            await app.aclose()

    return asyncio.run(_once())


async def _forever(app: App) -> int:
    """Mail rounds (IMAP with IDLE, or Graph with OneDrive) and send-due until Ctrl-C: the
    supervisor's ``mail`` piece, without the lease (the owner started it by hand)."""
    try:
        await Supervisor(app, kind="serve", pieces=("mail",), lease=False).run()
    finally:
        await app.aclose()
    return 0


def cmd_signin(args: argparse.Namespace, app: App) -> int:
    auth = app.microsoft_auth()
    if args.browser:
        user = auth.sign_in_interactive()
    else:
        user = auth.sign_in_device_code(lambda text: print(text, flush=True))
    where = "加密存储 / encrypted" if auth.encrypted else "0600 文件 / 0600 file"
    print(f"已登录 / signed in: {user}  (令牌缓存 / token cache: {auth.cache_location}, {where})")
    return 0


def cmd_signout(args: argparse.Namespace, app: App) -> int:
    auth = app.microsoft_auth()
    if not auth.cache_location.exists():
        print("没有已登录的微软账户，无需退出 / not signed in; nothing to sign out")
        return 0
    auth.sign_out()
    print(f"已退出，令牌缓存已删除 / signed out, token cache deleted: {auth.cache_location}")
    return 0


def cmd_account(args: argparse.Namespace, app: App) -> int:
    from core.secrets import GRAPH_TOKEN

    if app.secrets.get(GRAPH_TOKEN):
        print("使用预设令牌 / using a preset token (INQUIRY_BRIDGE_GRAPH_TOKEN)")
        return 0
    auth = app.microsoft_auth()
    user = auth.username() if app.settings.text("graph.client_id") else None
    if user:
        print(f"已登录 / signed in: {user}  (令牌缓存 / token cache: {auth.cache_location})")
        return 0
    print("未登录 / not signed in — run: inquiry-bridge signin", file=sys.stderr)
    return 1


def _say_disk_short(disk: DiskShort | None) -> None:
    """Mail left in the mailbox for want of disk space: one line saying what to free (the tray
    and Telegram get the same alert from the round's ``MailWaiting``)."""
    if disk is None:
        return
    from core.app.types import disk_size  # every front end's types: only when there is news

    missing = disk_size(max(0, disk.need_bytes - disk.free_bytes))
    print(
        f"磁盘空间不足：{disk.waiting} 封邮件等待下载，请腾出至少 {missing} / "
        f"disk nearly full: {disk.waiting} messages wait for download; free at least {missing}",
        file=sys.stderr,
        flush=True,
    )
