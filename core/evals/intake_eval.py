"""Intake accuracy on a labelled folder: dispositions, classes, fields, grounding drops, cost.

Why a command and not only a test: the owner's own endpoint (and model) decides how good intake
is at his desk, and the figures that matter — does the class match, is the phone right, how many
invented values did grounding throw away, what did it cost — should be one command away
(``inquiry-bridge eval``), on the labelled dev corpus or on any folder with a ``labels.json``.

The run happens in a temporary data folder (the owner's store is never touched) through the real
pipeline: with the configured OpenAI-compatible endpoint, or rules only (``--offline``, or when
no endpoint is set). Figures come from what the pipeline stored — each message's disposition,
class and ``extracted`` fields (with ``grounding``), and the ``llm_calls`` ledger — compared
with ``labels.json`` (see the corpus's labels for the fields).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from core.app import App, build_app
from core.db.models import LLMCall, Message
from core.services import Services

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.evals.draft_points import DraftPointsReport
    from core.evals.judge import JudgeReport

__all__ = ["EvalReport", "default_corpus", "format_report", "run_eval"]

FIELDS = ("customer_name", "customer_email", "customer_phone", "suburb", "products", "dimensions")
LLM_SETTINGS = (
    "llm.base_url",
    "llm.tier1",
    "llm.tier2",
    "llm.tier3",
    "llm.provider",
    "llm.use_json_schema",
    "llm.max_retries",
    "llm.timeout_seconds",
    "llm.concurrency",
)


def default_corpus(repo: Path | None = None) -> Path | None:
    """``../shared/corpus/dev`` beside the repository (as tests/conftest.py finds it), or from
    the working folder; None when neither exists."""
    root = repo or Path(__file__).resolve().parents[2]
    for candidate in (
        root.parent / "shared" / "corpus" / "dev",
        Path.cwd().parent / "shared" / "corpus" / "dev",
    ):
        if (candidate / "labels.json").is_file():
            return candidate
    return None


@dataclass
class FieldScore:
    right: int = 0
    total: int = 0

    @property
    def share(self) -> float:
        return self.right / self.total if self.total else 0.0


@dataclass
class EvalReport:
    folder: str
    mode: str  # "rules only" | "model <tier2> at <url>"
    messages: int = 0
    disposition: FieldScore = field(default_factory=FieldScore)
    classes: FieldScore = field(default_factory=FieldScore)
    fields: dict[str, FieldScore] = field(default_factory=dict)
    drops: int = 0
    drop_messages: int = 0
    drops_by_field: Counter[str] = field(default_factory=Counter)
    drops_by_why: Counter[str] = field(default_factory=Counter)
    model_made: int = 0
    calls: int = 0
    calls_by_purpose: Counter[str] = field(default_factory=Counter)
    failed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)
    judge: JudgeReport | None = None  # when --judge ran
    drafts: DraftPointsReport | None = None  # when --drafts ran
    provider: str = ""  # the preset the endpoint matched ("" for rules only)
    structured_modes: dict[str, str] = field(
        default_factory=dict
    )  # model -> schema|json_object|text

    def as_dict(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "mode": self.mode,
            "provider": self.provider,
            "structured_modes": self.structured_modes,
            "messages": self.messages,
            "disposition": [self.disposition.right, self.disposition.total],
            "class": [self.classes.right, self.classes.total],
            "fields": {k: [v.right, v.total] for k, v in self.fields.items()},
            "grounding_drops": {
                "values": self.drops,
                "messages": self.drop_messages,
                "by_field": dict(self.drops_by_field),
                "by_why": dict(self.drops_by_why),
                "model_made": self.model_made,
            },
            "llm": {
                "calls": self.calls,
                "by_purpose": dict(self.calls_by_purpose),
                "failed": self.failed_calls,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "cost_usd": round(self.cost_usd, 6),
            },
            "seconds": round(self.seconds, 2),
            "misses": self.misses,
            "judge": self.judge.as_dict() if self.judge is not None else None,
            "drafts": self.drafts.as_dict() if self.drafts is not None else None,
        }


def _norm(value: object) -> object:
    if isinstance(value, str):
        return " ".join(value.casefold().split()) or None
    return value


def _expected_disposition(label: dict[str, Any]) -> str:
    if label.get("disposition") == "skip":
        return "skipped"
    if label.get("classification") == "C":
        return "not_inquiry"
    if label.get("classification") == "R":
        return "merged"
    return "new_inquiry"


def _field_pairs(
    label: dict[str, Any], extracted: dict[str, Any]
) -> dict[str, tuple[object, object]]:
    return {
        "customer_name": (_norm(label.get("customer_name")), _norm(extracted.get("customer_name"))),
        "customer_email": (
            _norm(label.get("customer_email")),
            _norm(extracted.get("customer_email")),
        ),
        "customer_phone": (label.get("phone_e164"), extracted.get("customer_phone")),
        "suburb": (_norm(label.get("suburb")), _norm(extracted.get("suburb"))),
        "products": (
            sorted(label.get("products") or []),
            sorted(extracted.get("product_types") or []),
        ),
        "dimensions": (bool(label.get("has_dimensions")), bool(extracted.get("dimensions"))),
    }


def score(report: EvalReport, labels: list[dict[str, Any]], rows: dict[str, Message]) -> None:
    report.fields = {name: FieldScore() for name in FIELDS}
    for label in labels:
        msg = rows.get(label.get("message_id") or "")
        report.messages += 1
        if msg is None:
            report.misses.append(f"{label['file']}: not ingested")
            continue
        want = _expected_disposition(label)
        report.disposition.total += 1
        if msg.disposition.startswith(want):
            report.disposition.right += 1
        else:
            report.misses.append(f"{label['file']}: disposition {msg.disposition} != {want}")
        extracted = dict(msg.extracted or {})
        grounding = extracted.get("grounding") or {}
        drops = list(grounding.get("drops") or [])
        if drops:
            report.drop_messages += 1
            report.drops += len(drops)
            report.drops_by_field.update(d.get("field", "?") for d in drops)
            report.drops_by_why.update(d.get("why", "?") for d in drops)
        report.model_made += len(grounding.get("model_made") or [])
        if label.get("disposition") == "skip" or label.get("classification") is None:
            continue
        report.classes.total += 1
        if msg.classification == label["classification"]:
            report.classes.right += 1
        else:
            report.misses.append(
                f"{label['file']}: class {msg.classification} != {label['classification']}"
            )
        if label["classification"] not in {"A", "B"}:
            continue
        for name, (expected, got) in _field_pairs(label, extracted).items():
            report.fields[name].total += 1
            if expected == got:
                report.fields[name].right += 1
            else:
                report.misses.append(f"{label['file']}: {name} {got!r} != {expected!r}")


async def _ingest(
    app: App, folder: Path, offline: bool, judge: int, drafts: int = 0
) -> tuple[JudgeReport | None, DraftPointsReport | None]:
    """Ingest the folder; then, when asked and a model is configured, the drafts pass (points
    of an instruction) and the judge pass. The pipeline, drafting and the judge share the eval
    folder's one model client (its App's)."""
    from core.sources.eml import EmlFolderSource

    try:
        pipeline = app.pipeline(offline=offline, first_replies=False)  # intake's own cost
        mailbox = mailbox_of(folder)
        sent = frozenset({mailbox}) if mailbox else frozenset()
        await pipeline.ingest_source(EmlFolderSource(folder, sent_from=sent))
        points = judged = None
        if not offline and drafts > 0:
            from core.evals.draft_points import check_drafts

            points = await check_drafts(app, limit=drafts)
        if not offline and judge > 0:
            from core.evals.judge import judge_drafts

            judged = await judge_drafts(app, limit=judge)
        return judged, points
    finally:
        await app.aclose()


def mailbox_of(folder: Path) -> str | None:
    """The address most of the folder's mail was sent to: the mailbox it was exported from."""
    from collections import Counter
    from email.parser import BytesHeaderParser
    from email.utils import getaddresses

    seen: Counter[str] = Counter()
    for path in sorted(folder.glob("*.eml")):
        with path.open("rb") as handle:
            headers = BytesHeaderParser().parse(handle)
        for _, address in getaddresses([str(v) for v in headers.get_all("To", [])]):
            if "@" in address:
                seen[address.lower()] += 1
    return seen.most_common(1)[0][0] if seen else None


