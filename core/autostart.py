"""Start the tray app when the owner logs in: the Windows Run key or an XDG autostart entry.

Kept in core (no Qt) so it is testable on Linux: the Linux/XDG path writes a ``.desktop`` file under
``$XDG_CONFIG_HOME/autostart``; on Windows the value ``InquiryBridge`` under
``HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run`` holds the command line. The settings
dialog's "start at login" box calls ``set_enabled`` and shows ``is_enabled``.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

APP_ID = "inquiry-bridge"
RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"
RUN_VALUE = "InquiryBridge"


def launch_command() -> list[str]:
    """The command that starts the tray app the way this process was installed."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, "-m", "desktop.launcher"]


def xdg_entry_path(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "autostart" / f"{APP_ID}.desktop"


def _desktop_entry(command: Sequence[str]) -> str:
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Name=Inquiry Bridge\n"
        "Name[zh_CN]=询盘桥\n"
        "Comment=Customer inquiry desk\n"
        f"Exec={shlex.join(command)}\n"
        "X-GNOME-Autostart-enabled=true\n"
        "Terminal=false\n"
    )


def is_enabled(environ: Mapping[str, str] | None = None) -> bool:
    if sys.platform == "win32":
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
                winreg.QueryValueEx(key, RUN_VALUE)
            return True
        except OSError:
            return False
    return xdg_entry_path(environ).exists()


def set_enabled(
    enabled: bool,
    command: Sequence[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> None:
    """Turn start-at-login on or off (idempotent)."""
    cmd = list(command or launch_command())
    if sys.platform == "win32":
        import winreg

        with winreg.CreateKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
            if enabled:
                winreg.SetValueEx(key, RUN_VALUE, 0, winreg.REG_SZ, subprocess.list2cmdline(cmd))
            else:
                with contextlib.suppress(FileNotFoundError):
                    winreg.DeleteValue(key, RUN_VALUE)
        return
    path = xdg_entry_path(environ)
    if enabled:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_desktop_entry(cmd), encoding="utf-8")
    elif path.exists():
        path.unlink()
