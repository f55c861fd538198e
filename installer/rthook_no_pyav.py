"""PyInstaller runtime hook: the bundle leaves PyAV (FFmpeg, 72 MB) out.

faster-whisper imports ``av`` at import time for ``decode_audio``, which the app does not use:
``core.voice.audio`` decodes with libsndfile. This placeholder lets that import succeed; any use
of it fails like a missing codec, and ``load_audio`` turns that into its clear refusal.
"""

import sys
import types


class _NoPyAV(types.ModuleType):
    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        raise ImportError("PyAV is not part of this installation (audio is read by libsndfile)")


sys.modules.setdefault("av", _NoPyAV("av"))
