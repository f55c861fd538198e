"""A small real Hugging Face Hub on 127.0.0.1 for the model download tests (and manual demos).

It speaks the Hub's file API as ``huggingface_hub`` uses it, so the app's download code runs
unchanged with ``HF_ENDPOINT`` (or the ``voice.hub_endpoint`` setting) pointing here:

* ``GET /api/models/{repo}/revision/{rev}[?blobs=true]`` → ``{"id", "sha", "siblings": [...]}``;
  with ``blobs`` each sibling carries ``size``, ``blobId`` (git blob sha1) and, for files added as
  LFS, ``lfs: {size, sha256, pointerSize}`` — what ``HfApi.model_info(files_metadata=True)`` reads.
* ``HEAD|GET /{repo}/resolve/{rev}/{file}`` with ``ETag``, ``X-Repo-Commit``, ``Content-Length``,
  ``Accept-Ranges: bytes`` (plus ``X-Linked-Etag``/``X-Linked-Size`` for LFS files) and
  ``Range: bytes=N-`` answered ``206`` with ``Content-Range``. ``rev`` may be the branch
  (``main``) or the commit sha.
* An unknown repo answers 404 with ``X-Error-Code: RepoNotFound``; an unknown revision
  ``RevisionNotFound``; an unknown file ``EntryNotFound`` (the Hub's codes).

Faults a test can ask for:
* ``cut(file, after_bytes, times=1)``: the next ``times`` GETs of ``file`` send the headers of the
  full answer, then ``after_bytes`` of body, then drop the connection (a Wi-Fi hiccup).
* ``corrupt(file)``: the bytes served for ``file`` have one byte flipped in the middle, while the
  metadata still describes the good file (a broken mirror or proxy).
* ``slow(file, chunk, delay_s)``: serve ``file`` in ``chunk``-byte pieces with a pause between.

``requests`` records ``(method, path, range_header)`` of every request.

    with HubServer() as hub:
        hub.add_folder("Systran/faster-whisper-small", model_dir, lfs=("model.bin",))
        hub.endpoint  # -> HF_ENDPOINT
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

_API = re.compile(r"^/api/models/(?P<repo>[^/]+/[^/]+)/revision/(?P<rev>[^/]+)$")
_RESOLVE = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)$")
_RANGE = re.compile(r"^bytes=(\d+)-(\d*)$")


@dataclass
class _File:
    data: bytes
    lfs: bool

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def blob_id(self) -> str:
        return hashlib.sha1(b"blob %d\x00" % len(self.data) + self.data).hexdigest()


@dataclass
class _Repo:
    sha: str
    files: dict[str, _File] = field(default_factory=dict)


class HubServer:
    def __init__(self) -> None:
        self.repos: dict[str, _Repo] = {}
        self.requests: list[tuple[str, str, str]] = []
        self._cuts: dict[str, list[int]] = {}
        self._corrupt: set[str] = set()
        self._slow: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:  # quiet
                pass

            def do_HEAD(self) -> None:
                hub._handle(self, head=True)

            def do_GET(self) -> None:
                hub._handle(self, head=False)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # -- setup ----------------------------------------------------------------------------------
    @property
    def endpoint(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def add_folder(
        self, repo_id: str, folder: Path, *, lfs: tuple[str, ...] = ("model.bin",)
    ) -> str:
        """Publish every file of ``folder`` as ``repo_id`` at a new commit; returns its sha."""
        files = {
            p.name: _File(p.read_bytes(), p.name in lfs)
            for p in sorted(folder.iterdir())
            if p.is_file()
        }
        digest = hashlib.sha1(repo_id.encode())
        for name, f in files.items():
            digest.update(name.encode() + f.sha256.encode())
        sha = digest.hexdigest()
        with self._lock:
            self.repos[repo_id] = _Repo(sha, files)
        return sha

    def cut(self, name: str, after_bytes: int, times: int = 1) -> None:
        with self._lock:
            self._cuts[name] = [after_bytes] * times

    def corrupt(self, name: str, on: bool = True) -> None:
        with self._lock:
            (self._corrupt.add if on else self._corrupt.discard)(name)

    def slow(self, name: str, chunk: int, delay_s: float) -> None:
        with self._lock:
            self._slow[name] = (chunk, delay_s)

    def gets_of(self, name: str) -> list[str]:
        """The Range header ('' when none) of every GET of ``name``, in order."""
        return [r for m, p, r in self.requests if m == "GET" and p.endswith("/" + name)]

    # -- protocol -------------------------------------------------------------------------------
    def _handle(self, req: BaseHTTPRequestHandler, *, head: bool) -> None:
        url = urlsplit(req.path)
        path = unquote(url.path)
        with self._lock:
            self.requests.append(("HEAD" if head else "GET", path, req.headers.get("Range", "")))
        if m := _API.match(path):
            repo = self._repo(req, m["repo"], m["rev"])
            if repo is None:
                return
            blobs = parse_qs(url.query).get("blobs", ["false"])[0].lower() == "true"
            siblings: list[dict[str, Any]] = []
            for name, f in repo.files.items():
                entry: dict[str, Any] = {"rfilename": name}
                if blobs:
                    entry.update(size=len(f.data), blobId=f.blob_id)
                    if f.lfs:
                        entry["lfs"] = {"size": len(f.data), "sha256": f.sha256, "pointerSize": 134}
                siblings.append(entry)
            body = json.dumps(
                {
                    "id": m["repo"],
                    "modelId": m["repo"],
                    "sha": repo.sha,
                    "private": False,
                    "siblings": siblings,
                }
            ).encode()
            self._send(req, 200, body, {"Content-Type": "application/json"}, head=head)
            return
        if m := _RESOLVE.match(path):
            repo = self._repo(req, m["repo"], m["rev"])
            if repo is None:
                return
            f = repo.files.get(m["file"])
            if f is None:
                self._error(req, 404, "EntryNotFound", f"{m['file']} not found")
                return
            self._serve_file(req, m["file"], f, repo.sha, head=head)
            return
        self._error(req, 404, "RepoNotFound", "not found")

    def _repo(self, req: BaseHTTPRequestHandler, repo_id: str, rev: str) -> _Repo | None:
        repo = self.repos.get(repo_id)
        if repo is None:
            self._error(req, 404, "RepoNotFound", f"Repository {repo_id} not found")
            return None
        if rev not in ("main", repo.sha):
            self._error(req, 404, "RevisionNotFound", f"Invalid rev id: {rev}")
            return None
        return repo

    def _serve_file(
        self, req: BaseHTTPRequestHandler, name: str, f: _File, sha: str, *, head: bool
    ) -> None:
        data = f.data
        with self._lock:
            if name in self._corrupt and not head:
                middle = len(data) // 2
                data = data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :]
            cut = self._cuts[name].pop(0) if self._cuts.get(name) and not head else None
            slow = self._slow.get(name)
        etag = f'"{f.sha256 if f.lfs else f.blob_id}"'
        headers = {
            "Content-Type": "application/octet-stream",
            "ETag": etag,
            "X-Repo-Commit": sha,
            "Accept-Ranges": "bytes",
        }
        if f.lfs:
            headers.update({"X-Linked-Etag": etag, "X-Linked-Size": str(len(f.data))})
        start, status = 0, 200
        wanted = req.headers.get("Range", "")
        if wanted and not head:
            m = _RANGE.match(wanted)
            if m is None or int(m[1]) >= len(data):
                self._send(req, 416, b"", {"Content-Range": f"bytes */{len(data)}"}, head=False)
                return
            start, status = int(m[1]), 206
            headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
        body = data[start:]
        req.send_response(status)
        for key, value in headers.items():
            req.send_header(key, value)
        req.send_header("Content-Length", str(len(body)))
        req.end_headers()
        if head:
            return
        if cut is not None:
            body = body[:cut]
        try:
            if slow is None:
                req.wfile.write(body)
            else:
                chunk, delay = slow
                for i in range(0, len(body), chunk):
                    req.wfile.write(body[i : i + chunk])
                    req.wfile.flush()
                    time.sleep(delay)
            req.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
        if cut is not None:
            req.close_connection = True
            req.connection.close()

    def _error(self, req: BaseHTTPRequestHandler, status: int, code: str, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        self._send(
            req,
            status,
            body,
            {"Content-Type": "application/json", "X-Error-Code": code},
            head=False,
        )

    @staticmethod
    def _send(
        req: BaseHTTPRequestHandler,
        status: int,
        body: bytes,
        headers: dict[str, str],
        *,
        head: bool,
    ) -> None:
        req.send_response(status)
        for key, value in headers.items():
            req.send_header(key, value)
        req.send_header("Content-Length", str(len(body)))
        req.end_headers()
        if not head:
            req.wfile.write(body)

    # -- lifecycle ------------------------------------------------------------------------------
    def __enter__(self) -> HubServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
