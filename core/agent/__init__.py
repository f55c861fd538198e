"""The assistant: a bounded tool-calling loop over the same core services the owner uses.

Its tools can read, search, take notes, move stages (audited as ``agent``) and *draft* replies;
none can approve or send a draft (principle 2): the tools are handed a ``ToolContext`` holding
only the drafting composer and reader, so no approve/send method is reachable from it. Every
answer passes the claim guard (``claims``) before the owner reads it; what the model wants to
remember after reading customer mail is a proposal (``memory``).

May import: core.drafts (composer, reader), core.inquiry, core.llm, core.db, core.events.
Never imported by the layers it uses; front ends (cli, desktop, Telegram) call it.
"""
