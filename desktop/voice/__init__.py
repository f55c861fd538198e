"""Dictation in the desktop: recorder (microphone → WAV), push-to-talk button, settings page."""
