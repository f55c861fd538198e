"""A mail's files are listed lazily: a few buttons at first, more on request, and the files
the intake did not keep told in one line (issue 40: 10,000 buttons took 17.6 s to open)."""

from __future__ import annotations

from core.app.types import AttachmentInfo
from desktop.detail.attachments import MORE_STEP, SHOWN_AT_FIRST, AttachmentStrip


def _files(count: int) -> tuple[AttachmentInfo, ...]:
    return tuple(
        AttachmentInfo(i, f"window-{i:03d}.pdf", "application/pdf", 2_000, None, "not_read")
        for i in range(1, count + 1)
    )


def test_a_few_buttons_first_then_more_on_request(qtbot, languages) -> None:  # type: ignore[no-untyped-def]
    languages.apply("zh_CN")
    strip = AttachmentStrip(_files(100), not_kept=9800)
    qtbot.addWidget(strip)
    assert len(strip.attachment_buttons) == SHOWN_AT_FIRST
    assert not strip.more_button.isHidden()
    assert strip.more_button.text() == f"再显示 {MORE_STEP} 个…"
    assert strip.not_kept_label.text() == "还有 9800 个附件未保存（一封邮件的附件太多）"
    strip.more_button.click()
    assert len(strip.attachment_buttons) == SHOWN_AT_FIRST + MORE_STEP
    strip.more_button.click()
    assert len(strip.attachment_buttons) == 100
    assert strip.more_button.isHidden()
    assert strip.attachment_buttons[-1].text().startswith("window-100.pdf")


def test_a_short_list_shows_every_file_and_no_extra_words(qtbot) -> None:  # type: ignore[no-untyped-def]
    strip = AttachmentStrip(_files(3))
    qtbot.addWidget(strip)
    assert len(strip.attachment_buttons) == 3
    assert strip.more_button.isHidden() and strip.not_kept_label.isHidden()
