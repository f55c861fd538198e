"""Which files a click may open, how their names are shown, and the Mark-of-the-Web.

Why: 打开 handed ``.exe``, ``.lnk``, ``.bat``, ``.hta``, ``.js``, ``.scr`` straight to the operating
system, which *runs* them; and a name can lie: ``invoice\u202efdp.exe`` reads "invoiceexe.pdf",
``plan.pdf      .bat`` pushes its real extension out of sight. One function decides for every
front end (the desktop's 打开, Telegram's document upload): ``judge_file`` reads the name the
way Windows does (invisible characters dropped, trailing dots and spaces ignored, last extension
counts) and says whether a click may open it; a runnable or disguised file is never opened by
the app — the owner is told why, in Chinese, and offered 在文件夹中显示.

Files the app writes to disk from mail carry the Mark-of-the-Web on Windows (an NTFS
``Zone.Identifier`` stream with ``ZoneId=3``, the Internet zone), so Windows SmartScreen and
Office Protected View treat them as downloaded, as a browser's downloads are. Elsewhere nothing
is written (``motw_applies``).
"""

from __future__ import annotations

import logging
import os
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from core.text.inert import visible_controls

__all__ = [
    "RUNNABLE_EXTENSIONS",
    "FileVerdict",
    "judge_file",
    "mark_of_the_web",
    "motw_applies",
    "zone_identifier",
]

log = logging.getLogger(__name__)

# Outlook's blocked ("Level 1") attachment types, plus installers, disk images, scripting hosts
# and active web content that a double-click runs with the owner's rights
RUNNABLE_EXTENSIONS = frozenset(
    [
        "ade",
        "adp",
        "app",
        "appcontent-ms",
        "application",
        "appref-ms",
        "appx",
        "appxbundle",
        "asp",
        "aspx",
        "asx",
        "bas",
        "bat",
        "bgi",
        "cab",
        "cer",
        "chm",
        "cmd",
        "cnt",
        "com",
        "cpl",
        "crt",
        "csh",
        "der",
        "diagcab",
        "exe",
        "fxp",
        "gadget",
        "grp",
        "hlp",
        "hpj",
        "hta",
        "htc",
        "htm",
        "html",
        "inf",
        "ins",
        "iso",
        "img",
        "isp",
        "its",
        "jar",
        "jnlp",
        "js",
        "jse",
        "ksh",
        "library-ms",
        "lnk",
        "mad",
        "maf",
        "mag",
        "mam",
        "maq",
        "mar",
        "mas",
        "mat",
        "mau",
        "mav",
        "maw",
        "mcf",
        "mda",
        "mdb",
        "mde",
        "mdt",
        "mdw",
        "mdz",
        "mht",
        "mhtml",
        "msc",
        "msh",
        "msh1",
        "msh2",
        "mshxml",
        "msh1xml",
        "msh2xml",
        "msi",
        "msix",
        "msixbundle",
        "msp",
        "mst",
        "msu",
        "ops",
        "osd",
        "pcd",
        "pif",
        "pl",
        "plg",
        "prf",
        "prg",
        "printerexport",
        "ps1",
        "ps1xml",
        "ps2",
        "ps2xml",
        "psc1",
        "psc2",
        "psd1",
        "psdm1",
        "psm1",
        "pssc",
        "py",
        "pyc",
        "pyo",
        "pyw",
        "pyz",
        "pyzw",
        "reg",
        "scf",
        "scr",
        "sct",
        "search-ms",
        "searchconnector-ms",
        "settingcontent-ms",
        "sh",
        "shb",
        "shs",
        "svg",
        "sys",
        "theme",
        "tmp",
        "udl",
        "url",
        "vb",
        "vbe",
        "vbp",
        "vbs",
        "vhd",
        "vhdx",
        "vsmacros",
        "vsw",
        "webpnp",
        "website",
        "ws",
        "wsb",
        "wsc",
        "wsf",
        "wsh",
        "xbap",
        "xht",
        "xhtml",
        "xll",
        "xnk",
    ]
)
# a run of spaces that pushes the real extension out of sight: "plan.pdf      .bat"
_PADDING = re.compile(r"[\s\u00a0\u2000-\u200a\u3000]{3,}\.[^.]*$")
_DOC_EXTENSIONS = frozenset(
    ["pdf", "doc", "docx", "xls", "xlsx", "jpg", "jpeg", "png", "gif", "txt", "dwg", "zip", "rtf"]
)


@dataclass(frozen=True)
class FileVerdict:
    """``shown``: the name as the owner should see it (hidden characters made visible);
    ``extension``: what Windows would run it as; ``runnable``: a click must not open it;
    ``reason``: ``""``, ``executable`` (its type runs) or ``disguised`` (its name hides what it
    is: bidi or control characters, padding, a document extension in front of a program's)."""

    name: str
    shown: str
    extension: str
    runnable: bool
    reason: str


def _windows_name(name: str) -> str:
    """The name as Windows resolves it: invisible characters gone, trailing dots/spaces cut."""
    visible = "".join(
        ch for ch in unicodedata.normalize("NFKC", name) if unicodedata.category(ch)[0] != "C"
    )
    return visible.rstrip(" .\t")


def judge_file(name: str) -> FileVerdict:
    """Whether a click may open a file called ``name`` (see the module docstring)."""
    name = name or ""
    resolved = _windows_name(name)
    stem, dot, ext = resolved.rpartition(".")
    extension = ext.strip().lower() if dot else ""
    hidden = any(unicodedata.category(ch)[0] == "C" for ch in name)
    padded = bool(_PADDING.search(name))
    inner = stem.rpartition(".")[2].strip().lower() if "." in stem else ""
    runnable = extension in RUNNABLE_EXTENSIONS
    if hidden or padded or (runnable and inner in _DOC_EXTENSIONS):
        reason = "disguised"
    elif runnable:
        reason = "executable"
    else:
        reason = ""
    return FileVerdict(name, visible_controls(name), extension, bool(reason), reason)


# ----------------------------------------------------------------------------- Mark-of-the-Web


def motw_applies(platform: str | None = None) -> bool:
    """Only Windows (NTFS alternate data streams) has a Mark-of-the-Web."""
    return (platform or sys.platform) == "win32"


def zone_identifier(referrer: str = "", host_url: str = "") -> str:
    """The ``Zone.Identifier`` stream's text: the Internet zone (3), as browsers write it."""
    lines = ["[ZoneTransfer]", "ZoneId=3"]
    if referrer:
        lines.append(f"ReferrerUrl={referrer}")
    if host_url:
        lines.append(f"HostUrl={host_url}")
    return "\r\n".join(lines) + "\r\n"


def mark_of_the_web(path: Path, *, host_url: str = "", platform: str | None = None) -> bool:
    """Mark ``path`` as come from the internet (Windows only); True when the mark was written.
    A file system without streams (FAT, a network share) loses nothing: the file stays."""
    if not motw_applies(platform):
        return False
    stream = f"{os.fspath(path)}:Zone.Identifier"
    try:
        with open(stream, "w", encoding="ascii", newline="") as handle:
            handle.write(zone_identifier(host_url=host_url))
    except OSError as exc:
        log.warning("could not mark %s as downloaded: %s", path.name, exc)
        return False
    return True
