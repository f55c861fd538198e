"""Run the command line with a data folder whose writes fail (read-only, or a full disk).

    python -m tests.support.failing_fs readonly|full HOME -- ARGS...

Why a seam at the OS calls and not ``chmod 0o500``: the tests run as root on CI, and root writes
through any permission bit; a read-only mount or a full file system needs privileges CI does not
have. So this wrapper, used only by tests, makes the calls themselves fail for paths inside HOME,
the way the kernel would, and then runs ``core.cli.main`` unchanged in this process:

* ``readonly``: every open for writing, ``mkdir``, ``replace``/``rename``, ``unlink`` raises
  ``EROFS``, and SQLite opens the database read-only (``mode=ro``), so its first write fails
  with its own "attempt to write a readonly database";
* ``full``: files can be created (as on a real full disk, where the 0-byte file appears first)
  but writing bytes raises ``ENOSPC`` (through ``open`` and through ``os.open``/``os.write``); SQLite's own copy (the online backup, in C) creates its
  target file and fails with its own "database or disk is full".

Reads are untouched, so a command that only reads still works.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import io
import os
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _inside(path: Any, home: str) -> bool:
    try:
        text = os.path.abspath(os.fsdecode(path))
    except TypeError:  # a file descriptor
        return False
    return text == home or text.startswith(home + os.sep)


def _fail(code: int, path: Any) -> OSError:
    return OSError(code, os.strerror(code), os.fsdecode(path))


@contextlib.contextmanager
def failing(mode: str, home: Path) -> Iterator[None]:
    """``install`` for the duration of a block in this process (a GUI test), then undone."""
    saved = [(builtins, "open"), (io, "open"), (sqlite3, "connect")]
    saved += [(os, name) for name in ("open", "write", "close", *_PATH_CALLS)]
    values = [(owner, name, getattr(owner, name)) for owner, name in saved]
    install(mode, str(home))
    try:
        yield
    finally:
        for owner, name, value in values:
            setattr(owner, name, value)


_PATH_CALLS = ("mkdir", "makedirs", "replace", "rename", "unlink", "rmdir")


def install(mode: str, home: str) -> None:
    home = os.path.abspath(home)
    code = errno.EROFS if mode == "readonly" else errno.ENOSPC
    real_open, real_os_open, real_connect = builtins.open, os.open, sqlite3.connect
    real_write, real_close = os.write, os.close
    full_fds: set[int] = set()  # descriptors opened for writing inside HOME (mode "full")

    def guarded_open(file: Any, mode_: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(c in mode_ for c in "wax+") and _inside(file, home):
            if mode == "readonly":
                raise _fail(code, file)
            return _FullFile(real_open(file, mode_, *args, **kwargs), file)
        return real_open(file, mode_, *args, **kwargs)

    def guarded_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if mode == "readonly" and flags & _WRITE_FLAGS and _inside(path, home):
            raise _fail(code, path)
        fd = real_os_open(path, flags, *args, **kwargs)
        if flags & _WRITE_FLAGS and _inside(path, home):
            full_fds.add(fd)
        return fd

    def guarded_write(fd: int, data: Any) -> int:
        if fd in full_fds and data:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    def guarded_close(fd: int) -> None:
        full_fds.discard(fd)  # the number may next name a file outside HOME
        real_close(fd)

    def guarded_connect(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        target = str(database)
        if target.startswith("file:") or not _inside(target, home):
            return real_connect(database, *args, **kwargs)
        if mode == "readonly":
            kwargs["uri"] = True
            return real_connect(f"file:{target}?mode=ro", *args, **kwargs)
        connection = real_connect(database, *args, **kwargs)
        if "backups" in Path(target).parts:  # SQLite's copy into a backup: the disk fills
            connection.close()
            raise sqlite3.OperationalError("database or disk is full")
        return connection

    builtins.open = io.open = guarded_open  # pathlib opens through io.open
    os.open = guarded_os_open
    if mode == "full":
        os.write, os.close = guarded_write, guarded_close
    sqlite3.connect = guarded_connect  # type: ignore[assignment]
    if mode == "readonly":
        for name in _PATH_CALLS:
            _guard_path_call(name, home, code)


def _guard_path_call(name: str, home: str, code: int) -> None:
    real = getattr(os, name)

    def guarded(path: Any, *args: Any, **kwargs: Any) -> Any:
        if _inside(path, home) and not (name in ("mkdir", "makedirs") and os.path.isdir(path)):
            raise _fail(code, path)
        return real(path, *args, **kwargs)

    setattr(os, name, guarded)


class _FullFile(io.RawIOBase):
    """A file whose every write fails with ENOSPC (it has been created, 0 bytes)."""

    def __init__(self, handle: Any, name: Any) -> None:
        self._handle, self.name = handle, name

    def write(self, data: Any) -> int:
        raise _fail(errno.ENOSPC, self.name)

    def writelines(self, lines: Any) -> None:
        raise _fail(errno.ENOSPC, self.name)

    def close(self) -> None:
        self._handle.close()
        super().close()

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._handle, attr)


def main() -> int:
    mode, home, dashes, *args = sys.argv[1:]
    assert mode in ("readonly", "full") and dashes == "--"
    install(mode, home)
    from core.cli.main import main as cli_main

    return cli_main([*args, "--home", home])


if __name__ == "__main__":
    raise SystemExit(main())
