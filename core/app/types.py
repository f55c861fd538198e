"""The types, constants and pure helpers a front end gets from ``App``, in one module.

The desktop imports ``core.app`` (``App``, ``build_app``) and this module, nothing else from
``core`` (``tests/foundation/test_layers.py`` checks it). What is here is data: the dataclasses
``App``'s services return, the names of stages and settings, and formatting helpers with no I/O
(Sydney time, phone numbers, inert text). Anything that reads the store, the network, the model
or a file is a method on an ``App`` service instead.

The classes of ``App``'s lazily built parts (``LazyDrafts``, ``LazyLLM``, ``NotificationCenter``,
``VoiceService``, ``LiveDictation``, ``WavWriter``) are here for annotations only: front ends get
their instances from ``App``, never build them.
"""

from __future__ import annotations

from core.app.connection_tests import LLMProbeResult as LLMProbeResult
from core.app.connection_tests import TelegramProbeResult as TelegramProbeResult
from core.app.lazy import LazyDrafts as LazyDrafts
from core.app.lazy import LazyLLM as LazyLLM
from core.app.voice import VoiceService as VoiceService
from core.clock import Clock as Clock
from core.clock import SystemClock as SystemClock
from core.clock import to_sydney as to_sydney
from core.clock import utc as utc
from core.config import Settings as Settings
from core.errors import AudioDeviceError as AudioDeviceError
from core.errors import InquiryBridgeError as InquiryBridgeError
from core.errors import LLMNotConfigured as LLMNotConfigured
from core.errors import StoreError as StoreError
from core.events import DraftChanged as DraftChanged
from core.events import Event as Event
from core.events import EventBus as EventBus
from core.events import InquiryCreated as InquiryCreated
from core.events import InquiryUpdated as InquiryUpdated
from core.events import MessageMerged as MessageMerged
from core.events import MessageRecorded as MessageRecorded
from core.events import NoteAdded as NoteAdded
from core.events import NotificationRaised as NotificationRaised
from core.events import StageChanged as StageChanged
from core.events import StageOverdue as StageOverdue
from core.events import SyncStatus as SyncStatus
from core.glossary import product_name as product_name
from core.import_lock import IMPORTING as IMPORTING
from core.inquiry.board import BoardQuery as BoardQuery
from core.llm.providers import PROVIDERS as PROVIDERS
from core.llm.providers import Provider as Provider
from core.llm.providers import by_key as provider_by_key
from core.llm.providers import for_address as provider_for_address
from core.mail.attachment_risk import FileVerdict as FileVerdict
from core.mail.attachment_risk import judge_file as judge_file
from core.notify.inquiry_alert import tray_text as tray_text
from core.notify.outbox import NotificationCenter as NotificationCenter
from core.secrets import ENV_OVERRIDES as ENV_OVERRIDES
from core.secrets import GRAPH_TOKEN as GRAPH_TOKEN
from core.secrets import LLM_API_KEY as LLM_API_KEY
from core.secrets import TELEGRAM_TOKEN as TELEGRAM_TOKEN
from core.text.inert import clickable_url as clickable_url
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
from core.voice.transcriber import ChineseNeedsMultilingualModel as ChineseNeedsMultilingualModel
from core.voice.transcriber import Transcriber as Transcriber
from core.voice.transcriber import Transcript as Transcript
from core.voice.transcriber import TranscriptionCancelled as TranscriptionCancelled

# every name above: the renamed ones (``provider_by_key``…) are exported only by this list
__all__ = [
    "BYTES_PER_SECOND",
    "ENV_OVERRIDES",
    "GRAPH_TOKEN",
    "IMPORTING",
    "LLM_API_KEY",
    "PROVIDERS",
    "RECOMMENDED",
    "SAMPLE_RATE",
    "TELEGRAM_TOKEN",
    "WHISPER_MODEL_ENV_VAR",
    "AudioDeviceError",
    "BoardQuery",
    "ChineseNeedsMultilingualModel",
    "Clock",
    "DraftChanged",
    "Event",
    "EventBus",
    "FileVerdict",
    "HubModel",
    "InquiryBridgeError",
    "InquiryCreated",
    "InquiryUpdated",
    "LLMNotConfigured",
    "LLMProbeResult",
    "LazyDrafts",
    "LazyLLM",
    "LiveDictation",
    "MessageMerged",
    "MessageRecorded",
    "ModelChoice",
    "NoteAdded",
    "NotificationCenter",
    "NotificationRaised",
    "Provider",
    "Settings",
    "StageChanged",
    "StageOverdue",
    "StoreError",
    "SyncStatus",
    "SystemClock",
    "TelegramProbeResult",
    "Transcriber",
    "Transcript",
    "TranscriptionCancelled",
    "VoiceService",
    "WavWriter",
    "clickable_url",
    "format_size",
    "judge_file",
    "pcm_level",
    "pcm_seconds",
    "product_name",
    "provider_by_key",
    "provider_for_address",
    "to_sydney",
    "tray_text",
    "utc",
]
