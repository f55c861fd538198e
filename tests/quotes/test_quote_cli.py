"""``quote`` / ``quotes`` from the command line, bad input first: each fault is one Chinese line on
stderr, a non-zero exit, no traceback, and nothing stored (checked with ``quotes --json``)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from core.app import App
from tests.quotes.test_quote_book import ITEMS, _inquiry

ROOT = Path(__file__).resolve().parents[2]


def _run(home: Path, now: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "INQUIRY_BRIDGE_NOW": now}
    return subprocess.run(
        [sys.executable, "-m", "core.cli.main", *args, "--home", str(home)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_chinese_line(proc: subprocess.CompletedProcess[str], said: str) -> None:
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert said in lines[0] and "Traceback" not in proc.stderr


def test_bad_quote_input_is_one_line_and_stores_nothing(
    services: Any, home: Path, tmp_path: Path
) -> None:
    iid = _inquiry(services)
    lost = _inquiry(services, stage="lost")
    now = services.clock.now().isoformat()
    app = App(services)
    v1 = asyncio.run(app.quotes.new_from_items(iid, ITEMS))
    asyncio.run(app.quotes.new_from_items(iid, ITEMS))
    asyncio.run(app.aclose())
    services.close()

    def items_file(name: str, change: dict[str, Any] | str) -> str:
        path = tmp_path / name
        if isinstance(change, str):
            path.write_text(change, encoding="utf-8")
        else:
            path.write_text(json.dumps([{**ITEMS[0], **change}]), encoding="utf-8")
        return str(path)

    cases = [
        (items_file("neg.json", {"qty": -1}), "数量 -1 不能为负数"),
        (items_file("wide.json", {"width_mm": 99999}), "宽度 99999 毫米不合理"),
        (items_file("nan.json", {"unit_price_ex_gst": "abc"}), "单价「abc」不是数字"),
        (items_file("broken.json", "[{"), "不是有效的 JSON"),
        (str(tmp_path / "missing.json"), "找不到文件"),
        (items_file("empty.json", "[]"), "报价没有任何明细"),
    ]
    for path, said in cases:
        _one_chinese_line(_run(home, now, "quote", "new", str(iid), "--items-json", path), said)
    good = items_file("good.json", {})
    _one_chinese_line(_run(home, now, "quote", "new", str(lost), "--items-json", good), "已流失")
    _one_chinese_line(_run(home, now, "quote", "accept", str(v1.quote["id"])), "已被新版本取代")
    _one_chinese_line(_run(home, now, "quote", "accept", "999"), "999")

    listed = _run(home, now, "quotes", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert [(q["version"], q["status"]) for q in rows] == [(1, "superseded"), (2, "draft")]
    assert set(rows[0]) >= {
        "id", "inquiry_id", "number", "version", "status", "items", "subtotal_ex_gst", "gst",
        "total_inc_gst", "deposit_percent", "deposit_inc_gst", "valid_until", "draft_id",
        "unconfirmed_facts",
    }  # fmt: skip
