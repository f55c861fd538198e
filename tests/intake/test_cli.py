"""``ingest``, ``inquiries --json`` and ``mail --json`` as a user runs them (in-process main)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from tests.intake.test_pipeline_support import make_email, message_id_of

INQUIRY_FIELDS = {
    "id",
    "classification",
    "confidence",
    "stage",
    "customer_name",
    "customer_email",
    "customer_phone",
    "address",
    "suburb",
    "product_types",
    "dimensions",
    "language",
    "message_ids",
    "created_at",
    "updated_at",
}
MAIL_FIELDS = {
    "message_id",
    "received_at",
    "from",
    "subject",
    "body_text",
    "disposition",
    "inquiry_id",
}


@pytest.fixture
def eml_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "mail"
    folder.mkdir()
    first = make_email(
        subject="Security door quote - Strathfield",
        body="Hi, I need a hinged security door 820 x 2040 mm for 5 Elm St, Strathfield.\n"
        "My mobile is 0447 390 126.\nDaniela Ferreira",
        sender="Daniela Ferreira <daniferreira@icloud.com>",
    )
    (folder / "001.eml").write_bytes(first)
    (folder / "002.eml").write_bytes(
        make_email(
            subject="Automatic reply: Security door quote",
            body="I am away.",
            sender="Someone <someone@example.com>",
            headers={"Auto-Submitted": "auto-replied"},
            minutes=5,
        )
    )
    (folder / "003.eml").write_bytes(
        make_email(
            subject="Re: Security door quote - Strathfield",
            body="Black frame please.\n\nOn Tue, Aurora wrote:\n> Thanks Daniela",
            sender="Daniela Ferreira <daniferreira@icloud.com>",
            in_reply_to=message_id_of(first),
            references=[message_id_of(first)],
            minutes=60,
        )
    )
    (folder / "notes.txt").write_text("not mail")
    return folder


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    assert main(list(argv)) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return rows


def test_ingest_offline_then_json_views(home: Path, eml_dir: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["ingest", "--home", str(home), "--eml-dir", str(eml_dir), "--offline"]) == 0
    summary = capsys.readouterr().out
    assert "processed 3" in summary

    mail = _json(capsys, "mail", "--json", "--home", str(home))
    assert len(mail) == 3 and all(set(m) >= MAIL_FIELDS for m in mail)
    by_subject = {m["subject"]: m for m in mail}
    assert by_subject["Automatic reply: Security door quote"]["disposition"].startswith("skipped:")
    reply = by_subject["Re: Security door quote - Strathfield"]
    assert reply["disposition"] == "merged"
    assert reply["body_text"].strip() == "Black frame please."

    inquiries = _json(capsys, "inquiries", "--json", "--home", str(home))
    assert len(inquiries) == 1
    (inquiry,) = inquiries
    assert set(inquiry) >= INQUIRY_FIELDS
    assert inquiry["customer_email"] == "daniferreira@icloud.com"
    assert inquiry["customer_phone"] == "+61447390126"
    assert inquiry["confidence"] == "low"  # rules only
    assert inquiry["classification"] in {"A", "B"}
    assert inquiry["stage"] == "inquiry"
    assert len(inquiry["message_ids"]) == 2
    assert inquiry["created_at"].endswith("Z")

    # running the same folder again changes nothing
    assert main(["ingest", "--home", str(home), "--eml-dir", str(eml_dir), "--offline"]) == 0
    assert "already known 3" in capsys.readouterr().out
    assert _json(capsys, "mail", "--json", "--home", str(home)) == mail
    assert _json(capsys, "inquiries", "--json", "--home", str(home)) == inquiries


def test_no_endpoint_means_rules_only(home: Path, eml_dir: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["ingest", "--home", str(home), "--eml-dir", str(eml_dir)]) == 0
    capsys.readouterr()
    (inquiry,) = _json(capsys, "inquiries", "--json", "--home", str(home))
    assert inquiry["confidence"] == "low"


@pytest.mark.parametrize("kind", ["missing", "file", "empty"])
def test_bad_eml_dir_is_one_clear_line(home: Path, tmp_path: Path, kind: str, capsys) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "target"
    if kind == "file":
        target.write_text("x")
    elif kind == "empty":
        target.mkdir()
        (target / "readme.txt").write_text("x")
    code = main(["ingest", "--home", str(home), "--eml-dir", str(target)])
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1 and "Traceback" not in err
    expected = {"missing": "not found", "file": "not a folder", "empty": "no .eml"}[kind]
    assert expected in err and str(target) in err


def test_human_tables(home: Path, eml_dir: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    main(["ingest", "--home", str(home), "--eml-dir", str(eml_dir), "--offline"])
    capsys.readouterr()
    assert main(["mail", "--home", str(home)]) == 0
    assert "3 messages" in capsys.readouterr().out
    assert main(["inquiries", "--home", str(home)]) == 0
    assert "daniferreira@icloud.com" in capsys.readouterr().out
