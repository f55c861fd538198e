"""Saving the settings dialog: every page or none, and where each secret went.

The dialog's pages (account, AI, sync, Telegram, voice, general) are saved together. Before,
a keyring that refused the API key raised half-way: the endpoint was written, the key dropped,
the Telegram and voice pages not saved at all. Now ``save_all`` stores the secrets first (the
step that can refuse), then writes every setting in one replace of the settings file; when any
step fails, what this save already wrote is put back (secrets restored, the file's previous
bytes rewritten) and the error is raised for the dialog to show. ``Secrets.set`` reports where
each secret went (the keyring, or the owner-only file when there is none), so the dialog can
tell the owner in his language.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from core.app.types import Secrets
    from core.app.types import Settings
    from core.app.types import SettingValue


@dataclass
class SaveOutcome:
    """What a successful save did: secret name -> where it lives now, (Chinese, English)."""

    stored: dict[str, tuple[str, str]] = field(default_factory=dict)


def save_all(
    settings: Settings,
    secrets: Secrets,
    values: Mapping[str, SettingValue],
    new_secrets: list[tuple[str, str]],
) -> SaveOutcome:
    """Store ``new_secrets`` and write ``values``, all or nothing (raises on failure)."""
    path = settings.path
    before_file = path.read_bytes() if path.exists() else None
    before_secrets = {name: secrets.get(name) for name, _ in new_secrets}
    outcome = SaveOutcome()
    try:
        for name, value in new_secrets:
            outcome.stored[name] = secrets.set(name, value)
        settings.update(values)
    except Exception:
        _restore_secrets(secrets, before_secrets, outcome.stored)
        if before_file is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(before_file)
        settings.reload()
        raise
    return outcome


def _restore_secrets(
    secrets: Secrets, before: dict[str, str | None], written: dict[str, tuple[str, str]]
) -> None:
    for name in written:
        old = before.get(name)
        try:
            if old is None:
                secrets.delete(name)
            else:
                secrets.set(name, old)
        except Exception:  # the store refused again: nothing more can be undone
            continue
