"""A small real Microsoft Graph server on 127.0.0.1 with an in-memory mailbox and OneDrive.

Tests point the real client at it (``INQUIRY_BRIDGE_GRAPH_URL=srv.base_url``,
``INQUIRY_BRIDGE_GRAPH_TOKEN=srv.token``); nothing in the client is patched. It speaks the
documented protocol closely enough to catch the mistakes that matter: delta paging with
``@odata.nextLink`` / ``@odata.deltaLink``, ``@removed``, 410 ``SyncStateNotFound``, ``$value``,
createReply/send (the draft's id returns 404 after send and a copy with the same
``internetMessageId`` and a *new* id appears in Sent Items), 429 with ``Retry-After`` (seconds or
an HTTP date), ``MailboxConcurrency``, 503, dropped connections, drive delta with moves, renames,
deletes, repeated items and 410 with ``Location``.

API (used by graph, drafts and benchmark tests)::

    with GraphServer(page_size=10, now=clock.now) as srv:
        srv.base_url                    # "http://127.0.0.1:PORT/v1.0"
        srv.token                       # bearer token the server accepts ("test-token")
        mid = srv.add_message(subject=..., from_addr=..., body=..., received_at=..., is_read=True,
                              folder="inbox", raw=None, attachments=[(name, ctype, bytes)])
        mid = srv.add_message(raw_path=Path("big.eml"))   # a big mail, kept on disk: $value
                                        # streams it in 256 KB blocks (text/plain, as Graph answers)
        # a delta with $expand=singleValueExtendedProperties($filter=id eq 'Integer 0x0E08')
        # lists each message's size (PidTagMessageSize) as {"id": "Integer 0xe08", "value": "…"}
        srv.fail(path=r"/\\$value$", cut_after=1_000_000)  # 200, then the socket closes mid-body
        srv.remove_message(mid)         # next mail delta carries {"id": mid, "@removed": {...}}
        srv.update_message(mid, isRead=True)   # next delta lists it as changed
        srv.expire_sync_state()         # every delta/skip token issued so far answers 410
        srv.fail(method="GET", path=r"/messages/delta", status=429, retry_after="2",
                 code="MailboxConcurrency", times=1)      # fault injection, see Fault
        srv.fail(path=r"/send$", drop_after=True)         # process the send, then drop the socket
        srv.fail(path=r"/\\$value$", drop=True)           # drop without processing
        srv.latency = 0.02              # seconds each request takes (to observe concurrency)
        port = srv.port; srv.stop(); srv.start(port)   # offline (connection refused), then back
        # POST /$batch (≤ 20 parts, 4 run at a time, base64 for non-JSON bodies): each part is
        # also in srv.requests with .batch = "b<n>:<id>"; faults (429 …) hit parts one by one
        srv.requests                    # list[Request]: method, path, query, headers, status
        srv.peak_in_flight              # most requests handled at the same time
        srv.reset_stats()
        srv.folder_messages("sentitems")   # list of message dicts now in a folder
        srv.sent_log                    # one entry per accepted POST .../send
                                        # (its "attachments": [(name, contentType, bytes)])
        # draft attachments: POST .../attachments (fileAttachment, < 3 MB), POST
        # .../attachments/createUploadSession then PUT byte ranges (<= 4 MB each, no bearer) to
        # its uploadUrl; GET/DELETE .../attachments[/{id}]; DELETE /me/messages/{id}
        srv.upload_chunks               # (session, start, end) per accepted PUT
        srv.master_categories           # list of {"displayName", "color"}
        srv.events                      # calendar: POST /me/events (a repeated transactionId
                                        # answers the first event, as Graph does) and
                                        # GET /me/calendarView?startDateTime&endDateTime (paged)
        srv.add_event(subject, start, end, location="")   # an appointment made in Outlook
        # drive
        root = srv.drive_root_id
        fid = srv.drive_add("未报价顾客", parent_id=root, folder=True)
        srv.drive_add("plan.pdf", parent_id=fid, content=b"%PDF...")
        srv.drive_move(item_id, new_parent_id); srv.drive_rename(item_id, "New");
        # PATCH /me/drive/items/{id} moves/renames like Graph (409, or conflictBehavior=rename)
        srv.drive_delete(item_id); srv.drive_item(item_id)
        srv.expire_drive_state()        # next drive delta with an old token answers 410 + Location

``now`` (default: the real UTC clock) dates new messages and the HTTP-date form of Retry-After, so
a test's FakeClock and the server agree on time.
"""

from __future__ import annotations

import base64
import email
import email.policy
import email.utils
import itertools
import json
import random
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit
from zoneinfo import ZoneInfo

from core.clock import clock_from_env

FOLDERS = ("inbox", "sentitems", "drafts", "deleteditems")
FILTER_CAP = 5000  # Graph returns at most this many messages for a delta with $filter


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes
    status: int = 0
    at: float = 0.0
    batch: str | None = None  # "b<envelope>:<part id>" for a part of a $batch, else None


@dataclass
class Fault:
    """One injected failure. Matches ``method`` (or any) and the ``path`` regex; fires ``times``.

    ``status`` answers with that code (``retry_after`` header, ``code`` in the Graph error body);
    ``drop`` closes the socket without processing; ``drop_after`` processes the request, then
    closes the socket without answering (the ambiguous write); ``cut_after`` processes it and
    sends the status, the headers and that many bytes of the body, then closes the socket.
    """

    path: str
    method: str | None = None
    status: int = 429
    retry_after: str | None = None
    code: str | None = None
    drop: bool = False
    drop_after: bool = False
    cut_after: int | None = None
    times: int = 1
    headers: dict[str, str] = field(default_factory=dict)
    fired: int = 0


