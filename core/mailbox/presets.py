"""Mail providers by name: servers, security, whether they file sent mail, how to get a password.

Each preset fills in what the owner would otherwise have to look up (host, port, SSL or
STARTTLS) and carries a short Chinese guide to the one thing he must fetch himself: the app
password (Gmail, iCloud) or 授权码 (QQ邮箱, 163/126), which these providers require instead of
the web login password for IMAP/SMTP. Outlook.com personal accounts go through Microsoft Graph
(``via_graph``), not IMAP. ``other`` takes host, port, security and user from him.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.mailbox.account import Endpoint, Security


@dataclass(frozen=True)
class Preset:
    key: str
    name_zh: str
    name_en: str
    imap_host: str = ""
    imap_port: int = 993
    imap_security: Security = "ssl"
    smtp_host: str = ""
    smtp_port: int = 465
    smtp_security: Security = "ssl"
    append_sent: bool = True  # False where the provider files sent mail itself (Gmail)
    guide_zh: str = ""
    guide_en: str = ""
    via_graph: bool = False


PRESETS: dict[str, Preset] = {
    p.key: p
    for p in (
        Preset(
            "gmail",
            "Gmail",
            "Gmail",
            "imap.gmail.com",
            smtp_host="smtp.gmail.com",
            append_sent=False,
            guide_zh="Google 账户 → 安全性 → 开启两步验证 → 「应用专用密码」生成 16 位密码，"
            "填到这里（不是 Gmail 登录密码）。Gmail 设置 → 转发和 POP/IMAP 中确认已启用 IMAP。",
            guide_en="Google Account → Security → turn on 2-Step Verification → App passwords: "
            "create a 16-letter password and paste it here (not your Gmail password). Check "
            "that IMAP is enabled in Gmail settings → Forwarding and POP/IMAP.",
        ),
        Preset(
            "qq",
            "QQ邮箱",
            "QQ Mail",
            "imap.qq.com",
            smtp_host="smtp.qq.com",
            guide_zh="网页版 QQ邮箱 → 设置 → 账户 → 「POP3/IMAP/SMTP/Exchange/CardDAV/CalDAV服务」"
            "→ 开启 IMAP/SMTP 服务，按提示发短信后得到「授权码」，填到这里（不是 QQ 密码）。",
            guide_en="QQ Mail on the web → Settings → Account → POP3/IMAP/SMTP service: turn on "
            "IMAP/SMTP, send the text message it asks for, and paste the authorisation code "
            "here (not your QQ password).",
        ),
        Preset(
            "163",
            "网易 163 邮箱",
            "NetEase 163",
            "imap.163.com",
            smtp_host="smtp.163.com",
            guide_zh="网页版 163 邮箱 → 设置 → POP3/SMTP/IMAP → 开启「IMAP/SMTP 服务」，"
            "再「新增授权密码」得到授权码，填到这里（不是邮箱登录密码）。",
            guide_en="163 Mail on the web → Settings → POP3/SMTP/IMAP: turn on IMAP/SMTP, add an "
            "authorisation code and paste it here (not your login password).",
        ),
        Preset(
            "126",
            "网易 126 邮箱",
            "NetEase 126",
            "imap.126.com",
            smtp_host="smtp.126.com",
            guide_zh="网页版 126 邮箱 → 设置 → POP3/SMTP/IMAP → 开启「IMAP/SMTP 服务」，"
            "再「新增授权密码」得到授权码，填到这里（不是邮箱登录密码）。",
            guide_en="126 Mail on the web → Settings → POP3/SMTP/IMAP: turn on IMAP/SMTP, add an "
            "authorisation code and paste it here (not your login password).",
        ),
        Preset(
            "icloud",
            "iCloud 邮件",
            "iCloud Mail",
            "imap.mail.me.com",
            smtp_host="smtp.mail.me.com",
            smtp_port=587,
            smtp_security="starttls",
            guide_zh="在 account.apple.com → 登录与安全 → 「App 专用密码」生成一个密码，填到这里；"
            "用户名填完整的 iCloud 邮箱地址。",
            guide_en="At account.apple.com → Sign-In and Security → App-Specific Passwords: create "
            "one and paste it here; the user name is your full iCloud address.",
        ),
        Preset(
            "outlook",
            "Outlook.com / Hotmail",
            "Outlook.com / Hotmail",
            via_graph=True,
            guide_zh="Outlook.com、Hotmail 个人邮箱通过微软账户登录连接，不需要应用密码："
            "请使用「登录微软」。",
            guide_en="Outlook.com and Hotmail personal accounts connect through Microsoft sign-in, "
            "no app password needed: use Sign in with Microsoft.",
        ),
        Preset(
            "other",
            "其他邮箱",
            "Other mailbox",
            imap_port=993,
            guide_zh="填写邮箱服务商提供的 IMAP 和 SMTP 服务器、端口和加密方式（SSL 或 STARTTLS）。"
            "许多服务商要求使用单独生成的应用密码。",
            guide_en="Enter the IMAP and SMTP servers, ports and security (SSL or STARTTLS) your "
            "provider gives. Many providers require a separately generated app password.",
        ),
    )
}


def endpoints(
    preset: Preset,
    user: str,
    *,
    imap: tuple[str, int, Security] | None = None,
    smtp: tuple[str, int, Security] | None = None,
) -> tuple[Endpoint, Endpoint]:
    """The preset's endpoints for ``user``; ``imap``/``smtp`` replace host, port and security
    (the "other" preset, and tests that point a preset at a loopback server)."""
    i = Endpoint("imap", preset.imap_host, preset.imap_port, user, preset.imap_security)
    s = Endpoint("smtp", preset.smtp_host, preset.smtp_port, user, preset.smtp_security)
    if imap is not None:
        i = replace(i, host=imap[0], port=imap[1], security=imap[2])
    if smtp is not None:
        s = replace(s, host=smtp[0], port=smtp[1], security=smtp[2])
    return i, s
