"""A layout that lines its widgets up left to right and wraps onto a new line when the width
runs out (Qt's "flow layout" example, which Qt ships only as C++ sample code).

Why: a row of buttons in a ``QHBoxLayout`` asks for the width of all its buttons together. The
detail's actions (打开待审批草稿 … 打开 OneDrive 文件夹, ~700 px in English) made the detail pane
that wide at least, so with the assistant docked on a 1366 px screen the board beside it was
squeezed until names and day counts were cut ("Emm…rke", "⚠ 11 w…s (+9)"). In a flow layout the
buttons take a second line instead, and the pane can give the board its room.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins
from PySide6.QtCore import QPoint
from PySide6.QtCore import QRect
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLayout
from PySide6.QtWidgets import QLayoutItem
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QWidget


class FlowLayout(QLayout):
    """Items left to right, wrapped to the width; its height follows the width it is given."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        """One line of every shown item (what it would like), never less than the minimum."""
        shown = [i for i in self._items if not i.isEmpty()]
        width = sum(i.sizeHint().width() for i in shown) + self._spacing * max(0, len(shown) - 1)
        height = max((i.sizeHint().height() for i in shown), default=0)
        margins = self.contentsMargins()
        return QSize(width + margins.left() + margins.right(), height).expandedTo(
            self.minimumSize()
        )

    def minimumSize(self) -> QSize:
        """As narrow as the widest single item: the rest wraps."""
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _gap(self, item: QLayoutItem, orientation: Qt.Orientation) -> int:
        if self._spacing >= 0:
            return self._spacing
        widget = item.widget()
        style = widget.style() if widget is not None else None
        if style is None:
            return 6
        control = QSizePolicy.ControlType.PushButton
        return style.layoutSpacing(control, control, orientation)

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        """Place the items (when ``move``) and return the height they take at ``rect``'s width."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, line = area.x(), area.y(), 0
        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            gap_x = self._gap(item, Qt.Orientation.Horizontal)
            gap_y = self._gap(item, Qt.Orientation.Vertical)
            if x + hint.width() > area.right() + 1 and line > 0:
                x, y, line = area.x(), y + line + gap_y, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + gap_x
            line = max(line, hint.height())
        return y + line - rect.y() + margins.bottom()
