"""概览 and 成本与质量: the numbers of his trade and what the AI costs, in one window.

Every figure comes from the facade (``App.stats``), which counts them in the store; nothing here
asks the model. The 概览 tab draws four charts (inquiries per week, first-reply time, the
measure → quote → order funnel per month, working days per stage); the 成本与质量 tab lists the
ledger by week, tier and purpose, the price each model is estimated at, and the accuracy from his
corrections per week.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QGridLayout
from PySide6.QtWidgets import QHeaderView
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QTableWidget
from PySide6.QtWidgets import QTableWidgetItem
from PySide6.QtWidgets import QTabWidget
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import MoneyFigures
from core.app.types import Overview
from core.app.types import Stats
from core.app.types import aud
from desktop import text
from desktop.aio import Loads
from desktop.look import table_look
from desktop.stats.charts import BarChart


def _money(usd: float | None) -> str:
    """Cents for real money, four decimals for the fractions of a cent a cheap model costs."""
    if usd is None:
        return "—"
    return f"US${usd:.4f}" if 0 < usd < 0.01 else f"US${usd:.2f}"


def _fill(table: QTableWidget, headers: list[str], rows: list[list[str]]) -> None:
    table.clear()
    table.setColumnCount(len(headers))
    table.setRowCount(len(rows))
    table.setHorizontalHeaderLabels(headers)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(value))
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)


class StatsWindow(QWidget):
    def __init__(self, app: FrontEnd, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.setObjectName("statsWindow")
        self.resize(1000, 640)
        self.tabs = QTabWidget()
        self.overview_tab = QWidget()
        grid = QGridLayout(self.overview_tab)
        self.money_label = QLabel()  # pipeline value, quotes sent and won, win rate
        self.money_label.setObjectName("moneySummary")
        self.money_label.setWordWrap(True)
        self.pipeline_chart = BarChart()
        self.pipeline_chart.value_text = lambda value: f"${value:,.0f}"  # whole dollars on a bar
        self.inquiries_chart = BarChart()
        self.reply_chart = BarChart()
        self.funnel_chart = BarChart()
        self.stage_chart = BarChart()
        for i, chart in enumerate(
            (self.inquiries_chart, self.reply_chart, self.funnel_chart, self.stage_chart)
        ):
            grid.addWidget(chart, 1 + i // 2, i % 2)
        grid.addWidget(self.money_label, 0, 0, 1, 2)
        grid.addWidget(self.pipeline_chart, 3, 0, 1, 2)
        self.costs_tab = QWidget()
        costs = QVBoxLayout(self.costs_tab)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.weeks_table = QTableWidget()
        self.split_table = QTableWidget()
        self.accuracy_table = QTableWidget()
        for table in (self.weeks_table, self.split_table, self.accuracy_table):
            table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
            table_look(table)
            table.verticalHeader().setVisible(False)
        costs.addWidget(self.summary)
        costs.addWidget(self.weeks_table, 2)
        costs.addWidget(self.split_table, 2)
        self.accuracy_label = QLabel()
        costs.addWidget(self.accuracy_label)
        costs.addWidget(self.accuracy_table, 2)
        self.tabs.addTab(self.overview_tab, "")
        self.tabs.addTab(self.costs_tab, "")
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(lambda: self.reload())
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.refresh_button)
        self.stats: Stats | None = None
        self.overview: Overview | None = None
        self.money: MoneyFigures | None = None
        self.loads = Loads(self.load)
        self.retranslate()

    def reload(self) -> asyncio.Future[None]:
        return self.loads.start()

    async def load(self) -> None:
        self.stats = await self.app.stats.figures()
        self.overview = await self.app.stats.overview()
        self.money = await self.app.stats.money()
        self._render()

    def _render(self) -> None:
        if self.overview is not None:
            self._render_overview(self.overview)
        if self.stats is not None:
            self._render_costs(self.stats)
        if self.money is not None:
            self._render_money(self.money)

    def _render_money(self, m: MoneyFigures) -> None:
        """Pipeline value by stage (the open stages), quotes sent and won, the win rate."""
        rate = "—" if m.win_rate is None else f"{m.win_rate:.0%}"
        self.money_label.setText(
            self.tr(
                "Pipeline value %1 · quotes sent this week %2 (%3), this month %4 (%5) · "
                "won this week %6 (%7), this month %8 (%9) · win rate %10"
            )
            .replace("%10", rate)
            .replace("%1", aud(m.pipeline_total))
            .replace("%2", str(m.sent_week.count))
            .replace("%3", aud(m.sent_week.value))
            .replace("%4", str(m.sent_month.count))
            .replace("%5", aud(m.sent_month.value))
            .replace("%6", str(m.won_week.count))
            .replace("%7", aud(m.won_week.value))
            .replace("%8", str(m.won_month.count))
            .replace("%9", aud(m.won_month.value))
        )
        stages = list(m.pipeline_by_stage)
        self.pipeline_chart.empty_text = self.tr("No quotes yet")
        self.pipeline_chart.set_data(
            self.tr("Pipeline value by stage (current quotes, inc GST, AUD)"),
            [text.stage_name(s) for s in stages],
            [[float(m.pipeline_by_stage[s]) for s in stages]],
        )

    def _render_overview(self, o: Overview) -> None:
        empty = self.tr("Nothing in this period yet")
        for chart in (self.inquiries_chart, self.reply_chart, self.funnel_chart, self.stage_chart):
            chart.empty_text = empty
        weeks = [text.week_label(w, short=True) for w in o.weeks]  # each week's Monday
        self.inquiries_chart.set_data(
            self.tr("New inquiries per week (from Monday)"), weeks, [o.inquiries_per_week]
        )
        self.reply_chart.set_data(
            self.tr("First reply (median hours) per week"),
            weeks,
            [o.first_reply_hours],
        )
        self.funnel_chart.set_data(
            self.tr("Per month: inquiries → measured → quoted → ordered"),
            [f.month for f in o.funnel],
            [
                [f.inquiries for f in o.funnel],
                [f.measured for f in o.funnel],
                [f.quoted for f in o.funnel],
                [f.ordered for f in o.funnel],
            ],
            [self.tr("Inquiries"), self.tr("Measured"), self.tr("Quoted"), self.tr("Ordered")],
        )
        stages = list(o.stage_days)
        self.stage_chart.set_data(
            self.tr("Working days spent in each stage (average)"),
            [text.stage_name(s) for s in stages],
            [[o.stage_days[s] for s in stages]],
        )

    def _render_costs(self, stats: Stats) -> None:
        c = stats.costs
        self.summary.setText(
            self.tr(
                "AI calls: %1 (failed %2) · estimated cost %3 · new inquiries %4 · per inquiry %5"
            )
            .replace("%1", str(c.total.calls))
            .replace("%2", str(c.total.failed))
            .replace("%3", _money(c.total.cost_usd))
            .replace("%4", str(c.new_inquiries))
            .replace("%5", _money(c.cost_per_new_inquiry_usd))
        )
        calls, cost, tokens = self.tr("Calls"), self.tr("Cost"), self.tr("Tokens in / out")
        _fill(
            self.weeks_table,
            [self.tr("Week"), calls, tokens, cost],
            [
                [
                    text.week_label(label),
                    str(t.calls),
                    f"{t.prompt_tokens:,} / {t.completion_tokens:,}",
                    _money(t.cost_usd),
                ]
                for label, t in c.by_period.items()
                if t.calls or t.cost_usd  # a week without a call is no row of zeros
            ],
        )
        split = [
            [self.tr("Tier %1").replace("%1", str(k)), str(t.calls), _money(t.cost_usd)]
            for k, t in sorted(c.by_tier.items())
        ] + [
            [self._purpose(k), str(t.calls), _money(t.cost_usd)]
            for k, t in sorted(c.by_purpose.items())
        ]
        _fill(self.split_table, [self.tr("Tier / purpose"), calls, cost], split)
        _fill(
            self.accuracy_table,
            [
                self.tr("Week"),
                self.tr("Inquiries"),
                self.tr("Classes you changed"),
                self.tr("Fields you edited"),
                self.tr("Drafts approved"),
                self.tr("Rewritten before approval"),
                self.tr("Share of text changed"),
            ],
            [
                [
                    text.week_label(w.period),
                    str(w.inquiries_filed),
                    str(w.classes_changed),
                    str(w.fields_edited),
                    str(w.drafts_approved),
                    str(w.drafts_rewritten),
                    "—" if w.draft_edit_ratio is None else f"{w.draft_edit_ratio:.0%}",
                ]
                for w in stats.accuracy
                if w.inquiries_filed or w.drafts_approved or w.classes_changed or w.fields_edited
            ],
        )

    def _purpose(self, purpose: str) -> str:
        names = {
            "classify": self.tr("Classify mail"),
            "extract": self.tr("Extract fields"),
            "draft": self.tr("Write drafts"),
            "draft_revise": self.tr("Revise drafts"),
            "draft_render_zh": self.tr("Chinese rendering of drafts"),
            "translate": self.tr("Translate"),
            "assistant": self.tr("Assistant"),
            "session_summary": self.tr("Summarise conversations"),
            "session_memories": self.tr("Memories from conversations"),
        }
        return names.get(purpose, purpose)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Overview · cost and quality"))
        self.tabs.setTabText(0, self.tr("Overview"))
        self.tabs.setTabText(1, self.tr("Cost and quality"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.accuracy_label.setText(self.tr("Accuracy from your corrections, per week"))
        self._render()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
