"""One TLS context for the HTTPS clients the app builds (Graph, Telegram, upload sessions).

Why: httpx makes a new ``ssl.SSLContext`` for every client, loading certifi's CA bundle each
time: 50-120 ms of synchronous work (measured on a loaded 2-core machine), on the event loop when
a client is made there -- a Telegram runner restarting, a Graph upload, a settings page's test
button -- and over the 100 ms loop budget by itself. Built once and shared (an ``SSLContext``
serves any number of connections), it costs that once per process, and ``warm`` pays it on a
thread. The context is the one httpx would build by default (``verify=True``, the environment's
``SSL_CERT_FILE``/``SSL_CERT_DIR`` honoured), so what is trusted does not change.
"""

from __future__ import annotations

import ssl
import threading

import httpx

from core import tasks

_lock = threading.Lock()
_context: ssl.SSLContext | None = None


def context() -> ssl.SSLContext:
    """The shared context (built on first use, blocking; see ``warm``)."""
    global _context
    with _lock:
        if _context is None:
            _context = httpx.create_ssl_context(verify=True, trust_env=True)
        return _context


async def warm() -> None:
    """Build the shared context on a worker thread, so the loop never loads the CA bundle."""
    if _context is None:
        await tasks.io(context)
