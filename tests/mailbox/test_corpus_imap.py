"""The labelled dev corpus through a real IMAP server: the 45 messages APPENDed to Dovecot are
ingested once each by ``sync --once``, with the same skips as ``ingest`` (and once each again
after a UIDVALIDITY change)."""

from __future__ import annotations

import email.utils
import json
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from core.services import build_services
from tests.support.dovecot import DovecotServer

pytestmark = pytest.mark.corpus


def _mail(capsys: pytest.CaptureFixture[str], home: Path) -> list[dict[str, Any]]:
    assert main(["mail", "--json", "--home", str(home)]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return rows


def test_corpus_over_imap_is_ingested_once_each(
    imap_env: DovecotServer, corpus_dir: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    labels = json.loads((corpus_dir / "labels.json").read_text(encoding="utf-8"))
    for label in labels:
        raw = (corpus_dir / label["file"]).read_bytes()
        date = email.message_from_bytes(raw)["Date"]
        imap_env.append(raw, when=email.utils.parsedate_to_datetime(date).timestamp())
    home = tmp_path / "home"
    services = build_services(home)
    services.settings.set("graph.first_sync_days", 3650)  # the corpus spans months
    services.close()

    assert main(["sync", "--once", "--offline", "--home", str(home)]) == 0
    assert "new=45" in capsys.readouterr().out
    rows = {r["message_id"]: r for r in _mail(capsys, home)}
    assert len(rows) == 45
    for label in labels:
        row = rows[label["message_id"]]
        skipped = row["disposition"].startswith("skipped:")
        assert skipped == (label["disposition"] == "skip"), label["file"]

    imap_env.reset_uidvalidity()
    assert main(["sync", "--once", "--offline", "--home", str(home)]) == 0
    assert "new=0" in capsys.readouterr().out
    assert len(_mail(capsys, home)) == 45
