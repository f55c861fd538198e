"""`inquiry-bridge ingest` then `inquiry-bridge telegram --once`, as a user would run them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from tests.notify.conftest import OWNER
from tests.support.telegram_server import TelegramServer

EML = """\
From: John Smith <john.smith@example.com>
To: sales@aurorawindows.com.au
Subject: Quote for sliding door
Date: Tue, 31 Mar 2026 09:00:00 +1100
Message-ID: <quote-001@example.com>
Content-Type: text/plain; charset=utf-8

Hi,

We would like a quote for a new aluminium sliding door, 2400 x 2100, at
12 Smith St, Epping NSW 2121. Please call me on 0412 345 678 <urgent> & thanks.

Thanks,
John Smith
"""


FOLLOW_UP = """\
From: John Smith <john.smith@example.com>
To: sales@aurorawindows.com.au
Subject: Re: Quote for sliding door
Date: Tue, 31 Mar 2026 10:30:00 +1100
Message-ID: <quote-002@example.com>
In-Reply-To: <quote-001@example.com>
References: <quote-001@example.com>
Content-Type: text/plain; charset=utf-8

Also a flyscreen for the same door please.

On Tue, 31 Mar 2026 John Smith wrote:
> We would like a quote for a new aluminium sliding door
"""

NEWSLETTER = """\
From: Glass Weekly <news@glassweekly.example>
To: sales@aurorawindows.com.au
Subject: This week's specials on double glazing
Date: Tue, 31 Mar 2026 11:00:00 +1100
Message-ID: <news-913@glassweekly.example>
List-Unsubscribe: <mailto:unsubscribe@glassweekly.example>
Precedence: bulk
Content-Type: text/plain; charset=utf-8

Big savings on double glazing units this week only.
"""


@pytest.fixture
def eml_dir(tmp_path: Path) -> Path:
    """A small mailbox: one new inquiry, the customer's follow-up in its thread, a newsletter."""
    folder = tmp_path / "eml"
    folder.mkdir()
    for name, text in (("001.eml", EML), ("002.eml", FOLLOW_UP), ("003.eml", NEWSLETTER)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_ingested_inquiry_reaches_the_owner_once_in_chinese(
    home: Path, eml_dir: Path, owner_env: TelegramServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", "--eml-dir", str(eml_dir), "--offline", "--home", str(home)]) == 0
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    out = capsys.readouterr().out
    assert "Telegram：已发送 1 条提醒" in out
    [message] = owner_env.sent  # three mails, one inquiry: one message, to the owner only
    assert message.chat_id == OWNER
    shown = message.visible
    assert shown.startswith("新询盘：John Smith（Epping）")
    assert "客户：John Smith" in shown and "主题：Quote for sliding door" in shown  # Chinese labels
    assert "电话：0412 345 678" in shown and "产品：推拉门" in shown
    assert "0412 345 678 <urgent> & thanks." in shown  # the customer's words, escaped
    # ingesting the same mail again and running again sends nothing more
    assert main(["ingest", "--eml-dir", str(eml_dir), "--offline", "--home", str(home)]) == 0
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert len(owner_env.sent) == 1


def test_alerts_wait_out_quiet_hours_and_go_once_after_them(
    home: Path,
    eml_dir: Path,
    owner_env: TelegramServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """At 02:00 Sydney the alert is held (not lost, not sent); at 07:30 it goes, once."""
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T02:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(eml_dir), "--offline", "--home", str(home)]) == 0
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert owner_env.sent == []
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T06:59:00+11:00")
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert owner_env.sent == []
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T07:30:00+11:00")
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    [message] = owner_env.sent
    assert message.visible.startswith("新询盘：John Smith（Epping）")
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert len(owner_env.sent) == 1
    capsys.readouterr()


def test_pair_prints_a_code_that_pairs_the_chat(
    home: Path, tg_env: TelegramServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["telegram", "pair", "--home", str(home)]) == 0
    found = re.search(r"pairing code: (\w+)", capsys.readouterr().out)
    assert found is not None
    code = found.group(1)
    tg_env.push_message(555, "/start " + code)
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert main(["telegram", "status", "--home", str(home)]) == 0
    out = capsys.readouterr().out
    assert "paired chat: 555" in out
    assert tg_env.sent_to(555)[0].visible.startswith("✅ 配对成功。")


def test_without_a_token_it_says_so_in_one_line(home: Path, capsys: Any) -> None:
    assert main(["telegram", "--once", "--home", str(home)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Bot 令牌" in err
