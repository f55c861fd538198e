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


def test_every_handler_takes_the_app_and_only_repair_runs_without_one() -> None:
    """``run_command`` hands every handler the ``App`` (no ``Services`` variant left); the two
    that open their store themselves say ``needs_app=False``: ``repair`` (a damaged store cannot
    be opened) and ``store copy`` (its source is read-only, never migrated)."""
    import argparse
    import inspect

    from core.app import App
    from core.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    without_app, annotations = [], set()
    for name, command in sub.choices.items():
        handler = command.get_default("handler")
        if command.get_default("needs_app") is False:
            without_app.append(name)
            continue
        second = list(inspect.signature(handler, eval_str=True).parameters.values())[1]
        annotations.add(second.annotation)
        assert command.get_default("wants_app") is None, name  # the flag is gone
    assert without_app == ["repair", "store"]
    assert annotations == {App}


def test_a_handler_is_given_the_app_built_for_its_folder(tmp_path: Path) -> None:
    import argparse

    from core.app import App, build_app
    from core.cli.main import run_command

    seen: list[object] = []
    built: list[App] = []

    def factory(home: str | None) -> App:
        built.append(build_app(home))
        return built[-1]

    def handler(_args: argparse.Namespace, app: App) -> int:
        seen.append(app)
        return 3

    args = argparse.Namespace(home=str(tmp_path), handler=handler)
    assert run_command(args, factory) == 3
    assert seen == built and isinstance(seen[0], App)
