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
(CLI stderr, Telegram) use ``user_message()`` from the table here, Chinese first.
"""

from __future__ import annotations

from typing import ClassVar

# code -> (zh_CN, en). Headless surfaces use these; the desktop has tr() twins keyed by code.
USER_MESSAGES: dict[str, tuple[str, str]] = {
    "error": ("发生错误：{detail}", "Something went wrong: {detail}"),
    "config": ("设置有误：{detail}", "Settings problem: {detail}"),
    "bad_input": ("输入有误：{detail}", "Bad input: {detail}"),
    "quote_state": ("报价无法操作：{detail}", "Quote not possible: {detail}"),
    "secret_store": (
        "系统密钥库不可用，无法保存密码或令牌：{detail}",
        "The system keyring is unavailable, secrets cannot be stored: {detail}",
    ),
    "store": ("数据库无法打开：{detail}", "The database cannot be opened: {detail}"),
    "store_damaged": (
        "数据库已损坏，请运行 inquiry-bridge repair（或点“修复”）从最近的备份恢复：{detail}",
        "The database is damaged; run `inquiry-bridge repair` (or click Repair) to restore the "
        "latest backup: {detail}",
    ),
    "store_busy": (
        "数据库正忙：另一个询盘桥进程正在写入，请稍后再试（没有丢失任何数据）：{detail}",
        "The database is busy: another Inquiry Bridge process is writing; try again shortly "
        "(nothing was lost): {detail}",
    ),
    "data_folder": (
        "数据文件夹无法使用，请检查它存在且可写，或用 --home 指定其他文件夹：{detail}",
        "The data folder cannot be used; check that it exists and is writable, or choose "
        "another with --home: {detail}",
    ),
    "disk_full": (
        "磁盘空间已满，请清理磁盘后重试（没有丢失任何邮件）：{detail}",
        "The disk is full; free some space and try again (no mail was lost): {detail}",
    ),
    "store_url": (
        "数据库地址有误（应为 postgresql+psycopg://用户@主机:端口/库名），未作任何改动：{detail}",
        "The database URL is wrong (expected postgresql+psycopg://USER@HOST:PORT/DB); nothing "
        "was changed: {detail}",
    ),
    "store_unreachable": (
        "连不上数据库服务器，请检查地址、端口和网络，未作任何改动：{detail}",
        "No database server answers; check the host, port and network. Nothing was changed: "
        "{detail}",
    ),
    "store_auth": (
        "数据库服务器拒绝了用户名或密码，未作任何改动：{detail}",
        "The database server refused the user name or password; nothing was changed: {detail}",
    ),
    "store_foreign": (
        "这个数据库里是别的程序的数据，不是询盘桥的，未作任何改动：{detail}",
        "This database holds another application's data, not Inquiry Bridge's; nothing was "
        "changed: {detail}",
    ),
    "store_newer": (
        "这个数据库由更新版本的询盘桥建立，请先升级本程序，未作任何改动：{detail}",
        "This database was made by a newer Inquiry Bridge; upgrade this program first. Nothing "
        "was changed: {detail}",
    ),
    "store_not_empty": (
        "目标数据库不是空的，未复制任何数据：{detail}",
        "The target database is not empty; nothing was copied: {detail}",
    ),
    "parse": ("邮件格式损坏：{detail}", "Malformed email: {detail}"),
    "llm": ("AI 服务出错：{detail}", "AI service error: {detail}"),
    "llm_unavailable": (
        "无法连接 AI 服务，请检查设置中的地址和密钥：{detail}",
        "Cannot reach the AI service; check the endpoint and key in Settings: {detail}",
    ),
    "llm_not_configured": (
        "还没有设置 AI 模型，这一步需要它：请打开 设置 → AI 模型，填写「服务地址」后再试{detail}。",
        "No AI model is set up yet and this needs one: open Settings → AI model, fill in "
        "“Endpoint URL” and try again{detail}.",
    ),
    "llm_schema": (
        "AI 的回答格式不正确，稍后会自动重试：{detail}",
        "The AI answer broke its format; it will be retried: {detail}",
    ),
    # a configured endpoint that fails: one sentence with the cause, the detail only in the log
    "llm_address": (
        "连不上 AI 服务：地址不对，或者服务没有启动，请在设置 → AI 模型中检查地址",
        "Cannot reach the AI service: the address is wrong or the server is not running; "
        "check the address in Settings → AI model",
    ),
    "llm_key": (
        "AI 服务拒绝了密钥：密钥不对或已失效，请在设置 → AI 模型中重新填写",
        "The AI service refused the key: it is wrong or expired; enter it again in "
        "Settings → AI model",
    ),
    "llm_model": (
        "AI 服务不认识这个模型名称，请在设置 → AI 模型中检查模型名称",
        "The AI service does not know this model name; check the model names in "
        "Settings → AI model",
    ),
    "llm_unsupported": (
        "这个模型不支持本软件需要的功能，请换一个模型，或在设置 → AI 模型中点“测试连接”",
        "This model does not support what the app needs; pick another model, or press "
        "Test connection in Settings → AI model",
    ),
    "llm_context": (
        "这段对话超出了这个模型一次能读的长度，缩短后仍然不够；请在模型服务器上把上下文调大"
        "（例如 llama.cpp 的 -c 8192），或换一个模型",
        "This conversation is longer than the model can read at once, even shortened; give the "
        "model server a larger context (e.g. llama.cpp -c 8192) or pick another model",
    ),
    "llm_busy": (
        "AI 服务繁忙（请求太多），稍后会自动重试",
        "The AI service is busy (too many requests); it will be retried later",
    ),
    "llm_down": (
        "AI 服务暂时出故障或没有响应，稍后会自动重试",
        "The AI service is failing or not answering right now; it will be retried later",
    ),
    "graph": ("微软邮箱服务出错：{detail}", "Microsoft 365 error: {detail}"),
    "graph_auth": (
        "需要重新登录微软账户：{detail}",
        "Please sign in to Microsoft again: {detail}",
    ),
    "throttled": (
        "微软服务繁忙，已暂停，{retry_after} 秒后重试",
        "Microsoft is throttling us; retrying in {retry_after} s",
    ),
    "not_found": ("找不到该项目：{detail}", "Not found: {detail}"),
    "bad_file": ("文件无法使用：{detail}", "Cannot use the file: {detail}"),
    "not_signed_in": (
        "尚未登录微软账户：请先登录（设置 → 微软账户，或 inquiry-bridge signin）",
        "Not signed in to Microsoft yet: sign in first (Settings → Microsoft account, "
        "or inquiry-bridge signin)",
    ),
    "no_ms_app": (
        "还没有微软应用 ID：请按 设置 → 微软账户 里的步骤在 Azure 注册应用并填入 ID",
        "No Microsoft app id yet: follow the steps under Settings → Microsoft account to "
        "register the app in Azure and enter its id",
    ),
    "sign_in_network": (
        "连不上微软登录服务器：请检查网络（或代理）后再点「登录微软」",
        "Cannot reach Microsoft's sign-in server: check the network (or proxy), then press "
        "Sign in with Microsoft again",
    ),
    "sync_expired": ("同步状态已过期，将重新完整同步", "Sync state expired; starting a full sync"),
    "ambiguous_write": (
        "网络中断，无法确定操作是否完成，已停止以免重复：{detail}",
        "Network dropped; cannot tell whether it went through, stopped to avoid a duplicate: {detail}",
    ),
    "draft_state": ("草稿状态不允许此操作：{detail}", "Not allowed in the draft's state: {detail}"),
    "unconfirmed_facts": (
        "草稿中有未经确认的内容，请先确认或修改：{detail}",
        "The draft has unconfirmed facts; confirm or edit them first: {detail}",
    ),
    "translation_stale": (
        "中文译文不是最终英文的翻译，请先重新翻译（inquiry-bridge translate ID，或在审批窗口"
        "点「重新翻译」），读过后再批准：{detail}",
        "The Chinese is not a translation of the final English; re-translate and read it "
        "before approving: {detail}",
    ),
    "transcription": ("语音识别失败：{detail}", "Transcription failed: {detail}"),
    "model_download": ("语音模型下载失败：{detail}", "Voice model download failed: {detail}"),
    "model_import": ("无法导入语音模型：{detail}", "Cannot import the voice model: {detail}"),
    "audio_device": (
        "没有可用的麦克风或没有权限：{detail}",
        "No microphone available or permission denied: {detail}",
    ),
    "telegram": ("Telegram 出错：{detail}", "Telegram error: {detail}"),
    "mailbox": ("邮件服务器出错：{detail}", "Mail server error: {detail}"),
    "mail_auth": (
        "邮箱密码（授权码）不正确：请检查用户名，并使用邮箱设置里生成的授权码或应用专用密码，"
        "不是网页登录密码（{detail}）",
        "The mail password was refused: check the user name and use the app password "
        "(authorisation code) from the mailbox settings, not the web login password ({detail})",
    ),
    "mail_disabled": (
        "邮箱尚未开启 IMAP/SMTP 服务：请在网页邮箱的设置中开启后再试（{detail}）",
        "IMAP/SMTP is not enabled for this mailbox: turn it on in the webmail settings and "
        "try again ({detail})",
    ),
    "mail_network": (
        "无法连接邮件服务器：请检查网络、服务器地址和端口（{detail}）",
        "Cannot reach the mail server: check the network, server name and port ({detail})",
    ),
    "mail_no_password": (
        "尚未填写邮箱授权码（应用密码）：请在 设置 → 其他邮箱 中填写，或设置 "
        "INQUIRY_BRIDGE_MAIL_PASSWORD{detail}",
        "No mail app password yet: enter it in Settings → Other mailbox, or set "
        "INQUIRY_BRIDGE_MAIL_PASSWORD{detail}",
    ),
    "mailer_unavailable": (
        "{server}暂时无法发信，邮件没有发出：{detail}",
        "{server} could not take the email now; it did not leave: {detail}",
    ),
    "mailer_refused": (
        "{server}拒绝了这封邮件：{detail}",
        "{server} refused the email: {detail}",
    ),
    "mailer_ambiguous": (
        "{server}的连接在邮件交出后中断，无法确定是否已发出：{detail}",
        "The connection to {server} broke after the email was handed over; it may have "
        "left: {detail}",
    ),
    "mail_slow": (
        "收信 IMAP 服务器太慢：{detail}。本轮同步已停止，已收到的邮件不受影响，稍后自动重试",
        "The incoming mail (IMAP) server is too slow: {detail}. This round stopped; mail "
        "already received is kept, and it is tried again later",
    ),
    "mail_hostile": (
        "收信 IMAP 服务器的回答超出了允许的范围：{detail}。已断开连接，已收到的邮件不受影响；"
        "如果一直这样，请联系邮箱服务商",
        "The incoming mail (IMAP) server answered beyond what the app accepts: {detail}. "
        "Disconnected; mail already received is kept. If this keeps happening, ask the mail "
        "provider",
    ),
    "mail_insecure": (
        "拒绝以明文连接邮件服务器（密码会被窃听）：请使用 SSL 或 STARTTLS（{detail}）",
        "Refusing a plain-text connection to the mail server (the password could be read): "
        "use SSL or STARTTLS ({detail})",
    ),
}

# Connection errors name the server and say what happened and what to do, in his words: the
# IMAP and the SMTP port used to fail with one text ("ConnectionRefusedError: [Errno 111]").
# ``server_sentence`` joins a server and a cause; the raw text stays in ``detail`` (the log).
SERVERS: dict[str, tuple[str, str]] = {
    "imap": ("收信服务器（IMAP）", "The incoming mail server (IMAP)"),
    "smtp": ("发信服务器（SMTP）", "The outgoing mail server (SMTP)"),
    "microsoft": ("微软邮箱服务器（Microsoft 365）", "Microsoft's mail server (Microsoft 365)"),
}
CAUSES: dict[str, tuple[str, str]] = {
    "refused": (
        "拒绝了连接（这个端口上没有邮件服务）：请核对服务器地址和端口号"
        "（常用：收信 993，发信 465 或 587）",
        "refused the connection (no mail service on this port): check the server name and "
        "the port (usually 993 for incoming, 465 or 587 for outgoing mail)",
    ),
    "timeout": (
        "没有响应（连接超时）：请检查网络、防火墙或代理，并核对端口号",
        "did not answer (timed out): check the network, a firewall or proxy, and the port",
    ),
    "dns": (
        "找不到（服务器地址无法解析）：请检查地址有没有拼错，以及这台电脑能否上网",
        "cannot be found (the name does not resolve): check the server name for typos and "
        "that this computer is online",
    ),
    "unreachable": (
        "无法到达（网络不通）：请检查这台电脑的网络连接",
        "cannot be reached (no route through the network): check this computer's network",
    ),
    "tls": (
        "的安全连接（SSL/TLS）建立失败：请核对端口和加密方式是否匹配"
        "（993、465 用 SSL，587、143 用 STARTTLS），并检查电脑的日期和时间",
        "could not set up a secure (SSL/TLS) connection: check that the port matches the "
        "security (SSL on 993 and 465, STARTTLS on 587 and 143) and this computer's date and "
        "time",
    ),
    "dropped": (
        "中途断开了连接：多半是暂时的网络问题，稍后会自动重试",
        "dropped the connection: most likely a passing network problem; it will be retried",
    ),
    "password": (
        "拒绝了用户名或密码：请检查用户名，并使用邮箱设置里生成的授权码（应用专用密码），"
        "不是网页登录密码",
        "refused the user name or password: check the user name and use the app password "
        "(authorisation code) from the mailbox settings, not the web login password",
    ),
    "disabled": (
        "尚未开启 IMAP/SMTP 服务：请在网页邮箱的设置中开启后再试",
        "has IMAP/SMTP switched off for this account: turn it on in the webmail settings and "
        "try again",
    ),
}
_SAYS = {"password", "disabled"}  # causes where the server's own words help him


def server_sentence(server: str, where: str, cause: str, said: str, lang: str) -> str:
    """ "收信服务器（IMAP）imap.qq.com:993 拒绝了连接……" — or "" when server or cause is unknown."""
    if server not in SERVERS or cause not in CAUSES:
        return ""
    zh = lang.startswith("zh")
    name = SERVERS[server][0 if zh else 1]
    what = CAUSES[cause][0 if zh else 1]
    place = (where if zh else f" {where}") if where else ""
    gap = "" if zh and (what.startswith("的") or not where) else " "
    sentence = f"{name}{place}{gap}{what}"
    if said and cause in _SAYS:
        sentence += f"（服务器说：{said}）" if zh else f" (the server said: {said})"
    return sentence


def own_sentence(exc: BaseException, lang: str = "zh_CN") -> str:
    """The owner's whole sentence when ``exc`` builds one itself (a connection failure that
    names its server and says what to do), else "" (then a template wraps the detail)."""
    cause = vars(exc).get("cause", "")
    if isinstance(exc, InquiryBridgeError) and isinstance(cause, str) and cause:
        return exc.user_message(lang)
    return ""


def _has_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" for ch in text)


def detail_in(detail: str, lang: str) -> str:
    """The half of a bilingual detail ("中文 / English") for ``lang``, so a message shown in both
    languages says each thing once (``send 999`` printed its detail twice); other details as
    they are."""
    zh, sep, en = detail.partition(" / ")
    if sep and _has_cjk(zh) and en.strip() and not _has_cjk(en):
        return zh.strip() if lang.startswith("zh") else en.strip()
    return detail


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
MAIL_SERVERS: dict[str, tuple[str, str]] = {
    "smtp": ("发信 SMTP 服务器", "the outgoing mail (SMTP) server"),
    "imap": ("收信 IMAP 服务器", "the incoming mail (IMAP) server"),
    "graph": ("Outlook（微软 Graph）", "Outlook (Microsoft Graph)"),
}


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
