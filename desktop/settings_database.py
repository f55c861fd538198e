"""The 数据库 page of the settings dialog: test a PostgreSQL address, then switch to it.

By default a desk keeps its data in its own folder (SQLite). To share one store with other
desks and an always-on box (``serve``), the owner types the PostgreSQL address, presses 测试 and
reads what it holds in one line: an empty database, another desk's store with its inquiries, or
why it cannot be used (wrong address, no server, password refused, another program's data, a
newer version's) — the test only reads (``core.db.probe``), it never changes the database. 切换
is offered only after a test of that very address succeeded; it writes ``[store] url``, used
from the next start. 使用本机文件夹 goes back to the folder's SQLite store.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app import offload
from core.app import probe_store_url
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.look import add_field_row
from desktop.look import field_row

URL_KEY = "store.url"
_PASSWORD = re.compile(r"(://[^:/@]*):[^@]*@")


class DatabaseSettingsPage(QWidget):
    def __init__(self, app: FrontEnd, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self._tested = ""  # the address whose last test succeeded
        self.title = QLabel()
        self.title.setObjectName("sectionTitle")
        self.how_to = QLabel()
        self.how_to.setObjectName("howTo")
        self.how_to.setWordWrap(True)
        self.now = QLabel()
        self.now.setObjectName("storeNow")
        self.now.setWordWrap(True)
        self.url = QLineEdit()
        self.url.setObjectName("storeUrl")
        self.url.setPlaceholderText("postgresql+psycopg://USER:PASSWORD@HOST:5432/DB")
        self.test_button = QPushButton()
        self.test_button.setObjectName("testStore")
        self.switch_button = QPushButton()
        self.switch_button.setObjectName("useStore")
        self.folder_button = QPushButton()
        self.folder_button.setObjectName("useFolder")
        self.result = QLabel()
        self.result.setObjectName("storeResult")
        self.result.setWordWrap(True)
        self._layout()
        self.test_button.clicked.connect(lambda: spawn(self.test()))
        self.switch_button.clicked.connect(self.switch)
        self.folder_button.clicked.connect(self.use_folder)
        self.url.textChanged.connect(lambda _t: self._enable())
        self.retranslate()

    def _layout(self) -> None:
        url_box = field_row(self.url, self.test_button, grow=self.url)
        button_box = field_row(self.switch_button, self.folder_button)
        self.url_label = QLabel()
        form = QFormLayout()
        add_field_row(form, self.now)
        form.addRow(self.url_label, url_box)
        add_field_row(form, self.result)
        add_field_row(form, button_box)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.how_to)
        layout.addLayout(form)
        layout.addStretch(1)

    def _enable(self) -> None:
        typed = self.url.text().strip()
        self.test_button.setEnabled(bool(typed))
        self.switch_button.setEnabled(bool(typed) and typed == self._tested)

    async def test(self) -> bool:
        """测试: one line on what the typed address holds, or why it cannot be used."""
        typed = self.url.text().strip()
        self._tested = ""
        self.result.setText(self.tr("Testing…"))
        self.test_button.setEnabled(False)
        try:
            probe = await offload(probe_store_url, typed)
        except Exception as exc:  # refusals are one Chinese line (errors_ui), never a trace
            self.result.setText(message_for(exc))
            self._enable()
            return False
        if probe.state == "empty":
            said = self.tr(
                "Usable: an empty database. Switching makes the tables; to bring this "
                "computer's data along, copy it first (inquiry-bridge store copy)."
            )
        else:
            said = self.tr(
                "Usable: it already holds Inquiry Bridge data (%1 inquiries); after switching "
                "this computer shares it with the others that use it."
            ).replace("%1", str(probe.inquiries))
            if not probe.current:
                said += " " + self.tr("Its tables are upgraded when this version first opens it.")
        self.result.setText(said)
        self._tested = typed
        self._enable()
        return True

    def switch(self) -> None:
        """切换: write the tested address; used from the next start."""
        typed = self.url.text().strip()
        if not typed or typed != self._tested:
            return
        self.app.settings.update({URL_KEY: typed})
        self.result.setText(self.tr("Saved. Restart Inquiry Bridge to use this database."))
        self._show_now()

    def use_folder(self) -> None:
        self.app.settings.update({URL_KEY: ""})
        self.result.setText(
            self.tr("Saved. After a restart the data is in this computer's folder again.")
        )
        self._show_now()

    def _show_now(self) -> None:
        current = self.app.settings.text(URL_KEY)
        if current:
            shown = _PASSWORD.sub(r"\1:***@", current)  # a typed password is never shown back
            self.now.setText(self.tr("Now: the PostgreSQL database %1").replace("%1", shown))
        else:
            self.now.setText(self.tr("Now: this computer's data folder (SQLite)"))

    def retranslate(self) -> None:
        self.title.setText(self.tr("Database"))
        self.how_to.setText(
            self.tr(
                "Your data lives in this computer's data folder. To share it with other "
                "computers and an always-on box, enter a PostgreSQL address, press Test, then "
                "Switch. Testing never changes the database."
            )
        )
        self.url_label.setText(self.tr("PostgreSQL address"))
        self.test_button.setText(self.tr("Test"))
        self.switch_button.setText(self.tr("Switch to this database"))
        self.folder_button.setText(self.tr("Use this computer's folder"))
        self._show_now()
        self._enable()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
