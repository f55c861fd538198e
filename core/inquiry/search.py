"""The board's search index: what the search box matches, and the WHERE clause a search becomes.

``Inquiry.search_text`` holds the lower-cased name, email, phone digits (international and
national forms) and suburb; migration 0003 keeps a trigram full-text index over it. Words of one
or two characters, and SQLite builds without FTS5, fall back to a substring test with ``instr``.
On PostgreSQL the same words become ``LIKE '%word%'``, which 0003's ``pg_trgm`` GIN index
answers (``_IndexedSearch`` picks per engine when the query is compiled).

Phone search accepts any format: ``0412 345 678``, ``+61 412 345 678`` and ``0412345678`` all find
the same customer, because the query is reduced to digits and matched against both forms.
"""

from __future__ import annotations

import re
import weakref
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Integer,
    MetaData,
    Table,
    Text,
    and_,
    or_,
    select,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.visitors import InternalTraversal, _TraverseInternalsType

from core.db.dialect import POSTGRESQL, contains_text, kind_of
from core.db.models import (
    SEARCH_INDEX,
    SEARCH_INDEX_PG,
    Inquiry,
)

_PHONE_SHAPE = re.compile(r"^[\d\s+().\-]+$")
# FTS5's trigram tokenizer indexes every 3-character substring; shorter words use instr()
_TRIGRAM = 3
# the FTS5 table of migration 0003; not in the ORM metadata (it is virtual, kept by triggers)
_search_index = Table(
    SEARCH_INDEX, MetaData(), Column("rowid", Integer), Column("search_text", Text)
)
_indexed_engines: weakref.WeakKeyDictionary[Engine, bool] = weakref.WeakKeyDictionary()


def phone_digit_forms(phone: str | None, region: str = "AU") -> list[str]:
    """Digits of a phone in international and national form (``61412345678``, ``0412345678``)."""
    import phonenumbers  # here: the board's first page needs no phone (~20 ms of start, #44)

    if not phone:
        return []
    forms: list[str] = []
    digits = re.sub(r"\D", "", phone)
    if digits:
        forms.append(digits)
    try:
        parsed = phonenumbers.parse(phone, region)
    except phonenumbers.NumberParseException:
        return forms
    national = re.sub(
        r"\D",
        "",
        phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.NATIONAL),
    )
    international = f"{parsed.country_code}{parsed.national_number}"
    for form in (international, national):
        if form and form not in forms:
            forms.append(form)
    return forms


def build_search_text(
    name: str | None,
    email: str | None,
    phone: str | None,
    suburb: str | None,
    region: str = "AU",
) -> str:
    """The lower-cased text the search box matches: name, email, phone digits (both forms), suburb."""
    parts = [name or "", email or "", *phone_digit_forms(phone, region), suburb or ""]
    return " ".join(p.strip().lower() for p in parts if p and p.strip())


def refresh_search_text(inquiry: Inquiry, region: str = "AU") -> None:
    inquiry.search_text = build_search_text(
        inquiry.customer_name,
        inquiry.customer_email,
        inquiry.customer_phone,
        inquiry.suburb,
        region,
    )


def has_search_index(session: Session) -> bool:
    """Whether this database has the trigram index (once per engine: it never goes away)."""
    engine = session.get_bind()
    if not isinstance(engine, Engine):
        engine = engine.engine
    if engine not in _indexed_engines:
        if kind_of(engine) == POSTGRESQL:
            found = session.execute(
                text("SELECT count(*) FROM pg_indexes WHERE indexname = :name"),
                {"name": SEARCH_INDEX_PG},
            ).scalar()
            _indexed_engines[engine] = bool(found)
            return _indexed_engines[engine]
        found = session.execute(
            text("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = :name"),
            {"name": SEARCH_INDEX},
        ).scalar()
        _indexed_engines[engine] = bool(found)
    return _indexed_engines[engine]


def _phrase(term: str) -> str:
    """One FTS5 phrase: quoted, so customer text like ``o'neil`` or ``-`` is never syntax."""
    return '"' + term.replace('"', '""') + '"'


