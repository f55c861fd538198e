"""Understanding: what a message says, from the model (or the offline rules). Never decides.

Cheap before expensive: a ``C`` costs one call (classify), an inquiry email two (classify, then
extract). The view the model sees is the quote-stripped text plus the thread's context — the
inquiry the thread already has, and what earlier messages of the same thread still in flight in
this run said (``fold_in_flight``), so a reply is understood as a reply even before its parent's
merge is committed.

A bad model answer costs a retry, not a message: schema break, unreachable endpoint or another
model error become an ``Understanding`` with ``error_reason`` (applying turns that into
``pending`` with ``attempts + 1``). After the first ``LLMUnavailable`` the run stops calling the
model.

No message waits forever on a model: when the model cannot be used for it — an error that is not
transient (a refused request, an unknown model, a rejected key), or the last of
``intake.max_attempts`` tries (unreachable, busy, a schema it keeps breaking) — the message gets
the rules' answer at ``low`` confidence with ``model_unusable`` set, which applying turns into a
需要您确认 item; the pipeline tells the owner once per outage (``SyncStatus`` source ``llm``).
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from core import tasks
from core.db.models import Message
from core.errors import LLMContextTooLong, LLMDown, LLMError, LLMSchemaError, LLMUnavailable
from core.import_lock import IMPORTING
from core.intake import budget, merge
from core.intake.jobs import Job, Run, Understanding, is_reply
from core.intake.view import MessageView, view_from_parsed
from core.services import Services

if TYPE_CHECKING:
    from core.intake.escalation_opinion import Opinion
    from core.llm.model import ModelClient

_HELPERS_LOADED = threading.Event()


def _load_model_helpers() -> None:
    with IMPORTING:
        import core.intake.classify
        import core.intake.extract  # noqa: F401
    _HELPERS_LOADED.set()


async def model_helpers_loaded() -> None:
    """classify/extract load on first use, on a worker thread: importing them (pydantic, the
    rules' compiled patterns) took 0.2 s, and done on the loop it froze the tray app's window
    for the first mail of a run."""
    if not _HELPERS_LOADED.is_set():
        await tasks.io(_load_model_helpers)


class Understander:
    """Classifies and extracts one job at a time; many run concurrently (one task per job)."""

    def __init__(
        self,
        services: Services,
        llm: ModelClient | None,
        *,
        offline: bool,
        strip_quotes_enabled: bool,
        own_addresses: list[str],
        region: str,
        max_attempts: int = 3,
    ) -> None:
        self.max_attempts = max(1, max_attempts)
        self.services = services
        self.llm = llm
        self.offline = offline
        self.strip_quotes_enabled = strip_quotes_enabled
        self.own_addresses = own_addresses
        self.region = region

    async def understand(self, job: Job, run: Run) -> Understanding:
        """What one message says; a bug or a runaway message ends that message only
        (``failed:internal`` / ``failed:timeout``, see core.intake.budget)."""
        return await budget.guarded(self._understand(job, run), failed_understanding)

    async def _understand(self, job: Job, run: Run) -> Understanding:
        """Classify (and extract) one message; never raises for model trouble."""
        if job.outgoing:
            return Understanding()
        # Earlier in-flight messages of the same thread/customer: wait for their *understanding*
        # (not their merge, which would serialise the whole run behind the merge loop) and fold
        # what they say into the context the DB does not have yet.
        earlier: list[tuple[Job, Understanding]] = []
        for dep in job.deps:
            if dep.task is not None:
                earlier.append((dep, await asyncio.shield(dep.task)))
        thread_inquiry, known_customer = await self.services.store.read(
            lambda s: self.thread_context(s, job)
        )
        thread_inquiry, known_customer = fold_in_flight(
            job, thread_inquiry, known_customer, earlier
        )
        view = self.view(job, thread_inquiry, known_customer)
        await model_helpers_loaded()
        from core.intake import classify, extract  # loaded: a dictionary lookup

        if self.offline:
            return await self._by_rules(view, run)
        if run.llm_unusable is not None:  # this run already found the model unusable
            return await self._fallback(view, run, run.llm_unusable)
        if run.llm_down is not None:
            return await self._trouble(job, view, run, run.llm_down)
        llm = self.llm
        assert llm is not None  # no model means offline (see IntakePipeline)
        try:
            cls = await classify.classify_llm(llm, view)
            ext = None
            if cls.primary != "C":
                ext = await extract.extract_llm(llm, view)
                cls = classify.settle_confidence(cls, ext)  # trust what survived grounding
            run.llm_worked = True
            return Understanding(cls, ext, escalation=await _opinion(llm, view, cls.primary))
        except LLMError as exc:
            timed_out = isinstance(exc, LLMDown) and exc.timed_out
            if isinstance(exc, LLMContextTooLong):  # this mail is too long for it, not the model
                return await self._fallback(view, run, exc, whole_run=False)
            if isinstance(exc, LLMUnavailable) and exc.transient and not timed_out:
                # a slow local model timing out on one long mail fails that mail, not the run
                run.llm_down = run.llm_down or exc
            elif not exc.transient and not isinstance(exc, LLMSchemaError):
                run.llm_unusable = run.llm_unusable or exc
                return await self._fallback(view, run, exc)
            return await self._trouble(job, view, run, exc)

    async def _by_rules(self, view: MessageView, run: Run) -> Understanding:
        from core.intake import extract

        try:
            cls, ext = await budget.within(
                extract.understand_by_rules, view, run_in=budget.worker_call(run.parser)
            )
        except TimeoutError:
            return failed_understanding("timeout", f"over {budget.RULES_BUDGET_S:.0f} s")
        return Understanding(cls, ext)

    async def _trouble(self, job: Job, view: MessageView, run: Run, exc: LLMError) -> Understanding:
        """A transient failure (or a broken schema): ``pending`` for another try, unless this
        was the message's last try — then the rules answer it."""
        reason = (
            "schema"
            if isinstance(exc, LLMSchemaError)
            else "unavailable"
            if isinstance(exc, LLMUnavailable)
            else "error"
        )
        tried = await self.services.store.read(lambda s: _attempts(s, job.pk))
        if tried + 1 >= self.max_attempts:
            return await self._fallback(view, run, exc)
        return Understanding(error_reason=reason, error_detail=str(exc))

    async def _fallback(
        self, view: MessageView, run: Run, exc: LLMError, *, whole_run: bool = True
    ) -> Understanding:
        """The rules' answer at low confidence, marked: the owner is asked to check it.
        ``whole_run``: the model is unusable for the rest of the run too (else this mail only)."""
        if whole_run:
            run.llm_unusable = run.llm_unusable or exc
        understood = await self._by_rules(view, run)
        if understood.classification is not None:
            understood.classification.confidence = "low"
            understood.model_unusable = exc.code
        return understood

    def thread_context(self, session: Session, job: Job) -> tuple[dict[str, Any] | None, bool]:
        """The inquiry the thread (or, for a reply, the sender) already has; is the sender known."""
        inquiry = merge.find_thread_inquiry(
            session,
            job.thread_ids[0] if job.thread_ids else None,
            list(reversed(job.thread_ids[1:])),
            job.conversation_id,
            exclude_pk=job.pk,
        )
        by_email = merge.find_email_inquiry(session, job.customer_email)
        if inquiry is None and is_reply(job):
            inquiry = by_email
        context = None
        if inquiry is not None:
            context = {
                "id": inquiry.id,
                "classification": inquiry.classification,
                "customer_name": inquiry.customer_name,
                "customer_phone": inquiry.customer_phone,
                "address": inquiry.address,
                "suburb": inquiry.suburb,
                "products": list(inquiry.product_types or []),
                "stage": inquiry.stage,
            }
        return context, by_email is not None

    def view(self, job: Job, thread_inquiry: dict[str, Any] | None, known: bool) -> MessageView:
        parsed = job.parsed
        return view_from_parsed(
            parsed,
            body_text=job.body_text if self.strip_quotes_enabled else (parsed.text or ""),
            known_customer=known,
            thread_inquiry=thread_inquiry,
            own_addresses=self.own_addresses,
            region=self.region,
            message_pk=job.pk,
            inquiry_id=(thread_inquiry or {}).get("id"),
        )


async def _opinion(llm: ModelClient, view: MessageView, primary: str) -> Opinion | None:
    """The model's second opinion on a complaint (never raises: the rules decide without it).
    Asked only for mail that lands on an inquiry: a customer's, or one in a customer's thread."""
    if primary == "C" and view.thread_inquiry is None and not view.known_customer:
        return None
    with IMPORTING:
        from core.intake import escalation_opinion

    return await escalation_opinion.second_opinion(llm, view)


def _attempts(session: Session, pk: int) -> int:
    msg = session.get(Message, pk)
    return int(msg.attempts or 0) if msg is not None else 0


def failed_understanding(reason: str, detail: str) -> Understanding:
    return Understanding(error_reason=reason, error_detail=detail)


def fold_in_flight(
    job: Job,
    context: dict[str, Any] | None,
    known_customer: bool,
    earlier: list[tuple[Job, Understanding]],
) -> tuple[dict[str, Any] | None, bool]:
    """The thread context as it will be once the earlier in-flight messages are merged."""
    unmerged = [
        (dep, u)
        for dep, u in earlier
        if not dep.done.is_set()
        and u.classification is not None
        and u.classification.primary != "C"
    ]
    if not unmerged:
        return context, known_customer
    known_customer = known_customer or any(
        dep.customer_email == job.customer_email for dep, _ in unmerged
    )
    in_thread = [
        u
        for dep, u in unmerged
        if dep.message_id in job.thread_ids
        or (job.conversation_id and dep.conversation_id == job.conversation_id)
        or (is_reply(job) and dep.customer_email == job.customer_email)
    ]
    if not in_thread:
        return context, known_customer
    merged = dict(context or {"id": None, "products": []})
    for u in in_thread:
        _fold_one(merged, u)
    return merged, known_customer


def _fold_one(merged: dict[str, Any], understanding: Understanding) -> None:
    ext = understanding.extraction
    if merged.get("classification") is None and understanding.classification is not None:
        merged["classification"] = understanding.classification.primary
    if ext is None:
        return
    for key, value in (
        ("customer_name", ext.customer_name),
        ("customer_phone", ext.customer_phone),
        ("address", ext.address),
        ("suburb", ext.suburb),
    ):
        if value and not merged.get(key):
            merged[key] = value
    products = list(merged.get("products") or [])
    merged["products"] = products + [p for p in ext.product_types if p not in products]
