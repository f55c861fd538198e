"""Prompts are files (``core/llm/prompts/<name>.md``), rendered with delimited, defused data.

Why files: the wording of a prompt is product behaviour that the owner's team edits and reviews
like copy, separately from code. A prompt file has an optional ``<!-- system -->`` section and a
``<!-- user -->`` section; ``{{name}}`` placeholders are filled from variables.

Customer text is data. Templates put it between tags such as ``<email> … </email>``; before a
value is inserted, any of those delimiter tags inside it are defused (``</email>`` becomes
``‹/email›``), so an email cannot close its own delimiter and pose as instructions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"

# Tags the templates use to fence untrusted text. Keep in sync with the prompt files.
DELIMITER_TAGS = (
    "email",
    "thread",
    "text",
    "attachment",
    "customer",
    "history",
    "data",
    "knowledge",
)

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_SECTION = re.compile(r"^<!--\s*(system|user)\s*-->\s*$", re.MULTILINE)
_TAG = re.compile(r"<(\s*/?\s*)(" + "|".join(DELIMITER_TAGS) + r")\b([^>]*)>", re.IGNORECASE)


class PromptError(KeyError):
    """A prompt file is missing or a placeholder has no value (a programming error)."""


@cache
def load_prompt(name: str) -> str:
    """The raw text of ``prompts/<name>.md``."""
    path = PROMPTS_DIR / f"{name.removesuffix('.md')}.md"
    if not path.is_file():
        raise PromptError(f"no prompt file {path.name}")
    return path.read_text(encoding="utf-8")


def defuse(value: str) -> str:
    """Make delimiter tags inside untrusted text inert (``<email>`` -> ``‹email›``)."""
    return _TAG.sub(lambda m: f"‹{m.group(1)}{m.group(2)}{m.group(3)}›", value)


def _fill(template: str, variables: Mapping[str, object]) -> str:
    def value(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in variables:
            raise PromptError(f"prompt placeholder {{{{{key}}}}} has no value")
        raw = variables[key]
        text = "" if raw is None else raw if isinstance(raw, str) else str(raw)
        return defuse(text)

    return _PLACEHOLDER.sub(value, template)


def sections(name: str) -> dict[str, str]:
    """``{"system": ..., "user": ...}`` of a prompt file (a file without markers is all user)."""
    text = load_prompt(name)
    parts = _SECTION.split(text)
    if len(parts) == 1:
        return {"user": text.strip()}
    found: dict[str, str] = {}
    # parts = [preamble, role1, body1, role2, body2, ...]
    for role, body in zip(parts[1::2], parts[2::2], strict=True):
        found[role] = body.strip()
    return found


def render(name: str, **variables: object) -> str:
    """The whole prompt as one text (system then user), placeholders filled and defused."""
    return "\n\n".join(_fill(body, variables) for body in sections(name).values())


def render_messages(name: str, variables: Mapping[str, object]) -> list[dict[str, str]]:
    """Chat messages for the prompt: a system message (if the file has one) and a user one."""
    return [
        {"role": role, "content": _fill(body, variables)} for role, body in sections(name).items()
    ]
