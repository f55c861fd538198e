"""The headless command line: a front end of ``App``, like the tray app.

Each command group lives in its own module with ``register(subparsers)``. Every command's world
is built by ``core.app.build_app`` (the one builder, shared with the desktop), and every handler
takes ``(args, app: App)`` and returns an exit code; it reads and changes the data folder only
through the ``App`` and its services, never the store or ``core.services`` (so the CLI cannot
drift from what the desktop does). The one exception registers ``needs_app=False``: ``repair``
must run before the damaged store could be opened, so it gets ``(args, None)`` and opens the
folder itself. Bad input exits non-zero with one clear line on stderr (Chinese, then English),
never a traceback. The desktop injects its own commands (the tray app itself and
``screenshot``) through ``extra``, so this module never imports Qt.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from core.app import App, build_app
from core.cli.help_text import bilingual
from core.errors import InquiryBridgeError
from core.logging_setup import setup_logging_or_none, silence_stderr_logging
from core.mail.charsets import utf8_stdio

if TYPE_CHECKING:
    from pathlib import Path

log = logging.getLogger(__name__)

Registrar = Callable[
    ["argparse._SubParsersAction[argparse.ArgumentParser]", argparse.ArgumentParser], None
]

COMMAND_MODULES = (
    "core.cli.intake",
    "core.cli.graph",
    "core.cli.drafts",
    "core.cli.voice",
    "core.cli.telegram",
    "core.cli.agent",
    "core.cli.rhythm",
    "core.cli.memory",
    "core.cli.evals",
    "core.cli.repair",
    "core.cli.stats",
    "core.cli.stages",
    "core.cli.serve",
    "core.cli.quotes",
    "core.cli.store",
)


DESCRIPTION = (
    "询盘桥：读取邮箱，把每个客户询盘放在中文看板上，起草的英文回复经您批准才发送。"
    "不带命令时启动托盘程序。 / Inquiry Bridge: reads the mailbox, keeps every customer inquiry "
    "on a Chinese board, and sends drafted English replies only after you approve them. "
    "Without a command it starts the tray application."
)


class CliError(InquiryBridgeError):
    """Bad command-line input."""

    code = "bad_input"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"inquiry-bridge: 参数错误 / bad arguments: {message}\n")


def _home(value: str) -> str:
    """``--home ""`` is a mistake, not a request for the default folder (it silently opened the
    platform's data folder)."""
    if not value.strip():
        raise argparse.ArgumentTypeError("数据文件夹不能为空 / the data folder cannot be empty")
    return value


def common_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: the same option sits before and after the command name; a default here would
    # let the subcommand's copy overwrite a --home given before it.
    common.add_argument(
        "--home",
        metavar="DIR",
        type=_home,
        default=argparse.SUPPRESS,
        help="data folder (overrides INQUIRY_BRIDGE_HOME)",
    )
    return common


def build_parser(extra: Sequence[Registrar] = ()) -> argparse.ArgumentParser:
    common = common_parser()
    parser = _Parser(prog="inquiry-bridge", description=DESCRIPTION, parents=[common])
    # every command's parser is a _Parser; the registrars only add parsers and arguments
    sub = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", parser_class=_Parser),
    )
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub, common)
    for registrar in extra:
        registrar(sub, common)
    return bilingual(parser)


def one_line(exc: BaseException) -> str:
    """The one stderr line for a failed command: the owner's sentence (Chinese / English)."""
    from core.db.store import explain_any

    exc = explain_any(exc)
    if isinstance(exc, InquiryBridgeError):
        zh = exc.user_message("zh_CN")
        en = exc.user_message("en")
        return f"inquiry-bridge: {zh} / {en}".replace("\n", " ")
    return f"inquiry-bridge: 错误 / error: {type(exc).__name__}: {exc}".replace("\n", " ")


def _in_folder(exc: Exception, database: Path) -> BaseException:
    """A database or file-system failure, named by this data folder when the error itself names
    no file (a write on a full disk, a read-only database): the owner's sentence, not a crash."""
    import sqlite3
    from pathlib import Path

    from sqlalchemy.exc import DBAPIError

    from core.db.store import explain, explain_any

    if isinstance(exc, OSError) and exc.filename:
        return explain_any(exc)
    if isinstance(exc, OSError | DBAPIError | sqlite3.Error):
        return explain(exc, Path(database))
    return exc


def _needs_app(args: argparse.Namespace) -> bool:
    """False for a command that opens its folder itself (``needs_app=False``; the desktop's
    ``screenshot`` still says ``needs_services=False``, the older name)."""
    return bool(getattr(args, "needs_app", True)) and bool(getattr(args, "needs_services", True))


def run_command(args: argparse.Namespace, app_factory: Callable[..., App] = build_app) -> int:
    handler = getattr(args, "handler", None)
    if handler is None:
        raise CliError("no command given")
    if _needs_app(args):
        app = app_factory(getattr(args, "home", None))
        setup_logging_or_none(app.paths.logs)  # read-only/full: the command says so
        try:
            return int(handler(args, app) or 0)
        except BrokenPipeError:  # the reader left (``| head``): not the data folder's fault
            raise
        except Exception as exc:
            explained = _in_folder(exc, app.paths.database)
            if explained is exc:
                raise
            raise explained from exc
        finally:
            app.close()
    return int(handler(args, None) or 0)


def main(
    argv: Sequence[str] | None = None,
    extra: Sequence[Registrar] = (),
    app_factory: Callable[..., App] = build_app,
) -> int:
    utf8_stdio()
    try:
        return _run(argv, extra, app_factory)
    except BrokenPipeError:
        return _reader_left()


def _run(
    argv: Sequence[str] | None, extra: Sequence[Registrar], app_factory: Callable[..., App]
) -> int:
    parser = build_parser(extra)
    args = parser.parse_args(argv)  # --help writes to stdout too
    try:
        code = run_command(args, app_factory)
        sys.stdout.flush()  # a broken pipe surfaces here, not in the interpreter's exit flush
        return code
    except BrokenPipeError:
        raise
    except KeyboardInterrupt:
        print("inquiry-bridge: 已中断 / interrupted", file=sys.stderr)
        return 130
    except InquiryBridgeError as exc:
        # the traceback of what it explains (a sqlite3 "database is locked"…) goes to the log
        log.info("command failed: %s", exc, exc_info=exc.__cause__ is not None)
        print(one_line(exc), file=sys.stderr)
        return 1
    except Exception as exc:  # last resort: one line, the traceback goes to the log only
        silence_stderr_logging()  # no log file (yet): the traceback goes nowhere, not stderr
        log.exception("command crashed")
        print(one_line(exc), file=sys.stderr)
        return 1


def _reader_left() -> int:
    """Whoever read stdout closed it early (``inquiry-bridge mail | head -1``): end quietly, as
    CLIs do, not with a traceback or a "database cannot be opened" line. Python's own advice
    ("Note on SIGPIPE"): point stdout at devnull so the exit flush has nowhere to fail, and exit
    with 141 (128 + SIGPIPE), the status a shell shows for a pipe its reader closed."""
    log.debug("stdout closed by its reader")
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (embedded, tests): nothing left to flush
        pass
    return 141


if __name__ == "__main__":
    raise SystemExit(main())
