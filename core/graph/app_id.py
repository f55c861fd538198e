"""Which Microsoft app (client) id signs the owner in: his own setting, else the publisher's.

A shop owner cannot be asked to register an app in Azure. A packaged build therefore carries the
publisher's public-client id in ``resources/microsoft_app.toml`` (empty in source; the build
writes it from ``INQUIRY_BRIDGE_PUBLISHER_CLIENT_ID``), and the settings page then shows one
sign-in button and no id field. ``graph.client_id`` in the settings still wins, for a company
with its own registration and for a source checkout, where the page shows the Azure steps
instead. Nothing here is secret: a public client id is not a credential.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from core.glossary import resources_dir

if TYPE_CHECKING:
    from core.config import Settings

APP_FILE = "microsoft_app.toml"
BUILD_ENV = "INQUIRY_BRIDGE_PUBLISHER_CLIENT_ID"


def publisher_client_id(resources: Path | None = None) -> str:
    """The id the build put in the bundled resource ("" in a source checkout or when unreadable)."""
    path = (resources or resources_dir()) / APP_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return ""
    return str(data.get("client_id") or "").strip()


def client_id(settings: Settings, resources: Path | None = None) -> str:
    """The id sign-in uses: ``graph.client_id`` when he (or his IT) set one, else the publisher's."""
    own = settings.text("graph.client_id").strip()
    return own or publisher_client_id(resources)


def write_publisher_id(resources: Path, value: str) -> Path:
    """The build's step: put ``value`` into the bundle's copy of the resource file."""
    path = resources / APP_FILE
    header = [
        line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")
    ]
    safe = value.strip().replace('"', "")
    path.write_text("\n".join([*header, f'client_id = "{safe}"', ""]), encoding="utf-8")
    return path
