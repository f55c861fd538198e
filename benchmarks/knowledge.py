"""What the owner's 知识库 costs a draft: the prompt's share and the guard's time, by file size.

Prints, for knowledge files of growing size (a lead-time section plus a catalogue of product
lines), how many characters the drafting prompt gets (whole up to ``WHOLE_CHARS``, else the
excerpt), the CPU milliseconds of the search, and of the fact guard checking a draft against the
whole file — the first check (the file's values scanned) and a repeat (remembered), as at each
edit and approval of the same draft.

    .venv/bin/python benchmarks/knowledge.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.drafts.factguard import check_facts
from core.knowledge import excerpt
from core.provenance import Text

LEAD = "## 交货期\n\n- 推拉门 sliding door 标准交货期 4 周\n- 百叶窗交货期 9 周\n"
QUERY = "Hi, how long is the lead time for a sliding door 2400 x 2100 in Ryde? 回答交货期"
DRAFT = "Hi Jane,\n\nThe standard lead time for a sliding door is 4 weeks.\n\nKind regards"


def catalogue(lines: int) -> str:
    rows = [
        f"## 型号 {n}\n\n淋浴房 shower screen 型号 {n}：框宽 {20 + n} 毫米，颜色 {n % 7} 种，"
        f"五金配件按目录 {n} 页，单价 ${300 + n}。\n"
        for n in range(lines)
    ]
    return LEAD + "\n" + "\n".join(rows)


def ms(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def main() -> int:
    print(f"{'file chars':>10} {'prompt chars':>12} {'search ms':>9} {'guard 1st ms':>12} "
          f"{'guard again ms':>14}")  # fmt: skip
    for lines in (10, 60, 600, 6000):
        text = catalogue(lines)
        got = excerpt(text, QUERY)
        search = ms(lambda t=text: excerpt(t, QUERY))
        sources = [Text.owner(text), Text.customer(QUERY)]
        first = ms(lambda s=sources: check_facts(DRAFT, s))
        again = ms(lambda s=sources: check_facts(DRAFT, s))
        print(f"{len(text):>10} {len(got.text):>12} {search:>9.1f} {first:>12.1f} {again:>14.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
