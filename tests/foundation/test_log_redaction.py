"""The log file never holds a customer's words, even when everything around his mail fails.

Forced failures through the real command line: the database refuses the inquiry and the message
body (SQLAlchemy then writes ``[SQL: …]`` and ``[parameters: …]`` with the whole row), the intake
fails on it, and the model endpoint answers with an error that echoes the prompt. The log written
meanwhile is grepped for the customer's name, e-mail, phone (every spelling), street address and
the words of the body: none may be there, while the failures themselves are still logged.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from core.log_redact import redact_text
from tests.support.llm_server import LLMServer, Reply

NAME = "Zelda Quartermaine"
EMAIL = "zelda.q@example.com"
PHONE = "0498 765 432"
ADDRESS = "47 Wattlebird Crescent"
BODY = "the purple gazebo opening"

EML = f"""\
From: {NAME} <{EMAIL}>
To: sales@aurorawindows.com.au
Subject: Quote for bifold door
Date: Tue, 31 Mar 2026 09:00:00 +1100
Message-ID: <zq-001@example.com>
Content-Type: text/plain; charset=utf-8

Hi,

We want a bifold door for our terrace, {BODY}, at
{ADDRESS}, Marrickville NSW 2204. Please ring {PHONE}.

Cheers,
{NAME}
"""

FORBIDDEN = (
    NAME,
    "Quartermaine",
    EMAIL,
    PHONE,
    "0498765432",
    "+61498765432",
    "498 765 432",
    ADDRESS,
    "Wattlebird",
    BODY,
    "purple gazebo",
)


@pytest.fixture(autouse=True)
def _fresh_root_logger() -> Any:
    """Each CLI run adds its file handler to the root logger: take them off afterwards."""
    root = logging.getLogger()
    before = list(root.handlers)
    yield
    for handler in root.handlers[len(before) :]:
        handler.close()
        root.removeHandler(handler)


def _mail(tmp_path: Path) -> Path:
    folder = tmp_path / "eml"
    folder.mkdir()
    (folder / "001.eml").write_text(EML, encoding="utf-8")
    return folder


def _log(home: Path) -> str:
    return "\n".join(
        p.read_text(encoding="utf-8") for p in sorted((home / "logs").glob("inquiry-bridge.log*"))
    )


def _assert_clean(text: str) -> None:
    leaked = [value for value in FORBIDDEN if value.lower() in text.lower()]
    assert leaked == [], f"customer data in the log: {leaked}"


def _trigger(home: Path, sql: str) -> None:
    with sqlite3.connect(home / "inquiry-bridge.sqlite3") as db:
        db.execute(sql)


def test_database_and_intake_failures_log_no_customer_text(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inquiries", "--home", str(home)]) == 0  # creates the store
    _trigger(
        home,
        "CREATE TRIGGER refuse_inquiry BEFORE INSERT ON inquiries "
        "BEGIN SELECT RAISE(ABORT, 'forced failure'); END",
    )
    folder = _mail(tmp_path)
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    assert "failed (see the log) 1" in capsys.readouterr().out
    _trigger(home, "DROP TRIGGER refuse_inquiry")
    _trigger(
        home,
        "CREATE TRIGGER refuse_message BEFORE INSERT ON messages "
        "BEGIN SELECT RAISE(ABORT, 'forced message failure'); END",
    )
    again = tmp_path / "again"
    again.mkdir()
    (again / "002.eml").write_text(EML.replace("zq-001@", "zq-002@"), encoding="utf-8")
    main(["ingest", "--eml-dir", str(again), "--offline", "--home", str(home)])
    capsys.readouterr()
    log = _log(home)
    assert "merge of message 1 failed" in log and "IntegrityError" in log  # still diagnosable
    assert "[parameters: <redacted>]" in log and "INSERT INTO inquiries" in log
    assert "forced message failure" in log
    _assert_clean(log)


def test_a_model_error_that_echoes_the_mail_logs_no_customer_text(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def echo(request: dict[str, Any]) -> Reply:
        said = [m for m in request.get("messages", []) if m.get("role") != "system"]
        prompt = " ".join(str(m.get("content")) for m in said)
        return Reply.error(400, f"This request was refused: {prompt!r}")

    folder = _mail(tmp_path)
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    with LLMServer(echo) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_MAX_RETRIES", "0")
        ask = ["ask", "--session", "s", "--inquiry", "1", "他的地址和电话是什么？"]
        assert main([*ask, "--home", str(home)]) == 1
        draft = ["draft", "1", "--instruction", "回复他，下周二上门量尺"]
        assert main([*draft, "--home", str(home)]) == 1
        prompts = " ".join(str(r.body) for r in srv.chat_requests)
    assert NAME in prompts and PHONE.replace(" ", "") in prompts.replace(" ", "")  # it was sent
    capsys.readouterr()
    log = _log(home)
    assert log.count("command failed") == 2 and "400" in log
    _assert_clean(log)


@pytest.mark.parametrize(
    "line",
    [
        f"could not parse {EMAIL}: bad header",
        f"call {PHONE} or +61 498 765 432 or 0498765432",
        f"site at {ADDRESS}, Marrickville",
        f"folder {NAME!r} moved",
        f"body “{BODY}” and 「{NAME}」",
    ],
)
def test_content_patterns_are_redacted_in_any_line(line: str) -> None:
    _assert_clean(redact_text(line))


def test_what_the_app_logs_on_purpose_stays_readable() -> None:
    line = (
        "OneDrive folder of inquiry 12 moved to 厂家已报价 (stage quoting) at 2026-11-30 10:00:00"
    )
    assert redact_text(line) == line
