"""The assistant behind the facade: named conversations, one per channel and name.

Front ends ask ``App.assistant.conversation(name, channel=...)`` and keep the object; the same
name on the same channel is the same conversation for the life of the ``App``. The assistant's
drafting is the composer and reader only (``core.agent.tools``): nothing here can send.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.app.lazy import LazyDrafts, LazyLLM
from core.errors import LLMUnavailable
from core.import_lock import IMPORTING
from core.services import Services

if TYPE_CHECKING:
    from core.agent.conversation import Conversation


class AssistantService:
    def __init__(self, services: Services, llm: LazyLLM, drafts: LazyDrafts) -> None:
        self._services = services
        self._llm = llm
        self._drafts = drafts
        self._conversations: dict[tuple[str, str], Conversation] = {}

    @property
    def available(self) -> bool:
        """An AI endpoint is configured: the assistant can answer."""
        return self._llm.available

    def conversation(self, name: str, *, channel: str) -> Conversation:
        """The conversation ``name`` on ``channel`` ("desktop", "telegram", "cli")."""
        key = (channel, name)
        found = self._conversations.get(key)
        if found is not None:
            return found
        if not self.available:
            raise LLMUnavailable("未设置 AI 服务地址 (llm.base_url / INQUIRY_BRIDGE_LLM_BASE_URL)")
        with IMPORTING:
            from core.agent.conversation import Conversation
            from core.agent.loop import Assistant
        assistant = Assistant(
            self._services, self._llm.client(), self._drafts.service(), channel=channel
        )
        conversation = Conversation(name=name, channel=channel, assistant=assistant)
        self._conversations[key] = conversation
        return conversation
