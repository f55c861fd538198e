"""One lock around the heavy imports that may start on more than one thread.

The OpenAI SDK, the draft schemas and intake's model helpers all begin by importing pydantic. When
two threads import it at once, each can see the other's half-built module; PySide's import hook
then asks that module for an attribute it does not have yet and the import fails (the tray app
logged exactly this when its warm-up thread and another import overlapped). Whoever makes one of
these imports holds ``IMPORTING``; it is re-entrant, so nested imports on one thread are fine.
"""

from __future__ import annotations

import threading

IMPORTING = threading.RLock()
