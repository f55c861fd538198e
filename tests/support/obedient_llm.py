"""A loopback model that obeys instructions planted in customer mail, the way real models often do.

Served by ``tests.support.llm_server.LLMServer`` (``LLMServer(ObedientModel())``). It is the
adversary of docs/contracts.md principle 7:

- as the **assistant** (requests with ``tools``): first it reads the current inquiry
  (``get_inquiry``); then, for every line of the customer's text that says
  ``AI assistant: call TOOL {json}``, it calls that tool with those arguments (``"{id}"`` becomes
  the inquiry it read) — all in one round, as parallel tool calls, in the mail's order; then it
  claims success
  ("好的，已按客户的要求全部办妥，邮件已发送。");
- as the **drafting model** (structured ``draftanswer`` requests): whenever the prompt holds a
  planted payment line (``PAYMENT_EN``'s values, from the thread or from an instruction), the
  body carries them, plus the phone the mail spelled out in words (``NEW_PHONE``, a value no
  person wrote in digits); other structured calls get a fixed polite answer.

``calls`` records the (tool, arguments) it made, so a test can tell what it tried from what the
app let happen.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

from tests.support.llm_server import schema_name

BSB, ACCOUNT = "062-999", "1234 5678"
PAY_LINK = "https://pay.example-pay.net/inv/9"
NEW_PHONE = "0488 999 000"  # the mail says it in words: only the model writes these digits
EVIL_ADDRESS = "accounts@pay-evil.example"
PAYMENT_EN = (
    f"Please pay the deposit to our new account: BSB {BSB}, account {ACCOUNT}, or online at "
    f"{PAY_LINK}. Our new phone number is {NEW_PHONE}."
)
PAYMENT_ZH = f"定金请转到新账户：BSB {BSB}，账号 {ACCOUNT}，或在线支付 {PAY_LINK}。我们的新电话是 {NEW_PHONE}。"
CLAIM = "好的，已按客户的要求全部办妥，邮件已发送。"
_COMMAND = re.compile(r"AI assistant: call (\w+) (\{.*\})", re.I)
_CURRENT = re.compile(r"\[current inquiry: #(\d+)\]")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _tool_payloads(messages: list[dict[str, Any]]) -> list[Any]:
    """What the tools answered, decoded (their ``<data>`` JSON, or the JSON after a status)."""
    out: list[Any] = []
    for message in messages:
        if message.get("role") != "tool":
            continue
        text = str(message.get("content") or "")
        body = text.partition("<data>")[2].rpartition("</data>")[0] if "<data>" in text else text
        try:
            out.append(json.loads(body))
        except ValueError:
            out.append(text)
    return out


class ObedientModel:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.extra_body = ""  # a sentence every draft body carries (e.g. another customer's email)
        self._lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Any:
        if schema_name(request):
            return self._structured(request)
        if request.get("tools"):
            with self._lock:
                return self._assistant(request)
        return "OK"

    def _structured(self, request: dict[str, Any]) -> Any:
        prompt = json.dumps(request.get("messages") or [], ensure_ascii=False)
        if schema_name(request) != "draftanswer":
            return {"body_zh": "您好，谢谢来信。"}
        en, zh = "Thank you for your email.", "谢谢来信。"
        if BSB in prompt:  # the planted payment text reached the drafting model: it obeys
            en, zh = PAYMENT_EN, PAYMENT_ZH
        extra = f" {self.extra_body}" if self.extra_body else ""
        return {
            "subject": "Your enquiry",
            "body_en": f"Hello,\n\n{en}{extra}\n\nKind regards",
            "body_zh": f"您好：\n\n{zh}{extra}\n\n此致",
        }

    def _assistant(self, request: dict[str, Any]) -> Any:
        messages = request.get("messages") or []
        payloads = _tool_payloads(messages)
        if not payloads:
            user: dict[str, Any] = next(
                (m for m in reversed(messages) if m.get("role") == "user"), {}
            )
            found = _CURRENT.search(str(user.get("content") or ""))
            return self._call("get_inquiry", {"inquiry_id": int(found.group(1)) if found else 1})
        first = payloads[0]
        inquiry_id = first.get("id") if isinstance(first, dict) else 1
        commands = [
            (m.group(1), m.group(2))
            for text in _strings(first)
            for line in text.splitlines()
            if (m := _COMMAND.search(line))
        ]
        if len(payloads) > 1 or not commands:  # it did what the mail said: now it claims
            return CLAIM
        calls = [
            (name, json.loads(raw.replace('"{id}"', str(inquiry_id)))) for name, raw in commands
        ]
        self.calls += calls
        return [{"name": name, "arguments": args} for name, args in calls]  # parallel calls

    def _call(self, name: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        self.calls.append((name, args))
        return [{"name": name, "arguments": args}]
