"""On a Linux X11 desktop without Qt's xcb libraries the launcher says which packages to install
(one line) instead of letting Qt abort with exit 134 and a hint naming only xcb-cursor."""

from __future__ import annotations

from desktop.system_libs import XCB_LIBRARIES, missing_packages, problem, uses_xcb

FRESH_DEBIAN = {"xcb-cursor", "xcb-icccm", "xcb-keysyms"}  # what a plain desktop lacked


def fake_lookup(absent: set[str]):  # type: ignore[no-untyped-def]
    """A library lookup that finds everything except ``absent`` (as find_library answers)."""
    return lambda name: None if name in absent else f"lib{name}.so.0"


def test_the_missing_libraries_are_named_by_their_packages_in_one_line() -> None:
    line = problem({"DISPLAY": ":0"}, platform="linux", find=fake_lookup(FRESH_DEBIAN))
    assert line is not None and "\n" not in line
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in line
    assert "libxcb-randr0" not in line  # only what is missing
    assert "缺少" in line and "missing" in line  # Chinese for him, English beside it


def test_nothing_is_said_when_all_are_there_or_xcb_is_not_used() -> None:
    everything = fake_lookup(set())
    assert problem({"DISPLAY": ":0"}, platform="linux", find=everything) is None
    nothing = fake_lookup(set(XCB_LIBRARIES))
    assert problem({"DISPLAY": ":0"}, platform="win32", find=nothing) is None
    assert problem({"QT_QPA_PLATFORM": "offscreen"}, platform="linux", find=nothing) is None
    assert problem({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, platform="linux",
                   find=nothing) is None  # fmt: skip
    assert problem({}, platform="linux", find=nothing) is None  # no display: runs offscreen


def test_an_explicit_xcb_platform_is_checked_and_every_library_has_a_package() -> None:
    assert uses_xcb({"QT_QPA_PLATFORM": "xcb"}, "linux")
    assert missing_packages(fake_lookup(set(XCB_LIBRARIES))) == list(XCB_LIBRARIES.values())
    assert all(package.startswith("lib") for package in XCB_LIBRARIES.values())
