"""The error tree of Inquiry Bridge, drawn once, with the owner's Chinese message for each.

    InquiryBridgeError            base; ``code`` keys the user message table below
    ├── ConfigError               bad setting value, unreadable settings file
    ├── BadInput                  a command's or a form's input is wrong (not a setting)
    ├── SecretStoreUnavailable    no OS keyring backend (headless Linux without a secret service)
    ├── NotFound                  the inquiry, draft or file the owner named does not exist
    ├── BadFile                   a file the owner gave cannot be used (missing, empty, too big)
    ├── StoreError                database cannot be opened or migrated
    │   ├── DatabaseDamaged       not a database / malformed: ``repair`` restores a backup
    │   ├── DatabaseBusy          another process is writing ("database is locked", a race)
    │   ├── DataFolderUnusable    the data folder is missing, unwritable or not a folder
    │   ├── DiskFull              no space left for the database or the mail files
    │   ├── StoreUrlBad           INQUIRY_BRIDGE_DATABASE_URL is not a SQLite/PostgreSQL URL
    │   ├── StoreUnreachable      no PostgreSQL server answers at that address
    │   ├── StoreAuthRefused      the server refused the user name or password
    │   ├── StoreForeign          the database holds another application's tables
    │   ├── StoreNewer            the database was made by a newer Inquiry Bridge
    │   └── StoreNotEmpty         ``store copy`` refuses a target that already holds tables
    ├── MessageParseError         malformed MIME (becomes disposition ``failed:<reason>``)
    ├── LLMError                  (``transient``: worth asking again later)
    │   ├── LLMUnavailable        endpoint unreachable (transient)
    │   │   ├── LLMNotConfigured  no endpoint set up at all (say so, offer 设置 → AI 模型)
    │   │   ├── LLMAddressWrong   nothing answers at the address (or the server is not started)
    │   │   ├── LLMKeyRejected    401/403: the key is wrong or lacks access (not transient)
    │   │   ├── LLMBusy           429 after the retries: the provider throttles us
    │   │   └── LLMDown           timeouts, 5xx: the provider is down
    │   ├── LLMModelUnknown       404 / "model not found": the model name is wrong
    │   ├── LLMUnsupported        400/422/500 naming a request field the model cannot do
    │   │   └── LLMContextTooLong 400: the prompt is longer than the model's context window
    │   └── LLMSchemaError        answer broke its JSON schema after the repair attempt
    ├── GraphError
    │   ├── GraphAuthError        sign-in needed, consent revoked, token expired
    │   │   ├── NotSignedIn       never signed in on this PC (not "sign in again")
    │   │   ├── NoMicrosoftApp    no Microsoft app (client) id in the build or the settings
    │   │   └── SignInUnreachable sign-in could not reach Microsoft (network)
    │   ├── Throttled             429/503/504 retries exhausted (carries retry_after)
    │   ├── GraphNotFound         404
    │   ├── SyncStateExpired      410 / SyncStateNotFound: delta must restart
    │   └── AmbiguousWriteError   a write may or may not have happened (network error mid-write)
    ├── MailboxError              an IMAP/SMTP mailbox failed (server said no, protocol error)
    │   ├── MailAuthError         wrong password / 授权码 (app password) refused
    │   ├── MailServiceDisabled   the provider's IMAP/SMTP service is switched off for the account
    │   ├── MailNetworkError      server unreachable: no network, wrong host or port, timeout
    │   │   └── MailServerTooSlow an IMAP command or round passed its deadline (a trickle)
    │   ├── MailServerMisbehaves  an IMAP answer past what the app accepts (a line, a literal,
    │   │                         endless responses): the connection is dropped
    │   ├── MailPasswordMissing   a mailbox is configured but no password is stored
    │   └── InsecureMailServer    plain-text IMAP/SMTP to a host that is not this computer
    ├── MailerError               a send over the mailbox port failed; every adapter (Graph,
    │   │                         SMTP) maps its own failures to exactly one of:
    │   ├── MailerUnavailable     nothing left this computer: retry later (once)
    │   ├── MailerRefused         the server said no: the owner is told why and what to do
    │   │   └── MailerGone        the item named (a draft, the customer's message) is not there
    │   └── MailerAmbiguous       it may have left: reconcile (Sent, by Message-ID) before a retry
    ├── DraftStateError           illegal draft transition (e.g. send before approve)
    ├── QuoteStateError           a quote cannot do that now (lost inquiry, superseded version)
    ├── UnconfirmedFactsError     approve refused: the fact guard flagged values
    ├── TranscriptionError        missing/broken Whisper model, unreadable audio
    ├── ModelDownloadError        a voice model could not be downloaded or verified
    │   └── ModelImportError      the folder or zip given to 导入 is not a usable model
    ├── AudioDeviceError          no microphone / permission denied
    └── TelegramError             Bot API failure

Core stays free of Qt, so it cannot call ``tr()``. Each error carries a stable ``code``; the
desktop maps codes to ``tr()`` strings (translated in ``translations/``), while headless outputs
(CLI stderr, Telegram) use ``user_message()`` from the table in ``core.errors.messages``,
Chinese first.

Layer row: nothing.
"""

