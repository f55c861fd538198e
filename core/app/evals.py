"""The intake evaluation, run from the ``App`` of the folder whose model settings it uses.

Why here: ``eval`` ingests a labelled folder into a temporary data folder of its own; only the
model settings, secrets and clock come from the owner's folder, and those are the ``App``'s to
hand over (the CLI never sees ``Services``).
"""

from __future__ import annotations

from pathlib import Path

from core.evals.intake_eval import EvalReport, run_eval
from core.services import Services

__all__ = ["EvalReport", "EvalService"]


class EvalService:
    def __init__(self, services: Services) -> None:
        self._services = services

    def intake(self, folder: Path, *, offline: bool = False, judge: int = 0) -> EvalReport:
        """Score intake on ``folder`` (its ``labels.json``) with this folder's model settings;
        ``judge``: also draft and score that many replies (tier 3, reported only)."""
        return run_eval(folder, settings_from=self._services, offline=offline, judge=judge)
