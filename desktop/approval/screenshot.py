"""The approval window for ``inquiry-bridge screenshot --window approval``.

Shows the newest draft waiting for approval; in a folder without drafts core first creates a
sample one (``App.draft_reading.sample_draft``) so the picture shows every part of the window
(banner, warnings, highlighted 未经确认 value). The command renders over a temporary copy of the
data folder (``desktop.screenshots.rendering_copy``), so the sample never reaches the owner's
store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from core.app import App
    from desktop.context import AppContext


async def make_approval_window(ctx_or_app: AppContext | App) -> QWidget:
    """Factory for the screenshot registry; accepts the AppContext or its App."""
    from core.app import App
    from desktop.approval.window import ApprovalWindow

    app = ctx_or_app if isinstance(ctx_or_app, App) else ctx_or_app.app
    draft_id = await app.draft_reading.sample_draft()
    window = ApprovalWindow(app, app.drafts, draft_id)
    window.resize(1180, 700)  # fits a 1366 x 768 screen
    await window.ready()
    return window
