"""Before Qt opens a window on a Linux X11 desktop: are the xcb libraries it needs installed?

Qt's xcb platform plugin needs a handful of small X libraries that a fresh Debian/Ubuntu desktop
often lacks. Without them Qt aborts the process (exit 134) with a message that names only
xcb-cursor, so the owner is left with a core dump and the wrong hint. ``missing_packages`` looks
each library up (``ctypes.util.find_library``, injectable for tests) and ``problem`` turns the
missing ones into one line that names the packages to install. No Qt is imported here: the check
runs before the QApplication exists. ``ctypes`` is imported only when the check runs (an X11
desktop on Linux): Windows, Wayland and offscreen starts never load it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from collections.abc import Mapping

# library name as find_library takes it -> the Debian/Ubuntu package that ships it
XCB_LIBRARIES: dict[str, str] = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
    "xcb-image": "libxcb-image0",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-randr": "libxcb-randr0",
    "xcb-shape": "libxcb-shape0",
    "xcb-xkb": "libxcb-xkb1",
    "xcb-xfixes": "libxcb-xfixes0",
    "X11-xcb": "libx11-xcb1",
}

Finder = Callable[[str], str | None]


def uses_xcb(environ: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Qt will pick its xcb plugin: Linux, an X display, and no other platform asked for."""
    if not platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.startswith("xcb")
    return bool(environ.get("DISPLAY")) and not environ.get("WAYLAND_DISPLAY")


def find_library(name: str) -> str | None:
    """``ctypes.util.find_library``, imported on first use."""
    import ctypes.util

    return ctypes.util.find_library(name)


def missing_packages(find: Finder = find_library) -> list[str]:
    """The packages whose xcb library cannot be found, in install order."""
    return [package for name, package in XCB_LIBRARIES.items() if not find(name)]


def problem(
    environ: Mapping[str, str],
    *,
    platform: str = sys.platform,
    find: Finder = find_library,
) -> str | None:
    """One line for stderr when the window cannot open for want of xcb libraries, else None."""
    if not uses_xcb(environ, platform):
        return None
    missing = missing_packages(find)
    if not missing:
        return None
    command = "sudo apt install " + " ".join(missing)
    return (
        f"inquiry-bridge: 缺少显示窗口所需的系统库，请先安装后再启动 / "
        f"missing system libraries for the window, install them first: {command}"
    )