from __future__ import annotations

from typing import ClassVar

from core.errors.messages import CAUSES as CAUSES
from core.errors.messages import MAIL_SERVERS as MAIL_SERVERS
from core.errors.messages import SERVERS as SERVERS
from core.errors.messages import USER_MESSAGES as USER_MESSAGES
from core.errors.messages import detail_in as detail_in
from core.errors.messages import server_sentence as server_sentence


def own_sentence(exc: BaseException, lang: str = "zh_CN") -> str:
    """The owner's whole sentence when ``exc`` builds one itself (a connection failure that
    names its server and says what to do), else "" (then a template wraps the detail)."""
    cause = vars(exc).get("cause", "")
    if isinstance(exc, InquiryBridgeError) and isinstance(cause, str) and cause:
        return exc.user_message(lang)
    return ""


def failure_note(exc: BaseException) -> str:
    """A failure as a draft's note records it: an app error in the owner's words (Chinese),
    anything else as its type and text (a bug's name is more use to whoever reads the log)."""
    if isinstance(exc, InquiryBridgeError):
        return exc.user_message("zh_CN")
    return f"{type(exc).__name__}: {exc}"


class InquiryBridgeError(Exception):
    """Base of every error the app raises on purpose."""

    code: ClassVar[str] = "error"

    def __init__(self, detail: str = "", **params: object) -> None:
        super().__init__(detail)
        self.detail = detail
        self.params = params

    def user_message(self, lang: str = "zh_CN") -> str:
        zh, en = USER_MESSAGES.get(self.code, USER_MESSAGES["error"])
        template = zh if lang.startswith("zh") else en
        detail = detail_in(self.detail, lang)
        try:
            return template.format(detail=detail, **self.params)
        except (KeyError, IndexError):
            return template.replace("{detail}", detail)


class ConfigError(InquiryBridgeError):
    code = "config"


class BadInput(InquiryBridgeError):
    """What he typed (an argument, a time, a stage, a CSV) is wrong: 输入有误, never 设置有误."""

    code = "bad_input"


class QuoteStateError(InquiryBridgeError):
    """A quote cannot do that now: a quote on a lost inquiry, an accept of a superseded version."""

    code = "quote_state"


class SecretStoreUnavailable(InquiryBridgeError):
    code = "secret_store"


class NotFound(InquiryBridgeError):
    """The inquiry, draft or file the owner named does not exist."""

    code = "not_found"


class BadFile(InquiryBridgeError):
    """A file the owner handed over cannot be used: missing, unreadable, empty, too large."""

    code = "bad_file"


class StoreError(InquiryBridgeError):
    code = "store"


class DatabaseDamaged(StoreError):
    code = "store_damaged"


class DatabaseBusy(StoreError):
    """Another process holds the database: a wait ran out or two writers raced. Not damage."""

    code = "store_busy"


class DataFolderUnusable(StoreError):
    code = "data_folder"


class DiskFull(StoreError):
    code = "disk_full"


class StoreUrlBad(StoreError):
    code = "store_url"


class StoreUnreachable(StoreError):
    code = "store_unreachable"


class StoreAuthRefused(StoreError):
    code = "store_auth"


class StoreForeign(StoreError):
    """Tables of another application, and no ``alembic_version`` of ours: never migrated into."""

    code = "store_foreign"


class StoreNewer(StoreError):
    """``alembic_version`` names a revision this program does not have."""

    code = "store_newer"


class StoreNotEmpty(StoreError):
    code = "store_not_empty"


class MessageParseError(InquiryBridgeError):
    code = "parse"


class LLMError(InquiryBridgeError):
    code = "llm"
    transient: ClassVar[bool] = False  # worth asking again later (intake retries, then rules)


class LLMUnavailable(LLMError):
    code = "llm_unavailable"
    transient = True


class LLMAddressWrong(LLMUnavailable):
    """Nothing answers at the address: wrong URL, or the local server is not started."""

    code = "llm_address"


