"""A tool's two ends: the model's arguments read strictly, and answers it cannot misread.

Why apart from ``base``: the ``Tool`` record and its context say what a tool may do; these say
how it talks to the model (closed JSON schemas, integers refused when they are not, customer
text fenced in ``<data>`` tags, Sydney times), and every tool module uses both.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from core.agent.tools.base import ToolError
from core.clock import to_sydney
from core.glossary import product_name
from core.inquiry.stages import STAGE_NAMES_ZH

if TYPE_CHECKING:
    from core.inquiry.board import BoardRow


def obj(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A closed JSON-schema object (the model cannot add arguments the handler ignores)."""
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def iso_local(value: datetime | None) -> str | None:
    """Sydney wall time, minutes precision (what the owner reads)."""
    return to_sydney(value).strftime("%Y-%m-%d %H:%M") if value else None


def int_arg(args: dict[str, Any], name: str) -> int:
    try:
        return int(args[name])
    except (KeyError, TypeError, ValueError):
        raise ToolError(f"argument {name} must be an integer") from None


def text_arg(args: dict[str, Any], name: str, *, required: bool = True) -> str:
    value = str(args.get(name) or "").strip()
    if required and not value:
        raise ToolError(f"{name} is empty")
    return value


def limit_arg(args: dict[str, Any], default: int = 10, most: int = 50) -> int:
    try:
        return max(1, min(int(args.get("limit") or default), most))
    except (TypeError, ValueError):
        raise ToolError("argument limit must be an integer") from None


def ids_arg(args: dict[str, Any], name: str) -> list[int]:
    raw = args.get(name) or []
    if not isinstance(raw, list):
        raise ToolError(f"argument {name} must be a list of integers")
    try:
        return [int(v) for v in raw]
    except (TypeError, ValueError):
        raise ToolError(f"argument {name} must be a list of integers") from None


def as_json(status: str, payload: dict[str, Any]) -> str:
    """``STATUS`` on the first line, the data as JSON below: the status is what it means."""
    return status + "\n" + json.dumps(payload, ensure_ascii=False, default=str)


def data_block(status: str, payload: object) -> str:
    """Like ``as_json`` for customer text: inside <data> tags, never instructions."""
    return f"{status}\n<data>\n{json.dumps(payload, ensure_ascii=False, default=str)}\n</data>"


def inquiry_line(row: BoardRow) -> dict[str, Any]:
    """A board row as the model sees it."""
    return {
        "id": row.id,
        "customer": row.customer_name,
        "email": row.customer_email,
        "phone": row.customer_phone,
        "suburb": row.suburb,
        "products": [product_name(p) for p in row.product_types],
        "class": row.classification,
        "stage": row.stage,
        "stage_zh": STAGE_NAMES_ZH.get(row.stage, row.stage),
        "owes_reply": row.owes_reply,
        "last_contact": iso_local(row.last_contact_at),
        "pending_drafts": row.pending_drafts,
    }
