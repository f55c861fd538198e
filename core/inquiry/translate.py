"""The 翻译 button: a Chinese translation of one customer message, made once and cached.

The owner reads English mail with help: the detail view asks for a translation of a message, the
tier-2 model writes it (prompt file ``core/llm/prompts/translate.md``, owned by the LLM module),
and the answer is stored in ``Message.translation_zh`` so the second click (and every later
reader: the board, Telegram, the assistant) costs nothing. The LLM call is an awaited coroutine;
the desktop awaits it on the qasync loop so the window never freezes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Unpack

from sqlalchemy.orm import Session

from core.db.models import Message
from core.errors import InquiryBridgeError, LLMNotConfigured
from core.services import Services

if TYPE_CHECKING:  # the call record only: no pydantic for a board that never translates
    from core.llm.model import TextCall


class MessageNotFound(InquiryBridgeError):
    code = "not_found"


class TextLLM(Protocol):
    """The part of ``core.llm.model.ModelClient`` this module uses."""

    @property
    def available(self) -> bool: ...

    async def text(self, **call: Unpack[TextCall]) -> str: ...


class MessageTranslator:
    """Translate messages to Chinese with the tier-2 model, caching each answer in the store."""

    def __init__(self, services: Services, llm: TextLLM | None) -> None:
        self.services = services
        self.llm = llm

    def cached(self, message_pk: int) -> str | None:
        with self.services.store.session() as session:
            message = session.get(Message, message_pk)
            return message.translation_zh if message is not None else None

    async def translate(self, message_pk: int, *, force: bool = False) -> str:
        """The Chinese translation of a message's new text (cached unless ``force``)."""

        def _read(session: Session) -> tuple[str | None, str, str, int | None]:
            message = session.get(Message, message_pk)
            if message is None:
                raise MessageNotFound(f"message {message_pk}")
            body = message.body_text or message.body_full or ""
            return message.translation_zh, message.subject or "", body, message.inquiry_id

        cached, subject, body, inquiry_id = await self.services.store.read(_read)
        if cached and not force:
            return cached
        if self.llm is None or not self.llm.available:
            raise LLMNotConfigured()
        translation = (
            await self.llm.text(
                tier=2,
                purpose="translate",
                prompt="translate",
                variables={"text": f"{subject}\n\n{body}".strip() if subject else body},
                refs={"message_pk": message_pk, "inquiry_id": inquiry_id},
            )
        ).strip()

        def _store(session: Session) -> None:
            message = session.get(Message, message_pk)
            if message is not None:
                message.translation_zh = translation

        await self.services.store.run(_store)
        return translation
