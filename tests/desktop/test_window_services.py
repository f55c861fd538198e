"""What the 待审批 list and the detail's 另存为… get from ``App`` instead of building it (#23)."""

from __future__ import annotations

from pathlib import Path

from desktop.approval.pending_view import PendingDraftsView


async def test_the_pending_list_reads_through_the_app_and_opens_with_its_drafting(  # type: ignore[no-untyped-def]
    ctx, qtbot
) -> None:
    app = ctx.app
    view = PendingDraftsView(app, ctx.hub)
    qtbot.addWidget(view)
    await view.ready()
    assert view.reader is app.draft_reading.reader  # a reader alone: drafting is not built
    assert app.drafts._service is None
    assert view.drafting is app.drafts  # what its approval windows get


async def test_the_screenshot_sample_is_written_once(ctx) -> None:  # type: ignore[no-untyped-def]
    reading = ctx.app.draft_reading
    first = await reading.sample_draft()
    assert await reading.sample_draft() == first  # the newest pending one, not a second sample
    [view] = await reading.reader.list(("pending_approval",), newest_first=True)
    assert view.id == first


def test_a_saved_attachment_is_marked_as_from_the_internet(ctx, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On Windows the copy gets its Zone.Identifier stream (elsewhere the same open() writes a
    visible ``name:Zone.Identifier`` file, which is what this test reads)."""
    from core.app.attachment_copies import AttachmentCopies

    source = tmp_path / "plan.pdf"
    source.write_bytes(b"%PDF-1.4 plan")
    target = AttachmentCopies(platform="win32").save(source, tmp_path / "copy.pdf")
    assert target.read_bytes() == b"%PDF-1.4 plan"
    assert (tmp_path / "copy.pdf:Zone.Identifier").read_text() == "[ZoneTransfer]\nZoneId=3\n"
    plain = ctx.app.attachment_copies.save(source, tmp_path / "plain.pdf")  # this platform
    assert plain.read_bytes() == source.read_bytes()
