"""A real OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

Why a server and not a patch: the ``openai`` package (3.x) talks through its own HTTP stack
(``httpx2``), so transport mocks do not intercept it. Running the real client against a small
real server exercises retries, timeouts, ``Retry-After``, JSON-schema response formats and
tool calls exactly as production does.

Usage::

    def responder(request: dict) -> object:
        if schema_name(request) == "classification":
            return {"labels": ["B"], ...}      # dict -> JSON-encoded as the message content
        return "plain text answer"              # str -> message content

    with LLMServer(responder, latency=0.2) as srv:
        settings.set("llm.base_url", srv.base_url)   # "http://127.0.0.1:PORT/v1"
        ...
        assert srv.max_in_flight <= 10
        srv.requests[0].body["messages"]

What a responder may return (it receives the decoded JSON body of the request):
    str                         the assistant message content
    dict                        JSON-encoded and used as the content (structured answers)
    list                        tool calls: items ``{"name": str, "arguments": dict | str}``
                                (an ``id`` is generated when missing)
    Reply(...)                  full control: content, tool_calls, status, headers, raw body,
                                per-request delay, usage override
    Exception subclass / value  re-raised inside the handler -> HTTP 500 with an error body

Error helpers: ``Reply.error(429, retry_after=0.01)``, ``Reply.error(500)``,
``Reply.malformed()`` (a 200 whose body is not JSON). A "broken schema" answer is simply a dict
(or str) that does not match the requested schema.

``quirks=Quirks(...)`` (``tests.support.llm_quirks``) makes the server answer as a real provider
does where it departs from OpenAI: json_schema refused (llama.cpp 500, DeepSeek 400), tool calls
written in the text, ``<think>`` prefixes and ``reasoning_content``, 400 on unknown parameters,
no streaming.

``slots=N`` makes it answer N requests at a time (llama.cpp's ``--parallel``; its default is
one): the others wait their turn, as on a server on the owner's PC.

Also served: ``GET /v1/models``; ``GET /props`` (llama.cpp's) with a ``context_tokens`` quirk;
any path ending in ``/chat/completions``; streaming
(``"stream": true``) as server-sent ``chat.completion.chunk`` events as OpenAI sends them: one
content chunk per word (a word longer than 8 characters, such as Chinese text without spaces, in
8-character pieces), each tool call as deltas (index, id and name first, then its arguments in
pieces), the finish reason, a usage chunk with ``choices: []`` when the request asked for it
(``stream_options.include_usage``), then ``data: [DONE]``. ``Reply.chunk_delay`` spaces chunks.

Every request is recorded in ``srv.requests`` (method, path, headers, body, arrived time);
``srv.max_in_flight`` is the highest number of chat requests being answered at the same time.
Usage tokens are estimated as characters / 4 unless the Reply overrides them.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.llm_quirks import Quirks

Responder = Callable[[dict[str, Any]], Any]


@dataclass
class Reply:
    """A full answer specification for one request."""

    content: str | dict[str, Any] | None = None
    tool_calls: list[dict[str, Any]] | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None  # sent verbatim (malformed JSON, odd error bodies)
    delay: float | None = None  # seconds before answering; overrides the server latency
    usage: dict[str, int] | None = None  # None -> estimated; {} -> no usage field at all
    finish_reason: str | None = None
    chunk_delay: float = 0.0  # streaming: seconds between chunks (text arriving over time)

    @classmethod
    def error(cls, status: int, message: str = "", *, retry_after: float | None = None) -> Reply:
        """An OpenAI-style error body; ``retry_after`` sets Retry-After and retry-after-ms."""
        headers: dict[str, str] = {}
        if retry_after is not None:
            headers["Retry-After"] = f"{retry_after:g}"
            headers["retry-after-ms"] = str(int(retry_after * 1000))
        body = {
            "error": {
                "message": message or f"test server error {status}",
                "type": "rate_limit_error" if status == 429 else "server_error",
                "code": None,
            }
        }
        return cls(status=status, headers=headers, raw_body=json.dumps(body).encode())

    @classmethod
    def malformed(cls) -> Reply:
        """A 200 whose body is not JSON at all."""
        return cls(raw_body=b'{"choices": [ this is not json')


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    arrived: float


def schema_name(request: dict[str, Any]) -> str | None:
    """The schema a request asked for (route structured calls on it): the ``json_schema.name``,
    or — json_object and text modes put the schema in the prompt — the lowercased ``title`` of
    the schema written in the first message (the client names a schema after its class)."""
    fmt = request.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("name")
    messages = request.get("messages") or [{}]
    first = str(messages[0].get("content") or "")
    at = first.rfind("JSON schema")
    found = _SCHEMA_TITLE.findall(first[at:]) if at >= 0 else []
    return found[-1].lower() if found else None  # the top level's title comes last


_SCHEMA_TITLE = re.compile(r'"title": "([A-Za-z0-9_]+)"')


def last_user_text(request: dict[str, Any]) -> str:
    """The text of the last user message (string or content-parts form)."""
    for message in reversed(request.get("messages") or []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return "".join(p.get("text", "") for p in content if isinstance(p, dict))
            return str(content or "")
    return ""


def system_text(request: dict[str, Any]) -> str:
    return "\n".join(
        str(m.get("content") or "")
        for m in request.get("messages") or []
        if m.get("role") in {"system", "developer"}
    )


def sequence(answers: Iterable[Any], *, then: Any = None) -> Responder:
    """A responder that gives the answers in order (thread-safe), then ``then`` forever."""
    items = list(answers)
    lock = threading.Lock()

    def respond(_request: dict[str, Any]) -> Any:
        with lock:
            if items:
                return items.pop(0)
        if then is None:
            return Reply.error(500, "sequence exhausted")
        return then

    return respond


def _estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


def _messages_text(body: dict[str, Any]) -> str:
    parts: list[str] = []
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
        elif content:
            parts.append(str(content))
    return "\n".join(parts)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as production servers set it: http.server writes the headers and the body
    # separately, and with Nagle on, the body waits for the client's delayed ACK (~40 ms on
    # Linux loopback) -- a latency no real endpoint adds, and one that skewed the benchmark.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # silence stderr
        return

    # -- plumbing ---------------------------------------------------------------------
    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        merged = {"Content-Type": "application/json"}
        merged.update(headers or {})
        for name, value in merged.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _record(self, body: dict[str, Any] | None) -> None:
        owner = self.server.owner
        with owner._lock:
            owner.requests.append(
                RecordedRequest(
                    method=self.command,
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                    arrived=time.monotonic(),
                )
            )

    # -- routes -----------------------------------------------------------------------
    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0].rstrip("/")
        self._record(None)
        owner = self.server.owner
        if path == "/props" and owner.quirks.context_tokens:  # llama.cpp's server properties
            props = {
                "default_generation_settings": {"n_ctx": owner.quirks.context_tokens},
                "total_slots": owner.slots or 1,
            }
            self._send(200, json.dumps(props).encode())
        elif path in {"/v1/models", "/models"}:
            data = [
                {"id": m, "object": "model", "owned_by": "test"} for m in self.server.owner.models
            ]
            self._send(200, json.dumps({"object": "list", "data": data}).encode())
        else:
            self._send(404, b'{"error": {"message": "not found"}}')

    def do_POST(self) -> None:
        self._arrived = time.perf_counter()  # latency counts from arrival, as for a real endpoint
        path = self.path.split("?", 1)[0].rstrip("/")
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._record(None)
            self._send(400, b'{"error": {"message": "request body is not JSON"}}')
            return
        self._record(body)
        if not path.endswith("/chat/completions"):  # /v1, DashScope's, Azure's deployments
            self._send(404, b'{"error": {"message": "not found"}}')
            return
        owner = self.server.owner
        refused = owner.quirks.refusal(body)
        if refused is not None:
            error = Reply.error(refused[0], refused[1])
            self._send(error.status, error.raw_body or b"", error.headers)
            return
        too_long = owner.quirks.too_long(body)
        if too_long is not None:
            self._send(400, too_long)
            return
        with owner._slot:  # a server with one slot answers one request, the rest queue
            with owner._lock:
                owner._in_flight += 1
                owner.max_in_flight = max(owner.max_in_flight, owner._in_flight)
            try:
                self._answer(body)
            finally:
                with owner._lock:
                    owner._in_flight -= 1

    def _answer(self, body: dict[str, Any]) -> None:
        owner = self.server.owner
        try:
            result = owner.responder(body)
        except Exception as exc:  # a responder bug or a deliberate raise -> 500
            result = Reply.error(500, f"responder raised {type(exc).__name__}: {exc}")
        reply = result if isinstance(result, Reply) else _to_reply(result)
        delay = owner.latency if reply.delay is None else reply.delay
        remaining = delay - (time.perf_counter() - self._arrived)
        if remaining > 0:
            time.sleep(remaining)
        if reply.raw_body is not None:
            self._send(reply.status, reply.raw_body, reply.headers)
            return
        content = reply.content
        if isinstance(content, dict | list):
            content = json.dumps(content, ensure_ascii=False)
        quirks = owner.quirks
        if quirks.text_tools and reply.tool_calls:  # the call written into the text
            content, reply.tool_calls = quirks.content_for_calls(reply.tool_calls), None
        if content:
            content = quirks.dress(content)
        tool_calls = None
        if reply.tool_calls:
            tool_calls = []
            for call in reply.tool_calls:
                args = call.get("arguments", {})
                tool_calls.append(
                    {
                        "id": call.get("id") or f"call_{uuid.uuid4().hex[:12]}",
                        "type": "function",
                        "function": {
                            "name": call["name"],
                            "arguments": args if isinstance(args, str) else json.dumps(args),
                        },
                    }
                )
        completion_text = (content or "") + json.dumps(tool_calls or "")
        usage = reply.usage
        if usage is None:
            prompt_tokens = _estimate_tokens(_messages_text(body))
            completion_tokens = _estimate_tokens(completion_text)
            usage = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            }
        finish = reply.finish_reason or ("tool_calls" if tool_calls else "stop")
        model = body.get("model") or "test-model"
        created = int(time.time())
        completion_id = f"chatcmpl-{uuid.uuid4().hex[:16]}"
        if body.get("stream") and quirks.streaming != "ignore":
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            self._stream(
                _StreamSpec(
                    completion_id, created, model, content or "", tool_calls, finish,
                    usage if include_usage else None, reply.chunk_delay,
                )
            )  # fmt: skip
            return
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if quirks.reasoning() is not None:
            message["reasoning_content"] = quirks.reasoning()
        if tool_calls:
            message["tool_calls"] = tool_calls
        payload: dict[str, Any] = {
            "id": completion_id,
            "object": "chat.completion",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
        if usage:
            payload["usage"] = usage
        self._send(reply.status, json.dumps(payload, ensure_ascii=False).encode(), reply.headers)

    def _stream(self, spec: _StreamSpec) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

        def send(data: dict[str, Any]) -> None:
            self.wfile.write(f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode())
            self.wfile.flush()
            if spec.chunk_delay:
                time.sleep(spec.chunk_delay)

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> None:
            send(
                {
                    "id": spec.completion_id,
                    "object": "chat.completion.chunk",
                    "created": spec.created,
                    "model": spec.model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
                }
            )

        chunk({"role": "assistant", "content": ""})
        reasoning = self.server.owner.quirks.reasoning()
        if reasoning is not None:
            for piece in stream_pieces(reasoning):
                chunk({"reasoning_content": piece})
        if spec.content:
            for piece in stream_pieces(spec.content):
                chunk({"content": piece})
        for index, call in enumerate(spec.tool_calls or []):
            function = call["function"]
            head = {"name": function["name"], "arguments": ""}
            chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                   "function": head}]})  # fmt: skip
            args = function["arguments"]
            for start in range(0, len(args), 16):
                part = {"arguments": args[start : start + 16]}
                chunk({"tool_calls": [{"index": index, "function": part}]})
        chunk({}, spec.finish)
        if spec.usage:
            send(
                {
                    "id": spec.completion_id,
                    "object": "chat.completion.chunk",
                    "created": spec.created,
                    "model": spec.model,
                    "choices": [],
                    "usage": spec.usage,
                }
            )
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


@dataclass
class _StreamSpec:
    completion_id: str
    created: int
    model: str
    content: str
    tool_calls: list[dict[str, Any]] | None
    finish: str
    usage: dict[str, int] | None
    chunk_delay: float


def stream_pieces(content: str) -> list[str]:
    """Words (with their leading space), long words in 8-character pieces."""
    out: list[str] = []
    for i, word in enumerate(content.split(" ")):
        word = word if i == 0 else " " + word
        out += [word[k : k + 8] for k in range(0, max(len(word), 1), 8)]
    return out


def _to_reply(result: Any) -> Reply:
    if isinstance(result, str | dict):
        return Reply(content=result)
    if isinstance(result, list):
        return Reply(tool_calls=result)
    if result is None:
        return Reply(content="")
    raise TypeError(f"responder returned {type(result).__name__}")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256
    owner: LLMServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up (killed process, timeout, cancelled call) is normal here;
        anything else is recorded in ``owner.errors`` instead of printed to stderr."""
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError | TimeoutError):
            return
        self.owner.errors.append(f"{type(exc).__name__}: {exc}")


