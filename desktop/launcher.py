"""Entry point of the ``inquiry-bridge`` console script.

Headless commands go straight to ``core.cli`` without importing Qt (fast, and usable on a
server); the tray application and ``screenshot`` are registered here, where Qt may be imported.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Sequence

from core.cli.main import main as cli_main


def _register_desktop(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    try:
        from desktop import commands
    except ImportError:  # desktop commands not built yet
        return
    commands.register(sub, common)


def _command_of(args: Sequence[str]) -> str | None:
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--home":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def main(argv: Sequence[str] | None = None) -> int:
    # The intake pipeline parses long runs in a spawned worker process; in the frozen one-folder
    # build that child re-enters this entry point and must be diverted before any CLI parsing.
    multiprocessing.freeze_support()
    args = list(sys.argv[1:] if argv is None else argv)
    if _command_of(args) is None and "-h" not in args and "--help" not in args:
        args = ["app", *args]  # no command: start the tray application
    return cli_main(args, extra=[_register_desktop])


if __name__ == "__main__":
    raise SystemExit(main())
