"""The Chinese rendering says times and durations in Chinese, whatever the model left in English.

The owner approves a reply by its Chinese rendering; "10am" and "4 weeks" copied through from the
English are exactly the values he has to check.
"""

from __future__ import annotations

import pytest

from core.drafts.factguard import rendering_mismatches
from core.drafts.reply_model import ChineseRendering, DraftAnswer
from core.drafts.zh_times import localise_times


@pytest.mark.parametrize(
    ("model_wrote", "owner_reads"),
    [
        ("我们可以在周二上午 10am 上门量尺", "我们可以在周二上午10点上门量尺"),
        ("安装通常在量尺后 4 weeks 完成。", "安装通常在量尺后4周完成。"),
        ("下午 2:30pm 给您打电话", "下午2点30分给您打电话"),
        ("10.30am 见", "上午10点30分见"),
        ("12pm", "中午12点"),
        ("7pm", "晚上7点"),
        ("3-5 business days 内交货", "3-5个工作日内交货"),
        ("2 to 3 weeks", "2-3周"),
        ("保修 6 months", "保修6个月"),
        ("a week 后", "1周后"),
        ("about 2 hours，", "about 2小时，"),
        ("30 minutes", "30分钟"),
    ],
)
def test_times_and_durations_are_written_the_chinese_way(model_wrote, owner_reads) -> None:  # type: ignore[no-untyped-def]
    assert localise_times(model_wrote) == owner_reads


@pytest.mark.parametrize(
    "untouched",
    ["2400 x 2100 mm 推拉门", "Ryde 区 12 Smith St", "价格 $15,000（含 GST）", "10amps", "Sam 说"],
)
def test_other_english_is_left_alone(untouched: str) -> None:
    assert localise_times(untouched) == untouched


def test_every_model_answer_is_localised_and_stays_faithful() -> None:
    english = "We can measure on Tuesday at 10am; installation is usually 4 weeks after."
    answer = DraftAnswer(
        subject="Quote",
        body_en=english,
        body_zh="我们可以在周二 10am 上门量尺；安装通常在量尺后 4 weeks 完成。",
    )
    assert answer.body_zh == "我们可以在周二上午10点上门量尺；安装通常在量尺后4周完成。"
    assert answer.body_en == english  # the English the customer gets is never touched
    assert rendering_mismatches(english, answer.body_zh) == []  # the fact guard agrees
    again = ChineseRendering(body_zh="下午 2:30pm 来电")
    assert again.body_zh == "下午2点30分来电"
