"""Refresh the Qt Linguist sources from the code: ``python translations/update.py``.

Runs ``pyside6-lupdate`` over every ``.py`` under ``desktop/`` and rewrites
``inquiry_bridge_zh_CN.ts`` and ``inquiry_bridge_en.ts``. Existing translations are kept (lupdate
merges); strings that vanished from the code are dropped (``-no-obsolete``). After running it,
fill the new ``<translation type="unfinished">`` entries of the zh_CN file (Qt Linguist or any
editor). The .qm catalogues are never committed: the app builds them from these files on first
use (``desktop/i18n.py``), and ``--check`` here tells CI whether the .ts are up to date.

    python translations/update.py            update both .ts files in place
    python translations/update.py --check    exit 1 when the code has strings the .ts lack
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "translations"
LANGUAGES = ("zh_CN", "en")


def lupdate_executable() -> str:
    import PySide6

    bundled = Path(PySide6.__file__).resolve().parent / (
        "lupdate.exe" if sys.platform == "win32" else "lupdate"
    )
    if bundled.exists():
        return str(bundled)
    found = shutil.which("pyside6-lupdate") or shutil.which("lupdate")
    if not found:
        raise SystemExit("pyside6-lupdate not found: pip install PySide6-Essentials")
    return found


def sources(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "desktop").rglob("*.py") if "__pycache__" not in p.parts)


def run_lupdate(ts: Path, lang: str, root: Path = ROOT) -> None:
    """Update ``ts`` from the desktop sources (creates it when missing)."""
    files = [str(p.relative_to(root)) for p in sources(root)]
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False, encoding="utf-8") as lst:
        lst.write("\n".join(files))
    try:
        subprocess.run(
            [
                lupdate_executable(),
                "-silent",
                "-no-obsolete",
                "-locations",
                "none",
                "-source-language",
                "en",
                "-target-language",
                lang,
                f"@{lst.name}",
                "-ts",
                str(ts),
            ],
            check=True,
            cwd=root,
            capture_output=True,
            timeout=300,
        )
    finally:
        Path(lst.name).unlink(missing_ok=True)


def messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    """(context, source) -> <message> element of a .ts file."""
    tree = ET.parse(ts)
    found: dict[tuple[str, str], ET.Element] = {}
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            found[(name, message.findtext("source") or "")] = message
    return found


def untranslated(ts: Path) -> list[tuple[str, str]]:
    """Messages with no finished translation (numerus forms count as one)."""
    missing = []
    for key, message in messages(ts).items():
        translation = message.find("translation")
        if translation is None or translation.get("type") in ("unfinished", "vanished", "obsolete"):
            missing.append(key)
            continue
        forms = translation.findall("numerusform")
        texts = [f.text for f in forms] if forms else [translation.text]
        if not all(t and t.strip() for t in texts):
            missing.append(key)
    return missing


def check() -> int:
    """Compare the committed zh_CN .ts with what lupdate extracts from the code now."""
    committed = HERE / "inquiry_bridge_zh_CN.ts"
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / committed.name
        shutil.copy(committed, fresh)
        run_lupdate(fresh, "zh_CN")
        new = set(messages(fresh)) - set(messages(committed))
        missing = untranslated(fresh)
    for context, source in sorted(new):
        print(f"not in the .ts: [{context}] {source!r}")
    for context, source in sorted(missing):
        print(f"no zh_CN translation: [{context}] {source!r}")
    return 1 if new or missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the .ts are out of date")
    args = parser.parse_args(argv)
    if args.check:
        return check()
    for lang in LANGUAGES:
        run_lupdate(HERE / f"inquiry_bridge_{lang}.ts", lang)
    missing = untranslated(HERE / "inquiry_bridge_zh_CN.ts")
    print(f"{len(messages(HERE / 'inquiry_bridge_zh_CN.ts'))} strings, {len(missing)} need zh_CN")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
