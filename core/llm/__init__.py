"""The LLM layer: an OpenAI-compatible client with tiers, retries, bounded concurrency, a call
ledger and prompts kept as files. See ``client.py`` for the contract."""
