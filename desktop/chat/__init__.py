"""The assistant in the desktop: the chat panel docked beside the board, and the memory page.

``ChatDock`` (``dock``) holds the ``ChatPanel`` (``panel``): the day's conversation with the
assistant through ``App.assistant``. ``MemoryDialog`` (``memory_page``) shows what it remembers.
"""

from desktop.chat.dock import ChatDock
from desktop.chat.panel import ChatPanel

__all__ = ["ChatDock", "ChatPanel"]
