"""The types, constants and pure helpers a front end gets from ``App``, in one module.

The desktop imports ``core.app`` (``App``, ``build_app``) and this module, nothing else from
``core`` (``tests/foundation/test_layers.py`` checks it). What is here is data: the dataclasses
``App``'s services return, the names of stages and settings, and formatting helpers with no I/O
(Sydney time, phone numbers, inert text). Anything that reads the store, the network, the model
or a file is a method on an ``App`` service instead.
"""

from __future__ import annotations

__all__: list[str] = []
