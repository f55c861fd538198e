"""The PySide6 desktop: tray, board, detail, approval, settings. Talks to core via services."""
