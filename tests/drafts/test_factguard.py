"""The fact guard on drafts with planted values: normalisation, and precision/recall figures.

Each case is (owner instruction, customer text, draft body, values that were planted — i.e. are
NOT backed by the instruction or the customer). The guard must flag exactly the planted ones.
"""

from __future__ import annotations

import pytest

from core.drafts.factguard import check_facts
from core.text.facts import extract_facts

SIG = "Kind regards,\nMichael Chen\nAurora Windows & Doors\nPh (02) 9876 5432 · sales@aurorawindows.com.au"
CUSTOMER = (
    "Hi, I'd like a quote for a sliding door 2400 x 2100 and two awning windows 1200x900 at "
    "12 Smith St, Ryde NSW 2112. My mobile is 0412 345 678. Thanks, Jane (jane@example.com)"
)

# (instruction, body, planted)
CASES: list[tuple[str, str, list[str]]] = [
    ("报价15000含GST", "Hi Jane,\n\nOur price is $15,000 including GST.\n\n" + SIG, []),
    (
        "报价15000含GST",
        "Hi Jane,\n\nOur price is $15,000 incl. GST ($16,500 total).\n\n" + SIG,
        ["$16,500"],
    ),
    ("报价1.5万", "Hi Jane, the supply and install price is $15k including GST.\n\n" + SIG, []),
    ("报价一万五千", "Hi Jane, our quote is 15,000 dollars.\n\n" + SIG, []),
    ("下周二上午10点上门量尺", "Hi Jane, we can measure on Tuesday at 10am.\n\n" + SIG, []),
    (
        "下周二上午10点上门量尺",
        "Hi Jane, we can measure on Tuesday 21 April at 10:00am.\n\n" + SIG,
        ["21 April"],
    ),
    ("下周二上门量尺", "Hi Jane, we can measure on Tuesday at 2pm.\n\n" + SIG, ["2pm"]),
    ("周四下午2点半可以", "Hi Jane, Thursday at 2:30pm suits us.\n\n" + SIG, []),
    ("周四下午2点半可以", "Hi Jane, Friday at 2:30pm suits us.\n\n" + SIG, ["Friday"]),
    ("4月21日上门", "Hi Jane, we will see you on 21/04/2026.\n\n" + SIG, []),
    ("4月21日上门", "Hi Jane, we will see you on 22 April.\n\n" + SIG, ["22 April"]),
    (
        "尺寸按客户给的报价",
        "Hi Jane, the 2400mm x 2100mm door and the 1200 x 900 mm awnings are quoted.\n\n" + SIG,
        [],
    ),
    (
        "尺寸按客户给的报价",
        "Hi Jane, the 2.4 m wide door and 1200 x 900 awnings are quoted.\n\n" + SIG,
        [],
    ),
    ("尺寸按客户给的报价", "Hi Jane, the 2400 x 2200mm door is quoted.\n\n" + SIG, ["2200mm"]),
    ("报价15000", "Hi Jane, $15,000, or call 1300 555 123 any time.\n\n" + SIG, ["1300 555 123"]),
    ("下周二上门", "Hi Jane, see you Tuesday between 9 and 11am.\n\n" + SIG, ["9", "11am"]),
    ("报价15000", "Hi Jane, $15,000 (a 5% discount is included).\n\n" + SIG, ["5%"]),
    (
        "尺寸按客户给的报价",
        "Hi Jane, the 2400 x 2100 door and a 1500 x 900 window.\n\n" + SIG,
        ["1500"],
    ),
    ("打电话给她", "Hi Jane, I will call you on 0412 345 678.\n\n" + SIG, []),
    ("打电话给她", "Hi Jane, I will call you on +61 412 345 678.\n\n" + SIG, []),
    (
        "打电话给她",
        "Hi Jane, please call our installer on 0499 111 222.\n\n" + SIG,
        ["0499 111 222"],
    ),
    ("回复她的邮件", "Hi Jane, please send photos to jane@example.com or to us.\n\n" + SIG, []),
    (
        "回复她的邮件",
        "Hi Jane, please send photos to photos@aurora-install.com.\n\n" + SIG,
        ["photos@aurora-install.com"],
    ),
    (
        "报价15000，定金30%",
        "Hi Jane, the price is $15,000; a 30% deposit confirms the order.\n\n" + SIG,
        [],
    ),
    (
        "报价15000",
        "Hi Jane, the price is $15,000; a 50% deposit confirms the order.\n\n" + SIG,
        ["50%"],
    ),
    ("报价15000，交货期3到4周", "Hi Jane, $15,000, lead time 3-4 weeks.\n\n" + SIG, []),
    (
        "报价15000",
        "Hi Jane, $15,000, lead time 6 weeks, 10 year warranty.\n\n" + SIG,
        ["6 weeks", "10 year"],
    ),
    (
        "报价15000",
        "Hi Jane, $15,000. Quote number Q-48213 is valid for 30 days.\n\n" + SIG,
        ["48213", "30 days"],
    ),
    (
        "谢谢她的询价，稍后报价",
        "Hi Jane, thank you for your enquiry. We will send a quote for 12 Smith St, Ryde NSW 2112 soon.\n\n"
        + SIG,
        [],
    ),
    (
        "谢谢她的询价，稍后报价",
        "Hi Jane, thank you. We will send a quote by Friday.\n\n" + SIG,
        ["Friday"],
    ),
    ("报价八千五百", "Hi Jane, the price for the awnings is $8,500.\n\n" + SIG, []),
    (
        "报价八千五百",
        "Hi Jane, the price for the awnings is $8,500 and the door $6,500.\n\n" + SIG,
        ["$6,500"],
    ),
    ("两周内安装", "Hi Jane, we can install within 2 weeks.\n\n" + SIG, []),
    ("明天中午12点打电话", "Hi Jane, I will call you tomorrow at 12pm.\n\n" + SIG, []),
    (
        "明天中午12点打电话",
        "Hi Jane, I will call you tomorrow at noon, or 9:30am.\n\n" + SIG,
        ["9:30am"],
    ),
    ("报价 AUD 12,800 不含GST", "Hi Jane, the price is AUD 12,800 ex GST.\n\n" + SIG, []),
    (
        "报价 AUD 12,800 不含GST",
        "Hi Jane, the price is AUD 12,800 ex GST, i.e. $14,080 incl. GST.\n\n" + SIG,
        ["$14,080"],
    ),
    ("面积大约12平方米", "Hi Jane, the glazing area is about 12 m2.\n\n" + SIG, []),
    ("面积大约12平方米", "Hi Jane, the glazing area is about 14 sqm.\n\n" + SIG, ["14 sqm"]),
]


