"""Batch drafting from a CSV: duplicates, malformed rows, recent contacts, one call per contact."""

from __future__ import annotations

import pytest

from core.drafts.batch import BatchDrafter, BatchError, parse_contacts
from tests.drafts.support import add_sent

CSV = """name,email,company
Alice Brown,alice@example.com,Brown Builders
Bob Stone,BOB@example.com,Stone Homes
Alice again,alice@example.com,Brown Builders
No Email,,Nobody Pty Ltd
Broken,not-an-email,Broken Co
Carol King,carol@example.com,King Reno,extra,columns
Dave Recent,dave@example.com,Recent Co

Erin West,<erin@example.com>,West Living
"""


def test_parse_reports_each_bad_row() -> None:
    contacts, errors = parse_contacts(CSV)
    assert [c.email for c in contacts] == [
        "alice@example.com",
        "bob@example.com",
        "alice@example.com",
        "dave@example.com",
        "erin@example.com",
    ]
    assert [(e.row, e.email) for e in errors] == [(5, ""), (6, "not-an-email"), (7, "")]
    assert (
        "没有邮箱" in errors[0].reason and "无效" in errors[1].reason and "列数" in errors[2].reason
    )
    with pytest.raises(BatchError):
        parse_contacts("name,phone\nA,0412 345 678\n")


async def test_batch_drafts_each_new_contact_once(services, drafting, model, llm_server):
    add_sent(services, to="dave@example.com", subject="Spring promotion", days_ago=5)
    model.extra_email = "sales-team@invented.example"  # the model's address must never be used
    report = await BatchDrafter(drafting.composer, drafting.reader).run(
        CSV, "介绍我们的春季促销，报价九折", actor="owner"
    )
    outcomes = {(r.row, r.email): (r.outcome, r.reason) for r in report.rows}
    assert outcomes[(2, "alice@example.com")][0] == "drafted"
    assert outcomes[(3, "bob@example.com")][0] == "drafted"
    assert outcomes[(4, "alice@example.com")] == ("skipped", "与第 2 行重复")
    assert outcomes[(8, "dave@example.com")][0] == "skipped"
    assert "Spring promotion" in outcomes[(8, "dave@example.com")][1]
    assert outcomes[(10, "erin@example.com")][0] == "drafted"
    assert len(report.errors) == 3 and len(report.rows) == 8  # every non-blank row has one outcome
    assert report.summary_zh() == "已起草 3 封（待审批），跳过 2 行，出错 3 行"
    # per drafted contact: one tier-2 call to write it, one English-only call to translate it
    assert len(llm_server.chat_requests) == 6
    drafts = await drafting.reader.list()
    assert sorted(d.to[0] for d in drafts) == [
        "alice@example.com",
        "bob@example.com",
        "erin@example.com",
    ]
    assert all(d.status == "pending_approval" and d.batch_id == report.batch_id for d in drafts)
    assert all("sales-team@invented.example" in d.unconfirmed_facts for d in drafts)
    # the contact's own data backs the guard (company name came from the CSV row)
    users = [
        r.body["messages"][-1]["content"]
        for r in llm_server.chat_requests
        if "<customer>" in r.body["messages"][-1]["content"]
    ]
    [alice] = [u for u in users if "alice@example.com" in u.split("<customer>")[1]]
    assert "Brown Builders" in alice.split("<customer>")[1]


async def test_batch_llm_failure_costs_only_that_row(services, drafting, model):
    model.broken_for = {"x1@example.com"}  # this contact's answer and its repair both break
    csv = "email,name\nx1@example.com,X1\nx2@example.com,X2\n"
    report = await BatchDrafter(drafting.composer, drafting.reader).run(
        csv, "问候一下", actor="owner"
    )
    assert [r.outcome for r in report.rows] == ["error", "drafted"]
    assert "AI" in report.rows[0].reason
    assert [d.to for d in await drafting.reader.list()] == [["x2@example.com"]]


async def test_batch_calls_run_concurrently_within_the_llm_bound(services, drafting, llm_server):
    services.settings.update({"llm.concurrency": 3})
    llm_server.latency = 0.2
    rows = [f"c{i}@example.com,Contact {i}" for i in range(9)]
    csv = "email,name\n" + "\n".join(rows[:4]) + "\nbroken-row\n" + "\n".join(rows[4:]) + "\n"
    report = await BatchDrafter(drafting.composer, drafting.reader).run(
        csv, "问候一下", actor="owner"
    )
    assert 2 <= llm_server.max_in_flight <= 3  # concurrent, never over llm.concurrency
    assert [r.row for r in report.rows] == list(range(2, 12))  # CSV order, whatever finished first
    assert [r.email for r in report.drafted] == [f"c{i}@example.com" for i in range(9)]
    assert [r.outcome for r in report.rows].count("error") == 1
    by_row = {r.draft_id: r.email for r in report.drafted}
    assert all([(await drafting.reader.get(i)).to == [email] for i, email in by_row.items()])
