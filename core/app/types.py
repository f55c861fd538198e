"""The types, constants and pure helpers a front end gets from ``App``, in one module.

The desktop imports ``core.app`` (``App``, ``build_app``) and this module, nothing else from
``core`` (``tests/foundation/test_layers.py`` checks it). What is here is data: the dataclasses
``App``'s services return, the names of stages and settings, and formatting helpers with no I/O
(Sydney time, phone numbers, inert text). Anything that reads the store, the network, the model
or a file is a method on an ``App`` service instead.

The classes of ``App``'s lazily built parts (``LazyDrafts``, ``LazyLLM``, ``NotificationCenter``,
``VoiceService``, ``LiveDictation``, ``WavWriter``) are here for annotations only: front ends get
their instances from ``App``, never build them.

Two kinds of name are not imported with this module, so that importing it stays as cheap as
starting the app (``tests/desktop/test_startup_imports.py``):

* classes of parts ``App`` builds on first use (drafting's composer, edits and decisions, the
  assistant's ``Conversation`` and its ``ChatEvent``, the sync runtimes and ``SyncScheduler``,
  ``repair``'s ``RepairReport``) are here for annotations only (``TYPE_CHECKING``);
* the assistant's turn events (``TextDelta``, ``ToolActivity``, ``TurnDone``) and ``tool_label``
  live in ``core.agent.conversation``, which pulls in the HTTP client: they load on first access
  (``__getattr__`` below), which a front end makes only once a turn is running.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from core.app.lazy import LazyDrafts as LazyDrafts
from core.app.lazy import LazyLLM as LazyLLM
from core.app.lease import Runner as Runner
from core.clock import Clock as Clock
from core.clock import SystemClock as SystemClock
from core.clock import to_sydney as to_sydney
from core.clock import utc as utc
from core.config import Settings as Settings
from core.config import SettingValue as SettingValue
from core.db.models import ALL_STAGES as ALL_STAGES
from core.db.models import CLOSED_STAGES as CLOSED_STAGES
from core.db.models import STAGES as STAGES
from core.errors import AudioDeviceError as AudioDeviceError
from core.errors import InquiryBridgeError as InquiryBridgeError
from core.errors import LLMNotConfigured as LLMNotConfigured
from core.errors import StoreError as StoreError
from core.errors import detail_in as detail_in
from core.errors import own_sentence as own_sentence
from core.events import DraftChanged as DraftChanged
from core.events import Event as Event
from core.events import EventBus as EventBus
from core.events import InquiryCreated as InquiryCreated
from core.events import InquiryUpdated as InquiryUpdated
from core.events import MailWaiting as MailWaiting
from core.events import MessageMerged as MessageMerged
from core.events import MessageRecorded as MessageRecorded
from core.events import NeedsAttention as NeedsAttention
from core.events import NoteAdded as NoteAdded
from core.events import NotificationRaised as NotificationRaised
from core.events import StageChanged as StageChanged
from core.events import StageOverdue as StageOverdue
from core.events import StoreChanged as StoreChanged
from core.events import SyncStatus as SyncStatus
from core.import_lock import IMPORTING as IMPORTING
from core.secrets import ENV_OVERRIDES as ENV_OVERRIDES
from core.secrets import GRAPH_TOKEN as GRAPH_TOKEN
from core.secrets import LLM_API_KEY as LLM_API_KEY
from core.secrets import TELEGRAM_TOKEN as TELEGRAM_TOKEN
from core.secrets import Secrets as Secrets

if TYPE_CHECKING:  # loaded on first access at run time (``_ON_FIRST_USE``)
    from core.app.assistant import today_name as today_name
    from core.app.connection_tests import LLMProbeResult as LLMProbeResult
    from core.app.connection_tests import TelegramProbeResult as TelegramProbeResult
    from core.app.knowledge import KnowledgeChanged as KnowledgeChanged
    from core.app.knowledge import KnowledgeDoc as KnowledgeDoc
    from core.app.knowledge import KnowledgeService as KnowledgeService
    from core.app.mail_accounts import MailAccountService as MailAccountService
    from core.app.memories import EDITABLE_STATUSES as EDITABLE_STATUSES
    from core.app.memories import PAGE_STATUSES as PAGE_STATUSES
    from core.app.memories import MemoryItem as MemoryItem
    from core.app.proposals import ProposalItem as ProposalItem
    from core.app.quotes import NewQuote as NewQuote
    from core.app.stats import Stats as Stats
    from core.app.voice import VoiceService as VoiceService
    from core.drafts.attachments import SEND_LIMIT_BYTES as SEND_LIMIT_BYTES
    from core.drafts.attachments import FileOption as FileOption
    from core.drafts.attachments import human_size as human_size
    from core.drafts.instruction_points import MISSING as INSTRUCTION_MISSING
    from core.drafts.instruction_points import PARROT as PARROT_FLAG
    from core.drafts.reader import DraftReader as DraftReader
    from core.drafts.recent import RecentContact as RecentContact
    from core.drafts.view import DraftView as DraftView
    from core.drafts.zh_times import localise_times as localise_times
    from core.glossary import product_keys as product_keys
    from core.glossary import product_name as product_name
    from core.inquiry.board import COLUMNS as COLUMNS
    from core.inquiry.board import BoardPage as BoardPage
    from core.inquiry.board import BoardQuery as BoardQuery
    from core.inquiry.board import BoardRow as BoardRow
    from core.inquiry.detail import AttachmentInfo as AttachmentInfo
    from core.inquiry.detail import InquiryDetail as InquiryDetail
    from core.inquiry.detail import MessageInfo as MessageInfo
    from core.inquiry.edit import InvalidField as InvalidField
    from core.inquiry.files import AttachmentFile as AttachmentFile
    from core.inquiry.stages import next_stage as next_stage
    from core.llm.providers import PROVIDERS as PROVIDERS
    from core.llm.providers import Provider as Provider
    from core.llm.providers import by_key as provider_by_key
    from core.llm.providers import for_address as provider_for_address
    from core.mail.attachment_risk import FileVerdict as FileVerdict
    from core.mail.attachment_risk import judge_file as judge_file
    from core.mail.reflow import mostly_chinese as mostly_chinese
    from core.mail.reflow import reflow as reflow
    from core.notify.disk_alert import disk_size as disk_size
    from core.notify.inquiry_alert import tray_text as tray_text
    from core.notify.outbox import NotificationCenter as NotificationCenter
    from core.phones import display_phone as display_phone
    from core.quotes.items import LineItem as LineItem
    from core.quotes.money import Totals as Totals
    from core.quotes.money import aud as aud
    from core.rhythm.attention import AttentionItem as AttentionItem
    from core.rhythm.briefing import Briefing as Briefing
    from core.rhythm.briefing import Visit as Visit
    from core.rhythm.briefing import place_of as place_of
    from core.rhythm.reminders import SNOOZE_CHOICES as SNOOZE_CHOICES
    from core.stats.money import MoneyFigures as MoneyFigures
    from core.text.email_address import is_email_address as is_email_address
    from core.text.inert import clickable_url as clickable_url
    from core.text.inert import markdown_rich_text as markdown_rich_text
    from core.text.inert import plain_tooltip as plain_tooltip
    from core.text.inert import visible_controls as visible_controls
    from core.voice.audio import BYTES_PER_SECOND as BYTES_PER_SECOND
    from core.voice.audio import SAMPLE_RATE as SAMPLE_RATE
    from core.voice.audio import WavWriter as WavWriter
    from core.voice.audio import pcm_level as pcm_level
    from core.voice.audio import pcm_seconds as pcm_seconds
    from core.voice.download import RECOMMENDED as RECOMMENDED
    from core.voice.download import HubModel as HubModel
    from core.voice.live import LiveDictation as LiveDictation
    from core.voice.models import ENV_VAR as WHISPER_MODEL_ENV_VAR
    from core.voice.models import ModelChoice as ModelChoice
    from core.voice.models import format_size as format_size
    from core.voice.transcriber import (
        ChineseNeedsMultilingualModel as ChineseNeedsMultilingualModel,
    )
    from core.voice.transcriber import Transcriber as Transcriber
    from core.voice.transcriber import Transcript as Transcript
    from core.voice.transcriber import TranscriptionCancelled as TranscriptionCancelled
    from core.voice.worker import RemoteLiveDictation as _RemoteLiveDictation

    # what ``VoiceService.live`` returns: recognition in this process or in the Whisper child
    Dictation = LiveDictation | _RemoteLiveDictation

    # annotations only (see the module docstring)
    from core.agent.conversation import ChatEvent as ChatEvent
    from core.agent.conversation import Conversation as Conversation
    from core.agent.conversation import TextDelta as TextDelta
    from core.agent.conversation import ToolActivity as ToolActivity
    from core.agent.conversation import TurnDone as TurnDone
    from core.agent.conversation import tool_label as tool_label
    from core.app.graph_runtime import GraphRuntime as GraphRuntime
    from core.app.repair_report import RepairReport as RepairReport
    from core.drafts.decisions import OwnerDecisions as OwnerDecisions
    from core.drafts.draft_composer import DraftComposer as DraftComposer
    from core.drafts.edits import OwnerEdits as OwnerEdits
    from core.drafts.factguard import rendering_mismatches as rendering_mismatches
    from core.mailbox.runtime import MailboxRuntime as MailboxRuntime
    from core.rhythm.appointments import Confirmed as VisitConfirmed
    from core.rhythm.visits import Proposal as VisitProposal
    from core.schedule import SyncScheduler as SyncScheduler
    from core.stats.trade import Overview as Overview

# every name here: the renamed ones (``provider_by_key``…) are exported only by this list
__all__ = [
    "ALL_STAGES",
    "BYTES_PER_SECOND",
    "CLOSED_STAGES",
    "COLUMNS",
    "EDITABLE_STATUSES",
    "ENV_OVERRIDES",
    "GRAPH_TOKEN",
    "IMPORTING",
    "INSTRUCTION_MISSING",
    "LLM_API_KEY",
    "PAGE_STATUSES",
    "PARROT_FLAG",
    "PROVIDERS",
    "RECOMMENDED",
    "SAMPLE_RATE",
    "SEND_LIMIT_BYTES",
    "SNOOZE_CHOICES",
    "STAGES",
    "TELEGRAM_TOKEN",
    "WHISPER_MODEL_ENV_VAR",
    "AttachmentFile",
    "AttachmentInfo",
    "AttentionItem",
    "AudioDeviceError",
    "BoardPage",
    "BoardQuery",
    "BoardRow",
    "Briefing",
    "ChatEvent",
    "ChineseNeedsMultilingualModel",
    "Clock",
    "Conversation",
    "Dictation",
    "DraftChanged",
    "DraftComposer",
    "DraftReader",
    "DraftView",
    "Event",
    "EventBus",
    "FileOption",
    "FileVerdict",
    "GraphRuntime",
    "HubModel",
    "InquiryBridgeError",
    "InquiryCreated",
    "InquiryDetail",
    "InquiryUpdated",
    "InvalidField",
    "KnowledgeChanged",
    "KnowledgeDoc",
    "KnowledgeService",
    "LLMNotConfigured",
    "LLMProbeResult",
    "LazyDrafts",
    "LazyLLM",
    "LineItem",
    "LiveDictation",
    "MailAccountService",
    "MailWaiting",
    "MailboxRuntime",
    "MemoryItem",
    "MessageInfo",
    "MessageMerged",
    "MessageRecorded",
    "ModelChoice",
    "MoneyFigures",
    "NeedsAttention",
    "NewQuote",
    "NoteAdded",
    "NotificationCenter",
    "NotificationRaised",
    "Overview",
    "OwnerDecisions",
    "OwnerEdits",
    "ProposalItem",
    "Provider",
    "RecentContact",
    "RepairReport",
    "Runner",
    "Secrets",
    "SettingValue",
    "Settings",
    "StageChanged",
    "StageOverdue",
    "Stats",
    "StoreChanged",
    "StoreError",
    "SyncScheduler",
    "SyncStatus",
    "SystemClock",
    "TelegramProbeResult",
    "TextDelta",
    "ToolActivity",
    "Totals",
    "Transcriber",
    "Transcript",
    "TranscriptionCancelled",
    "TurnDone",
    "Visit",
    "VisitConfirmed",
    "VisitProposal",
    "VoiceService",
    "WavWriter",
    "aud",
    "clickable_url",
    "display_phone",
    "format_size",
    "human_size",
    "is_email_address",
    "judge_file",
    "localise_times",
    "markdown_rich_text",
    "mostly_chinese",
    "next_stage",
    "pcm_level",
    "pcm_seconds",
    "place_of",
    "plain_tooltip",
    "product_keys",
    "product_name",
    "provider_by_key",
    "provider_for_address",
    "reflow",
    "rendering_mismatches",
    "to_sydney",
    "today_name",
    "tool_label",
    "tray_text",
    "utc",
    "visible_controls",
]

# name -> the module that defines it (``module:name`` when exported under another name),
# imported on first access, not with this module: the desktop's start, the CLI's parser and
# ``inquiries --json`` import this module, and its names pull in pydantic (quotes), the drafts'
# fact guard, the mail parser, phone numbers, Whisper's helpers, … (#44). A front end that uses
# a name loads its module then.
_ON_FIRST_USE: dict[str, str] = {
    "today_name": "core.app.assistant",
    "LLMProbeResult": "core.app.connection_tests",
    "TelegramProbeResult": "core.app.connection_tests",
    "KnowledgeChanged": "core.app.knowledge",
    "KnowledgeDoc": "core.app.knowledge",
    "KnowledgeService": "core.app.knowledge",
    "MailAccountService": "core.app.mail_accounts",
    "EDITABLE_STATUSES": "core.app.memories",
    "PAGE_STATUSES": "core.app.memories",
    "MemoryItem": "core.app.memories",
    "ProposalItem": "core.app.proposals",
    "NewQuote": "core.app.quotes",
    "Stats": "core.app.stats",
    "VoiceService": "core.app.voice",
    "SEND_LIMIT_BYTES": "core.drafts.attachments",
    "FileOption": "core.drafts.attachments",
    "human_size": "core.drafts.attachments",
    "INSTRUCTION_MISSING": "core.drafts.instruction_points:MISSING",
    "PARROT_FLAG": "core.drafts.instruction_points:PARROT",
    "DraftReader": "core.drafts.reader",
    "RecentContact": "core.drafts.recent",
    "DraftView": "core.drafts.view",
    "localise_times": "core.drafts.zh_times",
    "product_keys": "core.glossary",
    "product_name": "core.glossary",
    "COLUMNS": "core.inquiry.board",
    "BoardPage": "core.inquiry.board",
    "BoardQuery": "core.inquiry.board",
    "BoardRow": "core.inquiry.board",
    "AttachmentInfo": "core.inquiry.detail",
    "InquiryDetail": "core.inquiry.detail",
    "MessageInfo": "core.inquiry.detail",
    "InvalidField": "core.inquiry.edit",
    "AttachmentFile": "core.inquiry.files",
    "next_stage": "core.inquiry.stages",
    "PROVIDERS": "core.llm.providers",
    "Provider": "core.llm.providers",
    "provider_by_key": "core.llm.providers:by_key",
    "provider_for_address": "core.llm.providers:for_address",
    "FileVerdict": "core.mail.attachment_risk",
    "judge_file": "core.mail.attachment_risk",
    "mostly_chinese": "core.mail.reflow",
    "reflow": "core.mail.reflow",
    "disk_size": "core.notify.disk_alert",
    "tray_text": "core.notify.inquiry_alert",
    "NotificationCenter": "core.notify.outbox",
    "display_phone": "core.phones",
    "LineItem": "core.quotes.items",
    "Totals": "core.quotes.money",
    "aud": "core.quotes.money",
    "AttentionItem": "core.rhythm.attention",
    "Briefing": "core.rhythm.briefing",
    "Visit": "core.rhythm.briefing",
    "place_of": "core.rhythm.briefing",
    "SNOOZE_CHOICES": "core.rhythm.reminders",
    "MoneyFigures": "core.stats.money",
    "is_email_address": "core.text.email_address",
    "clickable_url": "core.text.inert",
    "markdown_rich_text": "core.text.inert",
    "plain_tooltip": "core.text.inert",
    "visible_controls": "core.text.inert",
    "BYTES_PER_SECOND": "core.voice.audio",
    "SAMPLE_RATE": "core.voice.audio",
    "WavWriter": "core.voice.audio",
    "pcm_level": "core.voice.audio",
    "pcm_seconds": "core.voice.audio",
    "RECOMMENDED": "core.voice.download",
    "HubModel": "core.voice.download",
    "LiveDictation": "core.voice.live",
    "WHISPER_MODEL_ENV_VAR": "core.voice.models:ENV_VAR",
    "ModelChoice": "core.voice.models",
    "format_size": "core.voice.models",
    "ChineseNeedsMultilingualModel": "core.voice.transcriber",
    "Transcriber": "core.voice.transcriber",
    "Transcript": "core.voice.transcriber",
    "TranscriptionCancelled": "core.voice.transcriber",
    "TextDelta": "core.agent.conversation",
    "ToolActivity": "core.agent.conversation",
    "TurnDone": "core.agent.conversation",
    "tool_label": "core.agent.conversation",
    "rendering_mismatches": "core.drafts.factguard",
    "Overview": "core.stats.trade",  # the 概览 charts: their sums load when the page opens
}


def __getattr__(name: str) -> object:
    """The names of ``_ON_FIRST_USE``, from their (costly) module, when first asked for."""
    if name == "Dictation":
        live: type = importlib.import_module("core.voice.live").LiveDictation
        value: object = live | _remote_live_dictation()
        globals()[name] = value
        return value
    where = _ON_FIRST_USE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attr = where.partition(":")
    with IMPORTING:  # several of these begin with pydantic (why the lock: core.import_lock)
        value = getattr(importlib.import_module(module), attr or name)
    globals()[name] = value
    return value


def _remote_live_dictation() -> type:
    from core.voice.worker import RemoteLiveDictation

    return RemoteLiveDictation
