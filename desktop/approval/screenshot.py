"""The approval window for ``inquiry-bridge screenshot --window approval``.

Shows the newest draft waiting for approval; in a folder without drafts core first creates a
sample one (``core.drafts.sample``) so the picture shows every part of the window (banner,
warnings, highlighted 未经确认 value). The command renders over a temporary copy of the data
folder (``desktop.screenshots.rendering_copy``), so the sample never reaches the owner's store.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget


async def make_approval_window(ctx_or_services: Any) -> QWidget:
    """Factory for the screenshot registry; accepts the AppContext or a bare Services."""
    from core.drafts.drafting import build_drafting
    from core.drafts.sample import ensure_sample_draft
    from desktop.approval.window import ApprovalWindow

    services = getattr(ctx_or_services, "services", ctx_or_services)
    drafting = getattr(ctx_or_services, "draft_service", None) or build_drafting(
        services, None, find_mailer=False
    )
    draft_id = await ensure_sample_draft(services)
    window = ApprovalWindow(services, drafting, draft_id)
    window.resize(1180, 700)  # fits a 1366 x 768 screen
    await window.ready()
    return window
