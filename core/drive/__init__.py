"""OneDrive: customer folders per inquiry and the stage layout, watched through Graph.

What lives here: ``paths`` (folder names and matching, pure), ``files`` (listing and opening an
inquiry's files), ``watcher`` (``DriveWatcher``: delta sync of the customer folders, creating a
folder for a new inquiry, stage moves from folder moves).

Imports, and why (the layer row below is the rule): ``core.graph.client``, ``core.db``,
``core.inquiry.stages``, ``core.events``, ``core.clock``, ``core.errors``. Not the intake pipeline,
not ``core.app.graph_runtime``.
``core.config`` names the settings it is handed (annotations only).

Layer row: clock, config, db, errors, events, graph, inquiry, tasks, tempfiles.
"""
