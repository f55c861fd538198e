"""``stats --json``: the ledger's calls, tokens and costs exactly, and his corrections made
through the facade in that week's accuracy."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import select

from core.app import build_app
from core.cli.main import main
from core.db.models import LLMCall
from core.services import build_services
from tests.drafts.support import add_inquiry

NOW = "2026-12-03T10:00:00+11:00"  # a Thursday; the week is Mon 30 Nov – Sun 6 Dec


@pytest.fixture
def env(monkeypatch, llm_server, home, tmp_path):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm_server.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_TIER2", "gpt-4o-mini")  # priced, so costs are not 0
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", NOW)
    return home


def _json(capsys, *argv: str):  # type: ignore[no-untyped-def]
    capsys.readouterr()
    assert main([*argv]) == 0
    return json.loads(capsys.readouterr().out)


def _ledger(home: Path) -> list[LLMCall]:
    services = build_services(home)
    try:
        with services.store.session() as session:
            rows = list(session.scalars(select(LLMCall)))
            session.expunge_all()
            return rows
    finally:
        services.close()


def test_stats_reports_the_ledger_exactly_and_his_corrections(env, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    home = env
    services = build_services(home)
    try:
        first, _ = add_inquiry(services)
        second, _ = add_inquiry(services, email="bob@example.com", name="Bob Steward")
    finally:
        services.close()
    for inquiry in (first, second):
        out = capsys.readouterr()
        assert (
            main(["draft", str(inquiry), "--instruction", "报价15000含GST", "--home", str(home)])
            == 0
        ), out
    rows = _ledger(home)
    assert rows and sum(r.cost_usd for r in rows) > 0

    week = _json(capsys, "stats", "--week", "--json", "--home", str(home))
    total = week["costs"]["total"]
    assert total["calls"] == len(rows)
    assert total["prompt_tokens"] == sum(r.prompt_tokens for r in rows)
    assert total["completion_tokens"] == sum(r.completion_tokens for r in rows)
    assert total["cost_usd"] == pytest.approx(sum(r.cost_usd for r in rows), abs=1e-6)
    by_purpose = {p["purpose"]: p["calls"] for p in week["costs"]["by_purpose"]}
    assert sum(by_purpose.values()) == len(rows)
    assert by_purpose == {
        purpose: sum(1 for r in rows if r.purpose == purpose) for purpose in by_purpose
    }
    today = next(p for p in week["costs"]["by_period"] if p["period"] == "2026-12-03")
    assert today["calls"] == len(rows)
    assert week["costs"]["inquiries"] == 2
    assert "gpt-4o-mini" in week["costs"]["prices_usd_per_million_tokens"]

    # he corrects a class and a field, rewrites one draft and approves both
    app = build_app(home)
    try:

        async def correct() -> None:
            await app.inquiries.update_fields(first, {"classification": "A"})
            await app.inquiries.update_fields(second, {"suburb": "Epping"})
            views = await app.drafts.reader.list()
            one, two = sorted(views, key=lambda v: v.id)
            await app.drafts.edits.update_body(
                one.id,
                one.body_en.replace("Kind regards", "Best wishes") + "\nSee you soon.",
                actor="owner",
            )
            await app.drafts.edits.rerender_zh(one.id)  # he reads the Chinese of his English
            for view in (one, two):
                await app.drafts.decisions.approve(view.id, actor="owner", accept_unconfirmed=True)

            await app.aclose()

        asyncio.run(correct())
    finally:
        app.close()
    week = _json(capsys, "stats", "--json", "--home", str(home))
    [this] = [w for w in week["accuracy"] if w["period"] == "2026-W49"]
    assert this["classes_changed"] == 1 and this["fields_edited"] == 1
    assert this["drafts_approved"] == 2 and this["drafts_rewritten"] == 1
    assert 0 < this["edit_chars"] < this["model_chars"]
    assert 0 < this["draft_edit_ratio"] < 1
