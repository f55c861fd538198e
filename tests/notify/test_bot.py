"""The bot: pairing by one-time code, strangers ignored, offsets persisted, notes by text/voice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from core.db.models import Memory, SyncCursor
from core.events import InquiryCreated
from core.notify import pairing
from core.telegram.runner import TelegramRunner
from tests.notify.conftest import OWNER, STRANGER, add_inquiry
from tests.support.telegram_server import TelegramServer


async def once(services: Any) -> Any:
    runner = TelegramRunner(services)
    try:
        return await runner.run_once()
    finally:
        await runner.aclose()


def notes(services: Any) -> list[Memory]:
    with services.store.session() as session:
        rows = list(session.scalars(select(Memory).order_by(Memory.id)))
        session.expunge_all()
        return rows


async def test_start_with_the_code_pairs_that_chat_once(
    services: Any, tg_env: TelegramServer, clock: Any
) -> None:
    code = pairing.new_pairing_code(services)
    assert pairing.current_pairing_code(services) == code
    tg_env.push_message(OWNER, f"/start {code.code.lower()}")
    report = await once(services)
    assert report.paired
    owner = pairing.owner(services)
    assert owner is not None and owner.chat_id == OWNER and not owner.preset
    [welcome] = tg_env.sent_to(OWNER)
    assert welcome.visible.startswith("✅ 配对成功。")
    assert pairing.current_pairing_code(services) is None  # spent

    # the same code from another chat later: ignored, owner unchanged, nothing answered
    tg_env.push_message(STRANGER, f"/start {code.code}")
    await once(services)
    assert (owner := pairing.owner(services)) is not None
    assert owner.chat_id == OWNER
    assert tg_env.sent_to(STRANGER) == []


async def test_wrong_or_expired_codes_change_nothing_and_get_no_answer(
    services: Any, tg_env: TelegramServer, clock: Any
) -> None:
    code = pairing.new_pairing_code(services)
    tg_env.push_message(STRANGER, "/start WRONG123")
    tg_env.push_message(STRANGER, "/start")
    tg_env.push_message(STRANGER, f"/start {code.code}", chat_type="group")  # groups cannot pair
    await once(services)
    assert pairing.owner(services) is None
    clock.advance(31 * 60)
    tg_env.push_message(OWNER, f"/start {code.code}")
    await once(services)
    assert pairing.owner(services) is None
    assert tg_env.sent == []


async def test_strangers_get_nothing_once_paired(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    inquiry_id = add_inquiry(services)
    services.bus.publish(InquiryCreated(inquiry_id))
    owner_env.push_message(STRANGER, "/status")
    owner_env.push_message(STRANGER, "hello, what are the new inquiries?")
    owner_env.push_message(OWNER, "I am not the owner", user_id=STRANGER, chat_type="private")
    await once(services)
    assert owner_env.sent_to(STRANGER) == []
    # the owner's chat got its alert and nothing prompted by the stranger
    assert [m.visible.split("\n")[0] for m in owner_env.sent_to(OWNER)] == [
        "新询盘：John Smith（Epping）"
    ]
    assert notes(services) == []


async def test_offset_is_committed_after_each_update(
    services: Any, owner_env: TelegramServer
) -> None:
    owner_env.push_message(OWNER, "/help")
    last = owner_env.push_message(OWNER, "/status")
    report = await once(services)
    assert report.updates == 2
    with services.store.session() as session:
        cursor = session.get(SyncCursor, "telegram:offset")
        assert cursor is not None and int(cursor.value) == last + 1
    replies = owner_env.sent_to(OWNER)
    assert "草稿下方的按钮" in replies[0].visible
    assert replies[1].visible.startswith("待审批草稿：0 份")
    # the next round confirms them with the stored offset and handles nothing twice
    await once(services)
    assert owner_env.state.offsets[-1] == last + 1
    assert len(owner_env.sent_to(OWNER)) == 2


async def test_typed_text_becomes_a_note_on_the_inquiry_under_discussion(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    inquiry_id = add_inquiry(services)
    services.bus.publish(InquiryCreated(inquiry_id))
    await once(services)  # the bot messaged about this inquiry
    owner_env.push_message(OWNER, "客户说周六上午在家，量尺带梯子")
    await once(services)
    offer = owner_env.sent_to(OWNER)[-1]
    assert "要把这段文字存为备注吗？" in offer.visible
    assert f"询盘 #{inquiry_id} John Smith" in offer.visible
    assert notes(services) == []  # nothing stored before the button
    owner_env.press(offer, "保存")
    owner_env.press(offer, "保存")  # a double tap stores it once
    await once(services)
    [note] = notes(services)
    assert (note.inquiry_id, note.text, note.source) == (
        inquiry_id,
        "客户说周六上午在家，量尺带梯子",
        "telegram",
    )
    assert len(owner_env.answered) == 2
    assert owner_env.sent_to(OWNER)[-2].visible == f"已保存备注（询盘 #{inquiry_id}）。"


async def test_text_note_without_context_goes_to_the_inbox_or_is_dropped(
    services: Any, owner_env: TelegramServer
) -> None:
    owner_env.push_message(OWNER, "记得周一订玻璃")
    owner_env.push_message(OWNER, "这条不要")
    await once(services)
    first, second = owner_env.sent_to(OWNER)
    assert "备注收件箱" in first.visible
    owner_env.press(first, "保存")
    owner_env.press(second, "放弃")
    await once(services)
    [note] = notes(services)
    assert note.inquiry_id is None and note.text == "记得周一订玻璃"


async def alerted(services: Any, tg: TelegramServer, *names: str) -> list[tuple[int, Any]]:
    """Inquiries whose new-inquiry alerts reached the owner, in order: [(id, alert message)]."""
    ids = []
    for name in names:
        ids.append(add_inquiry(services, customer_name=name))
        services.bus.publish(InquiryCreated(ids[-1]))
    await once(services)
    alerts = {m.visible.split("\n")[0]: m for m in tg.sent_to(OWNER)}
    return [(i, alerts[f"新询盘：{n}（Epping）"]) for i, n in zip(ids, names, strict=True)]


async def test_a_note_replying_to_an_alert_goes_to_that_alerts_inquiry(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    (first, first_alert), (second, _) = await alerted(services, owner_env, "Amy", "Bob")
    # Bob's alert came last, but the owner answers Amy's alert with Telegram's reply
    owner_env.push_message(OWNER, "Amy 要白色边框", reply_to=first_alert)
    await once(services)
    offer = owner_env.sent_to(OWNER)[-1]
    assert f"将记在：询盘 #{first} Amy" in offer.visible
    owner_env.press(offer, "保存")
    # a note without a reply follows the conversation: Amy is now the inquiry under discussion
    owner_env.push_message(OWNER, "她周六在家")
    await once(services)
    owner_env.press(owner_env.sent_to(OWNER)[-1], "保存")
    # replying to something that is not an alert falls back the same way
    owner_env.push_message(OWNER, "记得带样品", reply_to=999_999)
    await once(services)
    owner_env.press(owner_env.sent_to(OWNER)[-1], "保存")
    await once(services)
    assert [(n.inquiry_id, n.text) for n in notes(services)] == [
        (first, "Amy 要白色边框"),
        (first, "她周六在家"),
        (first, "记得带样品"),
    ]
    assert second != first


@pytest.mark.slow
async def test_voice_note_is_transcribed_locally_confirmed_and_stored(
    services: Any, center: Any, owner_env: TelegramServer, tmp_path: Path
) -> None:
    from tests.voice.speech import encode, espeak

    wav = espeak("The new glass door will be installed next week.", tmp_path / "note.wav")
    ogg = encode(wav, tmp_path / "note.ogg", "libopus")
    (inquiry_id, alert), _ = await alerted(services, owner_env, "Amy", "Bob")
    owner_env.push_voice(OWNER, ogg.read_bytes(), reply_to=alert)  # a voice reply to Amy's alert
    owner_env.push_voice(STRANGER, ogg.read_bytes())  # never downloaded
    await once(services)
    assert len(owner_env.calls_of("getFile")) == 1
    offer = owner_env.sent_to(OWNER)[-1]
    assert "语音转写如下" in offer.visible
    assert "door will be installed next week" in offer.visible.lower()
    owner_env.press(offer, "保存")
    await once(services)
    [note] = notes(services)
    assert note.inquiry_id == inquiry_id and "installed next week" in note.text.lower()
    assert (
        note.audio_path and (services.paths.home / note.audio_path).read_bytes() == ogg.read_bytes()
    )


async def test_serve_answers_while_running_and_stops_when_told(
    services: Any, owner_env: TelegramServer
) -> None:
    """The tray app's loop: long polling on the real event loop, stopped by its event."""
    import asyncio

    from core.telegram.runner import serve

    services.settings.set("telegram.poll_timeout", 1)
    stop = asyncio.Event()
    task = asyncio.create_task(serve(services, stop, recheck_seconds=0.2))
    owner_env.push_message(OWNER, "/help")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while not owner_env.sent_to(OWNER) and loop.time() < deadline:
        await asyncio.sleep(0.02)
    assert "询盘桥助手已连接" in owner_env.sent_to(OWNER)[0].visible
    stop.set()
    await asyncio.wait_for(task, timeout=10)
    # a long poll already on the wire when the task stopped may still land at the server
    await asyncio.sleep(0.3)
    polls = len(owner_env.calls_of("getUpdates"))
    await asyncio.sleep(1.5)  # longer than one poll (1 s) plus the recheck (0.2 s)
    assert len(owner_env.calls_of("getUpdates")) == polls  # really stopped


async def test_with_a_preset_chat_another_chat_cannot_pair_or_spend_the_code(
    services: Any, owner_env: TelegramServer
) -> None:
    code = pairing.new_pairing_code(services)
    owner_env.push_message(STRANGER, f"/start {code.code}")
    await once(services)
    assert owner_env.sent_to(STRANGER) == []
    assert (owner := pairing.owner(services)) is not None
    assert owner.chat_id == OWNER
    assert pairing.current_pairing_code(services) == code  # not spent by the stranger


async def test_a_note_over_4096_characters_is_offered_and_saved_whole(
    services: Any, owner_env: TelegramServer
) -> None:
    long_note = "客户要求：" + "全部窗户换成双层玻璃，颜色统一为黑色。" * 300  # ~5,700 characters
    assert len(long_note) > 4096
    owner_env.push_message(OWNER, long_note)
    await once(services)
    [offer] = owner_env.sent_to(OWNER)  # the reply fits in one Telegram message
    assert "要把这段文字存为备注吗？" in offer.visible
    assert f"共 {len(long_note)} 字，全文将保存" in offer.visible
    owner_env.press(offer, "保存")
    await once(services)
    [note] = notes(services)
    assert note.text == long_note
