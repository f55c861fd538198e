"""The drafting CLI contracts of docs/contracts.md, run in-process against loopback LLM and Graph."""

from __future__ import annotations

import json

import pytest

from core.cli.main import main
from tests.drafts.support import CUSTOMER, add_inquiry


@pytest.fixture
def env(monkeypatch, llm_server, graph, services):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm_server.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", graph.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", graph.token)
    return services


def _run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_draft_approve_send_and_refusals(env, capsys, home, graph, model):
    gid = graph.add_message(subject="Door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(env, source_id=gid, subject="Door quote")
    model.plant = ["Installation takes 3 weeks."]
    code, out, err = _run(
        capsys, "draft", str(inquiry_id), "--instruction", "报价15000含GST", "--home", str(home)
    )
    assert code == 0, err
    assert "DRAFT_PENDING_APPROVAL — NOT SENT" in out and "未经确认：3 weeks" in out

    code, out, _ = _run(capsys, "drafts", "--json", "--home", str(home))
    rows = json.loads(out)
    assert code == 0 and len(rows) == 1
    row = rows[0]
    for key in (
        "id",
        "inquiry_id",
        "status",
        "to",
        "subject",
        "body_en",
        "body_zh",
        "unconfirmed_facts",
    ):
        assert key in row
    assert row["status"] == "pending_approval" and row["to"] == [CUSTOMER]
    assert row["unconfirmed_facts"] == ["3 weeks"] and row["inquiry_id"] == inquiry_id
    draft_id = str(row["id"])

    code, out, err = _run(capsys, "send", draft_id, "--home", str(home))
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "未发送" in err and "Traceback" not in err
    assert graph.sent_log == [] and graph.requests_to(r"/me/messages") == []

    code, _, err = _run(capsys, "approve", draft_id, "--home", str(home))
    assert code == 1 and "3 weeks" in err and len(err.strip().splitlines()) == 1
    code, out, _ = _run(capsys, "approve", draft_id, "--accept-unconfirmed", "--home", str(home))
    assert code == 0 and "已批准" in out

    code, out, err = _run(capsys, "send", draft_id, "--home", str(home))
    assert code == 0, err
    assert "已发送" in out and len(graph.sent_log) == 1
    code, _, err = _run(capsys, "send", draft_id, "--home", str(home))
    assert code == 1 and len(graph.sent_log) == 1

    rows = json.loads(_run(capsys, "drafts", "--json", "--home", str(home))[1])
    assert rows[0]["status"] == "sent"


def test_reject_and_bad_ids(env, capsys, home):
    inquiry_id, _ = add_inquiry(env)
    code, _, err = _run(capsys, "draft", "999", "--instruction", "报价", "--home", str(home))
    assert code == 1 and "999" in err and len(err.strip().splitlines()) == 1
    assert (
        _run(capsys, "draft", str(inquiry_id), "--instruction", "报价15000", "--home", str(home))[0]
        == 0
    )
    code, out, _ = _run(capsys, "reject", "1", "--home", str(home))
    assert code == 0 and "不会发送" in out
    code, _, err = _run(capsys, "approve", "1", "--home", str(home))
    assert code == 1 and "不能批准" in err
    code, _, err = _run(capsys, "send", "42", "--home", str(home))
    assert code == 1 and "不存在" in err


def test_batch_draft_command(env, capsys, home, tmp_path):
    csv = tmp_path / "contacts.csv"
    csv.write_text("name,email\nA,a@example.com\nB,bad\nA2,a@example.com\n", encoding="utf-8")
    code, out, _ = _run(
        capsys,
        "batch-draft",
        "--csv",
        str(csv),
        "--instruction",
        "问候",
        "--json",
        "--home",
        str(home),
    )
    data = json.loads(out)
    assert code == 1  # one row had an error
    assert [r["outcome"] for r in data["rows"]] == ["drafted", "error", "skipped"]


def test_draft_with_an_attachment_and_reject_cleans_outlook(env, capsys, home, graph):
    from tests.drafts.test_attachments import add_file

    gid = graph.add_message(subject="Door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, msg_pk = add_inquiry(env, source_id=gid, subject="Door quote")
    plan = add_file(env, msg_pk, "plan.pdf", b"%PDF plan")
    code, out, _ = _run(capsys, "draft-files", str(inquiry_id), "--home", str(home))
    assert code == 0 and f"{plan:>6}  plan.pdf  9 B" in out
    code, out, err = _run(
        capsys,
        "draft",
        str(inquiry_id),
        "--instruction",
        "报价15000含GST",
        "--attach",
        str(plan),
        "--home",
        str(home),
    )
    assert code == 0, err
    assert "附件：plan.pdf" in out
    [row] = json.loads(_run(capsys, "drafts", "--json", "--home", str(home))[1])
    assert [a["filename"] for a in row["attachments"]] == ["plan.pdf"]
    code, out, err = _run(capsys, "approve", str(row["id"]), "--home", str(home))
    assert code == 0, err
    code, out, err = _run(capsys, "send", str(row["id"]), "--home", str(home))
    assert code == 0, err
    assert [n for n, _, _ in graph.sent_log[0]["attachments"]] == ["plan.pdf"]

    code, _, err = _run(
        capsys,
        "draft",
        str(inquiry_id),
        "--instruction",
        "x",
        "--attach",
        "999",
        "--home",
        str(home),
    )
    assert code != 0 and "999" in err

    # a second reply whose send attempt left a copy in Outlook's Drafts; rejecting removes it
    code, out, err = _run(
        capsys, "draft", str(inquiry_id), "--instruction", "报价16000", "--home", str(home)
    )
    second = max(
        r["id"] for r in json.loads(_run(capsys, "drafts", "--json", "--home", str(home))[1])
    )
    assert _run(capsys, "approve", str(second), "--home", str(home))[0] == 0
    graph.fail(path=r"/send$", status=503, times=20)
    assert _run(capsys, "send", str(second), "--home", str(home))[0] == 1
    graph.faults.clear()
    assert len(graph.folder_messages("drafts")) == 1
    code, out, err = _run(capsys, "reject", str(second), "--home", str(home))
    assert code == 0 and "已放弃" in out, err
    assert graph.folder_messages("drafts") == [] and len(graph.sent_log) == 1


def test_draft_files_add_attaches_a_file_from_this_computer(env, capsys, home, graph, tmp_path):
    gid = graph.add_message(subject="Door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(env, source_id=gid, subject="Door quote")
    assert (
        _run(capsys, "draft", str(inquiry_id), "--instruction", "报价15000", "--home", str(home))[0]
        == 0
    )
    quote = tmp_path / "Quote 2412.pdf"
    quote.write_bytes(b"%PDF quote")
    argv = ["draft-files", "--draft", "1", "--add", str(quote), "--home", str(home)]

    code, out, err = _run(capsys, *argv)
    assert code == 0, err
    assert "已添加" in out and "Quote 2412.pdf  10 B" in out and "附件：Quote 2412.pdf" in out
    code, out, _ = _run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "pending_approval"
    assert [(a["filename"], a["added_by"]) for a in data["attachments"]] == [
        ("Quote 2412.pdf", "owner")
    ]
    # listed among the inquiry's files, for `draft --attach ID`
    code, out, _ = _run(capsys, "draft-files", str(inquiry_id), "--home", str(home))
    assert code == 0 and "Quote 2412.pdf  10 B" in out

    code, out, err = _run(
        capsys,
        "draft-files",
        "--draft",
        "1",
        "--add",
        str(tmp_path / "nope.pdf"),
        "--home",
        str(home),
    )
    assert code == 1 and out == "" and "找不到文件" in err and len(err.strip().splitlines()) == 1
    code, _, err = _run(capsys, "draft-files", "--add", str(quote), "--home", str(home))
    assert code == 2 and "--draft" in err
