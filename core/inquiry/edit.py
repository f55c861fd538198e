"""The owner's edits of an inquiry's customer fields and notes, each one audited.

The pipeline fills customer fields from email; the owner corrects them on the board. Every
correction is an ``audit_log`` row (``entity="inquiry"``, ``action="edit_field"``, old and new
value, actor) so "who changed this phone number" always has an answer, and an ``InquiryUpdated``
event follows the commit so every open view refreshes. Values are validated the same way the
pipeline validates model output: phones become E.164, emails must look like emails, products must
be glossary keys. Invalid input raises ``InvalidField`` (the desktop shows its Chinese message).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import cast

from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.models import CLASSIFICATIONS, CUSTOMER_FIELDS, AuditEntry, Inquiry
from core.errors import InquiryBridgeError
from core.events import InquiryUpdated
from core.glossary import is_product
from core.inquiry.search import refresh_search_text
from core.services import Services
from core.text.email_address import is_email_address

EDITABLE_FIELDS: tuple[str, ...] = (*CUSTOMER_FIELDS, "classification", "urgency", "language")


class InvalidField(InquiryBridgeError):
    """A value the owner typed cannot be stored (``field`` names it)."""

    code = "error"

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(detail, field=field)
        self.field = field


def normalise_value(field: str, value: object, region: str = "AU") -> str | list[str] | None:
    """Validate and normalise one field value; raise ``InvalidField`` when it cannot be stored."""
    if field not in EDITABLE_FIELDS:
        raise InvalidField(field, f"{field} 不可编辑")
    if field in ("product_types", "dimensions"):
        # a list (what is not iterable fails here, as it always did)
        values = cast("Iterable[object]", value or [])
        items = [str(v).strip() for v in values if str(v).strip()]
        if field == "product_types":
            bad = [v for v in items if not is_product(v)]
            if bad:
                raise InvalidField(field, f"未知产品：{', '.join(bad)}")
        return list(dict.fromkeys(items))
    text = ("" if value is None else str(value)).strip()
    if field == "customer_email":
        if text and not is_email_address(text):
            raise InvalidField(field, f"邮箱格式不对：{text}")
        return text.lower() or None
    if field == "customer_phone":
        if not text:
            return None
        import phonenumbers  # with the first phone edited, not with the board (#44)

        try:
            parsed = phonenumbers.parse(text, region)
        except phonenumbers.NumberParseException:
            raise InvalidField(field, f"电话号码无法识别：{text}") from None
        if not phonenumbers.is_possible_number(parsed):
            raise InvalidField(field, f"电话号码无法识别：{text}")
        return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)
    if field == "classification":
        if text not in CLASSIFICATIONS:
            raise InvalidField(field, f"分类只能是 A、B 或 C：{text}")
        return text
    if field == "language":
        return text or "en"
    return text or None


class InquiryEditor:
    """Owner edits of customer fields and notes (the desktop's detail view calls this)."""

    def __init__(self, services: Services) -> None:
        self.services = services

    def update_fields(
        self, inquiry_id: int, changes: Mapping[str, object], *, actor: str = "owner"
    ) -> tuple[str, ...]:
        """Apply ``changes``; returns the fields that really changed (unchanged ones: no audit)."""
        changed = self.services.store.write(self._field_writer(inquiry_id, changes, actor))
        self._publish(inquiry_id, changed)
        return changed

    async def update_fields_async(
        self, inquiry_id: int, changes: Mapping[str, object], *, actor: str = "owner"
    ) -> tuple[str, ...]:
        """``update_fields`` on the store's writer thread, awaited from the event loop."""
        changed = await self.services.store.run(self._field_writer(inquiry_id, changes, actor))
        self._publish(inquiry_id, changed)
        return changed

    def _publish(self, inquiry_id: int, changed: tuple[str, ...]) -> None:
        if changed:
            self.services.bus.publish(InquiryUpdated(inquiry_id, changed))

    def _field_writer(
        self, inquiry_id: int, changes: Mapping[str, object], actor: str
    ) -> Callable[[Session], tuple[str, ...]]:
        """The one transaction behind both twins (values are checked before it runs)."""
        region = self.services.settings.text("general.phone_region") or "AU"
        clean = {f: normalise_value(f, v, region) for f, v in changes.items()}
        now = naive_utc(self.services.clock.now())

        def _do(session: Session) -> tuple[str, ...]:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                raise InvalidField("id", f"没有这个询盘：{inquiry_id}")
            changed: list[str] = []
            for field, new in clean.items():
                old = getattr(inquiry, field)
                if (list(old or []) if isinstance(new, list) else old) == new:
                    continue
                setattr(inquiry, field, new)
                changed.append(field)
                session.add(
                    AuditEntry(
                        entity="inquiry",
                        entity_id=inquiry_id,
                        action="edit_field",
                        detail={"field": field, "old": old, "new": new},
                        actor=actor,
                        at=now,
                    )
                )
            if changed:
                inquiry.updated_at = now
                refresh_search_text(inquiry, region)
            return tuple(changed)

        return _do

    def add_note(
        self, inquiry_id: int, text: str, *, actor: str = "owner", source: str = "desktop"
    ) -> int:
        """Add a typed note (a ``customer_note`` memory) to an inquiry; audited, events published.

        One implementation for every kind of note: typed here, dictated (with its recording) or
        from Telegram all go through ``core.inquiry.notes.add_customer_note``.
        """
        from core.inquiry.notes import add_customer_note

        return add_customer_note(self.services, inquiry_id, text, source=source, actor=actor)
