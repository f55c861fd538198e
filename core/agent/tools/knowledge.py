"""The owner's 知识库 through the assistant: read it, and propose an addition he confirms.

Why the assistant never writes the file itself: the knowledge base is evidence for the fact
guard (a lead time there is the owner's word), so a line in it must be his. When he tells the
assistant a fact of his trade ("我们推拉门标准交货期 4 周"), the model proposes it with
``propose_knowledge``; that stores an open proposal (``core.agent.proposals``, kind
``knowledge``) and the front end asks "要把「标准交货期 4 周」记进知识库吗？" with 确认 / 放弃.
Only his confirmation writes the line — the same one-click path as every other proposal, on the
desktop and on Telegram.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.agent import proposals
from core.agent.tools.args import obj, text_arg
from core.agent.tools.base import Tool, ToolContext, ToolError
from core.knowledge import SECTIONS, SharedText, excerpt, knowledge_for, outline
from core.knowledge.base import SECTION_NAMES
from core.knowledge.search import clean

if TYPE_CHECKING:
    from pathlib import Path

MAX_FACT_CHARS = 300  # one fact per proposal: he reads and confirms it in one glance
# the assistant's whole prompt has a budget (core.agent.session_budget): a file up to this size
# is in it whole, a larger one only by its headings (the model searches it)
PROMPT_CHARS = 2000
SEARCH_CHARS = 1500  # what one search answers with (a tool result of the turn has a reserve)


def knowledge_block(home: Path, shared: SharedText | None = None) -> str:
    """The knowledge part of the assistant's fixed prompt: the whole file while small; when
    large, its size and sections (the model reads a part with ``search_knowledge``). It depends
    on the file alone, so the prompt's start stays the same from turn to turn."""
    text = clean(knowledge_for(home, shared).text())
    if not text:
        return "(empty)"
    if len(text) <= PROMPT_CHARS:
        return text
    return (
        f"(too long to show: {len(text)} characters; read it with search_knowledge. "
        f"Sections: {outline(text)[:600] or '(none)'})"
    )


async def search_knowledge(ctx: ToolContext, args: dict[str, Any]) -> str:
    """The parts of the owner's knowledge base that match ``query`` (all of it while small)."""
    query = text_arg(args, "query")
    text = knowledge_for(ctx.services.home, ctx.services.paths.shared).text()
    got = excerpt(text, query, whole_chars=PROMPT_CHARS, budget=SEARCH_CHARS)
    if not got.text:
        if not text.strip():
            return "KNOWLEDGE_EMPTY — the owner has not written his knowledge base yet."
        return (
            f"NO_MATCH — nothing in the owner's knowledge base matches {query!r}. Do not guess; "
            f"its sections: {outline(text) or '(none)'}"
        )
    scope = "the whole knowledge base" if got.whole else "the matching parts"
    return f"KNOWLEDGE ({scope}; the owner's own words)\n{got.text}"


async def propose_knowledge(ctx: ToolContext, args: dict[str, Any]) -> str:
    """Store a proposal to add one line to a section; nothing is written until he confirms."""
    section = str(args.get("section") or "")
    if section not in SECTION_NAMES:
        raise ToolError(f"section must be one of {', '.join(SECTION_NAMES)}")
    text = " ".join(text_arg(args, "text").split())
    if len(text) > MAX_FACT_CHARS:
        raise ToolError(f"text is longer than {MAX_FACT_CHARS} characters: one fact per proposal")
    known = " ".join(knowledge_for(ctx.services.home, ctx.services.paths.shared).text().split())
    if text in known:
        return "ALREADY_KNOWN — this is in the owner's knowledge base already; nothing to add."
    now = ctx.services.clock.now()
    words, channel = ctx.owner_words.value, ctx.channel
    proposal_id = await ctx.services.store.run(
        lambda s: proposals.propose(
            s, kind="knowledge", tool="propose_knowledge", inquiry_id=None,
            args={"section": section, "text": text}, owner_words=words, channel=channel, now=now,
        )
    )  # fmt: skip
    ctx.proposals.append(proposal_id)
    return (
        f"KNOWLEDGE_PROPOSED id={proposal_id} — NOT SAVED: it is written into the knowledge base "
        f"only when the owner confirms (one click). Ask him: 要把「{text}」记进知识库"
        f"（{SECTION_NAMES[section]}）吗？"
    )


TOOLS = (
    Tool(
        "search_knowledge",
        "The owner's 知识库 (his products, options, glass, lead times, warranty, price rules, "
        "standards such as AS 2047, FAQs), in his words: answer his trade questions from it. "
        "While small it is all in the prompt's <knowledge> block; when too long to show, this "
        "returns the parts matching the query (English or Chinese).",
        obj({"query": {"type": "string"}}, ["query"]),
        search_knowledge,
        "正在查知识库…",
        "Searching the knowledge base…",
    ),
    Tool(
        "propose_knowledge",
        "When the owner tells you a fact of his trade that his 知识库 lacks (e.g. a standard "
        "lead time), propose adding it, then ask him: 要把「标准交货期 4 周」记进知识库吗？ Only "
        "a proposal: it is written when he confirms; never say it was saved.",
        obj(
            {
                "section": {"type": "string", "enum": [key for key, _name in SECTIONS]},
                "text": {"type": "string"},
            },
            ["section", "text"],
        ),
        propose_knowledge,
        "正在建议记进知识库…",
        "Proposing a knowledge base entry…",
        writes=frozenset({"knowledge"}),
    ),
)
