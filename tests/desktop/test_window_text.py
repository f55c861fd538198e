"""Every window the screenshot command knows, in Chinese and in English, over the demo data.

What the owner would notice, asserted for every visible widget of each window:
- in the Chinese UI no raw setting key (``llm.base_url``) and no English string that has a
  Chinese translation (it was shown without ``tr()``, or the catalogue lacks it);
- in the English UI no string of the Chinese catalogue, and no Chinese at all in the app's own
  chrome (buttons, tabs, titles, headings, choices, placeholders) — customer names and mail may
  be Chinese, that is his data;
- no label or button narrower than its text (clipped words), unless it elides on purpose (…);
- window titles that name the app at most once (Qt appends the display name).
"""

from __future__ import annotations

import asyncio
import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from core.config import SETTINGS
from core.demo import load_demo
from desktop.commands import SCREENSHOT_WINDOWS
from desktop.i18n import LANGUAGES, app_name
from desktop.screenshots import WINDOWS
from tests.support.qt import settles

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")
RAW_KEY = re.compile(r"\b(" + "|".join(re.escape(s.key) for s in SETTINGS) + r")\b")
# each language's name is written in that language on the language menus
OWN_NAMES = set(LANGUAGES.values())


def _catalogue() -> dict[str, str]:
    """English source → Chinese translation, for the strings whose translation differs."""
    tree = ET.parse(ROOT / "translations" / "inquiry_bridge_zh_CN.ts")
    pairs: dict[str, str] = {}
    for message in tree.getroot().iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if translation is None or translation.get("type") in ("unfinished", "vanished"):
            continue
        text = translation.text or "".join(n.text or "" for n in translation)
        if text.strip() and text != source and "%" not in source:
            pairs[source] = text
    return pairs


CATALOGUE = _catalogue()
CHINESE = {zh for zh in CATALOGUE.values() if CJK.search(zh)}
# long enough not to occur in a customer's mail by chance: found inside any text, they leaked
CHINESE_PHRASES = sorted(zh for zh in CHINESE if len(zh) >= 6)
ENGLISH_PHRASES = sorted(en for en in CATALOGUE if len(en.split()) >= 3)


def _shown(root: QWidget) -> Iterator[QWidget]:
    for widget in [root, *root.findChildren(QWidget)]:
        if widget is root or widget.isVisibleTo(root):
            yield widget


def _texts(widget: QWidget) -> Iterator[tuple[str, bool]]:
    """(text, is chrome): the words a widget shows; chrome is the app's own words."""
    if isinstance(widget, QLabel):
        text = widget.text()
        if widget.textFormat() != Qt.TextFormat.PlainText and "<" in text:
            text = html.unescape(re.sub(r"<[^>]+>", "", text))
        heading = widget.objectName() in ("title", "sectionTitle", "briefingTitle")
        yield text, heading
    elif isinstance(widget, QAbstractButton):
        yield widget.text(), True
    elif isinstance(widget, QLineEdit):
        yield widget.placeholderText(), True
    elif isinstance(widget, (QTextEdit, QPlainTextEdit)):
        yield widget.toPlainText(), False  # a document: mail, a draft, its Chinese rendering
    elif isinstance(widget, QGroupBox):
        yield widget.title(), True
    elif isinstance(widget, QTabBar):
        for i in range(widget.count()):
            yield widget.tabText(i), True
    elif isinstance(widget, QComboBox):
        for i in range(widget.count()):
            yield widget.itemText(i), True
    elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
        yield from _cells(widget.model())
    if widget.isWindow():
        yield widget.windowTitle(), True


def _cells(model: QAbstractItemModel) -> Iterator[tuple[str, bool]]:
    """Column headers (the app's words) and the first rows' cells (mostly his data)."""
    display = Qt.ItemDataRole.DisplayRole
    columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount(QModelIndex())
    for column in range(columns):
        yield str(model.headerData(column, Qt.Orientation.Horizontal, display) or ""), True
    for row in range(min(model.rowCount(QModelIndex()), 40)):
        for column in range(columns):
            yield str(model.data(model.index(row, column), display) or ""), False


def _language_problems(root: QWidget, lang: str) -> list[str]:
    problems = []
    for widget in _shown(root):
        document = isinstance(widget, (QTextEdit, QPlainTextEdit))
        for text, chrome in _texts(widget):
            text = text.strip()
            if not text or text in OWN_NAMES:
                continue
            where = f"{type(widget).__name__} {widget.objectName() or ''}: {text!r}"
            if RAW_KEY.search(text):
                problems.append(f"raw setting key in {where}")
            if lang == "zh_CN" and (
                text in CATALOGUE
                or (not document and any(phrase in text for phrase in ENGLISH_PHRASES))
            ):
                problems.append(f"untranslated in {where}")
            if lang == "en" and (
                text in CHINESE
                or (chrome and CJK.search(text))
                or (not document and any(phrase in text for phrase in CHINESE_PHRASES))
            ):
                problems.append(f"Chinese in the English UI in {where}")
    return problems


def _clipped(root: QWidget) -> list[str]:
    problems = []
    for widget in _shown(root):
        if isinstance(widget, QLabel):
            text = widget.text()
            if not text or "…" in text:
                continue
            if widget.wordWrap():
                needed = widget.heightForWidth(widget.width())
                if needed > widget.height() + 2:
                    problems.append(
                        f"QLabel {text[:40]!r}: {needed} px high, has {widget.height()}"
                    )
            elif widget.sizeHint().width() > widget.width() + 1:
                problems.append(
                    f"QLabel {text[:40]!r}: {widget.sizeHint().width()} px wide, has {widget.width()}"
                )
        elif (
            isinstance(widget, QAbstractButton)
            and widget.text()
            and widget.sizeHint().width() > widget.width() + 1
        ):
            problems.append(
                f"{type(widget).__name__} {widget.text()!r}: "
                f"{widget.sizeHint().width()} px wide, has {widget.width()}"
            )
    return problems


def _title_problems(root: QWidget) -> list[str]:
    """What the title bar shows: Qt adds " — <display name>" unless the title ends with it."""
    name = QApplication.applicationDisplayName()
    title = root.windowTitle()
    full = title if not name or title.endswith(name) else f"{title} — {name}"
    return [] if full.count(name) <= 1 else [f"title repeats the app's name: {full!r}"]


@pytest.fixture
async def demo(ctx):  # type: ignore[no-untyped-def]
    await load_demo(ctx.app._services)
    return ctx


@settles
@pytest.mark.parametrize("lang", ["zh_CN", "en"])
async def test_every_window_speaks_one_language_and_shows_its_words_whole(  # type: ignore[no-untyped-def]
    demo, languages, lang, qtbot
) -> None:
    languages.apply(lang)
    assert QApplication.applicationDisplayName() == ("询盘桥" if lang == "zh_CN" else app_name())
    problems: dict[str, list[str]] = {}
    for name, factory in WINDOWS.items():
        widget = await factory(demo)
        qtbot.addWidget(widget)
        widget.show()
        for _ in range(3):  # the loop lays out and paints (never a nested processEvents)
            await asyncio.sleep(0.02)
        found = _language_problems(widget, lang) + _clipped(widget) + _title_problems(widget)
        if found:
            problems[name] = found
        widget.hide()  # (closing the last window would end the loop)
    assert problems == {}


def test_the_screenshot_command_offers_every_window() -> None:
    assert list(WINDOWS) == SCREENSHOT_WINDOWS
