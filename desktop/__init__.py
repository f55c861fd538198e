"""The PySide6 desktop: tray, board, detail, approval, settings, dictation.

A front end of ``core.app``: windows receive the folder's ``App`` (and its ``SignalHub``, the one
path by which core events become Qt signals) in their constructor; I/O runs as coroutines on the
qasync loop and CPU work on workers. May import core.app and core's plain modules (errors,
events, clock, glossary, config); never ``core.db`` or SQLAlchemy (a test enforces it).
"""
