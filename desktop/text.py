"""Translated names of domain values (stages, classes, who owes a reply) and time phrases.

Core keeps stable English keys; this module is where they become words in the owner's language,
through ``tr()`` so the .ts catalogues carry them. Kept in one place so the board, the detail view
and the tray say the same thing.
"""

from __future__ import annotations

from datetime import datetime
from datetime import timedelta

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QObject

from core.app.types import product_name
from core.app.types import to_sydney
from core.app.types import utc
from desktop.i18n import current_language


def stage_name(stage: str | None) -> str:
    names = {
        "inquiry": QCoreApplication.translate("Domain", "Inquiry"),
        "measure": QCoreApplication.translate("Domain", "Measure"),
        "quoting": QCoreApplication.translate("Domain", "Quoting"),
        "follow_up": QCoreApplication.translate("Domain", "Follow-up"),
        "ordered": QCoreApplication.translate("Domain", "Ordered"),
        "production": QCoreApplication.translate("Domain", "Production"),
        "install": QCoreApplication.translate("Domain", "Install"),
        "done": QCoreApplication.translate("Domain", "Done"),
        "lost": QCoreApplication.translate("Domain", "Lost"),
    }
    if stage is None:
        return QCoreApplication.translate("Domain", "(new)")
    return names.get(stage, stage)


def class_name(classification: str) -> str:
    names = {
        "A": QCoreApplication.translate("Domain", "A Measure on site"),
        "B": QCoreApplication.translate("Domain", "B Quote remotely"),
        "C": QCoreApplication.translate("Domain", "C Not an inquiry"),
    }
    return names.get(classification, classification)


def trigger_name(triggered_by: str) -> str:
    names = {
        "pipeline": QCoreApplication.translate("Domain", "Mail intake"),
        "owner": QCoreApplication.translate("Domain", "Owner"),
        "agent": QCoreApplication.translate("Domain", "Assistant"),
        "onedrive": QCoreApplication.translate("Domain", "OneDrive"),
    }
    return names.get(triggered_by, triggered_by)


def duration(delta: timedelta) -> str:
    """A short human duration: minutes under an hour, hours under two days, else days."""
    seconds = max(0, int(delta.total_seconds()))
    if seconds < 3600:
        minutes = max(1, seconds // 60)
        return QCoreApplication.translate("Domain", "%1 min").replace("%1", str(minutes))
    if seconds < 48 * 3600:
        return QCoreApplication.translate("Domain", "%1 h").replace("%1", str(seconds // 3600))
    return QCoreApplication.translate("Domain", "%1 d").replace("%1", str(seconds // 86400))


def owes_text(owes_reply: str, since: datetime | None, now: datetime) -> str:
    if owes_reply == "us":
        label = QCoreApplication.translate("Domain", "We owe a reply")
    else:
        label = QCoreApplication.translate("Domain", "Waiting for customer")
    if since is None:
        return label
    return f"{label} · {duration(utc(now) - utc(since))}"


def days_text(days: int) -> str:
    return _plurals().days(days)


def working_days_text(days: int) -> str:
    """Days in a stage: Sydney working days, as the stage policy counts them."""
    return _plurals().working_days(days)


def overdue_text(days: int) -> str:
    return QCoreApplication.translate("Domain", "overdue %1 d").replace("%1", str(days))


def local_time(dt: datetime | None) -> str:
    if dt is None:
        return ""
    return to_sydney(dt).strftime("%Y-%m-%d %H:%M")


def products_text(keys: tuple[str, ...] | list[str], lang: str) -> str:
    sep = "、" if lang.startswith("zh") else ", "
    return sep.join(product_name(k, lang) for k in keys)


def products_brief(keys: tuple[str, ...] | list[str], lang: str) -> str:
    """A board cell's product list: two names whole, three or more as the first and a count
    ("防盗门 +2"). The whole list cut to fit the column showed as "防盗门、…、推拉窗" (or "Shower
    s…ged door"): a cut cell the owner could not read; the tooltip and the detail name them all."""
    if len(keys) <= 2:
        return products_text(keys, lang)
    return f"{product_name(keys[0], lang)} +{len(keys) - 1}"


class Domain(QObject):
    """Counted words: ``self.tr`` with ``n`` is the call lupdate writes as plural forms (%n),
    so Qt picks "1 day" / "2 days" in English and "1 天" in Chinese. Its context is the same
    "Domain" as the other words of this module."""

    def days(self, days: int) -> str:
        return self.tr("%n day(s)", "", days)

    def working_days(self, days: int) -> str:
        return self.tr("%n working day(s)", "", days)


_DOMAIN: list[Domain] = []


def _plurals() -> Domain:
    if not _DOMAIN:
        _DOMAIN.append(Domain())
    return _DOMAIN[0]


def week_label(period: str, *, short: bool = False) -> str:
    """An ISO week key ("2026-W43") as the owner reads it: its Monday to Sunday ("10月19日–25日",
    "19–25 Oct"); ``short``: the Monday only ("10/19"), for a chart's axis. Other keys (a month)
    are returned as they are."""
    year, sep, week = period.partition("-W")
    if not sep or not (year.isdigit() and week.isdigit()):
        return period
    try:
        monday = datetime.fromisocalendar(int(year), int(week), 1)
    except ValueError:
        return period
    sunday = monday + timedelta(days=6)
    if short:
        return f"{monday.month}/{monday.day}"
    if current_language().startswith("zh"):
        end = (
            f"{sunday.day}日" if sunday.month == monday.month else f"{sunday.month}月{sunday.day}日"
        )
        return f"{monday.month}月{monday.day}日–{end}"
    month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    if sunday.month == monday.month:
        return f"{monday.day}–{sunday.day} {month[monday.month - 1]}"
    return f"{monday.day} {month[monday.month - 1]} – {sunday.day} {month[sunday.month - 1]}"


def compact_time(dt: datetime | None, now: datetime) -> str:
    """Month-day and time this year, the date alone for older contact (the tooltip has all)."""
    if dt is None:
        return ""
    local, today = to_sydney(dt), to_sydney(now)
    return local.strftime("%m-%d %H:%M") if local.year == today.year else local.strftime("%Y-%m-%d")
