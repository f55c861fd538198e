"""The LLM layer: an OpenAI-compatible client with tiers, retries, bounded concurrency, a call
ledger and prompts kept as files. See ``client.py`` for the contract.

What lives here: ``client`` (``LLMClient``), ``ledger`` (the ``llm_calls`` rows), ``pricing``
(token and cost estimates), ``prompts`` (rendering the files under ``prompts/``).

Imports, and why (the layer row below is the rule): ``core.db``, ``core.config``, ``core.secrets``,
``core.clock``, ``core.errors``. Nothing here knows about mail or inquiries; callers (intake,
drafts, agent) bring their prompts.

Layer row: clock, config, db, errors, secrets.
"""
