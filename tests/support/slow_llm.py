"""A model on the owner's PC that writes slowly, for ``LLMServer``: a word at a time.

Why: a small model on a CPU writes a reply at a few tokens a second, so a draft takes minutes
(#45: one ran 213 s). Asked for a stream, ``SlowModel`` sends the answer of the responder it
wraps one piece at a time, ``chunk_delay`` seconds apart; asked for the whole answer, it sends
it after the time the stream would have taken (``pieces × chunk_delay``), as a real server does,
which finishes writing before it answers.

The tests scale the minutes down without changing their shape: the client's patience
(``llm.local_timeout_seconds``) is set a few times shorter than the whole answer and many
times longer than one piece, as 600 s is against a five-minute draft at a few words a second.
"""

from __future__ import annotations

import json
from typing import Any

from tests.support.llm_server import Reply, Responder, stream_pieces


class SlowModel:
    """Wraps a responder: its answers arrive a piece at a time (``calls`` counts requests)."""

    def __init__(self, responder: Responder, *, chunk_delay: float) -> None:
        self.responder = responder
        self.chunk_delay = chunk_delay
        self.streamed = 0  # requests answered as a stream
        self.whole = 0  # requests answered in one piece, after the whole writing time

    def writing_seconds(self, content: str) -> float:
        """How long this model takes to write ``content`` (its pieces, one delay each)."""
        return len(stream_pieces(content)) * self.chunk_delay

    def __call__(self, request: dict[str, Any]) -> Any:
        answer = self.responder(request)
        reply = answer if isinstance(answer, Reply) else Reply(content=answer)
        text = reply.content if isinstance(reply.content, str) else _json(reply.content)
        if request.get("stream"):
            self.streamed += 1
            reply.chunk_delay = self.chunk_delay
        else:
            self.whole += 1
            reply.delay = self.writing_seconds(text)
        return reply


def _json(content: dict[str, Any] | None) -> str:
    return json.dumps(content, ensure_ascii=False) if content is not None else ""
