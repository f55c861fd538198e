"""The Windows version resource of InquiryBridge.exe (Explorer → Properties → Details).

Built from the version in pyproject.toml, so the exe, the installer and the package never
disagree. The spec writes it to ``build/version_info.txt`` and hands that file to PyInstaller's
EXE (which embeds it on Windows and ignores it elsewhere); ``python installer/version_info.py``
prints it for a look without building, ``--version`` the bare version (for ``iscc /DAppVersion=``).
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPANY = "Aurora Windows & Doors"
PRODUCT = "询盘桥 Inquiry Bridge"
DESCRIPTION = "询盘桥 Inquiry Bridge — bilingual inquiry desk"
EXE_NAME = "InquiryBridge.exe"


def project_version() -> str:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(data["project"]["version"])


def numeric_version(version: str) -> tuple[int, int, int, int]:
    """'0.1.0' → (0, 1, 0, 0); a pre-release suffix ('1.2.0rc1') keeps only its numbers."""
    parts = [int(p) for p in re.findall(r"\d+", version.split("+")[0])[:4]]
    return tuple([*parts, 0, 0, 0, 0][:4])  # type: ignore[return-value]


def version_file_text(version: str | None = None) -> str:
    """The resource in PyInstaller's version-file format (Python expressions it evaluates).

    Text rather than PyInstaller's classes: those import pefile, which PyInstaller installs on
    Windows only, and the Linux CI build still writes (and checks) this file.
    """
    version = version or project_version()
    numbers = numeric_version(version)
    strings = {
        "CompanyName": COMPANY,
        "FileDescription": DESCRIPTION,
        "FileVersion": version,
        "InternalName": "InquiryBridge",
        "LegalCopyright": f"© {COMPANY}",
        "OriginalFilename": EXE_NAME,
        "ProductName": PRODUCT,
        "ProductVersion": version,
    }
    table = ",\n".join(f"          StringStruct({k!r}, {v!r})" for k, v in strings.items())
    return f"""# UTF-8
VSVersionInfo(
  ffi=FixedFileInfo(filevers={numbers}, prodvers={numbers}, mask=0x3F, flags=0x0,
                    OS=0x40004, fileType=0x1, subtype=0x0, date=(0, 0)),
  kids=[
    # 0x0409 (en-US) with code page 1200 (UTF-16): the names contain Chinese
    StringFileInfo([StringTable('040904B0', [
{table}
    ])]),
    VarFileInfo([VarStruct('Translation', [0x0409, 1200])]),
  ],
)
"""


def write_version_file(path: Path, version: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(version_file_text(version), encoding="utf-8")
    return path


if __name__ == "__main__":
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[attr-defined]
    print(project_version() if "--version" in sys.argv else version_file_text())
