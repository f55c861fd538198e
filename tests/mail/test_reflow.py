"""Hard-wrapped mail reads as paragraphs; the lines a person broke on purpose stay broken."""

from __future__ import annotations

from core.mail.reflow import mostly_chinese, reflow

WRAPPED = (
    "Hi again, just checking you received my email about the shower screen? We'd like it done\n"
    "before Easter if possible.\n"
    "\n"
    "Cheers,\n"
    "Emma Clarke\n"
    "0401 998 213"
)


def test_a_paragraph_broken_for_width_is_one_line_again() -> None:
    assert reflow(WRAPPED).split("\n")[0] == (
        "Hi again, just checking you received my email about the shower screen? "
        "We'd like it done before Easter if possible."
    )


def test_blank_lines_and_the_signature_are_kept() -> None:
    assert reflow(WRAPPED).split("\n")[1:] == ["", "Cheers,", "Emma Clarke", "0401 998 213"]


def test_list_items_stay_on_their_own_lines() -> None:
    text = (
        "Can you please give me a price for 3 aluminium sliding windows, white frame, clear\n"
        "glass, for these openings:\n"
        "- 1800 x 1200 mm (living room)\n"
        "- 1200 x 900 mm (bedroom)\n"
        "1. first numbered item\n"
        "2) second numbered item"
    )
    assert reflow(text).split("\n") == [
        "Can you please give me a price for 3 aluminium sliding windows, white frame, clear "
        "glass, for these openings:",
        "- 1800 x 1200 mm (living room)",
        "- 1200 x 900 mm (bedroom)",
        "1. first numbered item",
        "2) second numbered item",
    ]


def test_quoted_lines_are_never_joined() -> None:
    text = (
        "Thanks, that works for us. We can do Tuesday morning if that suits your team too\n"
        "> On Monday you wrote: we could come and measure on Tuesday or Wednesday morning\n"
        "> next week, whichever suits."
    )
    assert reflow(text).split("\n") == text.split("\n")


def test_a_line_ending_in_a_colon_keeps_its_break() -> None:
    text = "For 3 white aluminium sliding windows with clear 5 mm glass, supply only:\n1800 x 1200"
    assert reflow(text) == text


def test_short_lines_are_not_joined() -> None:
    text = "Regards,\nJames Nguyen\nMob: 0423 556 781\n12 Smith St\nRyde NSW 2112"
    assert reflow(text) == text


def test_chinese_lines_join_without_a_space_and_crlf_is_read() -> None:
    text = (
        "您好，我们家在 Ryde 有三扇旧窗户想换成铝合金推拉窗，请问可以安排时间上门量尺吗？这周末最好，周六\r\n"
        "上午或者周日下午都可以。\r\n"
        "谢谢"
    )
    lines = reflow(text).split("\n")
    assert lines[0].endswith("周六上午或者周日下午都可以。") and lines[1] == "谢谢"


def test_reflow_changes_only_line_breaks() -> None:
    out = reflow(WRAPPED)
    assert out.replace("\n", "").replace(" ", "") == WRAPPED.replace("\n", "").replace(" ", "")


def test_chinese_mail_is_told_from_english_mail_with_a_chinese_name() -> None:
    assert mostly_chinese("您好，我想咨询一下推拉门的价格，地址是 12 Smith St, Ryde。谢谢！")
    assert not mostly_chinese("Hi, this is 王伟 from Hurstville. I need a quote for a bifold door.")
    assert not mostly_chinese("")