def run_eval(
    folder: Path,
    *,
    settings_from: App | Services | None = None,
    offline: bool = False,
    judge: int = 0,
    drafts: int = 0,
) -> EvalReport:
    """Ingest ``folder`` into a temporary data folder and score it against its labels.json;
    ``judge``: draft and score that many replies (tier 3, reported only); ``drafts``: draft
    that many from an instruction with points and count the points missed."""
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="inquiry-bridge-eval-") as tmp:
        app = build_app(
            Path(tmp) / "home",
            clock=settings_from.clock if settings_from is not None else None,
            secrets=settings_from.secrets if settings_from is not None else None,
        )
        services = app._services
        try:
            if settings_from is not None:
                services.settings.update({k: settings_from.settings.get(k) for k in LLM_SETTINGS})
            # the labelled folder is one mailbox's mail: its own address makes colleagues'
            # mail internal and ours outgoing, as the signed-in account does for a real sync
            mailbox = mailbox_of(folder)
            if mailbox:
                services.settings.update({"general.owner_addresses": [mailbox]})
            url = services.settings.text("llm.base_url").strip()
            offline = offline or not url
            mode = (
                "rules only"
                if offline
                else f"model {services.settings.text('llm.tier1')} / "
                f"{services.settings.text('llm.tier2')} at {url}"
            )
            report = EvalReport(folder=str(folder), mode=mode)
            started = time.perf_counter()
            report.judge, report.drafts = asyncio.run(_ingest(app, folder, offline, judge, drafts))
            report.seconds = time.perf_counter() - started
            with services.store.session() as session:
                rows = {m.message_id: m for m in session.scalars(select(Message))}
                score(report, labels, rows)
                if not offline:
                    report.provider, report.structured_modes = _modes_used(services, session)
                for call in session.scalars(select(LLMCall)):
                    report.calls += 1
                    report.calls_by_purpose[call.purpose] += 1
                    report.failed_calls += 0 if call.ok else 1
                    report.prompt_tokens += call.prompt_tokens or 0
                    report.completion_tokens += call.completion_tokens or 0
                    report.cost_usd += call.cost_usd or 0.0
        finally:
            app.close()
    return report


