"""The approval window names its panes for who reads them: the Chinese is a translation for the
owner, the English is what the customer gets (it once said the customer reads the Chinese)."""

from __future__ import annotations

import re


async def test_panes_say_who_reads_what_and_times_read_in_chinese(qtbot, zh, services, folder_app):  # type: ignore[no-untyped-def]
    from desktop.approval.screenshot import make_approval_window

    window = await make_approval_window(folder_app)
    qtbot.addWidget(window)
    assert window.zh_title.text() == "给您看的中文译文"
    assert window.en_title.text() == "实际发出的英文"
    chinese = window.zh_preview.toPlainText()
    assert "上午10点" in chinese and "4周" in chinese
    assert "10am" not in chinese and "weeks" not in chinese
    # the unconfirmed "4 weeks" is highlighted in both panes, as 4周 in the Chinese
    assert "4 weeks" in window.view.unconfirmed_facts
    assert re.search(r"ffd8a8[^>]*>4周</span>", window.zh_preview.toHtml())
    window.close()
