"""Dictation in the desktop: recorder (microphone → WAV), push-to-talk button, settings page.

Transcription itself is core.voice (no Qt), run on a worker thread; text arrives by signals and
is inserted for editing, never acted on.
"""