class _IndexedSearch(ColumnElement[bool]):
    """One search through the engine's trigram index: FTS5 ``MATCH`` on SQLite, the same words
    as ``LIKE`` on PostgreSQL (which its pg_trgm index answers)."""

    # both clauses are part of the cache key, so a board query compiles once per shape and a
    # keystroke only binds its words (compiling cost more than the index lookup itself)
    _traverse_internals: _TraverseInternalsType = [
        ("fts", InternalTraversal.dp_clauseelement),
        ("trigram", InternalTraversal.dp_clauseelement),
    ]
    inherit_cache = True
    type = Boolean()
    # a comparison in itself: without this SQLite (no native boolean) is sent ``id IN (…) = 1``,
    # a per-row expression that stops the planner from driving the query from the index's ids
    _is_implicitly_boolean = True

    def __init__(self, fts: ColumnElement[bool], like: ColumnElement[bool]) -> None:
        self.fts = fts
        self.trigram = like


@compiles(_IndexedSearch)
def _fts(element: _IndexedSearch, compiler: SQLCompiler, **kw: Any) -> str:
    return str(compiler.process(element.fts, **kw))


@compiles(_IndexedSearch, "postgresql")
def _trigram(element: _IndexedSearch, compiler: SQLCompiler, **kw: Any) -> str:
    return str(compiler.process(element.trigram, **kw))


def _indexed(terms: list[str], *, any_of: bool) -> ColumnElement[bool]:
    match = (" OR " if any_of else " AND ").join(_phrase(t) for t in terms)
    ids = select(_search_index.c.rowid).where(_search_index.c.search_text.op("MATCH")(match))
    likes = [contains_text(Inquiry.search_text, t) for t in terms]
    return _IndexedSearch(Inquiry.id.in_(ids), or_(*likes) if any_of else and_(*likes))


def _phone_shaped(typed: str) -> bool:
    """A search for a phone number: digits in any format, at least a trigram of them."""
    return bool(_PHONE_SHAPE.match(typed)) and sum(c.isdigit() for c in typed) >= _TRIGRAM


def scans_rows(search: str, *, indexed: bool = True) -> bool:
    """Whether ``search_condition(search)`` has no index term: every row's text is tested
    (words of one or two characters, or no trigram index). Such a search is answered from the
    covering (stage, search_text) index when it matches few rows."""
    typed = search.strip().lower()
    if not typed or not indexed:
        return bool(typed)
    if _phone_shaped(typed):
        return False
    return all(len(w) < _TRIGRAM for w in typed.split())


def search_condition(
    search: str, region: str = "AU", *, indexed: bool = True
) -> ColumnElement[bool] | None:
    """The WHERE clause of a search box text: phone-shaped → digits in any format; else every
    word as a substring. ``indexed``: use the trigram index (see ``has_search_index``)."""
    typed = search.strip().lower()
    if not typed:
        return None
    if _phone_shaped(typed):
        digits = re.sub(r"\D", "", typed)
        alternatives = {digits}
        import phonenumbers

        code = str(phonenumbers.country_code_for_region(region) or "")
        if digits.startswith("0") and code:
            alternatives.add(code + digits[1:])
        elif code and digits.startswith(code) and len(digits) > len(code) + 4:
            alternatives.add("0" + digits[len(code) :])
        if indexed:
            return _indexed(sorted(alternatives), any_of=True)
        return or_(*(contains_text(Inquiry.search_text, a) for a in sorted(alternatives)))
    words = list(dict.fromkeys(typed.split()))
    long_words = [w for w in words if indexed and len(w) >= _TRIGRAM]
    # search_text is lower-cased already: instr() is a plain substring test, cheaper than a
    # case-folding LIKE and free of wildcard escaping
    conditions = [contains_text(Inquiry.search_text, w) for w in words if w not in long_words]
    if long_words:
        conditions.insert(0, _indexed(long_words, any_of=False))
    return and_(*conditions)
