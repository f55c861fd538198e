"""设置 → AI 模型: a provider picked by name fills the fields; 测试连接 says what works.

The presets come from ``core.llm.providers`` (address, tier models, what each supports); the
owner can still type any OpenAI-compatible address. 测试连接 runs ``core.llm.probe`` (through
``App.connection_tests``, which builds the throwaway client) with the values in the form (not
yet saved) as a coroutine on the qasync loop, so the dialog never freezes, and shows one line
per finding: structured output, tools, streaming, Chinese — and what the app will do instead
where something is missing. What the probe learnt is kept, so the app starts in the right mode.
"""

from __future__ import annotations

import logging

from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import LLM_API_KEY
from core.app.types import PROVIDERS
from core.app.types import Provider
from core.app.types import SettingValue
from core.app.types import provider_by_key
from core.app.types import provider_for_address
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.i18n import current_language
from desktop.status_lines import StatusLines

log = logging.getLogger(__name__)

KEYS = ("llm.base_url", "llm.tier1", "llm.tier2", "llm.tier3")


class LLMSettingsPage(QWidget):
    """The AI page of the settings dialog (``values`` are the ``llm.*`` settings typed)."""

    def __init__(
        self, app: FrontEnd, extra: QWidget | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.app = app
        s = app.settings
        self.preset = QComboBox()
        self.preset.addItem("", "")
        for key in PROVIDERS:
            self.preset.addItem("", key)
        current = provider_for_address(s.text("llm.base_url"), s.text("llm.provider"))
        self.preset.setCurrentIndex(max(0, self.preset.findData(current.key if current else "")))
        self.preset.activated.connect(lambda _i: self.apply_preset())
        self.preset_note = QLabel()
        self.preset_note.setWordWrap(True)
        self.llm_url = QLineEdit(s.text("llm.base_url"))
        self.llm_key = QLineEdit()
        self.llm_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.has_key = bool(app.secrets.get(LLM_API_KEY))
        self.tiers = [QLineEdit(s.text(f"llm.tier{i}")) for i in (1, 2, 3)]
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, 50)
        self.concurrency.setValue(s.number("llm.concurrency"))
        self.test_button = QPushButton()
        self.test_button.clicked.connect(lambda: spawn(self.test_connection()))
        self.test_result = StatusLines()  # each finding with its icon and its own colour
        self.labels = {k: QLabel() for k in ("preset", "url", "key", "t1", "t2", "t3", "conc")}
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.labels["preset"], self.preset)
        form.addRow(self.preset_note)
        for label, widget in zip(
            ("url", "key", "t1", "t2", "t3", "conc"),
            (self.llm_url, self.llm_key, *self.tiers, self.concurrency),
            strict=True,
        ):
            form.addRow(self.labels[label], widget)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addStretch(1)
        if extra is not None:
            test_row.addWidget(extra)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(test_row)
        layout.addWidget(self.test_result)
        layout.addStretch(1)
        for key, widget in zip(KEYS, (self.llm_url, *self.tiers), strict=True):
            if s.overridden_by_env(key):
                widget.setEnabled(False)
        self.retranslate()

    def provider(self) -> Provider | None:
        return provider_by_key(self.preset.currentData())

    def apply_preset(self) -> None:
        """Fill the address and the tier models from the chosen preset (a field an environment
        variable sets stays as it is)."""
        preset = self.provider()
        if preset is not None:
            for widget, value in zip(
                (self.llm_url, *self.tiers), (preset.base_url, *preset.tiers), strict=True
            ):
                if widget.isEnabled():
                    widget.setText(value)
        self.retranslate()

    def values(self) -> dict[str, SettingValue]:
        values: dict[str, SettingValue] = {
            "llm.concurrency": self.concurrency.value(),
            "llm.provider": self.preset.currentData() or "",
        }
        for key, widget in zip(KEYS, (self.llm_url, *self.tiers), strict=True):
            if widget.isEnabled():
                values[key] = widget.text().strip()
        return values

    async def test_connection(self) -> bool:
        """Probe the endpoint with the values in the form; the findings show below the button."""
        if not self.values().get("llm.base_url", self.app.settings.text("llm.base_url")):
            # nothing to test yet: say which field to fill (by its label on this page)
            self.test_result.setText(
                self.tr("Fill in “%1” above first, then test.").replace(
                    "%1", self.labels["url"].text()
                ),
                "error",
            )
            return False
        self.test_button.setEnabled(False)
        self.test_result.setText(self.tr("Testing… (a few small requests)"))
        tests = self.app.connection_tests
        try:
            report = await tests.llm(self.values(), self.llm_key.text().strip(), current_language())
            self.test_result.set_report(list(report.lines))
            ok = report.ok
        except Exception as exc:  # not configured, a form value the client refuses…
            log.info("test connection: %s", exc)
            self.test_result.setText(message_for(exc), "error")
            ok = False
        finally:
            self.test_button.setEnabled(True)
        return ok

    def retranslate(self) -> None:
        lang = current_language()
        self.preset.setItemText(0, self.tr("Other OpenAI-compatible server"))
        for index in range(1, self.preset.count()):
            preset = provider_by_key(self.preset.itemData(index))
            if preset is not None:
                self.preset.setItemText(index, preset.name(lang))
        texts = {
            "preset": self.tr("Provider"),
            "url": self.tr("Endpoint URL"),
            "key": self.tr("API key"),
            "t1": self.tr("Small model (classify)"),
            "t2": self.tr("Mid model (extract, draft, translate)"),
            "t3": self.tr("Large model (assistant)"),
            "conc": self.tr("Parallel calls"),
        }
        for key, label in self.labels.items():
            label.setText(texts[key])
        preset = self.provider()
        note = preset.note(lang) if preset is not None else ""
        if preset is not None and not preset.needs_key:
            note = (note + " " + self.tr("No API key is needed.")).strip()
        self.preset_note.setText(note)
        self.preset_note.setVisible(bool(note))
        self.llm_url.setPlaceholderText("https://api.openai.com/v1")
        where = self.app.secrets.location(LLM_API_KEY) if self.has_key else None
        self.llm_key.setPlaceholderText(
            self.tr("saved in %1 — leave empty to keep").replace(
                "%1", where[0] if lang == "zh_CN" else where[1]
            )
            if where
            else self.tr("saved in the system keyring (or an owner-only file), never in settings")
        )
        self.test_button.setText(self.tr("Test connection"))
