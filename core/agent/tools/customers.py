"""Finding customers and reading one inquiry: the tools behind "Steward 的电话是多少".

Exact before fuzzy: a name, suburb or free text goes through the board's own search index
(``core.inquiry.search``), an email is a substring of the address, a phone is normalised to E.164
(``phonenumbers``) and looked up in every number the customer gave. Only when nothing matches
exactly does a fuzzy pass (``difflib``) look for near spellings ("Stewart" for "Steward"), and
its answer says so, so the model asks the owner rather than acting on a guess.
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from core.agent.tools.args import data_block, inquiry_line, int_arg, iso_local, limit_arg, obj
from core.agent.tools.base import Tool, ToolContext, ToolError
from core.db.dialect import contains_text
from core.db.models import ALL_STAGES, Draft, Inquiry, InquiryPhone, Message
from core.drive.paths import normalise_name
from core.glossary import product_name
from core.inquiry.board import BoardQuery, fetch_row, fetch_rows
from core.inquiry.search import has_search_index, search_condition
from core.inquiry.stages import stage_history
from core.intake.normalize import normalize_phone
from core.memory.recall import customer_memories

FUZZY_THRESHOLD = 0.78
WORD_FLOOR = 0.5  # a word less alike than this counts as no match in the word-by-word average
FUZZY_SCAN = 20_000  # newest inquiries a fuzzy pass compares (a few ms each thousand)
SEVERAL = (
    "SEVERAL_CUSTOMERS — more than one customer matches: ask the owner which one he means "
    "(name, suburb or email) before acting on any of them"
)


async def search_inquiries(ctx: ToolContext, args: dict[str, Any]) -> str:
    stage = str(args.get("stage") or "")
    if stage and stage not in ALL_STAGES:
        raise ToolError(f"unknown stage {stage!r}; stages are {', '.join(ALL_STAGES)}")
    limit = limit_arg(args)
    query = BoardQuery(
        stages=(stage,) if stage else (),
        search=str(args.get("query") or ""),
        needs_me=bool(args.get("needs_me")),
    )
    now = ctx.services.clock.now()
    rows = await ctx.services.store.read(lambda s: fetch_rows(s, query, now, limit=limit))
    payload: dict[str, Any] = {"count": len(rows), "inquiries": [inquiry_line(r) for r in rows]}
    if query.search.strip() and len(rows) == 1:
        ctx.resolved(rows[0].id)
    elif query.search.strip() and len(rows) > 1:
        ctx.ambiguous()
        payload["note"] = SEVERAL
    return json.dumps(payload, ensure_ascii=False)


def _phone_condition(phone: str, region: str, indexed: bool) -> ColumnElement[bool] | None:
    e164 = normalize_phone(phone, region)
    if e164 is None:  # not a whole number: digits as a substring, in any format
        return search_condition(phone, region, indexed=indexed)
    others = select(InquiryPhone.inquiry_id).where(InquiryPhone.phone == e164)
    return or_(Inquiry.customer_phone == e164, Inquiry.id.in_(others))


def _exact_ids(session: Session, args: dict[str, str], region: str, limit: int) -> list[int]:
    indexed = has_search_index(session)
    found: list[ColumnElement[bool] | None] = []
    for key in ("query", "name", "suburb"):
        if args.get(key):
            found.append(search_condition(args[key], region, indexed=indexed))
    if args.get("email"):
        email = args["email"].lower()
        found.append(contains_text(func.lower(Inquiry.customer_email), email))
    if args.get("phone"):
        found.append(_phone_condition(args["phone"], region, indexed))
    conditions = [c for c in found if c is not None]
    if not conditions:
        raise ToolError("give at least one of query, name, email, phone or suburb")
    stmt = (
        select(Inquiry.id)
        .where(*conditions)
        .order_by(Inquiry.last_contact_at.desc().nulls_last(), Inquiry.id.desc())
        .limit(limit)
    )
    return list(session.scalars(stmt))


def _best(matcher: SequenceMatcher[str], candidates: list[str], floor: float) -> float:
    """The highest ratio of the matcher's fixed string to any candidate, 0.0 when none reaches
    ``floor`` (difflib's cheap upper bounds skip most candidates without the full ratio)."""
    best = 0.0
    for candidate in candidates:
        matcher.set_seq1(candidate)
        bar = max(best, floor)
        if matcher.real_quick_ratio() < bar or matcher.quick_ratio() < bar:
            continue
        best = max(best, matcher.ratio())
    return best if best >= floor else 0.0


class Likeness:
    """How alike one wanted text is to candidates, 0..1: whole strings, or word by word (either
    order, averaged over the wanted words). Candidates seen before are answered from a cache:
    suburbs and names repeat across thousands of inquiries."""

    def __init__(self, wanted: str) -> None:
        self.whole = SequenceMatcher(None, autojunk=False)
        self.whole.set_seq2(normalise_name(wanted))
        words = [normalise_name(w) for w in wanted.split()]
        self.words = []
        for word in filter(None, words):
            matcher = SequenceMatcher(None, autojunk=False)
            matcher.set_seq2(word)
            self.words.append(matcher)
        self.cache: dict[str, float] = {}
        self.word_cache: dict[str, list[float]] = {}  # candidate word -> ratio per wanted word

    def __call__(self, candidate: str | None) -> float:
        if not candidate:
            return 0.0
        found = self.cache.get(candidate)
        if found is None:
            found = self._score(candidate)
            self.cache[candidate] = found
        return found

    def _score(self, candidate: str) -> float:
        whole = _best(self.whole, [normalise_name(candidate)], FUZZY_THRESHOLD)
        parts = [w for w in (normalise_name(v) for v in candidate.split()) if w]
        if not self.words or not parts:
            return whole
        ratios = [self._word(part) for part in parts]
        per_word = sum(max(r[i] for r in ratios) for i in range(len(self.words)))
        return max(whole, per_word / len(self.words))

    def _word(self, part: str) -> list[float]:
        found = self.word_cache.get(part)
        if found is None:
            found = [_best(m, [part], WORD_FLOOR) for m in self.words]
            self.word_cache[part] = found
        return found


def similarity(wanted: str, candidate: str | None) -> float:
    """How alike two names are, 0..1 (see ``Likeness``)."""
    return Likeness(wanted)(candidate)


def _fuzzy_ids(session: Session, args: dict[str, str], limit: int) -> list[tuple[int, float]]:
    wanted = [(k, Likeness(args[k])) for k in ("query", "name", "suburb", "email") if args.get(k)]
    if not wanted:
        return []
    rows = session.execute(
        select(Inquiry.id, Inquiry.customer_name, Inquiry.suburb, Inquiry.customer_email)
        .order_by(Inquiry.id.desc())
        .limit(FUZZY_SCAN)
    ).all()
    scored: list[tuple[int, float]] = []
    for row in rows:
        local = (row.customer_email or "").split("@")[0]
        fields = {
            "name": (row.customer_name,),
            "suburb": (row.suburb,),
            "email": (row.customer_email, local),
            "query": (row.customer_name, row.suburb, local),
        }
        score = 1.0
        for key, likeness in wanted:  # every given field must be close
            score = min(score, max(likeness(f) for f in fields[key]))
            if score < FUZZY_THRESHOLD:
                break
        if score >= FUZZY_THRESHOLD:
            scored.append((row.id, round(score, 2)))
    scored.sort(key=lambda item: (-item[1], -item[0]))
    return scored[:limit]


def _search_customers(
    session: Session, args: dict[str, str], region: str, limit: int
) -> tuple[str, list[int], bool]:
    """The answer for the model, the ids it found and whether they are exact hits (a near
    spelling is only a guess: it is never "the" customer until he says so)."""
    exact = _exact_ids(session, args, region, limit)
    if exact:
        rows = [fetch_row(session, i) for i in exact]
        found = [dict(inquiry_line(r), match="exact") for r in rows if r is not None]
        status = f"FOUND {len(found)} matching inquiries"
        if len(found) > 1:
            status += f" — {SEVERAL}"
        return data_block(status, {"inquiries": found}), [f["id"] for f in found], True
    if args.get("phone") and not any(args.get(k) for k in ("query", "name", "suburb", "email")):
        return (
            "NO_MATCH — no customer has this phone number. Do not guess another customer.",
            [],
            True,
        )
    fuzzy = _fuzzy_ids(session, args, limit)
    if not fuzzy:
        return "NO_MATCH — no customer matches, not even approximately. Do not guess.", [], True
    found = []
    for inquiry_id, score in fuzzy:
        row = fetch_row(session, inquiry_id)
        if row is not None:
            found.append(dict(inquiry_line(row), match="fuzzy", similarity=score))
    return (
        data_block(
            f"NO_EXACT_MATCH — {len(found)} SIMILAR (fuzzy) customers: ask the owner which one "
            "he means before acting on any of them",
            {"inquiries": found},
        ),
        [f["id"] for f in found],
        False,
    )


async def search_customers(ctx: ToolContext, args: dict[str, Any]) -> str:
    wanted = {
        k: str(args.get(k) or "").strip() for k in ("query", "name", "email", "phone", "suburb")
    }
    region = ctx.services.settings.text("general.phone_region") or "AU"
    limit = limit_arg(args)
    text, found, exact = await ctx.services.store.read(
        lambda s: _search_customers(s, wanted, region, limit)
    )
    if exact and len(found) == 1:  # the one he asked about: "他" in the next message
        ctx.resolved(found[0])
    elif found:  # several, or only near spellings: he is asked, "他" means nobody yet
        ctx.ambiguous()
    return text


def _inquiry_detail(session: Session, inquiry_id: int) -> dict[str, Any]:
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        raise ToolError(f"no inquiry {inquiry_id}")
    messages = session.scalars(
        select(Message)
        .where(Message.inquiry_id == inquiry_id)
        .order_by(Message.received_at.desc())
        .limit(5)
    ).all()
    notes = customer_memories(session, inquiry_id)  # his notes and memories, of every inquiry
    drafts = session.scalars(
        select(Draft).where(Draft.inquiry_id == inquiry_id).order_by(Draft.id.desc()).limit(5)
    ).all()
    return {
        "id": inquiry.id,
        "customer_name": inquiry.customer_name,
        "customer_email": inquiry.customer_email,
        "customer_phone": inquiry.customer_phone,
        "address": inquiry.address,
        "suburb": inquiry.suburb,
        "products": [product_name(p) for p in inquiry.product_types or []],
        "dimensions": inquiry.dimensions or [],
        "class": inquiry.classification,
        "stage": inquiry.stage,
        "stage_history": stage_history(session, inquiry.id),
        "onedrive_folder": inquiry.drive_folder_name,
        "latest_emails": [
            {
                "direction": m.direction,
                "at": iso_local(m.received_at),
                "subject": m.subject,
                "text": (m.body_text or "")[:1500],
            }
            for m in reversed(messages)
        ],
        "notes": [n.text for n in notes],
        "drafts": [{"id": d.id, "status": d.status, "subject": d.subject} for d in drafts],
    }


async def get_inquiry(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    detail = await ctx.services.store.read(lambda s: _inquiry_detail(s, inquiry_id))
    ctx.resolved(inquiry_id)
    return "<data>\n" + json.dumps(detail, ensure_ascii=False, default=str) + "\n</data>"


TOOLS = (
    Tool(
        "search_inquiries",
        "Find customer inquiries by name, email, phone (any format) or suburb, optionally "
        "filtered by stage or to those needing the owner.",
        obj(
            {
                "query": {"type": "string"},
                "stage": {"type": "string", "enum": ["", *ALL_STAGES]},
                "needs_me": {"type": "boolean"},
                "limit": {"type": "integer"},
            },
            ["query"],
        ),
        search_inquiries,
        "正在查找询盘…",
        "Looking up inquiries…",
        reads_customer_content=True,
    ),
    Tool(
        "search_customers",
        "Find customers by name, email, phone (any format: 0412 345 678, +61…) or suburb. "
        "Exact matches first; if none, near spellings marked fuzzy (confirm with the owner).",
        obj(
            {
                "query": {"type": "string", "description": "free text: any of the below"},
                "name": {"type": "string"},
                "email": {"type": "string"},
                "phone": {"type": "string"},
                "suburb": {"type": "string"},
                "limit": {"type": "integer"},
            },
            [],
        ),
        search_customers,
        "正在查找客户…",
        "Looking up customers…",
        reads_customer_content=True,
    ),
    Tool(
        "get_inquiry",
        "One inquiry in full: fields, stage history, latest emails, notes and drafts.",
        obj({"inquiry_id": {"type": "integer"}}, ["inquiry_id"]),
        get_inquiry,
        "正在读取询盘…",
        "Reading the inquiry…",
        reads_customer_content=True,
    ),
)
