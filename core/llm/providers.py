"""Providers the owner can pick by name: address, models per tier, what each supports, prices.

Why one table: 设置 → AI 模型 fills its fields from it, the client takes each provider's request
shape from it (Azure's ``api-key`` header, ``api-version`` query and deployment path), the
capability negotiation starts from what it says (``core.llm.capabilities``), and the ledger
prices calls with it (``core.llm.pricing``). What a provider supports is taken from its public
documentation at the time of writing; the probe (测试连接) checks it against the real server.

Prices are USD per million tokens (input, output), rough: for the owner's cost overview only.
Chinese providers bill in CNY; the figures are converted at about 7.2 CNY per USD.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from core.llm.capabilities import Capabilities


@dataclass(frozen=True)
class Provider:
    """One preset. ``path`` is the chat-completions path under ``base_url`` (``{model}`` is
    the tier's model, an Azure deployment name); ``auth`` is ``bearer`` or ``api-key``."""

    key: str
    name_zh: str
    name_en: str
    base_url: str
    tiers: tuple[str, str, str]
    capabilities: Capabilities
    hosts: tuple[str, ...] = ()  # hosts (or host:port) that identify it in a typed address
    path: str = "/chat/completions"
    auth: str = "bearer"
    query: dict[str, str] = field(default_factory=dict)
    needs_key: bool = True
    local: bool = False
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)
    note_zh: str = ""
    note_en: str = ""

    def name(self, lang: str) -> str:
        return self.name_zh if lang.startswith("zh") else self.name_en

    def note(self, lang: str) -> str:
        return self.note_zh if lang.startswith("zh") else self.note_en


def _caps(structured: str, tools: str, stream_usage: bool = True) -> Capabilities:
    return Capabilities(
        structured=structured, tools=tools, stream_usage=stream_usage, source="preset"
    )


PROVIDERS: dict[str, Provider] = {
    p.key: p
    for p in (
        Provider(
            "openai",
            "OpenAI",
            "OpenAI",
            "https://api.openai.com/v1",
            ("gpt-4.1-nano", "gpt-4.1-mini", "gpt-4.1"),
            _caps("schema", "native"),
            hosts=("api.openai.com",),
        ),
        Provider(
            "azure",
            "Azure OpenAI（微软）",
            "Azure OpenAI",
            "https://YOUR-RESOURCE.openai.azure.com/openai",
            ("gpt-4o-mini", "gpt-4o-mini", "gpt-4o"),
            _caps("schema", "native"),
            hosts=(".openai.azure.com", ".cognitiveservices.azure.com"),
            path="/deployments/{model}/chat/completions",
            auth="api-key",
            query={"api-version": "2024-10-21"},
            note_zh="把 YOUR-RESOURCE 换成您的资源名；模型名称填部署（deployment）名称。",
            note_en="Replace YOUR-RESOURCE with your resource name; the model names are your "
            "deployment names.",
        ),
        Provider(
            "deepseek",
            "DeepSeek（深度求索）",
            "DeepSeek",
            "https://api.deepseek.com/v1",
            ("deepseek-chat", "deepseek-chat", "deepseek-chat"),
            _caps("json_object", "native"),
            hosts=("api.deepseek.com",),
            prices={"deepseek-chat": (0.27, 1.10), "deepseek-reasoner": (0.55, 2.19)},
        ),
        Provider(
            "qwen",
            "通义千问（阿里云百炼，兼容模式）",
            "Qwen (Alibaba DashScope, compatible mode)",
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
            ("qwen-turbo", "qwen-plus", "qwen-max"),
            _caps("json_object", "native"),
            hosts=("dashscope.aliyuncs.com", "dashscope-intl.aliyuncs.com"),
            prices={
                "qwen-turbo": (0.05, 0.20),
                "qwen-plus": (0.11, 0.28),
                "qwen-max": (0.33, 1.33),
            },
        ),
        Provider(
            "moonshot",
            "月之暗面 Kimi",
            "Moonshot / Kimi",
            "https://api.moonshot.cn/v1",
            ("moonshot-v1-8k", "moonshot-v1-32k", "moonshot-v1-32k"),
            _caps("json_object", "native", stream_usage=False),
            hosts=("api.moonshot.cn", "api.moonshot.ai"),
            prices={
                "moonshot-v1-8k": (1.67, 1.67),
                "moonshot-v1-32k": (3.33, 3.33),
                "moonshot-v1-128k": (8.33, 8.33),
            },
        ),
        Provider(
            "zhipu",
            "智谱 GLM",
            "Zhipu GLM",
            "https://open.bigmodel.cn/api/paas/v4",
            ("glm-4-flash", "glm-4-air", "glm-4-plus"),
            _caps("json_object", "native", stream_usage=False),
            hosts=("open.bigmodel.cn",),
            prices={
                "glm-4-flash": (0.0, 0.0),
                "glm-4-air": (0.07, 0.07),
                "glm-4-plus": (0.69, 0.69),
            },
        ),
        Provider(
            "ollama",
            "Ollama（本机）",
            "Ollama (this PC)",
            "http://localhost:11434/v1",
            ("qwen2.5:3b", "qwen2.5:7b", "qwen2.5:7b"),
            _caps("schema", "native"),
            hosts=("localhost:11434", "127.0.0.1:11434"),
            needs_key=False,
            local=True,
            note_zh="先安装 Ollama 并运行 ollama pull qwen2.5:7b（见说明文件）。",
            note_en="Install Ollama and run `ollama pull qwen2.5:7b` first (see the README).",
        ),
        Provider(
            "lmstudio",
            "LM Studio（本机）",
            "LM Studio (this PC)",
            "http://localhost:1234/v1",
            ("qwen2.5-7b-instruct", "qwen2.5-7b-instruct", "qwen2.5-7b-instruct"),
            _caps("schema", "native"),
            hosts=("localhost:1234", "127.0.0.1:1234"),
            needs_key=False,
            local=True,
            note_zh="在 LM Studio 的“开发者”页启动本地服务器。",
            note_en="Start the local server on LM Studio's Developer tab.",
        ),
        Provider(
            "llamacpp",
            "llama.cpp 服务器（本机）",
            "llama.cpp server (this PC)",
            "http://localhost:8080/v1",
            ("local", "local", "local"),
            _caps("json_object", "text", stream_usage=False),
            hosts=("localhost:8080", "127.0.0.1:8080"),
            needs_key=False,
            local=True,
        ),
    )
}


def by_key(key: str | None) -> Provider | None:
    return PROVIDERS.get((key or "").strip().lower())


def for_address(base_url: str, key: str | None = None) -> Provider | None:
    """The preset a setting names, else the one whose host the address has (None: unknown)."""
    named = by_key(key)
    if named is not None:
        return named
    parts = urlsplit(base_url.strip())
    host = (parts.hostname or "").lower()
    netloc = f"{host}:{parts.port}" if parts.port else host
    for provider in PROVIDERS.values():
        for known in provider.hosts:
            if known.startswith(".") and host.endswith(known):
                return provider
            if known in (host, netloc):
                return provider
    return None


def all_prices() -> dict[str, tuple[float, float]]:
    """Every preset's model prices (model prefix → USD per million tokens in, out)."""
    prices: dict[str, tuple[float, float]] = {}
    for provider in PROVIDERS.values():
        prices.update(provider.prices)
    return prices
