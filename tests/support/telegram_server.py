"""A small real Telegram Bot API server on 127.0.0.1 for tests (and manual demos).

It speaks the documented JSON protocol over HTTP, so the app's client runs unchanged:

* ``POST /bot<TOKEN>/<method>`` for getMe, getUpdates (offset confirms: updates with a lower id
  are forgotten), sendMessage, sendChatAction, editMessageText, editMessageReplyMarkup, answerCallbackQuery and
  getFile; ``GET /file/bot<TOKEN>/<path>`` serves files added with ``add_file``.
* ``sendDocument`` as a multipart/form-data upload (the ``document`` part with its file name;
  ``chat_id``, ``caption`` as form fields): recorded in ``documents`` with the bytes received.
  An upload over 50 MB answers 413 like Telegram's bot limit.
* ``parse_mode=HTML`` is validated like Telegram does: only the supported tags, balanced, and a
  bare ``<`` or an unknown ``&entity;`` answer 400 "Bad Request: can't parse entities: …".
* A text of more than 4,096 characters answers 400 "message is too long".
* ``flood(n, retry_after)`` makes the next n sendMessage calls answer 429 with
  ``parameters.retry_after``.
* A wrong token answers 401 Unauthorized (like Telegram, 404 for unknown methods).

Tests inject updates with ``push_message`` / ``push_callback`` / ``push_voice`` and read what the
bot did from ``sent`` (every accepted message), ``calls`` (every request) and ``answered``.

    with TelegramServer(token="123:ABC") as tg:
        tg.base_url  # -> INQUIRY_BRIDGE_TELEGRAM_URL
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ALLOWED_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
    "blockquote", "tg-spoiler", "span", "tg-emoji",
}  # fmt: skip
# attributes: name="value", or a bare flag (``<blockquote expandable>``)
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z-]+(?:=\"[^\"]*\")?)*)\s*(/?)>")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")


def html_problem(text: str, unsupported: set[str] | frozenset[str] = frozenset()) -> str | None:
    """None when Telegram would accept ``text`` as HTML, else the reason it would give."""
    stack: list[str] = []
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "<":
            m = _TAG.match(text, pos)
            if not m:
                return f"unsupported start tag at byte offset {pos}"
            closing, name, _attrs, selfclose = m.groups()
            name = name.lower()
            if name not in ALLOWED_TAGS or name in unsupported or selfclose:
                return f'unsupported start tag "{name}" at byte offset {pos}'
            if closing:
                if not stack or stack[-1] != name:
                    return f'unmatched end tag at byte offset {pos}, expected "</{stack[-1] if stack else ""}>", found "</{name}>"'
                stack.pop()
            else:
                stack.append(name)
            pos = m.end()
        elif ch == "&":
            m = _ENTITY.match(text, pos)
            if not m:
                return f"unsupported entity at byte offset {pos}"
            pos = m.end()
        elif ch == ">":
            return (
                f"unexpected end tag at byte offset {pos}"  # Telegram tolerates it; we are strict
            )
        else:
            pos += 1
    if stack:
        return f'can\'t find end tag corresponding to start tag "{stack[-1]}"'
    return None


def visible_text(text: str, parse_mode: str | None) -> str:
    """What the phone shows (tags removed, entities decoded) — for assertions."""
    if parse_mode != "HTML":
        return text
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", text))


@dataclass
class SentMessage:
    message_id: int
    chat_id: int
    text: str
    parse_mode: str | None
    reply_markup: dict[str, Any] | None
    edited: bool = False

    @property
    def visible(self) -> str:
        return visible_text(self.text, self.parse_mode)

    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [button for row in rows for button in row]

    def draft_buttons(self) -> list[dict[str, Any]]:
        """The buttons that decide a draft (发送 / 放弃 / …: callback data ``d:…``)."""
        return [b for b in self.buttons() if str(b.get("callback_data", "")).startswith("d:")]

    def button(self, label_part: str) -> dict[str, Any]:
        for button in self.buttons():
            if label_part in button["text"]:
                return button
        raise KeyError(f"no button {label_part!r} in {[b['text'] for b in self.buttons()]}")


@dataclass
class SentDocument:
    """A file the bot uploaded with ``sendDocument``: what the owner's phone receives."""

    message_id: int
    chat_id: int
    filename: str
    data: bytes
    caption: str | None
    content_type: str


UPLOAD_LIMIT = 50 * 1000 * 1000  # Telegram's bot upload limit


