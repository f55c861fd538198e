"""Every provider preset sends its documented request shape, and 测试连接 says what works.

The loopback server stands at the preset's path (Azure's ``/openai/deployments/<name>``,
DashScope's ``/compatible-mode/v1``, Zhipu's ``/api/paas/v4``, Ollama's ``/v1``…); what is
checked is the request the provider would receive: path, query, auth header, response format.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from core.llm import probe, providers
from core.llm.client import LLMClient
from core.llm.pricing import estimate_cost
from core.secrets import LLM_API_KEY
from core.services import Services
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer, Reply, schema_name

_made: list[LLMClient] = []


@pytest.fixture(autouse=True)
async def close_clients() -> AsyncIterator[None]:
    yield
    while _made:
        await _made.pop().aclose()


def respond(request: dict[str, Any]) -> Any:
    """A capable model: JSON when asked, the probe's tool called, Chinese when asked."""
    asked = "get_time" in str(request.get("tools") or request["messages"])
    if asked and not any(m.get("role") == "tool" for m in request["messages"]):
        return [{"name": "get_time", "arguments": {"city": "Sydney"}}]
    if schema_name(request) or "JSON" in str(request["messages"]):
        return {"answer": "窗户", "labels": ["B"], "confidence": "high"}
    return "OK"


def preset_client(services: Services, srv: LLMServer, key: str) -> LLMClient:
    preset = providers.PROVIDERS[key]
    root = f"http://127.0.0.1:{srv.port}"
    services.settings.update(
        {
            "llm.base_url": root + urlsplit(preset.base_url).path,
            "llm.provider": key,
            "llm.max_retries": 0,
            **{f"llm.tier{i}": preset.tiers[i - 1] for i in (1, 2, 3)},
        }
    )
    services.secrets.set(LLM_API_KEY, "sk-preset-0001")
    client = LLMClient(services.settings, services.secrets, services.store, services.clock)
    _made.append(client)
    return client


EXPECTED_PATH = {
    "openai": "/v1/chat/completions",
    "azure": "/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-10-21",
    "deepseek": "/v1/chat/completions",
    "qwen": "/compatible-mode/v1/chat/completions",
    "moonshot": "/v1/chat/completions",
    "zhipu": "/api/paas/v4/chat/completions",
    "ollama": "/v1/chat/completions",
    "lmstudio": "/v1/chat/completions",
    "llamacpp": "/v1/chat/completions",
}


def test_every_preset_has_a_documented_shape() -> None:
    assert set(providers.PROVIDERS) == set(EXPECTED_PATH)
    for preset in providers.PROVIDERS.values():
        assert preset.base_url.startswith(("https://", "http://localhost"))
        assert all(preset.tiers) and preset.name_zh and preset.name_en
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in preset.name_en + preset.note_en)


@pytest.mark.parametrize("key", sorted(EXPECTED_PATH))
async def test_preset_request_shape(services: Services, key: str) -> None:
    preset = providers.PROVIDERS[key]
    with LLMServer(respond) as srv:
        client = preset_client(services, srv, key)
        completion = await client.complete(
            tier=1, purpose="test", messages=[{"role": "user", "content": "Reply OK"}]
        )
    assert completion.content == "OK"
    request = srv.chat_requests[0]
    assert request.path == EXPECTED_PATH[key]
    if preset.auth == "api-key":  # Azure: the key in api-key, no bearer token at all
        assert request.headers["api-key"] == "sk-preset-0001"
        assert "authorization" not in request.headers
    else:
        assert request.headers["authorization"] == "Bearer sk-preset-0001"
    assert request.body is not None
    assert request.body["model"] == preset.tiers[0]


@pytest.mark.parametrize(
    ("key", "first_format"),
    [("openai", "json_schema"), ("deepseek", "json_object"), ("qwen", "json_object"),
     ("moonshot", "json_object"), ("zhipu", "json_object"), ("llamacpp", "json_object")],
)  # fmt: skip
async def test_preset_asks_in_its_documented_mode_first(
    services: Services, key: str, first_format: str
) -> None:
    """No refused request wasted on a provider that documents json_object only."""
    from pydantic import BaseModel

    class Labels(BaseModel):
        labels: list[str]
        confidence: str

    with LLMServer(respond) as srv:
        client = preset_client(services, srv, key)
        await client.structured(tier=1, purpose="t", prompt="probe_json", variables={},
                                schema=Labels)  # fmt: skip
    body = srv.chat_requests[0].body
    assert body is not None
    assert body["response_format"]["type"] == first_format


def test_preset_prices_reach_the_ledger() -> None:
    assert estimate_cost("deepseek-chat", 1_000_000, 0) == pytest.approx(0.27)
    assert estimate_cost("moonshot-v1-8k", 0, 1_000_000) > 0
    assert estimate_cost("qwen2.5:7b", 1_000_000, 1_000_000) == 0.0  # local: free


def test_address_finds_its_preset() -> None:
    assert providers.for_address("https://api.deepseek.com/v1").key == "deepseek"  # type: ignore[union-attr]
    azure = providers.for_address("https://contoso.openai.azure.com/openai")
    assert azure is not None and azure.key == "azure"
    assert providers.for_address("http://127.0.0.1:11434/v1").key == "ollama"  # type: ignore[union-attr]
    assert providers.for_address("http://10.1.1.1:9000/v1") is None


QUIRK_SERVERS = {
    "capable": (Quirks(), ["JSON Schema", "工具调用：支持", "流式输出：支持", "中文：能用中文"]),
    "llama.cpp": (
        Quirks(
            json_schema_status=500, text_tools="flat", unknown_params=frozenset({"stream_options"})
        ),
        ["只支持 JSON 模式", "写在文字里", "流式输出：支持"],
    ),
    "deepseek": (Quirks(json_schema_status=400), ["只支持 JSON 模式", "工具调用：支持"]),
    "no-json-mode": (Quirks(response_format_status=400), ["提取 JSON"]),
    "no-tools": (Quirks(tools_status=400, text_tools="tagged"), ["提示里说明工具"]),
    "thinking": (Quirks(think=True, reasoning_content=True), ["JSON Schema", "中文：能用中文"]),
    "no-streaming": (Quirks(streaming="refuse"), ["流式输出：不支持"]),
}


@pytest.mark.parametrize("name", sorted(QUIRK_SERVERS))
async def test_test_connection_summary_per_quirk_server(services: Services, name: str) -> None:
    quirks, expected = QUIRK_SERVERS[name]
    with LLMServer(respond, quirks=quirks) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        _made.append(client)
        report = await probe.probe(client)
    lines = probe.summary(report, "zh_CN")
    text = "\n".join(lines)
    assert lines[0].startswith("✅ 已连接"), text
    for words in expected:
        assert words in text, text
    english = "\n".join(probe.summary(report, "en"))
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in english)
    assert (await client.capabilities(1)).source in ("probe", "refusal")


async def test_test_connection_with_a_wrong_model_says_so(services: Services) -> None:
    with LLMServer(lambda r: Reply.error(404, "The model `gpt-9` does not exist")) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        _made.append(client)
        report = await probe.probe(client)
    assert probe.summary(report, "zh_CN") == [
        "❌ 无法使用：AI 服务不认识这个模型名称，请在设置 → AI 模型中检查模型名称"
    ]
