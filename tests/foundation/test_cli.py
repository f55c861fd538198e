from __future__ import annotations

import json
from pathlib import Path

from core.cli.main import main


def test_home_is_honoured_before_and_after_the_command(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    before, after = tmp_path / "before", tmp_path / "after"
    assert main(["--home", str(before), "inquiries", "--json"]) == 0
    assert main(["inquiries", "--json", "--home", str(after)]) == 0
    assert json.loads(capsys.readouterr().out.split("\n")[0]) == []
    assert (before / "inquiry-bridge.sqlite3").exists()
    assert (after / "inquiry-bridge.sqlite3").exists()


def test_bad_arguments_exit_non_zero_with_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    import pytest

    with pytest.raises(SystemExit) as info:
        main(["ingest"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "eml-dir" in err[0]
