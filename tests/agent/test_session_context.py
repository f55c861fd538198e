"""A server whose context window is smaller than the session's budget (#45).

A llama.cpp server at 4,096 tokens overflowed on the third question (HTTP 400) and every later
question that day read "这个模型不支持本软件需要的功能，请换一个模型" -- the wrong reason, and no
recovery. Here a loopback server refuses any prompt over its window, the way vLLM and OpenAI say
it ("maximum context length is N tokens. However, your messages resulted in M tokens"): the
session folds to what fits and every question is answered; a window too small for one question
is told in its own words.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.app import App
from core.errors import LLMContextTooLong
from core.llm.diagnosis import from_status
from tests.agent.session_support import SessionModel, assistant_requests, request_chars
from tests.support.llm_server import LLMServer, Reply

WINDOW_CHARS = 9_000  # the server's window, in the budget's measure (characters)


def windowed(model: SessionModel, window: int) -> Any:
    def respond(request: dict[str, Any]) -> Any:
        size = request_chars(request)
        if request.get("tools") and size > window:
            return Reply.error(
                400,
                f"This model's maximum context length is {window // 4} tokens. However, your "
                f"messages resulted in {size // 4} tokens.",
            )
        return model(request)

    return respond


async def _ask_many(services: Any, window: int, questions: int) -> tuple[LLMServer, list[str]]:
    answers: list[str] = []
    with LLMServer(windowed(SessionModel(answer_chars=900), window)) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("small-window", channel="desktop")
        try:
            for n in range(1, questions + 1):
                reply = await conversation.ask(f"第{n}个问题：" + "推拉门和折叠门哪个好？" * 10)
                answers.append(reply.text)
        finally:
            await app.aclose()
    return srv, answers


async def test_ten_questions_in_a_row_fit_a_small_window(services: Any) -> None:
    srv, answers = await _ask_many(services, WINDOW_CHARS, 10)
    assert len(answers) == 10 and all(answers)
    assert not any("不支持" in a for a in answers)
    sent = [request_chars(body) for body in assistant_requests(srv)]
    assert max(sent) > WINDOW_CHARS  # the window was met at least once...
    assert sent[-1] <= WINDOW_CHARS  # ...and from then on the session fits it


async def test_a_window_smaller_than_one_question_is_told_in_its_own_words(
    services: Any,
) -> None:
    with pytest.raises(LLMContextTooLong) as raised:
        await _ask_many(services, 500, 1)
    message = raised.value.user_message("zh_CN")
    assert "上下文" in message and "不支持" not in message


@pytest.mark.parametrize(
    ("message", "limit", "asked"),
    [
        ("This model's maximum context length is 4096 tokens. However, your messages "
         "resulted in 5012 tokens.", 4096, 5012),
        ('the request exceeds the available context size, try increasing it '
         '{"n_prompt_tokens": 5012, "n_ctx": 4096}', 4096, 5012),
        ("Requested tokens (5012) exceed context window of 4096", 4096, 5012),
        ("prompt is too long", 0, 0),
    ],
)  # fmt: skip
def test_servers_say_context_overflow_in_many_ways(message: str, limit: int, asked: int) -> None:
    error = from_status(400, message)
    assert isinstance(error, LLMContextTooLong)
    assert (error.params["limit"], error.params["asked"]) == (limit, asked)
