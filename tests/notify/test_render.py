"""Markdown -> Telegram HTML: escaping first, then markup; output Telegram accepts."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.notify.chunk import TELEGRAM_LIMIT, render_chunks, split_markdown
from core.text.render import md_escape, render_html, render_plain
from tests.support.telegram_server import html_problem, visible_text


def test_customer_text_with_html_characters_is_shown_literally() -> None:
    md = "客户说：**<b>urgent</b> & cheap** price < 500 > 300"
    html = render_html(md)
    assert html_problem(html) is None
    assert visible_text(html, "HTML") == "客户说：<b>urgent</b> & cheap price < 500 > 300"
    assert html.count("<b>") == 1  # only our bold, never the customer's tag


def test_markup_becomes_telegram_tags() -> None:
    md = "# 新询盘\n**张三** 要 _推拉门_，见 [地图](https://maps.example.com/?q=a&b=c)\n\n- 一\n- 二\n\n`code <x>`"
    html = render_html(md)
    assert html_problem(html) is None
    assert "<b>新询盘</b>" in html
    assert "<b>张三</b>" in html and "<i>推拉门</i>" in html
    assert '<a href="https://maps.example.com/?q=a&amp;b=c">地图</a>' in html
    assert "• 一\n• 二" in html
    assert "<code>code &lt;x&gt;</code>" in html


def test_snake_case_and_unsafe_links_stay_text() -> None:
    html = render_html("file_name_here [x](javascript:alert(1))")
    assert "<i>" not in html and "<a" not in html
    assert html_problem(html) is None


def test_table_becomes_one_readable_line_per_row() -> None:
    md = "| 产品 | 尺寸 | 数量 |\n|---|---|---|\n| 推拉门 | 2400x2100 | 1 |\n| 纱窗 |  | 3 |"
    plain = render_plain(md)
    assert plain.splitlines() == ["• 推拉门 — 尺寸：2400x2100，数量：1", "• 纱窗 — 数量：3"]
    html = render_html(md)
    assert "<b>推拉门</b>" in html and "|" not in html


def test_plain_fallback_has_no_markup() -> None:
    md = "**粗体** _斜体_ `代码` [链接](https://a.example)\n> 引用"
    assert render_plain(md) == "粗体 斜体 代码 链接 (https://a.example)\n\n> 引用"


def test_md_escape_keeps_customer_markdown_literal() -> None:
    text = "# not a heading\n- not a list *not bold* [x](https://y) a_b_c | pipe"
    assert render_plain(md_escape(text)) == text
    assert visible_text(render_html(md_escape(text)), "HTML") == text


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([*"ab <>&*_`[]()#|-~\n\\:/.中", "**", "```", "|---|", "](http://x)"]),
        max_size=80,
    ).map("".join)
)
@example("[*](http://x)*")  # emphasis opening in a link label and closing after it
@example("**a*b**c*")
def test_any_input_renders_to_html_telegram_accepts(md: str) -> None:
    html = render_html(md)
    assert html_problem(html) is None, (md, html)


def test_long_text_splits_at_paragraphs_under_the_limit() -> None:
    paragraphs = [f"第{i}段 " + ("内容 & <x> " * 40) for i in range(60)]
    md = "\n\n".join(paragraphs)
    pieces = split_markdown(md)
    assert len(pieces) > 1
    assert all(len(p) < TELEGRAM_LIMIT for p in pieces)
    # every cut is at a paragraph boundary: each piece is whole paragraphs
    assert [para for piece in pieces for para in piece.split("\n\n")] == paragraphs
    chunks = render_chunks(md)
    assert all(len(c.html) < TELEGRAM_LIMIT and len(c.plain) < TELEGRAM_LIMIT for c in chunks)
    assert all(html_problem(c.html) is None for c in chunks)
    shown = "\n\n".join(visible_text(c.html, "HTML") for c in chunks)
    assert shown == "\n\n".join(p.strip() for p in paragraphs)  # nothing lost or reordered


def test_one_huge_paragraph_without_spaces_still_fits() -> None:
    md = "长" * 10000
    chunks = render_chunks(md)
    assert "".join(c.plain for c in chunks) == md
    assert all(len(c.html) < TELEGRAM_LIMIT for c in chunks)


def test_code_block_cut_in_two_is_closed_and_reopened() -> None:
    code = "\n\n".join(f"line {i} <tag> & more text here" for i in range(300))
    md = "前言\n\n```\n" + code + "\n```\n\n结尾"
    chunks = render_chunks(md)
    assert len(chunks) > 1
    for chunk in chunks:
        assert html_problem(chunk.html) is None
    assert sum(c.html.count("<pre>") for c in chunks) >= 2
    assert "结尾" in chunks[-1].plain
