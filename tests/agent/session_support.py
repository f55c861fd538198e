"""A loopback model for session tests and the session benchmark: it answers the owner, and as
the cheap tier it keeps conversation notes and proposes memories the way the prompts ask.

The notes keep every line where the owner stated a fact (``记住``, a number, a name) and drop
chatter first, as ``session_digest.md`` asks of a real model; facts are the owner's lines that
start with ``记住``.
"""

from __future__ import annotations

import re
from typing import Any

from core.agent.session_budget import prompt_chars
from tests.support.llm_server import last_user_text, schema_name

_DATA = re.compile(r"<data>\n?(.*?)\n?</data>", re.DOTALL)
_HISTORY = re.compile(r"<history>\n?(.*?)\n?</history>", re.DOTALL)
_OWNER = re.compile(r"^\[turn (\d+)\] Owner: (.*)$", re.MULTILINE)


def _between(pattern: re.Pattern[str], text: str) -> str:
    found = pattern.search(text)
    return found.group(1).strip() if found else ""


def user_prompt(request: dict[str, Any]) -> str:
    return "\n".join(
        str(m.get("content") or "") for m in request["messages"] if m.get("role") == "user"
    )


class SessionModel:
    """Tier 3 answers each question with a short paragraph; tier 1 keeps notes and memories."""

    def __init__(self, *, answer_chars: int = 300, review: list[dict[str, str]] | None = None):
        self.answer_chars = answer_chars
        self.review = review or []
        self.folds = 0

    def __call__(self, request: dict[str, Any]) -> Any:
        name = schema_name(request)
        if name == "sessiondigest":
            return self.digest(request)
        if name == "sessionmemories":
            return {"memories": self.review}
        question = last_user_text(request).splitlines()[-1]
        return ("好的，关于「" + question[:40] + "」：" + "详细说明。" * 200)[: self.answer_chars]

    def digest(self, request: dict[str, Any]) -> dict[str, Any]:
        self.folds += 1
        text = user_prompt(request)
        old = [line for line in _between(_DATA, text).splitlines() if line != "(none yet)"]
        owner = [(int(n), line) for n, line in _OWNER.findall(_between(_HISTORY, text))]
        facts = [line for _n, line in owner if line.startswith("记住")]
        keep = old + [f"turn {n}: {line[:80]}" for n, line in owner]
        found = re.search(r"At most\s+(\d+)", request["messages"][0]["content"])
        assert found is not None
        limit = int(found.group(1))
        while len("\n".join(keep)) > limit:  # chatter goes first, stated facts stay
            chatter = [i for i, line in enumerate(keep) if "记住" not in line]
            keep.pop(chatter[0] if chatter else 0)
        return {
            "summary": "\n".join(keep),
            "facts": [{"kind": "business_rule", "text": f.removeprefix("记住：")} for f in facts],
        }


def assistant_requests(server: Any) -> list[dict[str, Any]]:
    return [r.body for r in server.chat_requests if r.body.get("tools")]


def request_chars(body: dict[str, Any]) -> int:
    """The budget's measure of a request as the server received it."""
    return prompt_chars(body["messages"])
