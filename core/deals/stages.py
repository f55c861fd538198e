"""The 8-stage pipeline moved to ``core.inquiry.stages``.

This path stays while modules outside the inquiry package still import it (core/drive/watcher.py,
core/graph/categories.py, core/intake/merge.py, core/agent/tools.py, core/rhythm/).
"""

from __future__ import annotations

from core.inquiry.stages import (
    ALL_STAGES,
    CLOSED_STAGES,
    STAGE_NAMES_ZH,
    STAGE_TIMEOUT_DAYS,
    STAGES,
    StageChange,
    StageError,
    StageService,
    change_stage,
    days_in_stage,
    is_overdue,
    next_stage,
    overdue_days,
    record_initial_stage,
    stage_history,
)

__all__ = [
    "ALL_STAGES",
    "CLOSED_STAGES",
    "STAGES",
    "STAGE_NAMES_ZH",
    "STAGE_TIMEOUT_DAYS",
    "StageChange",
    "StageError",
    "StageService",
    "change_stage",
    "days_in_stage",
    "is_overdue",
    "next_stage",
    "overdue_days",
    "record_initial_stage",
    "stage_history",
]
