"""Inquiry Bridge core: everything that is not Qt.

No module under ``core`` imports PySide6, qasync or ``desktop`` (a test enforces it), so the
intake pipeline, Graph sync, drafting and Telegram run headless from the CLI exactly as they do
inside the tray application.
"""

__version__ = "0.1.0"