def _score() -> tuple[int, int, int, list[str]]:
    tp = fp = fn = 0
    problems: list[str] = []
    for instruction, body, planted in CASES:
        flagged = check_facts(body, [instruction, CUSTOMER, SIG])
        for value in flagged:
            if any(value in p or p in value for p in planted):
                tp += 1
            else:
                fp += 1
                problems.append(f"false alarm {value!r} in {body[:60]!r}")
        for p in planted:
            if not any(p in v or v in p for v in flagged):
                fn += 1
                problems.append(f"missed {p!r} in {body[:60]!r}")
    return tp, fp, fn, problems


def test_guard_precision_and_recall_on_planted_cases() -> None:
    tp, fp, fn, problems = _score()
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    planted = sum(len(p) for _, _, p in CASES)
    print(
        f"\nfact guard: {len(CASES)} drafts, {planted} planted values, TP={tp} FP={fp} FN={fn}, "
        f"precision={precision:.3f} recall={recall:.3f}"
    )
    assert planted >= 20
    assert recall == 1.0, problems
    assert precision >= 0.95, problems


@pytest.mark.parametrize(
    ("body", "source"),
    [
        ("$15,000", "15000"),
        ("15k", "$15,000"),
        ("$15,000.00", "1.5万"),
        ("$15,000", "一万五"),
        ("2400mm", "2.4米"),
        ("2.4 m", "2400"),
        ("240 cm", "2400mm"),
        ("10am", "上午10点"),
        ("2:30pm", "下午两点半"),
        ("14:30", "2:30pm"),
        ("Tuesday", "星期二"),
        ("Sunday", "周日"),
        ("21 April", "4月21号"),
        ("April 21st", "21/4"),
        ("+61 412 345 678", "0412345678"),
        ("JANE@Example.com", "jane@example.com"),
        ("3 weeks", "3周"),
        ("2 weeks", "两周"),
    ],
)
def test_normalised_forms_match(body: str, source: str) -> None:
    text = f"Value: {body} here."
    assert extract_facts(text), text
    assert check_facts(text, [source]) == []


def test_words_and_small_counts_are_not_facts() -> None:
    body = "Hi Jane, thanks for the 2 photos. We make 3 kinds of doors and can help with 1 more."
    assert check_facts(body, []) == []
