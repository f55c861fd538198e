"""The briefing in the owner's words: Chinese Markdown for the tray window and Telegram."""

from __future__ import annotations

from datetime import date

from core.phones import display_phone
from core.rhythm.briefing import WEEKDAYS_ZH, Briefing, Visit, place_of
from core.text.render import md_escape


def _visit_lines(number: int | None, visit: Visit, leg_km: float | None = None) -> list[str]:
    """One stop: numbered in the round, or a bullet (``number`` None) when it is not in it."""
    who = md_escape(visit.customer_name or f"询盘 #{visit.inquiry_id}")
    where = md_escape(place_of(visit)) or "地址未知"
    head = f"{number}. **{who}** — {where}" if number else f"- **{who}** — {where}"
    if leg_km is not None:
        head += (
            f"（距上一站约 {leg_km:g} 公里）" if number != 1 else f"（距公司约 {leg_km:g} 公里）"
        )
    if visit.products_zh:
        head += " · " + "、".join(visit.products_zh)
    if visit.phone:
        head += f" · {display_phone(visit.phone)}"
    lines = [head]
    if visit.last_said:
        by = "客户" if visit.last_said_by == "customer" else "您"
        lines.append(f"   最近（{by}）：{md_escape(visit.last_said)}")
    for note in visit.notes:
        lines.append(f"   备注：{md_escape(note)}")
    return lines


def _route_start(briefing: Briefing) -> str:
    km = f"{briefing.route_km:g}" if briefing.route_km else ""
    if briefing.office and briefing.office_located:
        return f"从公司出发并返回，全程直线约 {km} 公里" if km else "从公司出发并返回"
    if briefing.office:
        where = md_escape(briefing.office)
        return f"公司地址「{where}」无法定位，从第一站出发，距离不含往返公司" + (
            f"，直线约 {km} 公里" if km else ""
        )
    return "未设置公司地址，从第一站出发" + (f"，直线约 {km} 公里" if km else "")


def _route_lines(briefing: Briefing) -> list[str]:
    """The measuring round in order with each leg, then the places that could not be placed."""
    if not briefing.measure_route and not briefing.unknown_places:
        return ["**等待上门量尺（A 类）**：无"]
    lines = []
    if briefing.measure_route:
        lines.append(f"**等待上门量尺（A 类）· 建议路线**（{_route_start(briefing)}）：")
        legs = briefing.legs_km if briefing.office_located else [None, *briefing.legs_km]
        for number, visit in enumerate(briefing.measure_route, 1):
            leg = legs[number - 1] if number - 1 < len(legs) else None
            lines += _visit_lines(number, visit, leg)
        if briefing.office_located and len(briefing.legs_km) > len(briefing.measure_route):
            lines.append(f"   最后返回公司约 {briefing.legs_km[-1]:g} 公里")
        if briefing.maps_url:
            lines.append(f"[在 Google 地图中打开路线]({briefing.maps_url})")
    if briefing.unknown_places:
        if lines:
            lines.append("")
        lines.append(
            f"**未能定位的地址**（{len(briefing.unknown_places)}，不在路线和地图链接中，请自行安排）："
        )
        for visit in briefing.unknown_places:
            lines += _visit_lines(None, visit)
    return lines


def render_markdown(briefing: Briefing) -> tuple[str, str]:
    """Title and Markdown body."""
    day = date.fromisoformat(briefing.for_date)
    title = f"明日简报 · {day.month}月{day.day}日（{WEEKDAYS_ZH[day.weekday()]}）"
    lines = [f"**{title}**", ""]
    if not briefing.calendar_checked:
        lines.append(f"**明天的预约**：{briefing.calendar_note or '未读取 Outlook 日历'}")
    elif not briefing.appointments:
        lines.append("**明天的预约**：无")
    else:
        lines.append(f"**明天的预约**（{len(briefing.appointments)}）：")
        for event in briefing.appointments:
            when = str(event.get("start", ""))[11:16]
            lines.append(f"- {when} {md_escape(str(event.get('subject', '')))}")
    lines.append("")
    lines += _route_lines(briefing)
    lines.append("")
    lines.append(f"**新询盘（24 小时内）**：{len(briefing.new_inquiries)}")
    lines.append(f"**待您批准的草稿**：{len(briefing.drafts_waiting)}")
    lines.append(f"**超过阶段期限**：{len(briefing.overdue)}")
    for item in briefing.overdue[:10]:
        who = md_escape(str(item.get("customer_name") or f"询盘 #{item['inquiry_id']}"))
        lines.append(
            f"- {who}「{item['stage_zh']}」{item['days_in_stage']}/{item['limit_days']} 个工作日"
        )
    lines += _needs_you_lines(briefing)
    return title, "\n".join(lines).strip()


def _needs_you_lines(briefing: Briefing) -> list[str]:
    """需要您确认: the pipeline's guesses, each with what to check and whose it is."""
    if not briefing.needs_you:
        return []
    lines = ["", f"**需要您确认**（{len(briefing.needs_you)}）："]
    for item in briefing.needs_you[:10]:
        who = md_escape(str(item.get("label") or "")) or (
            f"询盘 #{item['inquiry_id']}" if item.get("inquiry_id") else "邮件"
        )
        lines.append(f"- {who}：{item['title_zh']}")
    if len(briefing.needs_you) > 10:
        lines.append(f"- ……还有 {len(briefing.needs_you) - 10} 项，请在看板上查看")
    return lines
