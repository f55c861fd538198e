"""Local speech-to-text for dictation and voice notes (faster-whisper), free of Qt.

``models`` finds the Whisper model folder (settings, environment, or the bundled package) without
ever downloading; ``transcriber`` loads it once, keeps it warm and runs it off the UI thread;
``audio`` holds the small WAV/PCM helpers the recorder and the tests share; ``notes`` stores a
dictated note (audio file + transcript) as a customer note.
"""
