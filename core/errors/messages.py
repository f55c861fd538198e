"""What the owner reads for each error: the message table, Chinese first, and the sentences
that name a mail server and say what to do.

Split from the error tree (``core.errors``) so the tree stays one page an engineer can read:
the classes there carry a ``code``; this module holds the words for every code (the desktop has
``tr()`` twins keyed by the same codes) and the helpers that pick the half of a bilingual text.
"""

from __future__ import annotations

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
    # the validation text ("customer_name: Field required …") stays in the log (#45)
    "llm_schema": (
        "AI 模型的回答没有按要求的格式填写，稍后会自动重试",
        "The AI model's answer was not in the required form; it will be retried",
    ),
    "llm_timeout": (
        "AI 模型没有在规定时间内答完（本机模型较慢时常见），稍后会自动重试",
        "The AI model did not finish in time (common with a model on this PC); it will be retried",
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


# The mail servers a send can fail at (MailerError), named for the owner.
MAIL_SERVERS: dict[str, tuple[str, str]] = {
    "smtp": ("发信 SMTP 服务器", "the outgoing mail (SMTP) server"),
    "imap": ("收信 IMAP 服务器", "the incoming mail (IMAP) server"),
    "graph": ("Outlook（微软 Graph）", "Outlook (Microsoft Graph)"),
}
