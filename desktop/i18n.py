"""Languages: build the .qm catalogues from the committed .ts sources and switch at runtime.

Translations are built, not committed as binaries: on first use ``ensure_qm`` runs
``pyside6-lrelease`` over ``translations/inquiry_bridge_<lang>.ts`` into the data folder's cache
(named by the .ts content hash, so an updated .ts rebuilds once and a stale .qm is never used). A
prebuilt .qm next to the .ts (the frozen installer ships them) is used when it is at least as new
as its source. Qt's own ``qtbase_<lang>.qm`` from PySide6 is installed too, so standard dialogs
(file pickers, message box buttons) follow the language.

Switching language installs the new translators; Qt then sends every widget a ``LanguageChange``
event and each one re-runs its ``retranslate()``. No restart.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import PySide6
from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QLibraryInfo
from PySide6.QtCore import QLocale
from PySide6.QtCore import QTranslator
from PySide6.QtGui import QGuiApplication

log = logging.getLogger(__name__)

LANGUAGES: dict[str, str] = {"zh_CN": "简体中文", "en": "English"}
DEFAULT_LANGUAGE = "zh_CN"
_current = DEFAULT_LANGUAGE
# Translators this module installed, whoever installed them: a language switch replaces all of
# them (two managers — the app's and a screenshot's — must not stack languages).
_installed: list[QTranslator] = []


def current_language() -> str:
    """The language the UI shows now (models use it for glossary names)."""
    return _current


def translations_dir() -> Path:
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "translations"
    return Path(__file__).resolve().parent.parent / "translations"


def ts_path(lang: str) -> Path:
    return translations_dir() / f"inquiry_bridge_{lang}.ts"


def lrelease_executable() -> str | None:
    """``pyside6-lrelease`` from the venv, else the binary inside the PySide6 package."""
    bundled = Path(PySide6.__file__).resolve().parent / (
        "lrelease.exe" if sys.platform == "win32" else "lrelease"
    )
    if bundled.exists():
        return str(bundled)
    venv_script = Path(sys.executable).with_name("pyside6-lrelease")
    if venv_script.exists():
        return str(venv_script)
    return shutil.which("pyside6-lrelease")


def compile_ts(ts: Path, qm: Path) -> None:
    exe = lrelease_executable()
    if exe is None:
        raise FileNotFoundError("pyside6-lrelease not found")
    qm.parent.mkdir(parents=True, exist_ok=True)
    tmp = qm.with_suffix(".tmp.qm")
    subprocess.run(
        [exe, "-silent", str(ts), "-qm", str(tmp)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    tmp.replace(qm)


def ensure_qm(lang: str, cache_dir: Path) -> Path | None:
    """A .qm for ``lang`` built from the current .ts (None when there is no .ts for it)."""
    ts = ts_path(lang)
    if not ts.exists():
        prebuilt = ts.with_suffix(".qm")
        return prebuilt if prebuilt.exists() else None
    prebuilt = ts.with_suffix(".qm")
    if prebuilt.exists() and prebuilt.stat().st_mtime >= ts.stat().st_mtime:
        return prebuilt
    digest = hashlib.sha256(ts.read_bytes()).hexdigest()[:16]
    qm = cache_dir / "i18n" / f"inquiry_bridge_{lang}-{digest}.qm"
    if not qm.exists():
        compile_ts(ts, qm)
        for old in qm.parent.glob(f"inquiry_bridge_{lang}-*.qm"):
            if old != qm:
                old.unlink(missing_ok=True)
    return qm


class LanguageManager:
    """Owns the installed translators; ``apply(lang)`` switches the whole UI at once."""

    def __init__(self, cache_dir: Path) -> None:
        self.cache_dir = cache_dir
        self.language = ""
        self._translators: list[QTranslator] = []

    def apply(self, lang: str) -> str:
        lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        app = QCoreApplication.instance()
        if app is None:
            raise RuntimeError("no QApplication")
        for translator in _installed:
            app.removeTranslator(translator)
        _installed.clear()
        self._translators = []
        if lang != "en":
            qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
            qtbase = QTranslator(app)
            if qtbase.load(f"qtbase_{lang}", qt_dir):
                self._translators.append(qtbase)
            else:
                log.warning("qtbase_%s not found in %s", lang, qt_dir)
        try:
            qm = ensure_qm(lang, self.cache_dir)
        except (OSError, subprocess.SubprocessError) as exc:
            log.error("cannot build translations for %s: %s", lang, exc)
            qm = None
        if qm is not None:
            ours = QTranslator(app)
            if ours.load(str(qm)):
                self._translators.append(ours)
            else:
                log.error("cannot load %s", qm)
        for translator in self._translators:
            app.installTranslator(translator)
            _installed.append(translator)
        if lang == "zh_CN":
            QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
        else:
            QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.Australia))
        global _current
        _current = lang
        self.language = lang
        if isinstance(app, QGuiApplication):
            # Qt appends the display name to every window title ("设置 — 询盘桥"): one name, in
            # his language, and a window titled with it alone is not repeated
            app.setApplicationDisplayName(app_name())
        return lang


def app_name() -> str:
    """The product's name in the UI language (询盘桥 / Inquiry Bridge)."""
    return QCoreApplication.translate("App", "Inquiry Bridge")
