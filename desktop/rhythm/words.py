"""The rhythm windows' words in the UI language: a reminder's line, a stage's next step, what a
需要您确认 item asks, the briefing's date.

Core keeps the Chinese text for Telegram and the CLI (``core.rhythm.briefing_text``); the windows
build theirs here from the same data, through ``tr()``, so the English UI reads English and the
Chinese UI Chinese.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QDate
from PySide6.QtCore import QLocale

from desktop.text import stage_name


def stage_action(stage: str) -> str:
    """What to do about a job overdue in ``stage`` (the seed system's advice)."""
    actions = {
        "inquiry": QCoreApplication.translate("Rhythm", "Reply to the customer soon"),
        "measure": QCoreApplication.translate("Rhythm", "Arrange the measure on site"),
        "quoting": QCoreApplication.translate("Rhythm", "Chase the factory's quote"),
        "follow_up": QCoreApplication.translate("Rhythm", "Contact the customer again"),
        "ordered": QCoreApplication.translate("Rhythm", "Check the factory has the order"),
        "production": QCoreApplication.translate("Rhythm", "Check production progress"),
        "install": QCoreApplication.translate("Rhythm", "Arrange the installation"),
    }
    return actions.get(stage, QCoreApplication.translate("Rhythm", "Follow it up"))


def reminder_line(reminder: Mapping[str, object]) -> str:
    """``Lisa Chen · Inquiry · 4 of 2 working days — Reply to the customer soon``: a reminder's
    record (``Reminder.as_json()``, a briefing's ``overdue`` item), read as text only."""
    who = reminder.get("customer_name") or f"#{reminder['inquiry_id']}"
    days = (
        QCoreApplication.translate("Rhythm", "%1 of %2 working days")
        .replace("%1", str(reminder["days_in_stage"]))
        .replace("%2", str(reminder["limit_days"]))
    )
    stage = str(reminder.get("stage", ""))
    return f"{who} · {stage_name(stage)} · {days} — {stage_action(stage)}"


def attention_name(kind: str) -> str:
    """What a 需要您确认 item asks him to check."""
    names = {
        "low_confidence": QCoreApplication.translate(
            "Rhythm", "Low-confidence classification or extraction"
        ),
        "merge_unsure": QCoreApplication.translate("Rhythm", "Merged on the phone number alone"),
        "failed": QCoreApplication.translate("Rhythm", "The model could not understand this email"),
    }
    return names.get(kind, QCoreApplication.translate("Rhythm", "Needs your confirmation"))


def day_text(day: date) -> str:
    """``Tuesday 25 November`` / ``11月25日 星期二`` (the format itself is translated)."""
    return QLocale().toString(
        QDate(day.year, day.month, day.day), QCoreApplication.translate("Rhythm", "dddd d MMMM")
    )
