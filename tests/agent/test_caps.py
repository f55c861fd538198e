"""An assistant turn is bounded in what flows through it (issue 29): the owner's question as
the model gets it, every tool result sent back, and the answer he reads, over the real loop and
a loopback model."""

from __future__ import annotations

from core.agent.caps import MAX_ANSWER_CHARS, MAX_QUESTION_CHARS, MAX_TOOL_RESULT_CHARS


async def test_question_tool_result_and_answer_are_capped(model) -> None:  # type: ignore[no-untyped-def]
    huge_name = "lookup_" + "x" * (MAX_TOOL_RESULT_CHARS * 2)  # its ERROR result echoes it
    model.steps = [
        [{"name": huge_name, "arguments": {}}],
        "客户很多，" * (MAX_ANSWER_CHARS // 2),
    ]
    question = "请列出所有客户。" + "很长的问题 " * MAX_QUESTION_CHARS
    reply = await model.assistant.ask(question)

    requests = [r.body for r in model.server.chat_requests if r.body.get("tools")]
    user = [m for m in requests[0]["messages"] if m["role"] == "user"][-1]["content"]
    assert len(user) < MAX_QUESTION_CHARS + 80 and "cut at" in user
    tool = [m for m in requests[1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert len(tool) < MAX_TOOL_RESULT_CHARS + 120 and "TRUNCATED" in tool
    assert len(reply.text) < MAX_ANSWER_CHARS + 40 and reply.text.endswith("字。）")
