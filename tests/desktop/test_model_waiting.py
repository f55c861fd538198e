"""Mail waiting for the model is counted in the status bar and the tray, with why (#45).

A model on this PC that does not finish one mail in time leaves it ``pending`` for the next
round; the board used to say 就绪 and the tray nothing. Now both say "1 封等待 AI：…" with the
reason in Chinese, never the server's text.
"""

from __future__ import annotations

from typing import Any

from core.app.standalone import own_pipeline
from desktop.main_window import MainWindow
from desktop.tray import TrayController
from tests.intake.test_pipeline_support import ScriptedModel, Verdict, make_email, raw
from tests.support.llm_server import LLMServer, Reply, last_user_text

QUOTE = make_email(subject="Quote for sliding window", body="Please quote a sliding window.")
LONG = make_email(subject="Bifold doors", body="Please measure bifold doors in Ryde. Tom",
                  sender="Tom Lee <tom.lee@example.com>", minutes=1)  # fmt: skip


async def _one_mail_times_out(services: Any) -> None:
    scripted = ScriptedModel({"sliding window": Verdict(["B"], name="Jane")})

    def slow_on_bifold(request: dict[str, Any]) -> Any:
        answer = scripted(request)
        if "Bifold" in last_user_text(request):
            return Reply(content=answer, delay=3.0)  # longer than the patience below
        return answer

    with LLMServer(slow_on_bifold) as srv:
        services.settings.update(
            {"llm.base_url": srv.base_url, "llm.provider": "ollama", "llm.max_retries": 0,
             "llm.local_timeout_seconds": 1.0}
        )  # fmt: skip
        pipeline = own_pipeline(services)
        try:
            await pipeline.ingest_batch([raw(QUOTE), raw(LONG)])
        finally:
            await pipeline.aclose()


async def test_the_status_bar_and_the_tray_count_mail_waiting_for_the_ai(
    ctx: Any, services: Any, qtbot: Any
) -> None:
    assert await ctx.app.intake.waiting_for_model() == (0, "")
    await _one_mail_times_out(services)
    assert await ctx.app.intake.waiting_for_model() == (1, "slow")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    tray = TrayController(ctx.app)
    tray.model_waiting.connect(window.set_model_waiting)
    await tray.update_count()
    expected = "1 封等待 AI：模型没有在规定时间内答完（本机模型较慢），下一轮会自动重试"
    assert expected in tray.tooltip()
    assert window.sync_label.text() == expected  # not 就绪
    assert "timeout" not in tray.tooltip() and "HTTP" not in window.sync_label.text()