def _modes_used(services: Services, session: Session) -> tuple[str, dict[str, str]]:
    """The provider preset and, per tier model, the structured-output mode intake ended in
    (what the capability negotiation learnt during the run, else where it starts)."""
    from core.db.app_state import get_state
    from core.llm import providers
    from core.llm.capabilities import STATE_PREFIX, Capabilities, endpoint_key

    settings = services.settings
    url = settings.text("llm.base_url").strip()
    preset = providers.for_address(url, settings.text("llm.provider"))
    default = preset.capabilities if preset is not None else Capabilities()
    if not settings.flag("llm.use_json_schema") and default.structured == "schema":
        default = Capabilities(structured="text")
    modes = {}
    for tier in (1, 2):
        model = settings.text(f"llm.tier{tier}")
        learnt = Capabilities.from_json(get_state(session, STATE_PREFIX + endpoint_key(url, model)))
        modes[f"tier{tier} {model}"] = (learnt or default).structured
    name = f"{preset.name_en} ({preset.key})" if preset is not None else "OpenAI-compatible"
    return name, modes


def _pct(score: FieldScore) -> str:
    return f"{score.right}/{score.total}  {score.share * 100:5.1f} %"


def format_report(report: EvalReport) -> str:
    lines = [
        f"eval: {report.messages} labelled messages in {report.folder}",
        f"mode: {report.mode}   ({report.seconds:.1f} s)",
        *(
            [
                f"provider: {report.provider}; structured output: "
                + ", ".join(f"{k} {v}" for k, v in report.structured_modes.items())
            ]
            if report.provider
            else []
        ),
        f"disposition      {_pct(report.disposition)}",
        f"class (A/B/R/C)  {_pct(report.classes)}",
        "fields (A/B inquiries):",
    ]
    lines += [f"  {name:<15}{_pct(s)}" for name, s in report.fields.items()]
    by_field = ", ".join(f"{k} {v}" for k, v in report.drops_by_field.most_common()) or "none"
    by_why = ", ".join(f"{k} {v}" for k, v in report.drops_by_why.most_common()) or "none"
    lines += [
        f"grounding drops: {report.drops} values on {report.drop_messages} messages "
        f"(by field: {by_field}; by reason: {by_why}); model-made inferences kept: "
        f"{report.model_made}",
        f"LLM calls: {report.calls} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(report.calls_by_purpose.items())) or 'none'}"
        f"; failed {report.failed_calls}), tokens {report.prompt_tokens} in / "
        f"{report.completion_tokens} out, estimated cost ${report.cost_usd:.4f}",
    ]
    if report.drafts is not None:
        lines.append(report.drafts.line())
    if report.judge is not None:
        lines.append(report.judge.line())
    if report.mode == "rules only":
        lines.append(
            "note: rules only (no endpoint or --offline): no calls, no cost, confidence low. A "
            "model run needs llm.base_url (or INQUIRY_BRIDGE_LLM_BASE_URL), tier names and the "
            "API key in the keyring; it then costs two calls per inquiry mail, one per other mail."
        )
    return "\n".join(lines)
