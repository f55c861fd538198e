"""Loopback servers and helpers shared by tests (Graph, OpenAI-compatible LLM, Telegram)."""
