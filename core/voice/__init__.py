"""Local speech-to-text for dictation and voice notes (faster-whisper), free of Qt.

What lives here: ``models`` finds the Whisper model folder (settings, environment, or the bundled
package) without ever downloading; ``transcriber`` loads it once, keeps it warm and runs it off
the UI thread; ``worker`` runs that transcriber (and live dictation) in the App's spawned
child process, so the app's own process never loads faster-whisper's native libraries (#28);
``audio`` holds the WAV/PCM helpers and the file decoder the recorder, the transcriber and the
tests share; ``length`` tells an Ogg or WAV file's length from its container
with no native library (it runs beside the Telegram loop). A dictated customer note is stored by
``core.inquiry.notes``.

Imports, and why (the layer row below is the rule): ``core.errors`` (and numpy / faster-whisper on
use). ``audio`` and ``length`` import nothing of this package; ``transcriber`` uses ``audio`` and
``models``; ``worker`` runs them in its child. Never Qt.

Layer row: errors, tasks, text.
"""
