"""Loopback models that lie: they plant values in every string and claim actions they never did.

``PlantingModel`` answers every structured request by filling the requested JSON schema: each
string is ``PLANTED`` (an invented price, date, time and link), each enum its first value, each
boolean true. Given tools, it calls ``draft_reply`` on the first inquiry and then claims what
``claim`` says ("好的，邮件已发送给客户").
"""

from __future__ import annotations

import json
from typing import Any

from tests.support.llm_server import Reply

PLANTED = (
    "Thank you for your enquiry. Our price is $98,765 including GST and we can measure on "
    "3 March 2027 at 9:30am. Pay the deposit at https://pay.example.net/d/42."
)


def fill(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    if "$ref" in schema:
        return fill(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in schema:
        options = [s for s in schema["anyOf"] if s.get("type") != "null"]
        return fill(options[0], defs) if options else None
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "object":
        return {k: fill(v, defs) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return [fill(schema.get("items") or {"type": "string"}, defs)]
    if kind == "boolean":
        return True
    if kind in {"integer", "number"}:
        return 1
    return PLANTED


def schema_of(request: dict[str, Any]) -> dict[str, Any] | None:
    fmt = request.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema")
    return None


class PlantingModel:
    """Plants ``PLANTED`` in every schema string; with tools, drafts then claims ``claim``."""

    def __init__(self, claim: str = "好的，邮件已发送给客户", tool: str = "draft_reply") -> None:
        self.claim = claim
        self.tool = tool
        self.broken_json = False  # answer structured calls with text that is not JSON

    def __call__(self, request: dict[str, Any]) -> Any:
        schema = schema_of(request)
        if schema is not None:
            if self.broken_json:
                return Reply(content='{"labels": ["A"], "confidence": "hi')
            return fill(schema, schema.get("$defs") or {})
        if request.get("tools"):
            done = [m for m in request["messages"] if m.get("role") == "tool"]
            if not done:
                args: dict[str, Any] = {"inquiry_id": 1, "instruction": "回复客户"}
                if self.tool == "change_stage":
                    args = {"inquiry_id": 1, "to_stage": "nope", "reason": "x"}
                return [{"name": self.tool, "arguments": args}]
            return self.claim
        return PLANTED


def tool_result(request: dict[str, Any]) -> str:
    return json.dumps([m.get("content") for m in request["messages"] if m.get("role") == "tool"])
