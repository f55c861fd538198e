"""报价单 from an inquiry's detail, as the owner uses it: rows with live totals (GST per line to the
cent, as the PDF prints), a bad row says why in Chinese and blocks 生成报价, and saving files the
version with a reply draft waiting in 待审批; 概览 shows the pipeline value."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QTableWidgetItem

from desktop.detail import InquiryDetailView
from desktop.detail.quote_editor import PRICE, QTY, WIDTH, QuoteEditor
from desktop.stats.window import StatsWindow
from tests.quotes.test_quote_book import ITEMS, _inquiry
from tests.support.qt import settles, wait_until


@settles
async def test_editor_totals_live_refuses_a_bad_row_and_files_the_quote(
    ctx: Any, qtbot: Any, services: Any
) -> None:
    iid = _inquiry(services)
    view = InquiryDetailView(ctx)
    qtbot.addWidget(view)
    view.show_inquiry(iid)
    await view.ready()
    assert view.header.quote_button.text() == "报价单…" and view.header.quote_button.isEnabled()
    editor = view.open_quote_editor()
    assert editor is not None
    assert editor.windowTitle() == "报价单"
    editor.set_rows(ITEMS)
    assert "合计（含 GST）$4,275.32" in editor.totals_label.text()
    assert "GST $388.67" in editor.totals_label.text()
    assert editor.save_button.isEnabled()

    editor.table.setItem(1, QTY, QTableWidgetItem("4"))  # 4 × 45.55 = 182.20, GST 18.22
    assert "合计（含 GST）$4,325.42" in editor.totals_label.text()
    editor.table.setItem(0, WIDTH, QTableWidgetItem("0"))
    assert (
        "第 1 行" in editor.problem_label.text()
        and "宽度 0 毫米不合理" in editor.problem_label.text()
    )
    assert not editor.save_button.isEnabled()
    editor.table.setItem(0, WIDTH, QTableWidgetItem("1800"))
    editor.table.setItem(1, PRICE, QTableWidgetItem("45.55"))
    assert editor.save_button.isEnabled()

    draft_id = await editor.save()
    assert draft_id is not None
    (quote,) = await ctx.app.quotes.rows(iid)
    assert quote["total_inc_gst"] == 4325.42 and quote["draft_id"] == draft_id
    assert (await ctx.app.drafts.reader.get(draft_id)).status == "pending_approval"
    view.show_inquiry(iid)
    await view.ready()
    assert "报价 $4,325.42（含 GST）" in view.subtitle.text()  # the job shows its quote

    window = StatsWindow(ctx.app)
    qtbot.addWidget(window)
    await window.reload()
    await wait_until(lambda: "在谈金额 $4,325.42" in window.money_label.text())
    assert window.pipeline_chart.value_text(4325.42) == "$4,325"  # money on its bar, not 4325.42


def test_company_profile_for_quotes_is_set_in_settings(ctx: Any, qtbot: Any) -> None:
    """ABN, address, phone and deposit are his to set in 设置 → 常规, and the quote uses them."""
    from desktop.settings_dialog import SettingsDialog

    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.abn.setText("12 345 678 901")
    dialog.company_address.setText("1 George St, Sydney NSW 2000")
    dialog.company_phone.setText("02 9000 0000")
    dialog.deposit.setValue(40)
    assert dialog.save()
    company = ctx.app.quotes.company()
    assert (company.abn, company.address, company.phone) == (
        "12 345 678 901",
        "1 George St, Sydney NSW 2000",
        "02 9000 0000",
    )
    assert ctx.app.quotes.deposit_percent() == 40


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
@settles
async def test_the_editor_previews_its_rows_as_a_chinese_pdf_without_filing_them(
    ctx: Any, qtbot: Any, services: Any
) -> None:
    """The customer's PDF is English; 中文预览 shows him the rows as they stand, in Chinese words,
    in his PDF viewer, and files nothing."""
    iid = _inquiry(services)
    editor = QuoteEditor(ctx.app, iid)
    qtbot.addWidget(editor)
    opened: list[Path] = []

    def open_pdf(path: Path) -> bool:  # the system viewer, as the test sees it
        opened.append(path)
        return True

    editor.open_pdf = open_pdf
    editor.set_rows(ITEMS)
    editor.table.setItem(1, QTY, QTableWidgetItem("4"))  # an edit not saved yet
    assert editor.preview_button.text() == "中文预览" and editor.preview_button.isEnabled()
    editor.preview_button.click()
    assert editor.preview_task is not None
    assert await editor.preview_task == opened[0]
    text = subprocess.run(
        ["pdftotext", "-layout", str(opened[0]), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "合计（含 GST）" in text and "$4,325.42" in text and "推拉窗" in text
    assert await ctx.app.quotes.rows(iid) == []  # nothing filed
    editor.table.setItem(0, WIDTH, QTableWidgetItem("0"))  # a bad row: no preview of it
    assert not editor.preview_button.isEnabled()
