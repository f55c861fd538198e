"""The command line in both of the owner's languages: every help line and every subcommand's
description in Chinese and English, an error's detail said once per language, and input
mistakes called 输入有误 rather than 设置有误."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from core.cli.main import build_parser, main
from core.errors import NotFound, detail_in
from desktop.launcher import _register_desktop

CJK = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z]{3}")


def _walk(parser: argparse.ArgumentParser, path: str = "inquiry-bridge"):  # type: ignore[no-untyped-def]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"{path} {choice.dest}", str(choice.help)
            for name, sub in action.choices.items():
                yield f"{path} {name} (description)", str(sub.description)
                yield from _walk(sub, f"{path} {name}")
        elif action.help and action.help is not argparse.SUPPRESS:
            yield f"{path} {'/'.join(action.option_strings) or action.dest}", str(action.help)


def test_every_help_line_and_description_is_chinese_and_english() -> None:
    parser = build_parser([_register_desktop])
    texts = list(_walk(parser))
    assert len(texts) > 100
    lacking = [where for where, text in texts if not (CJK.search(text) and LATIN.search(text))]
    assert lacking == [], lacking
    assert CJK.search(str(parser.description)) and "Inquiry Bridge" in str(parser.description)


def test_a_subcommand_help_describes_it_in_both_languages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["send", "--help"])
    out = capsys.readouterr().out
    assert "发送已批准的草稿" in out and "send an approved draft" in out


def test_send_999_says_its_detail_once_in_each_language(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["send", "999"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.count("不存在") == 1 and err.count("does not exist") == 1
    assert err.index("不存在") < err.index("does not exist")  # Chinese first


def test_a_bilingual_detail_is_split_and_others_are_kept() -> None:
    assert detail_in("草稿 #3 不存在 / draft #3 does not exist", "zh_CN") == "草稿 #3 不存在"
    assert detail_in("草稿 #3 不存在 / draft #3 does not exist", "en") == "draft #3 does not exist"
    assert detail_in("a / b", "en") == "a / b"  # not a 中文 / English pair
    assert NotFound("询盘 #5").user_message("en") == "Not found: 询盘 #5"


def test_a_wrong_argument_is_bad_input_not_a_settings_problem(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["memories", "confirm"]) == 1
    err = capsys.readouterr().err
    assert "输入有误" in err and "Bad input" in err
    assert "设置有误" not in err and "Settings problem" not in err
