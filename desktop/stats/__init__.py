"""The 概览 / 成本与质量 window: the trade's numbers and what the AI costs (``core.stats``)."""