class LLMServer:
    """Context manager running the server on a background thread (random free port)."""

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        latency: float = 0.0,
        models: Iterable[str] = ("test-tier1", "test-tier2", "test-tier3"),
        quirks: Quirks | None = None,
        slots: int | None = None,
    ) -> None:
        self.quirks = quirks or Quirks()  # how this server departs from OpenAI (llm_quirks)
        # llama.cpp's --parallel: requests answered at once (None: as many as arrive)
        self.slots = slots
        self._slot = threading.Semaphore(slots) if slots else contextlib.nullcontext()
        self.responder: Responder = responder or (lambda _r: "ok")
        self.latency = latency
        self.models = list(models)
        self.requests: list[RecordedRequest] = []
        self.errors: list[str] = []  # unexpected handler errors (not client hang-ups)
        self.max_in_flight = 0
        self._in_flight = 0
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------
    def start(self) -> LLMServer:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.owner = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> LLMServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # -- facts for assertions ---------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.method == "POST" and r.body is not None]

    def last_drafting(self) -> RecordedRequest:
        """The newest request that was not a draft's translation (``draft_render_zh``, the
        English-only call every new draft ends with): the prompt a test wants to read."""
        found = [r for r in self.chat_requests if schema_name(r.body or {}) != "chineserendering"]
        return found[-1]

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.max_in_flight = 0
