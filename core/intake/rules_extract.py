"""Offline extraction heuristics: products, sizes, address, suburb, phone, name — no LLM.

Why: the app must work with no endpoint configured (``--offline``), and even with one, these
zero-cost signals feed the deterministic classifier rules. They are tuned on what Sydney
customers actually write (dev corpus): phones sit in the signature, the job's suburb in the body
("We're in Blacktown", "27 Quarry Rd, Ryde") while an office address sits in a work signature,
product words come in English or Chinese (推拉门, 纱窗), and a product named only as the place of
something else ("flyscreens for our sliding windows", "a pane in the sliding window is cracked")
is not what the customer wants.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from core.glossary import glossary, resources_dir
from core.intake.normalize import find_phones, normalize_email
from core.intake.view import MessageView, guess_language
from core.mail.limits import BODY_TEXT_CAP

T = TypeVar("T")  # what a span of text was recognised as
PHONE_SCAN_CAP = 2_000  # characters of signature / main text searched for phone numbers

# ----------------------------------------------------------------------------- products

# Glossary aliases too broad for free text: "front door" names the door of a house far more
# often than a request for an entry door ("if nobody answers the front door").
_SKIP_ALIASES = {"front door", "awning window"}
# Extra English/Chinese patterns per glossary key (regex, matched case-insensitively).
_EXTRA_PATTERNS: dict[str, list[str]] = {
    "sliding_door": [r"sliding (?:glass )?doors?", r"推拉门", r"趟门"],
    "stacker_door": [r"stacker(?:s| doors?)?", r"stacking doors?", r"叠推门"],
    "bifold_door": [r"bi-?\s?fold(?:ing)? doors?", r"bi-?fold(?!\s*(?:-|\s)?windows?)", r"折叠门"],
    "hinged_door": [r"hinged doors?", r"swing doors?", r"平开门"],
    "french_door": [r"french doors?", r"法式门"],
    "entry_door": [r"entry doors?", r"entrance doors?", r"入户门"],
    "security_door": [r"security (?:screen )?doors?", r"crimsafe", r"防盗门", r"安全门"],
    "casement_window": [r"casement(?: windows?)?", r"平开窗"],
    "awning_window": [r"awning(?: windows?)?", r"上悬窗", r"外开窗"],
    "sliding_window": [r"sliding windows?", r"slider windows?", r"推拉窗"],
    "double_hung_window": [r"double[- ]hung(?: windows?)?", r"sash windows?", r"双悬窗"],
    "fixed_window": [
        r"fixed (?:windows?|panes?|glass panels?|lights?)",
        r"picture windows?",
        r"固定窗",
    ],
    "louvre_window": [r"louv(?:re|er)s?(?: windows?)?", r"百叶窗"],
    "bifold_window": [r"bi-?\s?fold windows?", r"servery(?: windows?)?", r"折叠窗"],
    "shower_screen": [
        r"shower (?:screens?|enclosures?|doors?)",
        r"(?:semi-)?frameless (?:shower )?screens?",
        r"semi-frameless",
        r"淋浴房",
        r"淋浴屏",
        r"淋浴门",
    ],
    "flyscreen": [r"fly\s?screens?", r"insect screens?", r"fly mesh", r"纱窗", r"纱网"],
    "glass_replacement": [
        r"glass replacement",
        r"re-?glaz(?:e|ing)",
        r"replac\w*\s+(?:the\s+|a\s+|some\s+)?(?:broken\s+|cracked\s+)?(?:glass|panes?)",
        r"(?:cracked|broken|smashed|shattered)\s+(?:glass|panes?)",
        r"(?:glass|pane)\b[^.!?\n]{0,40}\b(?:cracked|broken|smashed|shattered)",
        r"换玻璃",
        r"玻璃[^。！？\n]{0,4}(?:裂|碎|破)",
    ],
}
_BREAKAGE = re.compile(r"cracked|broken|smashed|shattered|裂|碎|破")
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")
_POSSESSIVE_CONTEXT = re.compile(
    r"\bfor\s+(?:our|my|the|their|existing|the existing)\s+(?:\w+\s+)?$", re.I
)


def _alias_pattern(alias: str) -> str:
    words = [re.escape(w) for w in alias.lower().split()]
    return r"[\s-]?".join(words) + r"(?:e?s)?"


@cache
def _product_regexes() -> dict[str, re.Pattern[str]]:
    table: dict[str, re.Pattern[str]] = {}
    for key, item in glossary().items():
        patterns = list(_EXTRA_PATTERNS.get(key, []))
        patterns += [
            _alias_pattern(a) for a in item.get("aliases", []) if a.lower() not in _SKIP_ALIASES
        ]
        patterns.append(re.escape(item["zh"]))
        joined = "|".join(f"(?:{p})" for p in patterns)
        table[key] = re.compile(rf"(?<![A-Za-z])(?:{joined})(?![A-Za-z])", re.IGNORECASE)
    return table


def _spans(text: str) -> list[tuple[int, int, str]]:
    """Non-overlapping product mentions (longest wins), as (start, end, key)."""
    hits: list[tuple[int, int, str]] = []
    for key, regex in _product_regexes().items():
        hits.extend((m.start(), m.end(), key) for m in regex.finditer(text))
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    chosen: list[tuple[int, int, str]] = []
    for start, end, key in hits:
        if chosen and start < chosen[-1][1]:
            continue
        chosen.append((start, end, key))
    return chosen


def find_products(text: str) -> list[str]:
    """Glossary keys the text asks for, in order of first mention."""
    wanted: list[str] = []
    for sentence_match in _SENTENCE.finditer(text or ""):
        sentence = sentence_match.group(0)
        spans = _spans(sentence)
        keys = {k for _, _, k in spans}
        broken_glass = "glass_replacement" in keys and _BREAKAGE.search(sentence)
        for start, _end, key in spans:
            if broken_glass and key != "glass_replacement":
                continue  # "a pane in the sliding window is cracked": the glass is the job
            if len(keys) > 1 and _POSSESSIVE_CONTEXT.search(sentence[:start]):
                continue  # "flyscreens for our sliding windows": the windows exist already
            if key not in wanted:
                wanted.append(key)
    return wanted


# ----------------------------------------------------------------------------- sizes

_UNIT = r"(?:mm|cm|m|毫米|厘米|米)?"
_NUM = r"(\d{2,4}(?:\.\d+)?|\d\.\d{1,3})"
_PAIR = re.compile(
    rf"(?:宽\s*)?{_NUM}\s*({_UNIT})\s*(?:w\b|wide\b|width\b|宽)?\s*[x×X*✕]\s*(?:高\s*)?{_NUM}\s*({_UNIT})"
    r"\s*(?:h\b|high\b|height\b|tall\b|高)?",
    re.IGNORECASE,
)
_ZH_PAIR = re.compile(rf"宽\s*{_NUM}\s*({_UNIT})[^\d\n]{{0,6}}高\s*{_NUM}\s*({_UNIT})")
_SINGLE = re.compile(
    r"(\d+(?:\.\d+)?)\s*(mm|cm|m|metres?|meters?)\s+(wide|high|tall)\b", re.IGNORECASE
)


def _to_mm(value: str, unit: str) -> int | None:
    try:
        number = float(value)
    except ValueError:
        return None
    unit = (unit or "").lower()
    if unit in {"m", "米", "metre", "metres", "meter", "meters"} or (not unit and number < 10):
        number *= 1000
    elif unit in {"cm", "厘米"}:
        number *= 10
    return round(number)


def find_dimensions(text: str) -> list[str]:
    """Sizes as "W x H mm" strings (and "4200 mm wide" for a single stated width).

    Linear in the text: a Chinese pair ("宽…高…") wins over an English pair starting inside it,
    and a pair wins over a single size starting inside it. Each regex's matches come in order and
    do not overlap, so "starts inside an earlier match" is a bisect over sorted spans (a list scan
    per match made a 5 MB body of dimension lines take minutes).
    """
    found: dict[str, None] = {}
    text = text or ""
    zh_spans = [(m.start(), m.end(), m) for m in _ZH_PAIR.finditer(text)]
    pair_hits = [m for m in _PAIR.finditer(text) if not _inside(zh_spans, m.start())]
    for m in [m for _, _, m in zh_spans] + pair_hits:  # Chinese pairs first, as written
        w_val, w_unit, h_val, h_unit = m.group(1), m.group(2), m.group(3), m.group(4)
        width = _to_mm(w_val, w_unit or h_unit)
        height = _to_mm(h_val, h_unit or w_unit)
        if not width or not height or not (100 <= width <= 20000 and 100 <= height <= 20000):
            continue
        found.setdefault(f"{width} x {height} mm")
    covered = sorted(
        [(a, b, None) for a, b, _ in zh_spans] + [(m.start(), m.end(), None) for m in pair_hits]
    )
    _merge_spans(covered)
    for m in _SINGLE.finditer(text):
        if _inside(covered, m.start()):
            continue
        size = _to_mm(
            m.group(1), m.group(2).lower().rstrip("s").replace("metre", "m").replace("meter", "m")
        )
        if size and 100 <= size <= 20000:
            found.setdefault(f"{size} mm {m.group(3).lower()}")
    return list(found)


def _merge_spans(spans: list[tuple[int, int, T]]) -> None:
    """Sorted spans made non-overlapping in place (so ``_inside`` may bisect them)."""
    merged: list[tuple[int, int, T]] = []
    for start, end, item in spans:
        if merged and start < merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end, merged[-1][2])
            continue
        merged.append((start, end, item))
    spans[:] = merged


def _inside(spans: list[tuple[int, int, T]], position: int) -> bool:
    """Whether ``position`` falls in one of the sorted, non-overlapping ``spans``."""
    index = bisect.bisect_right(spans, position, key=lambda s: s[0]) - 1
    return index >= 0 and spans[index][0] <= position < spans[index][1]


# ----------------------------------------------------------------------------- places

_STREET_TYPES = (
    r"St|Street|Rd|Road|Ave|Avenue|Av|Pl|Place|Way|Cres|Crescent|Cr|Dr|Drive|Ct|Court|Pde|Parade|"
    r"Hwy|Highway|Cl|Close|Ln|Lane|Tce|Terrace|Cct|Circuit|Gr|Grove|Gve|Blvd|Boulevard|Bvd|Row|"
    r"Sq|Square|Esp|Esplanade|Pkwy|Parkway|Gdns|Gardens|Mews|Loop|Rise|View|Walk|Glen|Chase"
)
_NAME_WORD = r"[A-Z][A-Za-z'’-]+"
_STREET = re.compile(
    rf"(?<![\w/])(?:(?:Unit|Apt|Shop|Suite|Level|Lot)\s*\d+[A-Za-z]?\s*[,/]?\s*)?"
    rf"\d{{1,5}}[A-Za-z]?(?:\s*[/-]\s*\d{{1,5}}[A-Za-z]?)?\s+"
    rf"(?:{_NAME_WORD}\s+){{1,3}}?(?:{_STREET_TYPES})\b\.?"
    rf"(?P<rest>,?\s+(?P<suburb>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}})"
    rf"(?:,?\s+(?:NSW|N\.S\.W\.?)(?:\s+\d{{4}})?|,?\s+\d{{4}}|(?=[\s,.;)。，]|$)))?"
)
_STATE_POSTCODE = re.compile(
    rf"(?<![A-Za-z])(?P<suburb>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}}?),?\s+(?:NSW|N\.S\.W\.?)\s+2\d{{3}}\b"
)
# Suburbs that are also common names or words: only accepted with place context.
_AMBIGUOUS = {
    "Gordon", "Miller", "Nelson", "Henley", "Carlton", "Clyde", "Prospect", "Como", "Kearns",
    "Ruse", "Busby", "Blackett", "Bidwill", "Raby", "Cartwright", "Chifley", "Bradbury",
    "Ashcroft", "Beaconsfield", "Lansdowne", "Sandringham", "Bangor", "Vineyard", "Airds",
    "Richmond", "Windsor", "Camden", "Canterbury", "Kensington", "Paddington", "Clarendon",
    "Oakville", "Riverview", "Glenwood", "Minto", "Arcadia", "Bayview", "Monterey", "Brooklyn",
    "Botany", "Mascot", "Rhodes", "Prestons", "Waterloo", "Wallacia", "Davidson", "Blair Athol",
}  # fmt: skip
_PLACE_CONTEXT = re.compile(r"(?:\b(?:in|at|near|from|to)\s+|住在\s*|在\s*|,\s*)$", re.IGNORECASE)
_OFFICE_LINE = re.compile(r"^\s*(?:Level|Suite|Floor|L\d|PO Box|GPO)\b", re.IGNORECASE)


@cache
def sydney_suburbs() -> tuple[str, ...]:
    """Known suburb names, longest first (so "North Ryde" wins over "Ryde")."""
    path = resources_dir() / "sydney_suburbs.txt"
    names = {
        line.strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    }
    return tuple(sorted(names, key=len, reverse=True))


@cache
def _suburb_regex() -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sydney_suburbs())
    return re.compile(rf"(?<![A-Za-z])({alternatives})(?![A-Za-z])")


def _canonical_suburb(name: str) -> str | None:
    wanted = name.strip().lower()
    for known in sydney_suburbs():
        if known.lower() == wanted:
            return known
    return None


def find_address(text: str) -> tuple[str | None, str | None]:
    """(street address, its suburb) of the first street address in the text."""
    for line in (text or "").splitlines():
        if _OFFICE_LINE.match(line):
            continue
        m = _STREET.search(line)
        if not m:
            continue
        address = m.group(0).strip().rstrip(",.;")
        suburb = None
        if m.group("suburb"):
            words = [w for w in m.group("suburb").split() if w not in {"NSW", "N.S.W."}]
            for n in range(len(words), 0, -1):  # longest known prefix: "Baulkham Hills and"
                suburb = _canonical_suburb(" ".join(words[:n]))
                if suburb:
                    break
            if suburb is None and words and re.search(r"NSW|\d{4}", m.group("rest") or ""):
                suburb = " ".join(words)  # "Foo NSW 2150": a suburb even if not in our list
        if suburb is None:
            address = address.split(",")[0].strip() if m.group("rest") else address
        return address, suburb
    return None, None


def find_suburb(text: str) -> str | None:
    """The first suburb the text names: "Ryde NSW 2112" first, then a known suburb name."""
    for line in (text or "").splitlines():
        if _OFFICE_LINE.match(line):
            continue
        m = _STATE_POSTCODE.search(line)
        if m:
            known = _suburb_regex().search(m.group("suburb"))
            return known.group(1) if known else m.group("suburb")
    for m in _suburb_regex().finditer(text or ""):
        name = m.group(1)
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _OFFICE_LINE.match(text[line_start : m.start() + 1]):
            continue
        if name in _AMBIGUOUS and not _PLACE_CONTEXT.search(
            text[max(0, m.start() - 12) : m.start()]
        ):
            continue
        return name
    return None


# ----------------------------------------------------------------------------- body parts

_SIGN_OFF = re.compile(
    r"^\s*(?:thanks(?: again| so much| heaps)?|thank you(?: very much)?|many thanks|cheers|regards|"
    r"kind regards|best regards|warm regards|best wishes|best|sincerely|yours sincerely|"
    r"yours faithfully|ta|thx|谢谢[！!。]?|谢谢您[！!。]?|此致|祝好|敬礼)[\s,.!！，。]*$",
    re.IGNORECASE,
)
_FORM_FIELD = re.compile(
    r"^\s*(name|full name|your name|email|e-mail|phone|mobile|phone number|address|suburb|"
    r"products?|message|enquiry|姓名|电话|地址|邮箱)\s*(?::|：|\s{2,}|\t)\s*(.+?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass
class BodyParts:
    main: str  # what the customer wrote (up to the sign-off)
    signature: str  # sign-off, name, phone, company lines
    form: dict[str, str]  # website-form fields ("name", "phone", "address", ...)


def split_body(text: str) -> BodyParts:
    lines = (text or "").splitlines()
    cut = None
    for i, line in enumerate(lines):
        if _SIGN_OFF.match(line) and i > 0:
            cut = i
    if cut is None:  # no sign-off: the trailing short lines after the last blank line
        last_blank = max((i for i, line in enumerate(lines) if not line.strip()), default=-1)
        tail = lines[last_blank + 1 :]
        if 0 < len(tail) <= 4 and all(len(line) < 60 for line in tail) and last_blank > 0:
            cut = last_blank + 1
    form: dict[str, str] = {}
    for m in _FORM_FIELD.finditer(text or ""):
        form.setdefault(m.group(1).lower(), m.group(2))
    if cut is None:
        return BodyParts("\n".join(lines), "", form)
    return BodyParts("\n".join(lines[:cut]), "\n".join(lines[cut:]), form)


# ----------------------------------------------------------------------------- the rest

_URGENT = re.compile(
    r"\burgent(?:ly)?\b|\basap\b|as soon as possible|right away|straight away|"
    r"\bemergency\b|急|尽快|马上|越快越好",
    re.IGNORECASE,
)
_NO_RUSH = re.compile(r"no rush|no hurry|not urgent|whenever suits|不急|不着急", re.IGNORECASE)
_NOT_A_PERSON = re.compile(
    r"website|no-?reply|support|team|orders?|admin|accounts?|sales|info|enquir|windows|doors|"
    r"pty|ltd|company|service|notification|microsoft|google|calendar|glass|wholesale|supplies|"
    r"digest|media|group|building|construct|trade|hub|software|alerts?|newsletter",
    re.IGNORECASE,
)


def _person_name(view: MessageView, parts: BodyParts) -> str | None:
    form_name = parts.form.get("name") or parts.form.get("full name") or parts.form.get("your name")
    if form_name:
        return form_name.strip()
    if view.from_name and not _NOT_A_PERSON.search(view.from_name) and "@" not in view.from_name:
        return view.from_name.strip().strip('"')
    for line in parts.signature.splitlines()[1:4]:  # the line after the sign-off
        candidate = line.strip()
        if re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z'-]+){0,2}|[\u4e00-\u9fff]{2,4}", candidate):
            return candidate
    return None


def urgency_of(text: str) -> str:
    if _NO_RUSH.search(text):
        return "low"
    if _URGENT.search(text):
        return "high"
    return "normal"


def extract_fields(view: MessageView) -> dict[str, Any]:
    """Every Extraction field from the view, by rules (unvalidated dict; extract.py checks)."""
    body = (view.body_text or "")[:BODY_TEXT_CAP]  # bounded work per message (core.mail.limits)
    parts = split_body(body)
    # A reply's subject repeats the old job; only a new message's subject is its own words.
    subject = "" if view.is_reply else (view.subject or "")

    # Phone matching costs ~1 ms per candidate digit run: a signature and the top of the body
    # hold the number; a body of a thousand sizes must not cost seconds.
    phones = find_phones(parts.form.get("phone") or parts.form.get("mobile") or "", view.region)
    phones += find_phones(parts.signature[:PHONE_SCAN_CAP], view.region)
    phones += find_phones(parts.main[:PHONE_SCAN_CAP], view.region)

    address, suburb = None, None
    if parts.form.get("address"):
        address, suburb = find_address(parts.form["address"])
        address = address or parts.form["address"]
    if not address:
        address, suburb = find_address(parts.main)
    if not address:
        address, suburb_sig = find_address(parts.signature)
        suburb = suburb or suburb_sig
    suburb = (
        suburb
        or (parts.form.get("suburb") or "").strip()
        or find_suburb(parts.main)
        or find_suburb(subject)
        or find_suburb(parts.signature)
    )
    if suburb == "Sydney":
        suburb = None

    product_text = "\n".join(x for x in (subject, parts.form.get("products", ""), body) if x)
    return {
        "customer_name": _person_name(view, parts),
        "customer_email": view.customer_email or normalize_email(parts.form.get("email")),
        "customer_phone": phones[0] if phones else None,
        "address": address,
        "suburb": suburb or None,
        "product_types": find_products(product_text),
        "dimensions": find_dimensions(body),
        "urgency": urgency_of(body),
        "language": guess_language(body) if body.strip() else view.language,
    }