def parse_multipart(content_type: str, raw: bytes) -> dict[str, Any]:
    """Form fields as strings, file parts as ``{"filename", "data", "content_type"}``."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + raw)
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        data = part.get_payload(decode=True) or b""
        filename = part.get_filename()
        if filename is not None:
            fields[name] = {
                "filename": filename,
                "data": data,
                "content_type": part.get_content_type(),
            }
        else:
            fields[name] = data.decode("utf-8")
    return fields


@dataclass
class _State:
    token: str
    updates: list[dict[str, Any]] = field(default_factory=list)
    sent: list[SentMessage] = field(default_factory=list)
    documents: list[SentDocument] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    answered: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # file_id -> (path, data)
    flood: list[int] = field(default_factory=list)  # retry_after per coming sendMessage
    offsets: list[int | None] = field(default_factory=list)
    down: bool = False
    unsupported: set[str] = field(default_factory=set)


class TelegramServer:
    """Context manager running the fake Bot API on a free port of 127.0.0.1."""

    def __init__(
        self, token: str = "123456:TEST-TOKEN-abcdefghijklmnop", bot_id: int = 777
    ) -> None:
        self.state = _State(token=token)
        self.bot_id = bot_id
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self.max_long_poll = 1.0  # cap on getUpdates' timeout (seconds) so tests stay fast
        self._update_ids = itertools.count(1001)
        self._message_ids = itertools.count(5001)
        self._callback_ids = itertools.count(9001)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ----------------------------------------------------------------------------
    def __enter__(self) -> TelegramServer:
        handler = _make_handler(self)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def token(self) -> str:
        return self.state.token

    # -- what tests inject --------------------------------------------------------------------
    def _push(self, payload: dict[str, Any]) -> int:
        with self._lock:
            update_id = next(self._update_ids)
            self.state.updates.append({"update_id": update_id, **payload})
            self._arrived.notify_all()
            return update_id

    @staticmethod
    def user(user_id: int, first_name: str = "Owner") -> dict[str, Any]:
        return {"id": user_id, "is_bot": False, "first_name": first_name}

    @staticmethod
    def chat(chat_id: int, kind: str = "private") -> dict[str, Any]:
        return {"id": chat_id, "type": kind}

    def _replied(self, chat_id: int, reply_to: SentMessage | int | None) -> dict[str, Any]:
        """``reply_to_message`` as Telegram nests it (the bot's message the user answered)."""
        if reply_to is None:
            return {}
        if isinstance(reply_to, SentMessage):
            original = {
                "message_id": reply_to.message_id,
                "from": {"id": self.bot_id, "is_bot": True, "first_name": "Inquiry Bridge"},
                "chat": self.chat(reply_to.chat_id),
                "date": 1775000000,
                "text": reply_to.visible,
            }
        else:
            original = {"message_id": reply_to, "chat": self.chat(chat_id), "date": 1775000000}
        return {"reply_to_message": original}

    def push_message(
        self,
        chat_id: int,
        text: str,
        *,
        user_id: int | None = None,
        chat_type: str = "private",
        reply_to: SentMessage | int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> int:
        """A text message; ``reply_to`` makes it a reply to one of the bot's messages;
        ``extra``: more fields of the message (a forward's ``forward_origin``, …)."""
        return self._push(
            {
                "message": {
                    "message_id": next(self._message_ids),
                    "from": self.user(user_id if user_id is not None else chat_id),
                    "chat": self.chat(chat_id, chat_type),
                    "date": 1775000000,
                    "text": text,
                    **self._replied(chat_id, reply_to),
                    **(extra or {}),
                }
            }
        )

    def push_voice(
        self,
        chat_id: int,
        data: bytes,
        *,
        duration: int = 3,
        suffix: str = "oga",
        reply_to: SentMessage | int | None = None,
    ) -> int:
        file_id = f"voice-{len(self.state.files) + 1}"
        self.add_file(file_id, f"voice/file_{len(self.state.files) + 1}.{suffix}", data)
        return self._push(
            {
                "message": {
                    "message_id": next(self._message_ids),
                    "from": self.user(chat_id),
                    "chat": self.chat(chat_id),
                    "date": 1775000000,
                    "voice": {
                        "file_id": file_id,
                        "file_unique_id": file_id + "-u",
                        "duration": duration,
                        "mime_type": "audio/ogg",
                        "file_size": len(data),
                    },
                    **self._replied(chat_id, reply_to),
                }
            }
        )

    def push_callback(
        self,
        chat_id: int,
        data: str,
        *,
        user_id: int | None = None,
        message_id: int | None = None,
        chat_type: str | None = None,
    ) -> str:
        """A button press in ``chat_id`` by ``user_id`` (default: the chat's own user)."""
        callback_id = str(next(self._callback_ids))
        kind = chat_type or ("private" if chat_id > 0 else "supergroup")
        self._push(
            {
                "callback_query": {
                    "id": callback_id,
                    "from": self.user(user_id if user_id is not None else chat_id),
                    "message": {
                        "message_id": message_id or 1,
                        "chat": self.chat(chat_id, kind),
                        "date": 1775000000,
                        "text": "…",
                    },
                    "chat_instance": "ci",
                    "data": data,
                }
            }
        )
        return callback_id

    def press(self, message: SentMessage, label_part: str, *, user_id: int | None = None) -> str:
        """Press a button of a message the bot sent, as the chat's user (or ``user_id``)."""
        button = message.button(label_part)
        return self.push_callback(
            message.chat_id, button["callback_data"], user_id=user_id, message_id=message.message_id
        )

    def add_file(self, file_id: str, path: str, data: bytes) -> None:
        with self._lock:
            self.state.files[file_id] = (path, data)

    def flood(self, times: int, retry_after: int) -> None:
        with self._lock:
            self.state.flood.extend([retry_after] * times)

    @property
    def unsupported_tags(self) -> set[str]:
        """Tags this server refuses (an older Bot API without e.g. <blockquote>)."""
        return self.state.unsupported

    def set_down(self, down: bool) -> None:
        """Answer every request with a dropped connection (the network is gone)."""
        self.state.down = down

    # -- what tests read ----------------------------------------------------------------------
    @property
    def sent(self) -> list[SentMessage]:
        with self._lock:
            return list(self.state.sent)

    def sent_to(self, chat_id: int) -> list[SentMessage]:
        return [m for m in self.sent if m.chat_id == chat_id]

    @property
    def documents(self) -> list[SentDocument]:
        with self._lock:
            return list(self.state.documents)

    def documents_to(self, chat_id: int) -> list[SentDocument]:
        return [d for d in self.documents if d.chat_id == chat_id]

    def calls_of(self, method: str) -> list[dict[str, Any]]:
        with self._lock:
            return [payload for name, payload in self.state.calls if name == method]

    @property
    def answered(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.state.answered)

    @property
    def pending_updates(self) -> int:
        with self._lock:
            return len(self.state.updates)

    # -- the protocol -------------------------------------------------------------------------
    def handle(self, method: str, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.state.calls.append((method, payload))
            fn = getattr(self, "_m_" + method, None)
            if fn is None:
                return 404, {"ok": False, "error_code": 404, "description": "Not Found"}
            return fn(payload)

    @staticmethod
    def _bad(description: str, code: int = 400) -> tuple[int, dict[str, Any]]:
        return code, {"ok": False, "error_code": code, "description": description}

    def _m_getMe(self, _p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        me = {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Inquiry Bridge",
            "username": "ib_test_bot",
        }
        return 200, {"ok": True, "result": me}

    def _m_getUpdates(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        offset = p.get("offset")
        self.state.offsets.append(offset)
        if offset is not None:
            self.state.updates = [u for u in self.state.updates if u["update_id"] >= int(offset)]
        timeout = min(float(p.get("timeout") or 0), self.max_long_poll)
        if not self.state.updates and timeout > 0:  # long polling: hold until one arrives
            self._arrived.wait(timeout)
        limit = int(p.get("limit") or 100)
        return 200, {"ok": True, "result": self.state.updates[:limit]}

    def _check_text(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        text = p.get("text")
        if not isinstance(text, str) or not text.strip():
            return self._bad("Bad Request: message text is empty")
        if "chat_id" not in p:
            return self._bad("Bad Request: chat_id is empty")
        if p.get("parse_mode") == "HTML":
            problem = html_problem(text, self.state.unsupported)
            if problem:
                return self._bad(f"Bad Request: can't parse entities: {problem}")
            shown = visible_text(text, "HTML")
        elif p.get("parse_mode"):
            return self._bad("Bad Request: unsupported parse_mode")
        else:
            shown = text
        if len(shown) > 4096:
            return self._bad("Bad Request: message is too long")
        for row in (p.get("reply_markup") or {}).get("inline_keyboard") or []:
            for button in row:
                if len(button.get("callback_data", "").encode()) > 64:
                    return self._bad("Bad Request: BUTTON_DATA_INVALID")
        return None

    def _m_sendMessage(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if self.state.flood:
            retry_after = self.state.flood.pop(0)
            return 429, {
                "ok": False,
                "error_code": 429,
                "description": f"Too Many Requests: retry after {retry_after}",
                "parameters": {"retry_after": retry_after},
            }
        problem = self._check_text(p)
        if problem:
            return problem
        message = SentMessage(
            message_id=next(self._message_ids),
            chat_id=int(p["chat_id"]),
            text=p["text"],
            parse_mode=p.get("parse_mode"),
            reply_markup=p.get("reply_markup"),
        )
        self.state.sent.append(message)
        return 200, {
            "ok": True,
            "result": {
                "message_id": message.message_id,
                "chat": self.chat(message.chat_id),
                "date": 1775000000,
                "text": visible_text(message.text, message.parse_mode),
            },
        }

    def _m_sendDocument(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if "chat_id" not in p:
            return self._bad("Bad Request: chat_id is empty")
        document = p.get("document")
        if not isinstance(document, dict):  # a file_id or URL string is not supported here
            return self._bad("Bad Request: there is no document in the request")
        if len(document["data"]) > UPLOAD_LIMIT:
            return self._bad("Request Entity Too Large", 413)
        if not document["data"]:
            return self._bad("Bad Request: file must be non-empty")
        caption = p.get("caption")
        if caption is not None and len(caption) > 1024:
            return self._bad("Bad Request: message caption is too long")
        sent = SentDocument(
            message_id=next(self._message_ids),
            chat_id=int(p["chat_id"]),
            filename=document["filename"],
            data=document["data"],
            caption=caption,
            content_type=document["content_type"],
        )
        self.state.documents.append(sent)
        result = {
            "message_id": sent.message_id,
            "chat": self.chat(sent.chat_id),
            "date": 1775000000,
            "document": {
                "file_id": f"doc-{sent.message_id}",
                "file_unique_id": f"doc-{sent.message_id}-u",
                "file_name": sent.filename,
                "mime_type": sent.content_type,
                "file_size": len(sent.data),
            },
        }
        if caption:
            result["caption"] = caption
        return 200, {"ok": True, "result": result}

    def _find(self, p: dict[str, Any]) -> SentMessage | None:
        for message in self.state.sent:
            if message.message_id == int(p.get("message_id", 0)) and message.chat_id == int(
                p.get("chat_id", 0)
            ):
                return message
        return None

    def _m_editMessageText(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        problem = self._check_text(p)
        if problem:
            return problem
        message = self._find(p)
        if message is None:
            return self._bad("Bad Request: message to edit not found")
        message.text, message.parse_mode, message.edited = p["text"], p.get("parse_mode"), True
        message.reply_markup = p.get("reply_markup")
        return 200, {"ok": True, "result": {"message_id": message.message_id}}

    def _m_editMessageReplyMarkup(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        message = self._find(p)
        if message is None:
            return self._bad("Bad Request: message to edit not found")
        message.reply_markup, message.edited = p.get("reply_markup"), True
        return 200, {"ok": True, "result": {"message_id": message.message_id}}

    def _m_sendChatAction(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if "chat_id" not in p:
            return self._bad("Bad Request: chat_id is empty")
        if p.get("action") not in {"typing", "upload_document", "record_voice", "upload_photo"}:
            return self._bad("Bad Request: wrong parameter action in request")
        return 200, {"ok": True, "result": True}

    def _m_answerCallbackQuery(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if not p.get("callback_query_id"):
            return self._bad("Bad Request: query is too old and response timeout expired")
        self.state.answered.append(p)
        return 200, {"ok": True, "result": True}

    def _m_getFile(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        found = self.state.files.get(str(p.get("file_id")))
        if found is None:
            return self._bad("Bad Request: invalid file_id")
        path, data = found
        return 200, {
            "ok": True,
            "result": {
                "file_id": p["file_id"],
                "file_unique_id": p["file_id"] + "-u",
                "file_size": len(data),
                "file_path": path,
            },
        }

    def file_bytes(self, path: str) -> bytes | None:
        with self._lock:
            for stored_path, data in self.state.files.values():
                if stored_path == path:
                    return data
        return None


def _make_handler(server: TelegramServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are separate writes; see llm_server

        def log_message(self, *_args: object) -> None:  # keep test output clean
            return

        def _reply(
            self, status: int, body: dict[str, Any] | bytes, ctype: str = "application/json"
        ) -> None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _drop_if_down(self) -> bool:
            if server.state.down:
                self.close_connection = True
                self.connection.close()
                return True
            return False

        def do_GET(self) -> None:
            if self._drop_if_down():
                return
            prefix = f"/file/bot{server.token}/"
            if not self.path.startswith(prefix):
                self._reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
                return
            data = server.file_bytes(self.path[len(prefix) :])
            if data is None:
                self._reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
                return
            self._reply(200, data, "application/octet-stream")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self._drop_if_down():
                return
            match = re.fullmatch(r"/bot([^/]+)/([A-Za-z]+)", self.path)
            if not match:
                self._reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
                return
            if match.group(1) != server.token:
                self._reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
                return
            ctype = self.headers.get("Content-Type") or ""
            try:
                if ctype.startswith("multipart/form-data"):
                    payload = parse_multipart(ctype, raw)
                else:
                    payload = json.loads(raw or b"{}")
            except ValueError:
                self._reply(
                    400,
                    {"ok": False, "error_code": 400, "description": "Bad Request: invalid JSON"},
                )
                return
            status, body = server.handle(match.group(2), payload)
            self._reply(status, body)

    return Handler
