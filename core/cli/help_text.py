"""Chinese beside every English help string of the command line (``--help`` of each command).

The commands register their help in English where they are defined; ``bilingual`` rewrites the
whole parser tree once it is built, so each line reads "中文 / English" and each subcommand gets a
description. A help string missing here stays English-only, and a test lists it, so a new option
is never left without its Chinese.
"""

from __future__ import annotations

import argparse

ZH: dict[str, str] = {
    "show this help message and exit": "显示本帮助并退出",
    "data folder (overrides INQUIRY_BRIDGE_HOME)": "数据文件夹（优先于 INQUIRY_BRIDGE_HOME）",
    "run the intake pipeline on a folder of .eml files": "把一个文件夹里的 .eml 邮件送进收件流程",
    "list inquiries": "列出询盘",
    "list every ingested message with its disposition": "列出收到的每封邮件及其处理结果",
    "poll the mailbox (Microsoft 365, or IMAP/SMTP) and OneDrive (once, or forever on the schedule)": "同步邮箱（微软 365 或 IMAP/SMTP 邮箱）和 OneDrive（一次，或按计划一直同步）",
    "sign in to Microsoft 365": "登录微软 365",
    "sign out and delete the token cache": "退出登录并删除令牌缓存",
    "show the signed-in account and where the token cache is": "显示已登录的账户和令牌缓存的位置",
    "compose a reply from a Chinese instruction": "按中文指示起草回复",
    "an inquiry's files to attach, or add a file from this computer to a draft": "列出询盘可附加的文件，或把本机文件加到草稿",
    "the approval queue": "待审批的草稿",
    "approve a draft (the owner's decision)": "批准草稿（老板的决定）",
    "send an approved draft (at most once)": "发送已批准的草稿（最多发一次）",
    "make a draft's Chinese again from its final English": "按草稿最终的英文重新生成中文译文",
    "discard a draft (never sent)": "放弃草稿（不会发送）",
    "reconcile and send approved drafts": "核对并发送已批准的草稿",
    "one draft per CSV contact": "为 CSV 里的每位联系人起草一封",
    "print the transcript of an audio file (wav, mp3, m4a, ogg…)": "打印音频文件的转写文字（wav、mp3、m4a、ogg…）",
    "download or import the multilingual Whisper model and select it": "下载或导入多语言 Whisper 模型并启用",
    "Telegram mirror and bot (deliver alerts, handle buttons, notes and questions)": "Telegram 提醒和机器人（发送提醒，处理按钮、备注和提问）",
    "one turn of the assistant": "问助手一句",
    "jobs over their stage's limit (working days)": "超过阶段期限的单子（按工作日）",
    "hide a reminder for a few days": "把提醒推迟几天",
    "the evening briefing for now": "现在的今晚简报",
    "propose, then confirm, a measuring visit": "提议并确认上门量尺时间",
    "the assistant's memories: list, confirm, retire": "助手的记忆：列出、确认、停用",
    "intake accuracy, grounding drops, calls and cost": "收件准确率、被丢弃的值、调用次数和费用",
    "restore the newest good backup and re-ingest the raw mail it lacks": "恢复最新的完好备份，并重新读入备份缺少的原始邮件",
    "start the tray application (default)": "启动托盘程序（默认）",
    "render a window offscreen to a PNG file": "在后台把窗口截图保存为 PNG",
    "folder of *.eml files": "存放 *.eml 文件的文件夹",
    "no LLM: rules classifier and extractor only": "不用 AI：只用规则分类和提取",
    "every inquiry as a JSON array": "以 JSON 数组列出所有询盘",
    "every message as a JSON array": "以 JSON 数组列出所有邮件",
    "one round of each, then exit": "每项同步一轮后退出",
    "no LLM: rules only for new mail": "不用 AI：新邮件只用规则",
    "mail only": "只同步邮件",
    "use the system browser instead of a device code": "用系统浏览器登录，而不是设备代码",
    "what to say (Chinese)": "回复要说什么（中文）",
    "attach one of the inquiry's files (repeatable; ids from `draft-files INQUIRY_ID`)": "附加询盘的一个文件（可重复；ID 见 `draft-files 询盘ID`）",
    "the draft to add a file to": "要添加文件的草稿",
    "a file on this computer to attach to --draft (≤ 150 MB)": "要附加到 --draft 的本机文件（≤ 150 MB）",
    "every draft as a JSON array": "以 JSON 数组列出所有草稿",
    "only drafts in STATUS": "只列出该状态的草稿",
    "approve even though the fact guard flagged values (they become confirmed)": "即使有未经确认的内容也批准（这些内容算作已确认）",
    "audio file": "音频文件",
    "spoken language (default: the voice.language setting, normally auto)": "说话的语言（默认按语音设置，通常自动识别）",
    "language and timing on stderr": "在 stderr 显示语言和耗时",
    "download Systran/faster-whisper-small (resumes)": "下载 Systran/faster-whisper-small（可断点续传）",
    "import a model folder or zip": "导入模型文件夹或 zip",
    "Hub or mirror URL (default: HF_ENDPOINT)": "模型网站或镜像地址（默认 HF_ENDPOINT）",
    "run (default), pair, status or unpair": "run（默认）、pair、status 或 unpair",
    "deliver the outbox and process one round of updates, then exit": "发送待发提醒并处理一轮消息后退出",
    "what to ask (Chinese or English)": "要问什么（中文或英文）",
    "continue the named session (kept)": "继续这个名字的对话（会保存）",
    "the current customer's inquiry": "当前客户的询盘",
    "as a JSON array": "以 JSON 数组输出",
    "raise the new ones as tray/Telegram alerts": "把新的提醒发到托盘和 Telegram",
    "as JSON": "以 JSON 输出",
    "raise it as an alert if it is due tonight": "如果今晚该发，就作为提醒发出",
    "propose a time (Sydney)": "提议一个时间（悉尼时间）",
    "book it (and the Outlook event)": "预约（并写入 Outlook 日历）",
    "propose three free times": "提议三个空闲时间",
    "with --confirm: which proposed time": "与 --confirm 一起用：选哪个建议的时间",
    "memory id (confirm / retire)": "记忆的 ID（确认 / 停用）",
    "changes the assistant proposed after reading customer mail: list, confirm, drop": "助手读过客户邮件后提议的改动：列出、确认、放弃",
    "proposal id (confirm / drop)": "建议的 ID（确认 / 放弃）",
    "decided ones too": "也列出已决定的",
    "JSON array": "JSON 数组",
    "only these statuses (repeatable)": "只列出这些状态（可重复）",
    "labelled folder (default ../shared/corpus/dev)": "带标注的文件夹（默认 ../shared/corpus/dev）",
    "rules only, no LLM calls": "只用规则，不调用 AI",
    "the figures as JSON": "以 JSON 输出数字",
    "draft N replies and let the tier-3 model score them (reported, never blocking)": "起草 N 封回复并让大模型打分（只报告，不阻止）",
    "draft N replies from an instruction with points; count the points they missed": "按含要点的指示起草 N 封回复，统计漏掉的要点",
    "no LLM while re-ingesting: rules only": "重新读入时不用 AI：只用规则",
    "no tray icon: closing the window quits": "不显示托盘图标：关闭窗口即退出",
}


def both(text: str) -> str:
    """ "中文 / English" for a known help string; the English alone otherwise."""
    zh = ZH.get(text)
    return f"{zh} / {text}" if zh else text


def bilingual(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Every help string of ``parser`` and its subcommands in Chinese and English; each
    subcommand's ``--help`` opens with its one-line description."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for choice in action._choices_actions:
                choice.help = both(str(choice.help)) if choice.help else choice.help
            for name, sub in action.choices.items():
                if sub.description is None and helps.get(name):
                    sub.description = both(str(helps[name]))
                bilingual(sub)
        elif action.help and action.help is not argparse.SUPPRESS:
            action.help = both(str(action.help))
    return parser