def _iso(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


class _Round:
    """A delta enumeration in progress: the entries left to page through."""

    def __init__(self, entries: list[dict[str, Any]], seq: int, page: int, meta: dict) -> None:
        self.entries = entries
        self.seq = seq
        self.page = page
        self.meta = meta  # folder / filter / generation


class GraphServer:
    def __init__(
        self,
        *,
        page_size: int = 10,
        token: str | None = "test-token",
        now: Callable[[], datetime] | None = None,
        user_email: str = "sales@aurorawindows.com.au",
    ) -> None:
        self.page_size = page_size
        self.token = token
        # the suite's clock (INQUIRY_BRIDGE_NOW, set for every test), never the machine's hour
        self.now = now or clock_from_env().now
        self.user_email = user_email
        self.latency = 0.0
        self.requests: list[Request] = []
        self.sent_log: list[dict[str, Any]] = []
        self.master_categories: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.faults: list[Fault] = []
        self.upload_chunks: list[tuple[str, int, int]] = []
        self.deleted_log: list[str] = []  # ids of messages deleted through DELETE /me/messages
        self._uploads: dict[str, dict[str, Any]] = {}
        self.handler_errors: list[str] = []  # exceptions in handler threads (client hang-ups)
        self.peak_in_flight = 0
        self._in_flight = 0
        self._lock = threading.RLock()
        self._seq = itertools.count(1)
        self._last_seq = 0
        self._ids = itertools.count(1)
        # mailbox: id -> message dict (includes "_raw" bytes, "_folder", "_seq", "_removed")
        self._messages: dict[str, dict[str, Any]] = {}
        self._rounds: dict[str, _Round] = {}
        self._delta_tokens: dict[str, dict] = {}
        self._generation = 0
        # drive
        self._drive: dict[str, dict[str, Any]] = {}
        self._drive_log: list[tuple[int, dict[str, Any]]] = []
        self._drive_generation = 0
        self._content: dict[str, bytes] = {}
        self._drive_round: dict[tuple[int, int], list[dict[str, Any]]] = {}
        self.drive_root_id = self._new_id("root")
        self._drive[self.drive_root_id] = {
            "id": self.drive_root_id,
            "name": "root",
            "root": {},
            "folder": {"childCount": 0},
            "parentReference": {"driveId": "drive1"},
        }
        self._drive_touch(self.drive_root_id)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> GraphServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self, port: int = 0) -> None:
        """Listen (again): ``srv.stop(); ...; srv.start(port)`` keeps the mailbox and the port,
        so a client sees connections refused, then the same server back."""
        server = self

        class Handler(_Handler):
            graph = server

        self._httpd = _QuietServer(("127.0.0.1", port), Handler)
        self._httpd.graph = self
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    @property
    def origin(self) -> str:
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return self.origin + "/v1.0"

    # ------------------------------------------------------------------ helpers
    def _new_id(self, prefix: str = "AAMk") -> str:
        return f"{prefix}{next(self._ids):06d}{uuid.uuid4().hex[:10]}"

    def _next_seq(self) -> int:
        self._last_seq = next(self._seq)
        return self._last_seq

    def reset_stats(self) -> None:
        with self._lock:
            self.requests.clear()
            self.peak_in_flight = 0

    def fail(self, path: str, **kwargs: Any) -> Fault:
        fault = Fault(path=path, **kwargs)
        with self._lock:
            self.faults.append(fault)
        return fault

    def requests_to(self, pattern: str, method: str | None = None) -> list[Request]:
        rx = re.compile(pattern)
        return [
            r
            for r in list(self.requests)
            if rx.search(r.path) and (method is None or r.method == method)
        ]

    # ------------------------------------------------------------------ mailbox
    def add_message(
        self,
        *,
        subject: str = "Hello",
        from_addr: str = "customer@example.com",
        from_name: str = "",
        to: list[str] | None = None,
        body: str = "Hi there",
        received_at: datetime | None = None,
        is_read: bool = False,
        folder: str = "inbox",
        raw: bytes | None = None,
        message_id: str | None = None,
        in_reply_to: str | None = None,
        conversation_id: str | None = None,
        attachments: list[tuple[str, str, bytes]] | None = None,
        categories: list[str] | None = None,
        raw_path: Path | None = None,
    ) -> str:
        """Put a message in a folder; returns its (immutable) id. With ``raw_path`` the MIME
        stays in that file (only its header block is read here), so a 300 MB mail is served
        without the server holding it."""
        received = received_at or self.now()
        if raw_path is not None:
            raw = _header_block(raw_path)
        elif raw is None:
            msg = EmailMessage()
            msg["From"] = email.utils.formataddr((from_name, from_addr))
            msg["To"] = ", ".join(to or [self.user_email])
            msg["Subject"] = subject
            msg["Date"] = email.utils.format_datetime(received.astimezone(UTC))
            msg["Message-ID"] = message_id or email.utils.make_msgid(domain="example.com")
            if in_reply_to:
                msg["In-Reply-To"] = in_reply_to
                msg["References"] = in_reply_to
            msg.set_content(body)
            for name, ctype, payload in attachments or []:
                maintype, _, subtype = ctype.partition("/")
                msg.add_attachment(payload, maintype=maintype, subtype=subtype, filename=name)
            raw = msg.as_bytes()
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        mid = str(parsed.get("Message-ID") or message_id or f"<{uuid.uuid4().hex}@generated>")
        sender = email.utils.parseaddr(str(parsed.get("From", "")))
        has_attachments = raw_path is not None or (
            any(True for _ in parsed.iter_attachments()) if parsed.is_multipart() else False
        )
        gid = self._new_id()
        with self._lock:
            self._messages[gid] = {
                "id": gid,
                "internetMessageId": mid.strip(),
                "conversationId": conversation_id or self._conversation_for(parsed),
                "receivedDateTime": _iso(received),
                "sentDateTime": _iso(received),
                "isRead": is_read,
                "isDraft": folder == "drafts",
                "subject": str(parsed.get("Subject", subject)),
                "from": {"emailAddress": {"address": sender[1], "name": sender[0]}},
                "toRecipients": [
                    {"emailAddress": {"address": a}}
                    for _, a in email.utils.getaddresses([str(parsed.get("To", ""))])
                    if a
                ],
                "ccRecipients": [],
                "hasAttachments": has_attachments,
                "categories": list(categories or []),
                "body": {"contentType": "text", "content": body},
                "internetMessageHeaders": [],
                "_folder": folder,
                "_raw": b"" if raw_path is not None else raw,
                "_raw_path": raw_path,
                "_size": raw_path.stat().st_size if raw_path is not None else len(raw),
                "_seq": self._next_seq(),
                "_removed": False,
            }
        return gid

    def _conversation_for(self, parsed: email.message.Message) -> str:
        refs = str(parsed.get("References", "") or parsed.get("In-Reply-To", "")).split()
        key = refs[0] if refs else str(parsed.get("Message-ID", uuid.uuid4().hex))
        return "conv-" + base64.urlsafe_b64encode(key.encode()).decode()[:16]

    def remove_message(self, gid: str) -> None:
        with self._lock:
            self._messages[gid]["_removed"] = True
            self._messages[gid]["_seq"] = self._next_seq()

    def update_message(self, gid: str, **fields: Any) -> None:
        with self._lock:
            self._messages[gid].update(fields)
            self._messages[gid]["_seq"] = self._next_seq()

    def message(self, gid: str) -> dict[str, Any] | None:
        with self._lock:
            msg = self._messages.get(gid)
            return None if msg is None or msg["_removed"] else self._public(msg)

    def folder_messages(self, folder: str) -> list[dict[str, Any]]:
        with self._lock:
            return [
                self._public(m)
                for m in self._messages.values()
                if m["_folder"] == folder and not m["_removed"]
            ]

    def expire_sync_state(self) -> None:
        """Every mail delta/skip token issued so far now answers 410 SyncStateNotFound."""
        with self._lock:
            self._generation += 1

    @staticmethod
    def _public(msg: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in msg.items() if not k.startswith("_")}
        out["parentFolderId"] = msg["_folder"]
        return out

    def _mime_of(self, msg: dict[str, Any]) -> bytes:
        if msg.get("_raw_path") is not None:
            return Path(msg["_raw_path"]).read_bytes()
        if msg.get("_raw") and not msg.get("isDraft") and not msg.get("_rebuilt"):
            return msg["_raw"]
        out = EmailMessage()
        out["From"] = self.user_email
        out["To"] = ", ".join(r["emailAddress"]["address"] for r in msg.get("toRecipients", []))
        if msg.get("ccRecipients"):
            out["Cc"] = ", ".join(r["emailAddress"]["address"] for r in msg["ccRecipients"])
        out["Subject"] = msg.get("subject", "")
        out["Date"] = email.utils.format_datetime(_parse_iso(msg["receivedDateTime"]))
        out["Message-ID"] = msg["internetMessageId"]
        if msg.get("_in_reply_to"):
            out["In-Reply-To"] = msg["_in_reply_to"]
            out["References"] = msg["_in_reply_to"]
        for header in msg.get("internetMessageHeaders", []):
            out[header["name"]] = header["value"]
        body = msg.get("body", {})
        if str(body.get("contentType", "text")).lower() == "html":
            out.set_content(body.get("content", ""), subtype="html")
        else:
            out.set_content(body.get("content", ""))
        for att in msg.get("_attachments", []):  # files added through the attachments API
            maintype, _, subtype = str(att["contentType"]).partition("/")
            out.add_attachment(
                att["_data"],
                maintype=maintype,
                subtype=subtype or "octet-stream",
                filename=att["name"],
            )
        return out.as_bytes()

    # ------------------------------------------------------------------ drive
    def drive_add(
        self,
        name: str,
        *,
        parent_id: str | None = None,
        folder: bool = False,
        content: bytes = b"",
        mime_type: str = "application/octet-stream",
    ) -> str:
        with self._lock:
            item_id = self._new_id("DRV")
            item: dict[str, Any] = {
                "id": item_id,
                "name": name,
                "parentReference": {"id": parent_id or self.drive_root_id, "driveId": "drive1"},
                "size": len(content),
                "webUrl": f"https://onedrive.example/{quote(name)}",
            }
            if folder:
                item["folder"] = {"childCount": 0}
            else:
                item["file"] = {"mimeType": mime_type}
                self._content[item_id] = content
            self._drive[item_id] = item
            self._drive_touch(item_id)
            return item_id

    def _drive_touch(self, item_id: str) -> None:
        item = self._drive[item_id]
        item["lastModifiedDateTime"] = _iso(self.now())
        item["eTag"] = f'"{uuid.uuid4().hex[:8]}"'
        self._drive_log.append((self._next_seq(), json.loads(json.dumps(item))))

    def drive_move(self, item_id: str, new_parent_id: str) -> None:
        with self._lock:
            self._drive[item_id]["parentReference"] = {"id": new_parent_id, "driveId": "drive1"}
            self._drive_touch(item_id)

    def drive_rename(self, item_id: str, new_name: str) -> None:
        with self._lock:
            self._drive[item_id]["name"] = new_name
            self._drive_touch(item_id)

    def drive_delete(self, item_id: str) -> None:
        with self._lock:
            item = self._drive.pop(item_id)
            gone = {
                "id": item_id,
                "name": item["name"],
                "parentReference": item["parentReference"],
                "deleted": {"state": "deleted"},
            }
            if "folder" in item:
                gone["folder"] = {}
            else:
                gone["file"] = {}
            self._drive_log.append((self._next_seq(), gone))

    def drive_item(self, item_id: str) -> dict[str, Any] | None:
        with self._lock:
            item = self._drive.get(item_id)
            return dict(item) if item else None

    def drive_children(self, parent_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return [
                dict(i)
                for i in self._drive.values()
                if i.get("parentReference", {}).get("id") == parent_id and "root" not in i
            ]

    def expire_drive_state(self) -> None:
        with self._lock:
            self._drive_generation += 1

    def _drive_full(self) -> list[dict[str, Any]]:
        """Every live item, parents before children (as a fresh enumeration returns them)."""
        order: list[dict[str, Any]] = []
        seen: set[str] = set()

        def visit(item_id: str) -> None:
            if item_id in seen or item_id not in self._drive:
                return
            parent = self._drive[item_id].get("parentReference", {}).get("id")
            if parent:
                visit(parent)
            seen.add(item_id)
            order.append(json.loads(json.dumps(self._drive[item_id])))

        for item_id in list(self._drive):
            visit(item_id)
        return order

    # ------------------------------------------------------------------ dispatch
    def _handle(self, req: Request) -> tuple[int, dict[str, str], bytes]:
        if req.path.startswith("/upload/") and req.method == "PUT":  # pre-authenticated URL
            with self._lock:
                return self._upload_chunk(req, req.path.rsplit("/", 1)[1])
        if self.token is not None:
            auth = req.headers.get("authorization", "")
            if auth != f"Bearer {self.token}":
                return _error(401, "InvalidAuthenticationToken", "Access token is empty or invalid")
        path = req.path
        if not path.startswith("/v1.0/"):
            if path.startswith("/download/"):
                item_id = path.rsplit("/", 1)[1]
                with self._lock:
                    data = self._content.get(item_id)
                if data is None:
                    return _error(404, "itemNotFound", "gone")
                return 200, {"Content-Type": "application/octet-stream"}, data
            return _error(404, "BadRequest", "unknown path")
        path = path[len("/v1.0") :]
        if path == "/$batch" and req.method == "POST":  # parts take the lock themselves
            return _run_batch(self, req)
        for rx, method, fn in ROUTES:
            match = re.fullmatch(rx, path)
            if match and method == req.method:
                with self._lock:
                    return fn(self, req, *[unquote(g) for g in match.groups()])
        return _error(404, "ResourceNotFound", f"no route for {req.method} {path}")

    # --- mail delta
    def _mail_delta(self, req: Request, folder: str) -> tuple[int, dict[str, str], bytes]:
        folder = {"sentitems": "sentitems", "inbox": "inbox", "drafts": "drafts"}.get(
            folder.lower(), folder.lower()
        )
        q = req.query
        if "$skiptoken" in q:
            rnd = self._rounds.get(q["$skiptoken"])
            if rnd is None or rnd.meta["generation"] != self._generation:
                return _error(410, "SyncStateNotFound", "The sync state is not found")
            self._rounds.pop(q["$skiptoken"])
            return self._page(req, rnd)
        page = self._page_size(req)
        if "$deltatoken" in q:
            state = self._delta_tokens.get(q["$deltatoken"])
            if state is None or state["generation"] != self._generation:
                return _error(410, "SyncStateNotFound", "The sync state is not found")
            since = state["seq"]
            entries = []
            for m in sorted(self._messages.values(), key=lambda m: m["_seq"]):
                if m["_seq"] <= since:
                    continue
                if m["_removed"] or m["_folder"] != folder:
                    if m.get("_seen_in", {}).get(folder):
                        entries.append({"id": m["id"], "@removed": {"reason": "deleted"}})
                    continue
                entries.append(self._public(m))
            meta = {
                "folder": folder,
                "generation": self._generation,
                "expand_size": state.get("expand_size", False),
            }
            return self._page(req, _Round(entries, self._last_seq, page, meta))
        # a fresh enumeration, optionally filtered on receivedDateTime
        since_dt = None
        flt = q.get("$filter", "")
        if flt:
            m = re.fullmatch(r"\s*receivedDateTime\s+(ge|gt)\s+(\S+)\s*", flt)
            if not m:
                return _error(400, "ErrorInvalidUrlQueryFilter", "Only receivedDateTime ge|gt")
            since_dt = (m.group(1), _parse_iso(m.group(2)))
        live = [m for m in self._messages.values() if m["_folder"] == folder and not m["_removed"]]
        if since_dt:
            op, dt = since_dt
            live = [
                m
                for m in live
                if (
                    _parse_iso(m["receivedDateTime"]) >= dt
                    if op == "ge"
                    else _parse_iso(m["receivedDateTime"]) > dt
                )
            ]
        live.sort(key=lambda m: m["receivedDateTime"], reverse=True)  # newest first, like Graph
        if since_dt:
            live = live[:FILTER_CAP]
        meta = {"folder": folder, "generation": self._generation, "expand_size": _wants_size(req)}
        return self._page(req, _Round([self._public(m) for m in live], self._last_seq, page, meta))

    def _page_size(self, req: Request) -> int:
        """``$top`` or ``Prefer: odata.maxpagesize``, never above the server's ``page_size``
        (Graph also caps the page size it honours)."""
        if "$top" in req.query:
            return max(1, min(self.page_size, int(req.query["$top"])))
        prefer = req.headers.get("prefer", "")
        m = re.search(r"odata\.maxpagesize=(\d+)", prefer)
        return max(1, min(self.page_size, int(m.group(1)))) if m else self.page_size

    def _page(self, req: Request, rnd: _Round) -> tuple[int, dict[str, str], bytes]:
        chunk, rest = rnd.entries[: rnd.page], rnd.entries[rnd.page :]
        folder = rnd.meta["folder"]
        for entry in chunk:
            if "@removed" not in entry and entry["id"] in self._messages:
                self._messages[entry["id"]].setdefault("_seen_in", {})[folder] = True
        base = f"{self.base_url}/me/mailFolders/{folder}/messages/delta"
        if rnd.meta.get("expand_size"):  # the query options live on in the tokens, as in Graph
            chunk = [self._with_size(e) for e in chunk]
        body: dict[str, Any] = {"value": chunk}
        if rest:
            token = uuid.uuid4().hex
            self._rounds[token] = _Round(rest, rnd.seq, rnd.page, rnd.meta)
            body["@odata.nextLink"] = f"{base}?$skiptoken={token}"
        else:
            token = uuid.uuid4().hex
            self._delta_tokens[token] = {
                "seq": rnd.seq,
                "generation": rnd.meta["generation"],
                "expand_size": rnd.meta.get("expand_size", False),
            }
            body["@odata.deltaLink"] = f"{base}?$deltatoken={token}"
        return _json(200, body)

    def _with_size(self, entry: dict[str, Any]) -> dict[str, Any]:
        msg = self._messages.get(entry.get("id", ""))
        if "@removed" in entry or msg is None:
            return entry
        # drafts and sent copies made through the API carry no upload size: their MIME's length
        size = msg.get("_size")
        if size is None:
            size = len(msg.get("_raw") or b"")
        prop = {"id": "Integer 0xe08", "value": str(size)}
        return {**entry, "singleValueExtendedProperties": [prop]}

    # --- messages
    def _get_message(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        msg = self._messages.get(gid)
        if msg is None or msg["_removed"]:
            return _error(404, "ErrorItemNotFound", "The specified object was not found")
        return _json(200, self._public(msg))

    def _get_value(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        msg = self._messages.get(gid)
        if msg is None or msg["_removed"]:
            return _error(404, "ErrorItemNotFound", "The specified object was not found")
        if msg.get("_raw_path") is not None:  # streamed by the handler, in blocks
            return 200, {"Content-Type": "text/plain", "X-Stream-File": str(msg["_raw_path"])}, b""
        return 200, {"Content-Type": "text/plain"}, self._mime_of(msg)

    def _list_folder(self, req: Request, folder: str) -> tuple[int, dict[str, str], bytes]:
        folder = folder.lower()
        items = [
            self._public(m)
            for m in self._messages.values()
            if m["_folder"] == folder and not m["_removed"]
        ]
        flt = req.query.get("$filter", "")
        m = re.fullmatch(r"\s*internetMessageId\s+eq\s+'(.*)'\s*", flt)
        if flt and not m:
            return _error(400, "ErrorInvalidUrlQueryFilter", "unsupported filter")
        if m:
            wanted = m.group(1).replace("''", "'")
            items = [i for i in items if i["internetMessageId"] == wanted]
        return _json(200, {"value": items})

    def _create_message(self, req: Request) -> tuple[int, dict[str, str], bytes]:
        data = json.loads(req.body or b"{}")
        gid = self._new_id()
        now = self.now()
        msg = {
            "id": gid,
            "internetMessageId": f"<{uuid.uuid4().hex}@outlook.example>",
            "conversationId": "conv-" + uuid.uuid4().hex[:16],
            "receivedDateTime": _iso(now),
            "sentDateTime": _iso(now),
            "isRead": True,
            "isDraft": True,
            "subject": data.get("subject", ""),
            "from": {"emailAddress": {"address": self.user_email}},
            "toRecipients": data.get("toRecipients", []),
            "ccRecipients": data.get("ccRecipients", []),
            "hasAttachments": False,
            "categories": data.get("categories", []),
            "body": data.get("body", {"contentType": "text", "content": ""}),
            "internetMessageHeaders": data.get("internetMessageHeaders", []),
            "_folder": "drafts",
            "_raw": b"",
            "_seq": self._next_seq(),
            "_removed": False,
        }
        self._messages[gid] = msg
        return _json(201, self._public(msg))

    def _create_reply(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        orig = self._messages.get(gid)
        if orig is None or orig["_removed"]:
            return _error(404, "ErrorItemNotFound", "The specified object was not found")
        data = json.loads(req.body or b"{}")
        comment = data.get("comment", "")
        quoted = self._mime_text(orig)
        new_id = self._new_id()
        now = self.now()
        subject = orig["subject"]
        if not subject.lower().startswith("re:"):
            subject = "RE: " + subject
        draft = {
            "id": new_id,
            "internetMessageId": f"<{uuid.uuid4().hex}@outlook.example>",
            "conversationId": orig["conversationId"],
            "receivedDateTime": _iso(now),
            "sentDateTime": _iso(now),
            "isRead": True,
            "isDraft": True,
            "subject": subject,
            "from": {"emailAddress": {"address": self.user_email}},
            "toRecipients": [orig["from"]],
            "ccRecipients": [],
            "hasAttachments": False,
            "categories": [],
            "body": {
                "contentType": "text",
                "content": f"{comment}\n\n-----Original Message-----\n{quoted}",
            },
            "internetMessageHeaders": [],
            "_in_reply_to": orig["internetMessageId"],
            "_folder": "drafts",
            "_raw": b"",
            "_seq": self._next_seq(),
            "_removed": False,
        }
        draft.update({k: v for k, v in data.get("message", {}).items() if k != "id"})
        self._messages[new_id] = draft
        return _json(201, self._public(draft))

    def _mime_text(self, msg: dict[str, Any]) -> str:
        try:
            parsed = email.message_from_bytes(self._mime_of(msg), policy=email.policy.default)
            part = parsed.get_body(("plain", "html"))
            return part.get_content() if part is not None else ""
        except Exception:
            return ""

    def _patch_message(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        msg = self._messages.get(gid)
        if msg is None or msg["_removed"]:
            return _error(404, "ErrorItemNotFound", "The specified object was not found")
        data = json.loads(req.body or b"{}")
        allowed = {
            "subject",
            "body",
            "toRecipients",
            "ccRecipients",
            "bccRecipients",
            "categories",
            "isRead",
        }
        bad = set(data) - allowed
        if bad:
            return _error(400, "ErrorInvalidProperty", f"cannot patch {sorted(bad)}")
        if not msg["isDraft"] and set(data) - {"categories", "isRead"}:
            return _error(400, "ErrorInvalidRequest", "only drafts can be edited")
        msg.update(data)
        msg["_seq"] = self._next_seq()
        return _json(200, self._public(msg))

    def _send(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        msg = self._messages.get(gid)
        if msg is None or msg["_removed"]:
            return _error(404, "ErrorItemNotFound", "The specified object was not found")
        if not msg["isDraft"]:
            return _error(400, "ErrorInvalidRequest", "not a draft")
        del self._messages[gid]  # the draft id is gone: later GETs return 404
        sent = dict(msg)
        sent_id = self._new_id()
        sent.update(
            {
                "id": sent_id,
                "isDraft": False,
                "_folder": "sentitems",
                "_seq": self._next_seq(),
                "sentDateTime": _iso(self.now()),
                "_rebuilt": True,
            }
        )
        self._messages[sent_id] = sent
        self.sent_log.append(
            {
                "draft_id": gid,
                "sent_id": sent_id,
                "internetMessageId": sent["internetMessageId"],
                "to": [r["emailAddress"]["address"] for r in sent.get("toRecipients", [])],
                "subject": sent.get("subject", ""),
                "body": sent.get("body", {}).get("content", ""),
                "attachments": [
                    (a["name"], a["contentType"], a["_data"]) for a in sent.get("_attachments", [])
                ],
            }
        )
        return 202, {}, b""

    def _attachments(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        msg = self._messages.get(gid)
        if msg is None or msg["_removed"]:
            return _error(404, "ErrorItemNotFound", "The specified object was not found")
        if "_attachments" in msg:
            return _json(200, {"value": [_att_public(a) for a in msg["_attachments"]]})
        return _json(200, {"value": [a for a, _ in self._attachment_parts(msg)]})

    def _attachment_value(
        self, req: Request, gid: str, aid: str
    ) -> tuple[int, dict[str, str], bytes]:
        msg = self._messages.get(gid)
        if msg is None or msg["_removed"]:
            return _error(404, "ErrorItemNotFound", "The specified object was not found")
        for att in msg.get("_attachments", []):
            if att["id"] == aid:
                return 200, {"Content-Type": att["contentType"]}, att["_data"]
        for meta, payload in self._attachment_parts(msg):
            if meta["id"] == aid:
                return 200, {"Content-Type": meta["contentType"]}, payload
        return _error(404, "ErrorItemNotFound", "no such attachment")

    def _attachment_parts(self, msg: dict[str, Any]) -> list[tuple[dict[str, Any], bytes]]:
        parsed = email.message_from_bytes(self._mime_of(msg), policy=email.policy.default)
        out = []
        if not parsed.is_multipart():
            return out
        for n, part in enumerate(parsed.iter_attachments()):
            payload = part.get_payload(decode=True) or b""
            out.append(
                (
                    {
                        "id": f"att{n}",
                        "name": part.get_filename() or f"attachment{n}",
                        "contentType": part.get_content_type(),
                        "size": len(payload),
                        "isInline": part.get_content_disposition() == "inline",
                    },
                    payload,
                )
            )
        return out

    # --- draft attachments (simple POST, upload sessions), deleting drafts
    def _draft_for_attachments(self, gid: str) -> tuple[dict[str, Any] | None, Any]:
        msg = self._messages.get(gid)
        if msg is None or msg["_removed"]:
            return None, _error(404, "ErrorItemNotFound", "The specified object was not found")
        if not msg["isDraft"]:
            return None, _error(400, "ErrorInvalidRequest", "only drafts take attachments")
        return msg, None

    def _add_attachment_to(
        self, msg: dict[str, Any], name: str, ctype: str, data: bytes
    ) -> dict[str, Any]:
        att = {
            "id": self._new_id("ATT"),
            "name": name,
            "contentType": ctype or "application/octet-stream",
            "size": len(data),
            "isInline": False,
            "_data": data,
        }
        msg.setdefault("_attachments", []).append(att)
        msg["hasAttachments"] = True
        msg["_seq"] = self._next_seq()
        return att

    def _post_attachment(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        msg, err = self._draft_for_attachments(gid)
        if msg is None:
            return err
        data = json.loads(req.body or b"{}")
        if data.get("@odata.type") != "#microsoft.graph.fileAttachment":
            return _error(400, "ErrorInvalidRequest", "only fileAttachment is supported here")
        payload = base64.b64decode(data.get("contentBytes", ""))
        if len(payload) > 3 * 1024 * 1024:  # Graph: use an upload session from 3 MB
            return _error(413, "ErrorRequestEntityTooLarge", "use an upload session")
        att = self._add_attachment_to(
            msg, data.get("name", ""), data.get("contentType", ""), payload
        )
        return _json(201, _att_public(att))

    def _create_upload_session(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        msg, err = self._draft_for_attachments(gid)
        if msg is None:
            return err
        item = json.loads(req.body or b"{}").get("AttachmentItem", {})
        size = int(item.get("size") or 0)
        if item.get("attachmentType") != "file" or not item.get("name") or size <= 0:
            return _error(400, "ErrorInvalidRequest", "AttachmentItem needs file, name, size")
        if size > 150 * 1024 * 1024:
            return _error(413, "ErrorAttachmentSizeLimitExceeded", "over 150 MB")
        token = uuid.uuid4().hex
        self._uploads[token] = {
            "message": gid,
            "name": item["name"],
            "contentType": item.get("contentType") or "application/octet-stream",
            "size": size,
            "data": bytearray(),
        }
        expires = _iso(self.now() + timedelta(hours=1))
        return _json(
            201,
            {
                "uploadUrl": f"{self.origin}/upload/{token}",
                "expirationDateTime": expires,
                "nextExpectedRanges": ["0-"],
            },
        )

    def _upload_chunk(self, req: Request, token: str) -> tuple[int, dict[str, str], bytes]:
        if "authorization" in req.headers:  # the upload URL carries its own token
            return _error(401, "InvalidAuthenticationToken", "no Authorization on upload URLs")
        session = self._uploads.get(token)
        if session is None:
            return _error(404, "ErrorItemNotFound", "upload session not found")
        m = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+)", req.headers.get("content-range", ""))
        if not m:
            return _error(400, "InvalidRequest", "Content-Range required")
        start, end, total = (int(g) for g in m.groups())
        got = len(session["data"])
        if total != session["size"] or start != got or end - start + 1 != len(req.body):
            return _error(416, "InvalidRange", f"expected bytes {got}-")
        if len(req.body) > 4 * 1024 * 1024:
            return _error(413, "ErrorRequestEntityTooLarge", "chunks of at most 4 MB")
        session["data"] += req.body
        self.upload_chunks.append((token, start, end))
        if len(session["data"]) < session["size"]:
            nxt = len(session["data"])
            return _json(200, {"nextExpectedRanges": [f"{nxt}-"]})
        del self._uploads[token]
        msg = self._messages.get(session["message"])
        if msg is None or msg["_removed"] or not msg["isDraft"]:
            return _error(404, "ErrorItemNotFound", "the draft is gone")
        att = self._add_attachment_to(
            msg, session["name"], session["contentType"], bytes(session["data"])
        )
        location = f"{self.base_url}/me/messages/{session['message']}/attachments/{att['id']}"
        return 201, {"Location": location, "Content-Type": "application/json"}, b""

    def _delete_attachment(
        self, req: Request, gid: str, aid: str
    ) -> tuple[int, dict[str, str], bytes]:
        msg, err = self._draft_for_attachments(gid)
        if msg is None:
            return err
        kept = [a for a in msg.get("_attachments", []) if a["id"] != aid]
        if len(kept) == len(msg.get("_attachments", [])):
            return _error(404, "ErrorItemNotFound", "no such attachment")
        msg["_attachments"] = kept
        msg["hasAttachments"] = bool(kept)
        return 204, {}, b""

    def _delete_message(self, req: Request, gid: str) -> tuple[int, dict[str, str], bytes]:
        msg = self._messages.get(gid)
        if msg is None or msg["_removed"]:
            return _error(404, "ErrorItemNotFound", "The specified object was not found")
        self.deleted_log.append(gid)
        self.remove_message(gid)
        return 204, {}, b""

    # --- calendar
    def add_event(self, subject: str, start: datetime, end: datetime, location: str = "") -> str:
        """An event the owner made in Outlook (times stored in UTC, as Graph answers by default)."""
        event = {
            "id": "evt-" + uuid.uuid4().hex[:12],
            "subject": subject,
            "start": {"dateTime": _utc_text(start), "timeZone": "UTC"},
            "end": {"dateTime": _utc_text(end), "timeZone": "UTC"},
            "location": {"displayName": location},
        }
        with self._lock:
            self.events.append(event)
        return event["id"]

    def _create_event(self, req: Request) -> tuple[int, dict[str, str], bytes]:
        data = json.loads(req.body or b"{}")
        tid = data.get("transactionId")
        for event in self.events:
            if tid and event.get("transactionId") == tid:
                return _json(201, event)  # Graph ignores a repeated create with the same id
        try:
            start, end = (_event_time(data[k]) for k in ("start", "end"))
        except (KeyError, ValueError):
            return _error(400, "ErrorInvalidRequest", "start and end are required")
        event = {
            "id": "evt-" + uuid.uuid4().hex[:12],
            "subject": data.get("subject", ""),
            "body": data.get("body"),
            "start": {"dateTime": _utc_text(start), "timeZone": "UTC"},
            "end": {"dateTime": _utc_text(end), "timeZone": "UTC"},
            "location": data.get("location") or {"displayName": ""},
            "categories": data.get("categories", []),
            "transactionId": tid,
            "requested": {"start": data["start"], "end": data["end"]},
        }
        self.events.append(event)
        return _json(201, event)

    def _calendar_view(self, req: Request) -> tuple[int, dict[str, str], bytes]:
        q = req.query
        try:
            lo, hi = _parse_iso(q["startDateTime"]), _parse_iso(q["endDateTime"])
        except (KeyError, ValueError):
            return _error(400, "ErrorInvalidParameter", "startDateTime and endDateTime required")
        hits = [
            e
            for e in sorted(self.events, key=lambda e: e["start"]["dateTime"])
            if _parse_iso(e["start"]["dateTime"].split(".")[0] + "Z") < hi
            and _parse_iso(e["end"]["dateTime"].split(".")[0] + "Z") > lo
        ]
        skip = int(q.get("$skip", "0"))
        page = hits[skip : skip + self.page_size]
        body: dict[str, Any] = {"value": [_public_event(e) for e in page]}
        if skip + self.page_size < len(hits):
            body["@odata.nextLink"] = (
                f"{self.base_url}/me/calendarView?startDateTime={q['startDateTime']}"
                f"&endDateTime={q['endDateTime']}&$skip={skip + self.page_size}"
            )
        return _json(200, body)

    # --- categories, user
    def _get_categories(self, req: Request) -> tuple[int, dict[str, str], bytes]:
        return _json(200, {"value": list(self.master_categories)})

    def _post_category(self, req: Request) -> tuple[int, dict[str, str], bytes]:
        data = json.loads(req.body or b"{}")
        name = data.get("displayName", "")
        if any(c["displayName"] == name for c in self.master_categories):
            return _error(409, "ErrorDuplicateCategory", "category exists")
        cat = {"id": uuid.uuid4().hex, "displayName": name, "color": data.get("color", "none")}
        self.master_categories.append(cat)
        return _json(201, cat)

    def _me(self, req: Request) -> tuple[int, dict[str, str], bytes]:
        return _json(
            200,
            {
                "id": "user1",
                "displayName": "Owner",
                "mail": self.user_email,
                "userPrincipalName": self.user_email,
            },
        )

    # --- drive
    def _drive_delta(self, req: Request, *_: str) -> tuple[int, dict[str, str], bytes]:
        q = req.query
        base = f"{self.base_url}/me/drive/root/delta"
        page = self._page_size(req)
        token = q.get("token", "")
        if token == "latest":  # "start from now": no items, just a deltaLink
            entries, start_seq, offset = [], self._last_seq, 0
        elif token[:1].isdigit():
            raw = token
            try:
                gen, seq, offset = (int(x) for x in raw.split("."))
            except ValueError:
                return _error(400, "invalidRequest", "bad token")
            if gen != self._drive_generation:
                status, headers, body = _error(410, "resyncRequired", "Resync required")
                headers["Location"] = f"{base}?token=restart{self._drive_generation}"
                return status, headers, body
            if offset < 0:  # a deltaLink: changes after seq
                entries = [snap for s, snap in self._drive_log if s > seq]
                start_seq, offset = self._last_seq, 0
            else:
                entries = self._drive_round.get((gen, seq), [])
                start_seq = seq
        else:
            entries = self._drive_full()
            start_seq, offset = self._last_seq, 0
        key = (self._drive_generation, start_seq)
        self._drive_round[key] = entries
        chunk = entries[offset : offset + page]
        body: dict[str, Any] = {"value": chunk}
        if offset + page < len(entries):
            body["@odata.nextLink"] = (
                f"{base}?token={self._drive_generation}.{start_seq}.{offset + page}"
            )
        else:
            body["@odata.deltaLink"] = f"{base}?token={self._drive_generation}.{start_seq}.-1"
        return _json(200, body)

    def _drive_get(self, req: Request, item_id: str) -> tuple[int, dict[str, str], bytes]:
        item = self._drive.get(item_id)
        if item is None:
            return _error(404, "itemNotFound", "Item not found")
        return _json(200, dict(item))

    def _drive_children_route(
        self, req: Request, item_id: str
    ) -> tuple[int, dict[str, str], bytes]:
        if item_id not in self._drive:
            return _error(404, "itemNotFound", "Item not found")
        return _json(200, {"value": self.drive_children(item_id)})

    def _drive_create_child(self, req: Request, item_id: str) -> tuple[int, dict[str, str], bytes]:
        if item_id not in self._drive:
            return _error(404, "itemNotFound", "Item not found")
        data = json.loads(req.body or b"{}")
        name = data.get("name", "")
        exists = any(c["name"] == name for c in self.drive_children(item_id))
        if exists and data.get("@microsoft.graph.conflictBehavior", "fail") == "fail":
            return _error(409, "nameAlreadyExists", "An item with that name exists")
        new_id = self.drive_add(name, parent_id=item_id, folder="folder" in data)
        return _json(201, dict(self._drive[new_id]))

    def _drive_patch(self, req: Request, item_id: str) -> tuple[int, dict[str, str], bytes]:
        """Update an item: a new ``name`` and/or a move to ``parentReference.id`` (Graph's move).

        A name taken in the target folder answers 409 ``nameAlreadyExists`` unless the
        ``@microsoft.graph.conflictBehavior`` query parameter (or, leniently, body field) says
        ``rename``: then OneDrive's own ``"name 1"``, ``"name 2"``… is chosen.
        """
        if item_id not in self._drive or "root" in self._drive[item_id]:
            return _error(404, "itemNotFound", "Item not found")
        data = json.loads(req.body or b"{}")
        behavior = req.query.get("@microsoft.graph.conflictBehavior") or data.get(
            "@microsoft.graph.conflictBehavior", "fail"
        )
        with self._lock:
            item = self._drive[item_id]
            parent = (data.get("parentReference") or {}).get("id") or item["parentReference"]["id"]
            if parent not in self._drive:
                return _error(404, "itemNotFound", "Target folder not found")
            name = str(data.get("name") or item["name"])
            taken = {
                c["name"].casefold()
                for c in self._drive.values()
                if c.get("parentReference", {}).get("id") == parent and c["id"] != item_id
            }
            if name.casefold() in taken:
                if behavior != "rename":
                    return _error(409, "nameAlreadyExists", "An item with that name exists")
                n = 1
                while f"{name} {n}".casefold() in taken:
                    n += 1
                name = f"{name} {n}"
            item["name"] = name
            item["parentReference"] = {"id": parent, "driveId": "drive1"}
            self._drive_touch(item_id)
            return _json(200, dict(item))

    def _drive_content(self, req: Request, item_id: str) -> tuple[int, dict[str, str], bytes]:
        if item_id not in self._content:
            return _error(404, "itemNotFound", "Item not found")
        return 302, {"Location": f"{self.origin}/download/{item_id}"}, b""


def _att_public(att: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in att.items() if not k.startswith("_")}
    out["@odata.type"] = "#microsoft.graph.fileAttachment"
    return out


def _json(status: int, body: Any) -> tuple[int, dict[str, str], bytes]:
    return status, {"Content-Type": "application/json"}, json.dumps(body).encode()


def _utc_text(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="seconds") + ".0000000"


_WINDOWS_ZONES = {"AUS Eastern Standard Time": "Australia/Sydney", "UTC": "UTC"}


def _event_time(value: dict[str, Any]) -> datetime:
    """A dateTimeTimeZone as Graph reads it on create (Windows or IANA zone names)."""
    zone = _WINDOWS_ZONES.get(value["timeZone"], value["timeZone"])
    return datetime.fromisoformat(value["dateTime"].split(".")[0]).replace(tzinfo=ZoneInfo(zone))


def _public_event(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("requested", "transactionId")}


def _error(status: int, code: str, message: str) -> tuple[int, dict[str, str], bytes]:
    return _json(status, {"error": {"code": code, "message": message}})


_ID = r"([^/]+)"
ROUTES: list[tuple[str, str, Callable[..., tuple[int, dict[str, str], bytes]]]] = [
    (r"/me", "GET", GraphServer._me),
    (rf"/me/mailFolders/{_ID}/messages/delta", "GET", GraphServer._mail_delta),
    (rf"/me/mailFolders/{_ID}/messages", "GET", GraphServer._list_folder),
    (rf"/me/messages/{_ID}/\$value", "GET", GraphServer._get_value),
    (rf"/me/messages/{_ID}/attachments", "GET", GraphServer._attachments),
    (rf"/me/messages/{_ID}/attachments", "POST", GraphServer._post_attachment),
    (
        rf"/me/messages/{_ID}/attachments/createUploadSession",
        "POST",
        GraphServer._create_upload_session,
    ),
    (rf"/me/messages/{_ID}/attachments/{_ID}", "DELETE", GraphServer._delete_attachment),
    (rf"/me/messages/{_ID}", "DELETE", GraphServer._delete_message),
    (rf"/me/messages/{_ID}/attachments/{_ID}/\$value", "GET", GraphServer._attachment_value),
    (rf"/me/messages/{_ID}/createReply", "POST", GraphServer._create_reply),
    (rf"/me/messages/{_ID}/send", "POST", GraphServer._send),
    (rf"/me/messages/{_ID}", "GET", GraphServer._get_message),
    (rf"/me/messages/{_ID}", "PATCH", GraphServer._patch_message),
    (r"/me/messages", "POST", GraphServer._create_message),
    (r"/me/events", "POST", GraphServer._create_event),
    (r"/me/calendarView", "GET", GraphServer._calendar_view),
    (r"/me/outlook/masterCategories", "GET", GraphServer._get_categories),
    (r"/me/outlook/masterCategories", "POST", GraphServer._post_category),
    (r"/me/drive/root/delta", "GET", GraphServer._drive_delta),
    (rf"/me/drive/items/{_ID}/children", "GET", GraphServer._drive_children_route),
    (rf"/me/drive/items/{_ID}/children", "POST", GraphServer._drive_create_child),
    (rf"/me/drive/items/{_ID}/content", "GET", GraphServer._drive_content),
    (rf"/me/drive/items/{_ID}", "GET", GraphServer._drive_get),
    (rf"/me/drive/items/{_ID}", "PATCH", GraphServer._drive_patch),
]


class _QuietServer(ThreadingHTTPServer):
    """Client hang-ups (a killed process, a cancelled request) are recorded, not printed."""

    graph: GraphServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        self.graph.handler_errors.append(repr(sys.exc_info()[1]))


class _Handler(BaseHTTPRequestHandler):
    graph: GraphServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are separate writes; see llm_server

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        return

    def _serve(self) -> None:
        srv = self.graph
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        query = {k: v[0] for k, v in parse_qs(split.query, keep_blank_values=True).items()}
        req = Request(
            method=self.command,
            path=unquote(split.path),
            query=query,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            at=time.monotonic(),
        )
        # a $batch envelope is not a mailbox operation itself: its parts count (_run_batch)
        weight = 0 if req.method == "POST" and req.path.endswith("/$batch") else 1
        with srv._lock:
            srv.requests.append(req)
            srv._in_flight += weight
            srv.peak_in_flight = max(srv.peak_in_flight, srv._in_flight)
            fault = None
            for f in srv.faults:
                if (
                    f.fired < f.times
                    and re.search(f.path, req.path)
                    and (f.method is None or f.method == req.method)
                ):
                    f.fired += 1
                    fault = f
                    break
        try:
            if srv.latency:
                time.sleep(srv.latency)
            if fault is not None and fault.drop:
                req.status = -1
                self.close_connection = True
                return
            if fault is not None and not fault.drop_after and fault.cut_after is None:
                headers = dict(fault.headers)
                if fault.retry_after is not None:
                    headers["Retry-After"] = fault.retry_after
                code = fault.code or {429: "TooManyRequests", 503: "ServiceUnavailable"}.get(
                    fault.status, "Error"
                )
                status, base_headers, payload = _error(fault.status, code, "injected")
                base_headers.update(headers)
            else:
                status, base_headers, payload = srv._handle(req)
            if fault is not None and fault.drop_after:
                req.status = -2
                self.close_connection = True
                return
            req.status = status
            stream = base_headers.pop("X-Stream-File", None)
            length = Path(stream).stat().st_size if stream else len(payload)
            self.send_response(status)
            for key, value in base_headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(length))
            self.end_headers()
            if self.command == "HEAD":
                return
            cut = fault.cut_after if fault is not None else None
            if stream:
                _send_file(self.wfile, Path(stream), length if cut is None else cut)
            elif payload:
                self.wfile.write(payload if cut is None else payload[:cut])
            if cut is not None:
                self.wfile.flush()
                self.close_connection = True
        finally:
            with srv._lock:
                srv._in_flight -= weight

    do_GET = _serve
    do_POST = _serve
    do_PATCH = _serve
    do_DELETE = _serve
    do_PUT = _serve


# ---------------------------------------------------------------------- JSON batching
BATCH_MAX = 20
_batch_numbers = itertools.count(1)
_batch_order = random.Random(20)  # answers come back in any order, like Graph's


def _run_batch(srv: GraphServer, envelope: Request) -> tuple[int, dict[str, str], bytes]:
    """``POST /$batch`` as documented (learn.microsoft.com/graph/json-batching).

    At most 20 parts (else 400); ids unique (case-insensitive); a part with a body needs a
    Content-Type; ``dependsOn`` sequences parts (a failed dependency answers 424). Parts run
    like Outlook runs them, at most 4 at a time; each is recorded in ``srv.requests`` (with
    ``batch`` set), counts in ``peak_in_flight``, takes ``latency`` and can be hit by a status
    fault (429 + Retry-After, 503 …) on its own. JSON bodies come back as objects, anything else
    (``$value`` MIME) base64-encoded; answers are shuffled.
    """
    from concurrent.futures import ThreadPoolExecutor

    try:
        parts = json.loads(envelope.body or b"{}").get("requests")
    except (ValueError, AttributeError):
        return _error(400, "BadRequest", "Invalid batch payload format.")
    if not isinstance(parts, list) or not parts:
        return _error(400, "BadRequest", "Invalid batch payload format.")
    if len(parts) > BATCH_MAX:
        return _error(400, "BadRequest", f"Number of batch requests exceeds {BATCH_MAX}.")
    ids = [str(p.get("id", "")).lower() if isinstance(p, dict) else "" for p in parts]
    if any(not i for i in ids) or len(set(ids)) != len(ids):
        return _error(400, "BadRequest", "Batch request ids must be present and unique.")
    for part in parts:
        if not part.get("method") or not part.get("url"):
            return _error(400, "BadRequest", "Batch request needs method and url.")
        headers = {str(k).lower() for k in (part.get("headers") or {})}
        if "body" in part and "content-type" not in headers:
            return _error(400, "BadRequest", "Content-Type header required with a body.")
        if any(str(d).lower() not in ids for d in part.get("dependsOn") or []):
            return _error(400, "BadRequest", "dependsOn refers to an unknown request id.")
    number = next(_batch_numbers)
    answers: dict[str, dict[str, Any]] = {}
    remaining = list(parts)
    with ThreadPoolExecutor(max_workers=4) as pool:
        while remaining:
            ready = [
                p
                for p in remaining
                if all(str(d).lower() in answers for d in p.get("dependsOn") or [])
            ]
            if not ready:
                return _error(400, "BadRequest", "dependsOn forms a cycle.")
            remaining = [p for p in remaining if p not in ready]
            jobs = []
            for part in ready:
                deps = [answers[str(d).lower()] for d in part.get("dependsOn") or []]
                if any(a["status"] >= 400 for a in deps):
                    answers[str(part["id"]).lower()] = {
                        "id": str(part["id"]),
                        "status": 424,
                        "headers": {"Content-Type": "application/json"},
                        "body": {"error": {"code": "FailedDependency", "message": "dependency"}},
                    }
                else:
                    jobs.append((part, pool.submit(_run_part, srv, envelope, part, number)))
            for part, job in jobs:
                answers[str(part["id"]).lower()] = job.result()
    out = list(answers.values())
    with srv._lock:
        _batch_order.shuffle(out)
    return _json(200, {"responses": out})


def _run_part(
    srv: GraphServer, envelope: Request, part: dict[str, Any], number: int
) -> dict[str, Any]:
    url = str(part["url"])
    if url.startswith(("http://", "https://")):
        status, headers, payload = _error(400, "BadRequest", "Batch URLs must be relative.")
        return _part_answer(part, status, headers, payload)
    split = urlsplit(url)
    headers = {str(k).lower(): str(v) for k, v in (part.get("headers") or {}).items()}
    if "authorization" in envelope.headers:  # authentication is the envelope's
        headers["authorization"] = envelope.headers["authorization"]
    body = part.get("body")
    if body is None:
        raw = b""
    elif isinstance(body, str) and "json" not in headers.get("content-type", ""):
        raw = base64.b64decode(body)
    else:
        raw = json.dumps(body).encode()
    req = Request(
        method=str(part["method"]).upper(),
        path="/v1.0/" + unquote(split.path).lstrip("/"),
        query={k: v[0] for k, v in parse_qs(split.query, keep_blank_values=True).items()},
        headers=headers,
        body=raw,
        at=time.monotonic(),
        batch=f"b{number}:{part['id']}",
    )
    with srv._lock:
        srv.requests.append(req)
        srv._in_flight += 1
        srv.peak_in_flight = max(srv.peak_in_flight, srv._in_flight)
        fault = None
        for f in srv.faults:  # socket faults (drop) concern envelopes, not parts
            if (
                f.fired < f.times
                and not (f.drop or f.drop_after)
                and re.search(f.path, req.path)
                and (f.method is None or f.method == req.method)
            ):
                f.fired += 1
                fault = f
                break
    try:
        if srv.latency:
            time.sleep(srv.latency)
        if fault is not None:
            code = fault.code or {429: "TooManyRequests", 503: "ServiceUnavailable"}.get(
                fault.status, "Error"
            )
            status, out_headers, payload = _error(fault.status, code, "injected")
            out_headers.update(fault.headers)
            if fault.retry_after is not None:
                out_headers["Retry-After"] = fault.retry_after
        else:
            status, out_headers, payload = srv._handle(req)
            stream = out_headers.pop("X-Stream-File", None)
            if stream:  # inside a batch the MIME goes whole into the JSON, as Graph does
                payload = Path(stream).read_bytes()
    finally:
        with srv._lock:
            srv._in_flight -= 1
    req.status = status
    return _part_answer(part, status, out_headers, payload)


def _part_answer(
    part: dict[str, Any], status: int, headers: dict[str, str], payload: bytes
) -> dict[str, Any]:
    answer: dict[str, Any] = {"id": str(part["id"]), "status": status, "headers": dict(headers)}
    if payload:
        if "json" in headers.get("Content-Type", "").lower():
            answer["body"] = json.loads(payload)
        else:
            answer["body"] = base64.b64encode(payload).decode()
    return answer


def _wants_size(req: Request) -> bool:
    """A listing that expands PidTagMessageSize (``Integer 0x0E08``), in any spelling."""
    expand = req.query.get("$expand", "").lower().replace(" ", "")
    return "singlevalueextendedproperties" in expand and "integer0x0e08" in expand


def _header_block(path: Path) -> bytes:
    """A mail file's header block, read line by line (the body is never loaded)."""
    lines: list[bytes] = []
    with path.open("rb") as stream:
        for line in stream:
            if line in (b"\r\n", b"\n"):
                break
            lines.append(line)
    return b"".join(lines) + b"\r\n"


def _send_file(out: Any, path: Path, length: int) -> None:
    """``length`` bytes of ``path`` to the socket, 256 KB at a time."""
    with path.open("rb") as stream:
        while length > 0 and (block := stream.read(min(1 << 18, length))):
            out.write(block)
            length -= len(block)


def http_date(dt: datetime) -> str:
    """An RFC 7231 date, for Retry-After in its HTTP-date form."""
    return email.utils.format_datetime(dt.astimezone(UTC), usegmt=True)


__all__ = ["Fault", "GraphServer", "Request", "http_date", "timedelta"]
