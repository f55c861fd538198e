"""The PySide6 desktop: tray, board, detail, approval, settings, dictation.

A front end of ``core.app``: windows receive the folder's ``App`` (and its ``SignalHub``, the one
path by which core events become Qt signals) in their constructor; I/O runs as coroutines on the
qasync loop and CPU work on workers. Imports ``core.app`` (``App``, ``build_app`` and the
functions for before an ``App`` exists) and ``core.app.types`` (the data, constants and pure
helpers), heading for nothing else of ``core`` (``DESKTOP_IMPORTS`` in
``tests/foundation/test_layers.py`` only shrinks); never ``core.db`` or SQLAlchemy.
"""
