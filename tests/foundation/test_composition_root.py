"""One composition root (#23): ``build_app`` / ``core.app`` make the clients and the services.

The LLM, Graph and Telegram clients, the store and ``Services``, the intake pipeline, drafting,
the Graph and IMAP runtimes and the sync scheduler are made in ``core/app`` only (a client's
own module may open its HTTP connection pool; ``core/services.py`` opens the store). Everything
else gets them handed down, so "one model client, one ``llm.concurrency`` limit" and "one Graph
client, 4 requests per mailbox" hold in the desktop, the CLI and the Telegram front end alike.

The scan is ``ast``-based (function-local imports and aliases through attributes count: a call
``x.GraphClient(...)`` is a call of ``GraphClient``). Two ratchets name what is not there yet:
``PENDING_FRONT_ENDS`` (front-end files still wiring things themselves) and ``PENDING_LEGACY``
(core functions kept for those front ends' old calls). Both may only shrink; an entry whose
file no longer constructs anything fails too, so it is removed when it is fixed.

Behaviour, too: one ``App``'s pipeline, drafting and assistant use the same model client (so
the same semaphore); its mailer and calendar use its Graph runtime's one client.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from core.app import App, build_app
from core.clock import FakeClock
from core.events import RecordingBus
from core.secrets import GRAPH_TOKEN

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("core", "desktop")

# What makes a client, or a service over one (a call of any of these names is a wiring site).
BUILDERS = frozenset(
    {
        "App",  # a second App over the same Services is a second root (front ends: build_app)
        "Assistant",
        "AssistantService",
        "GraphClient",
        "GraphRuntime",
        "LLMClient",
        "LazyDrafts",
        "LazyLLM",
        "MailboxRuntime",
        "Store",
        "SyncScheduler",
        "TelegramClient",
        "WhisperProcess",  # the App's one Whisper child (#28): a second would load a second model
        "build_drafting",
        "build_mailer",  # a Graph client of its own unless handed the runtime's (``graph=``)
        "build_pipeline",
        "build_services",
        # core.app.standalone's: a client of the caller's own, for work without an App
        "own_graph_client",
        "own_graph_mailer",
        "own_mailer",
        "own_pipeline",
    }
)
HTTPX_CLIENTS = frozenset({"AsyncClient", "Client"})  # as ``httpx.AsyncClient(...)``

ROOT_PACKAGE = "core/app/"  # the composition root: anything goes here
OWN_MODULES: dict[str, frozenset[str]] = {
    # who else may make what: the store is opened by ``build_services`` ...
    "core/services.py": frozenset({"Store"}),
    # ... and a client's own module opens its HTTP pool (the Graph mailer's large-attachment
    # upload PUTs to a pre-authenticated URL outside the Graph API, with its own short client)
    "core/graph/client.py": frozenset({"httpx.AsyncClient"}),
    "core/graph/mailer.py": frozenset({"httpx.AsyncClient"}),
    "core/notify/telegram_client.py": frozenset({"httpx.AsyncClient"}),
}

# Front-end files that still construct clients or services themselves (computed from the tree
# when #23's composition root landed). It may only shrink: a front end gets these from ``App``
# (``build_app``, ``App.llm``, ``App.pipeline``, ``App.scheduler``, ``App.drafts``, ``App.mailer``,
# ``App.assistant``, ``App.llm.probe``, ``App.telegram_client``, ``App.rhythm.appointments``,
# ``App.load_demo``); never add an entry.
PENDING_FRONT_ENDS: frozenset[str] = frozenset()  # every front end now asks App

# Core functions (``path::function``) that still made a client for callers that did not hand
# one down. It may only shrink, and it is empty: callers without an ``App`` (repair, a one-shot
# command's calendar, tests over bare services) ask ``core.app.standalone``, inside the root.
PENDING_LEGACY: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Site:
    path: str  # relative to the repository, with /
    line: int
    function: str  # the enclosing def's qualified name, "<module>" at the top level
    name: str  # what is made: "GraphClient", "httpx.AsyncClient", ...

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.function} calls {self.name}("


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name) and func.id in BUILDERS:
        return func.id
    if isinstance(func, ast.Attribute):
        if func.attr in BUILDERS:
            return func.attr
        if (
            func.attr in HTTPX_CLIENTS
            and isinstance(func.value, ast.Name)
            and func.value.id == "httpx"
        ):
            return f"httpx.{func.attr}"
    return None


def sites_in(path: Path, relative: str) -> list[Site]:
    """Every call in ``path`` that makes a client or a service, with its enclosing function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[Site] = []

    def visit(node: ast.AST, scope: tuple[str, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = (*scope, child.name)
            if isinstance(child, ast.Call):
                name = _called(child)
                if name is not None:
                    function = ".".join(scope) or "<module>"
                    found.append(Site(relative, child.lineno, function, name))
            visit(child, inner)

    visit(tree, ())
    return found


def all_sites(root: Path = ROOT) -> list[Site]:
    found: list[Site] = []
    for top in SCANNED:
        for path in sorted((root / top).rglob("*.py")):
            found += sites_in(path, path.relative_to(root).as_posix())
    return found


def allowed(site: Site) -> bool:
    if site.path.startswith(ROOT_PACKAGE):
        return True
    return site.name in OWN_MODULES.get(site.path, frozenset())


def wiring_sites(sites: list[Site]) -> set[tuple[str, str]]:
    """The functions outside the root that construct clients or services (what #23 counts)."""
    return {(s.path, s.function) for s in sites if not allowed(s)}


def _pending(site: Site) -> bool:
    return site.path in PENDING_FRONT_ENDS or f"{site.path}::{site.function}" in PENDING_LEGACY


def test_nothing_outside_the_composition_root_makes_clients_or_services() -> None:
    offenders = [str(s) for s in all_sites() if not allowed(s) and not _pending(s)]
    assert offenders == [], (
        "make these in core/app (build_app / App) and hand them down:\n" + "\n".join(offenders)
    )


def test_the_pending_lists_only_name_what_still_needs_them() -> None:
    outside = [s for s in all_sites() if not allowed(s)]
    files = {s.path for s in outside}
    functions = {f"{s.path}::{s.function}" for s in outside}
    assert sorted(PENDING_FRONT_ENDS - files) == []  # fixed: remove it from PENDING_FRONT_ENDS
    assert sorted(PENDING_LEGACY - functions) == []  # fixed: remove it from PENDING_LEGACY
    assert all(
        p.startswith(("core/cli/", "core/telegram/", "desktop/")) for p in PENDING_FRONT_ENDS
    )


def test_the_scan_sees_planted_constructions(tmp_path: Path) -> None:
    planted = tmp_path / "core" / "inquiry" / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text(
        "import httpx\n"
        "from core.llm import client as c\n"
        "def late():\n"
        "    from core.graph.client import GraphClient\n"
        "    return GraphClient('u', None)\n"
        "class Holder:\n"
        "    async def open(self):\n"
        "        self.http = httpx.AsyncClient()\n"
        "        self.llm = c.LLMClient(1, 2, 3, 4)\n"
        "PIPELINE = build_pipeline(None)\n"
        "def fine():\n"
        "    return httpx.Timeout(3.0), SessionStore(None)\n"
    )
    (tmp_path / "desktop").mkdir()
    (tmp_path / "core" / "app").mkdir()
    (tmp_path / "core" / "app" / "root.py").write_text("from x import LLMClient\nLLMClient()\n")
    sites = all_sites(tmp_path)
    assert [str(s) for s in sites if not allowed(s)] == [
        "core/inquiry/planted.py:5 late calls GraphClient(",
        "core/inquiry/planted.py:8 Holder.open calls httpx.AsyncClient(",
        "core/inquiry/planted.py:9 Holder.open calls LLMClient(",
        "core/inquiry/planted.py:10 <module> calls build_pipeline(",
    ]
    assert [str(s) for s in sites if allowed(s)] == ["core/app/root.py:2 <module> calls LLMClient("]
    assert wiring_sites(sites) == {
        ("core/inquiry/planted.py", "late"),
        ("core/inquiry/planted.py", "Holder.open"),
        ("core/inquiry/planted.py", "<module>"),
    }


# -- behaviour: one App, one model client, one Graph client ------------------------------------


@pytest.fixture
def app(home: Path, clock: FakeClock):  # type: ignore[no-untyped-def]
    built = build_app(home, clock=clock, bus=RecordingBus())
    # a model endpoint and a preset Graph token, both on 127.0.0.1 (nothing is requested here)
    built.settings.update(
        {"llm.base_url": "http://127.0.0.1:9/v1", "graph.base_url": "http://127.0.0.1:9/v1.0"}
    )
    built.secrets.set(GRAPH_TOKEN, "preset-token")
    yield built
    built.close()


async def test_the_pipeline_drafting_and_the_assistant_share_one_model_client(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = app.llm.client()
    pipeline = app.pipeline()
    assert pipeline.llm is client and not pipeline.offline
    assert app.graph().pipeline.llm is client  # the one Graph sync feeds uses it too
    composer_llm = app.drafts.composer._llm
    assert composer_llm is app.llm  # the lazy handle of the same client
    assistant = app.assistant.conversation("today", channel="cli", persist=False).assistant
    assert assistant.llm is client
    # one client, so one ``llm.concurrency`` semaphore for intake, drafting and the assistant
    assert pipeline.llm._limit() is composer_llm.client()._limit() is assistant.llm._limit()
    assert app.pipeline(offline=True).llm is None  # rules only: no client at all
    closed: list[str] = []

    async def record_close() -> None:
        closed.append("llm")

    monkeypatch.setattr(client, "aclose", record_close)
    await pipeline.aclose()  # a shared client is not the pipeline's (or the runtime's) to close
    await app.graph().aclose()
    assert closed == []
    await app.aclose()  # its owner closes it, once
    assert closed == ["llm"]


async def test_the_cli_ingest_runs_over_the_apps_one_model_client(app: App) -> None:
    """Before, ``ingest`` built a pipeline with a model client of its own: a second
    ``llm.concurrency`` limit beside the one drafting and the assistant share."""
    pipeline = app.intake._pipeline()
    assert pipeline.llm is app.llm.client()
    assert app.intake._pipeline(offline=True).llm is None
    await app.aclose()


async def test_the_mailer_scheduler_and_calendar_use_the_runtimes_one_graph_client(
    app: App,
) -> None:
    runtime = app.graph()
    mailer = app.drafts.decisions.sender.mailer
    assert mailer.kind == "graph" and mailer.has_drafts
    assert mailer._mailer() is runtime.mailer and runtime.mailer.client is runtime.client
    assert not hasattr(mailer, "client")  # Drafting.aclose cannot close the shared client
    calendar = app.rhythm.appointments().calendar()
    assert calendar.client is runtime.client
    scheduler = app.scheduler()
    assert scheduler.runtime is runtime
    assert scheduler.drafts.sender.mailer is runtime.mailer
    # the desktop closes its runtime when it stops polling; drafting then follows the next one
    closed = app.take_graph()
    assert closed is runtime
    await closed.aclose()
    fresh = app.graph()
    assert fresh is not runtime and mailer._mailer() is fresh.mailer
    await app.aclose()


async def test_the_assistants_onedrive_tools_use_the_runtimes_one_graph_client(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, every OneDrive tool call (and a confirmed folder proposal) opened and closed a
    Graph client of its own, beside the runtime's: two request limits for one mailbox."""

    from core.app import standalone

    def no_own_client(_services: object) -> None:
        raise AssertionError("a Graph client of its own beside the runtime's")

    monkeypatch.setattr(standalone, "own_graph_client", no_own_client)
    runtime = app.graph()
    assistant = app.assistant.conversation("today", channel="cli", persist=False).assistant
    drive = assistant.context.drive
    lent = drive._client_factory(app._services)
    assert lent is runtime.client
    closed: list[str] = []

    async def record_close() -> None:
        closed.append("graph")

    monkeypatch.setattr(runtime.client, "aclose", record_close)
    await drive._release(lent)  # lent, not the tool's to close
    assert closed == []
    assert app.proposals._drive is not None
    assert app.proposals._drive()._client_factory(app._services) is runtime.client


async def test_the_telegram_front_end_sends_and_files_through_the_runtimes_one_client(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, approving from the phone built its own Graph mailer (a second client, a second
    request limit), and a 确认 on a folder proposal opened a OneDrive client per press."""
    from core.app import standalone

    def no_own_mailer(*_args: object, **_kw: object) -> None:
        raise AssertionError("a Graph mailer of its own beside the runtime's")

    monkeypatch.setattr(standalone, "own_graph_mailer", no_own_mailer)
    from core.secrets import TELEGRAM_TOKEN

    app.secrets.set(TELEGRAM_TOKEN, "123:abc")
    app.settings.set("telegram.base_url", "http://127.0.0.1:7")
    runtime = app.graph()
    mailer = app.telegram.decisions().sender.mailer
    assert mailer is not None and mailer._mailer() is runtime.mailer  # type: ignore[attr-defined]
    bot = app.telegram.bot(
        app.telegram.client(),
        drafts=app.telegram.decisions,
        transcriber_factory=None,
        pacer=app.telegram.pacer(),
        assistant=None,
        composer=None,
        show_draft=_no_draft,
    )
    assert bot._drive is not None
    assert bot._drive()._client_factory(app._services) is runtime.client
    closed: list[str] = []

    async def record_close() -> None:
        closed.append("graph")

    monkeypatch.setattr(runtime.client, "aclose", record_close)
    await app.telegram.aclose()  # the runtime's client is not the Telegram side's to close
    assert closed == []


async def _no_draft(_draft_id: int) -> None:
    return None


async def test_the_settings_test_and_the_bot_client_come_from_the_app(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    import core.llm.probe as probe_module

    seen: list[object] = []

    async def fake_probe(client: object) -> str:
        seen.append(client)
        return "report"

    monkeypatch.setattr(probe_module, "probe", fake_probe)
    report = await app.llm.probe({"llm.base_url": "http://127.0.0.1:8/v1"}, api_key="typed-key")
    (trial,) = seen
    assert report == "report" and trial is not app.llm.client()  # the folder's client untouched
    assert trial.settings.get("llm.base_url") == "http://127.0.0.1:8/v1"  # type: ignore[attr-defined]
    assert trial.settings.get("llm.tier1") == app.settings.get("llm.tier1")  # type: ignore[attr-defined]
    assert trial._current_api_key() == "typed-key"  # type: ignore[attr-defined]
    app.settings.set("telegram.base_url", "http://127.0.0.1:7")
    bot = app.new_telegram_client("123:abc", timeout=5)
    try:
        assert bot._timeout == 5 and "127.0.0.1:7" in str(bot.base_url)
    finally:
        await bot.aclose()
    await app.aclose()


def test_the_app_hands_out_no_services_container(app: App) -> None:
    """``App.services`` (store, settings, bus in one bag) is gone: a front end gets the
    settings, secrets, paths, bus and clock by name, and everything else from App's services."""
    assert not hasattr(app, "services")
    assert app.settings.get("graph.base_url") == "http://127.0.0.1:9/v1.0"
    assert app.home == app.paths.home