class LLMKeyRejected(LLMUnavailable):
    """401/403: asking again with the same key cannot help."""

    code = "llm_key"
    transient = False


class LLMBusy(LLMUnavailable):
    """429 still, after the client's own retries (Retry-After honoured)."""

    code = "llm_busy"


class LLMDown(LLMUnavailable):
    """Timeouts and 5xx that name nothing in our request: the provider's own trouble."""

    code = "llm_down"

    @property
    def timed_out(self) -> bool:
        """One call ran out of time: the server answers, this message was too long for it."""
        return self.detail == "timeout"

    def user_message(self, lang: str = "zh_CN") -> str:
        """A timeout is a slow model, not a broken service: said so (#45)."""
        if self.timed_out:
            zh, en = USER_MESSAGES["llm_timeout"]
            return zh if lang.startswith("zh") else en
        return super().user_message(lang)


class LLMModelUnknown(LLMError):
    """404 or "model not found": the model name in the settings is wrong."""

    code = "llm_model"


class LLMUnsupported(LLMError):
    """The endpoint refused a request field (response_format, tools, stream_options…) and the
    client has no plainer way left to ask."""

    code = "llm_unsupported"


class LLMContextTooLong(LLMUnsupported):
    """The prompt is longer than the model's context window (a local server's default 2,048 or
    4,096 tokens): not "this model cannot do it" but "this conversation is too long for it".
    ``limit`` and ``asked`` are the window and the prompt in tokens when the server says them."""

    code = "llm_context"


class LLMNotConfigured(LLMUnavailable):
    """No AI endpoint is set up: not a connection failure, and nothing to "check". Every front
    end says so in one sentence and points at the AI settings (the desktop with a button)."""

    code = "llm_not_configured"


class LLMSchemaError(LLMError):
    code = "llm_schema"


class GraphError(InquiryBridgeError):
    code = "graph"

    def __init__(self, detail: str = "", status: int | None = None, **params: object) -> None:
        cause = params.pop("cause", "")  # a connection failure's kind (``CAUSES``)
        super().__init__(detail, **params)
        self.status = status
        self.cause = str(cause or "")

    def user_message(self, lang: str = "zh_CN") -> str:
        return server_sentence("microsoft", "", self.cause, "", lang) or super().user_message(lang)


class GraphAuthError(GraphError):
    code = "graph_auth"


class NotSignedIn(GraphAuthError):
    """No Microsoft account was ever signed in here: say how to sign in, not "sign in again"."""

    code = "not_signed_in"


class NoMicrosoftApp(GraphAuthError):
    """Neither the build nor the settings carry a Microsoft app (client) id: a source checkout
    that has not registered its app in Azure yet (the settings page shows the steps)."""

    code = "no_ms_app"


class SignInUnreachable(GraphAuthError):
    """The sign-in could not reach Microsoft (offline, DNS, proxy, TLS): a network problem."""

    code = "sign_in_network"


class Throttled(GraphError):
    code = "throttled"

    def __init__(
        self,
        detail: str = "",
        retry_after: float = 0.0,
        status: int | None = None,
        **params: object,
    ) -> None:
        super().__init__(detail, status, retry_after=int(retry_after), **params)
        self.retry_after = retry_after


class GraphNotFound(GraphError):
    code = "not_found"


class SyncStateExpired(GraphError):
    code = "sync_expired"


class AmbiguousWriteError(GraphError):
    code = "ambiguous_write"


class DraftStateError(InquiryBridgeError):
    code = "draft_state"


class UnconfirmedFactsError(InquiryBridgeError):
    code = "unconfirmed_facts"


class TranslationStaleError(DraftStateError):
    """The English changed after the Chinese the owner reads was made (or there is none)."""

    code = "translation_stale"


class TranscriptionError(InquiryBridgeError):
    code = "transcription"


class ModelDownloadError(InquiryBridgeError):
    code = "model_download"


class ModelImportError(ModelDownloadError):
    """What he handed to 导入 (a folder, a zip) is not a usable model: nothing was downloaded,
    so the message must not say "download failed"."""

    code = "model_import"


class AudioDeviceError(InquiryBridgeError):
    code = "audio_device"


class TelegramError(InquiryBridgeError):
    code = "telegram"


