"""No front end assembles background work itself: ``core.runtime.Supervisor`` owns all of it.

The desktop (``desktop/``) and the command line (``core/cli/``) host a ``Supervisor``; none of
them builds a poller, a mail runtime, the Telegram runner or the daily rhythm, or closes a
runtime itself (the reason forwarding proxies and "IMAP or Graph?" in four places existed).
The scan is ``ast``-based: a call of any name below, as a function or as an attribute
(``app.scheduler(...)``), is assembling. One-shot commands (``sync --once``,
``telegram --once``) run one round by hand and are named with what they call; the list may
only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRONT_ENDS = (ROOT / "desktop", ROOT / "core" / "cli")

ASSEMBLING = frozenset(
    {
        "SyncScheduler",
        "scheduler",  # App.scheduler: the pollers
        "run_forever",  # a poller, the rhythm or the Telegram runner, looping
        "daily",  # App.rhythm.daily: reminders, briefing, weekly report, backups
        "watch_mailbox",
        "wake_on_new_mail",
        "graph",  # App.graph / App.mailbox: a mail runtime of its own
        "mailbox",
        "take_graph",  # closing a runtime: the supervisor's job
        "take_mailbox",
        "close_graph",
        "TelegramRunner",
        "serve",  # core.telegram.runner.serve
        "mail_round",
        "drive_round",
        "send_due",
    }
)

ONE_SHOT: dict[str, frozenset[str]] = {
    # sync --once: one mail round and one OneDrive round, printed, then exit
    "core/cli/graph.py": frozenset({"mail_round", "drive_round"}),
    # send-due: the approved drafts due now, once
    "core/cli/drafts.py": frozenset({"send_due"}),
    # telegram --once: deliver the outbox and one round of updates, then exit
    "core/cli/telegram.py": frozenset({"TelegramRunner"}),
}


def _called(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                names.add(func.attr)
            elif isinstance(func, ast.Name):
                names.add(func.id)
    return names


def test_no_front_end_assembles_background_work() -> None:
    found = {}
    for folder in FRONT_ENDS:
        for path in sorted(folder.rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            extra = (_called(path) & ASSEMBLING) - ONE_SHOT.get(name, frozenset())
            if extra:
                found[name] = sorted(extra)
    assert found == {}


def test_the_one_shot_list_only_names_what_is_there() -> None:
    stale = {
        name: sorted(allowed - _called(ROOT / name))
        for name, allowed in ONE_SHOT.items()
        if allowed - _called(ROOT / name)
    }
    assert stale == {}


def test_the_scan_sees_a_front_end_building_a_poller(tmp_path: Path) -> None:
    bad = tmp_path / "x.py"
    bad.write_text("async def f(app, stop):\n    await app.scheduler().run_forever(stop)\n")
    assert _called(bad) & ASSEMBLING == {"scheduler", "run_forever"}