class MailboxError(InquiryBridgeError):
    """An IMAP/SMTP mailbox failed: the server refused a command or broke the protocol.

    ``server`` (``imap``/``smtp``), ``where`` (host:port) and ``cause`` (a key of ``CAUSES``)
    make the owner's sentence: which server, what happened, what to do. Without them (an odd
    server answer) the table's general message with the detail is shown."""

    code = "mailbox"
    default_cause: ClassVar[str] = ""

    def __init__(self, detail: str = "", **params: object) -> None:
        server, where, cause = (str(params.pop(k, "") or "") for k in ("server", "where", "cause"))
        super().__init__(detail, **params)
        self.server, self.where = server, where
        self.cause = cause or self.default_cause

    def user_message(self, lang: str = "zh_CN") -> str:
        sentence = server_sentence(self.server, self.where, self.cause, self.detail, lang)
        return sentence or super().user_message(lang)


class MailAuthError(MailboxError):
    """The server refused the user name or the (app) password."""

    code = "mail_auth"
    default_cause = "password"


class MailServiceDisabled(MailboxError):
    """The provider answered that IMAP/SMTP is switched off for this account."""

    code = "mail_disabled"
    default_cause = "disabled"


class MailNetworkError(MailboxError):
    """No connection: no network, a wrong host or port, a timeout, a dropped connection."""

    code = "mail_network"


class MailServerTooSlow(MailNetworkError):
    """An IMAP command (or a whole sync round) ran past its deadline: a server that trickles
    a byte every few seconds never trips a socket timeout, so the app keeps its own clock."""

    code = "mail_slow"


class MailServerMisbehaves(MailboxError):
    """An IMAP answer beyond what the app accepts (a line or literal over its cap, more bytes
    or untagged responses than a command may bring): the connection is dropped at once.
    ``uid`` is the message whose literal was refused, when the answer named it."""

    code = "mail_hostile"

    def __init__(
        self, detail: str = "", *, uid: int | None = None, literal: bool = False, **params: object
    ) -> None:
        super().__init__(detail, **params)
        self.uid = uid
        self.literal = literal  # one message's data over its cap: that message is skipped


class MailPasswordMissing(MailboxError):
    """An IMAP/SMTP mailbox is configured but no password (授权码) is stored or given."""

    code = "mail_no_password"


class InsecureMailServer(MailboxError):
    """Plain-text IMAP/SMTP to a host other than this computer (the password would be sniffable)."""

    code = "mail_insecure"


# who a mailer error is about, in the owner's words (zh, en)


class MailerError(InquiryBridgeError):
    """A send over the mailbox port failed. Adapters raise exactly one of the three children,
    the way httpx maps each transport's exceptions into its own tree, so the sender decides on
    the *kind* of failure (retry / tell the owner / reconcile) and never on a transport's types.

    ``via`` names the server ("smtp", "imap", "graph"); ``cause`` is the adapter's own error,
    whose owner message becomes the detail when none is given (so a connection error reads the
    same here as anywhere else)."""

    code = "mailer"

    def __init__(
        self,
        detail: str = "",
        *,
        via: str = "smtp",
        host: str = "",
        cause: BaseException | None = None,
        **params: object,
    ) -> None:
        super().__init__(detail or (str(cause) if cause is not None else ""), **params)
        self.via = via
        self.host = host
        self.cause = cause
        self._own_detail = bool(detail)

    def user_message(self, lang: str = "zh_CN") -> str:
        zh_en = MAIL_SERVERS.get(self.via, (self.via, self.via))
        server = zh_en[0] if lang.startswith("zh") else zh_en[1]
        if self.host:
            server = (
                f"{server}（{self.host}）" if lang.startswith("zh") else f"{server} ({self.host})"
            )
        detail = detail_in(self.detail, lang)
        if not self._own_detail and isinstance(self.cause, InquiryBridgeError):
            detail = self.cause.user_message(lang)
        zh, en = USER_MESSAGES.get(self.code, USER_MESSAGES["error"])
        template = zh if lang.startswith("zh") else en
        return template.replace("{server}", server).replace("{detail}", detail)


class MailerUnavailable(MailerError):
    """Provably nothing left (refused or dropped before the message's last byte, a 4xx
    answer, throttling, no sign-in): the same message may be submitted again later."""

    code = "mailer_unavailable"


class MailerRefused(MailerError):
    """The server answered no (5xx, a 4xx Graph refusal): retrying the same thing would get
    the same no; the owner is told what it said and what to change."""

    code = "mailer_refused"


class MailerGone(MailerRefused):
    """What the request named is not on the server (a deleted draft or customer message)."""

    code = "mailer_refused"


class MailerAmbiguous(MailerError):
    """The message may have left (the connection broke after its last byte): never resubmit
    before the mailbox's Sent folder has been asked for its Message-ID."""

    code = "mailer_ambiguous"
