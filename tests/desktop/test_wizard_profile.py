"""The company profile starts empty, the wizard asks for it, and the demo keeps its own.

Before, the fictional "Aurora Windows & Doors" was the default company and the settings dialog
wrote it into the owner's real settings file; nothing asked for the office address the evening
briefing's route starts from.
"""

from __future__ import annotations

from core.app import App, build_app
from core.demo import load_demo
from desktop.app import DesktopApp
from desktop.settings_dialog import SettingsDialog
from desktop.wizard import FirstRunWizard
from tests.support.qt import settles


def test_a_fresh_folder_has_no_company_and_settings_do_not_invent_one(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    settings = ctx.app._services.settings
    assert settings.get("general.company_name") == ""
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    assert dialog.save()
    assert "Aurora" not in ctx.app._services.paths.settings_file.read_text(encoding="utf-8")


def test_the_wizard_asks_for_the_profile_and_saves_it(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    wizard = FirstRunWizard(ctx)
    qtbot.addWidget(wizard)
    assert wizard.profile_box.title() == "您的公司资料（写在每封英文回复的落款）"
    assert wizard.company_label.text() == "公司名称"
    assert wizard.office_label.text() == "办公室地址"
    assert wizard.company.text() == "" and wizard.office.text() == ""
    wizard.company.setText("Harbour Aluminium Pty Ltd")
    wizard.signature.setPlainText("Kind regards,\nDavid Wang\nHarbour Aluminium")
    wizard.office.setText("5 Factory Rd, Penrith NSW 2750")
    wizard.skip_button.click()  # 稍后再说 keeps what he typed
    settings = ctx.app._services.settings
    assert settings.get("general.company_name") == "Harbour Aluminium Pty Ltd"
    assert settings.get("drafts.signature").endswith("Harbour Aluminium")
    assert settings.get("general.office_address") == "5 Factory Rd, Penrith NSW 2750"


@settles
async def test_the_demo_keeps_its_fictional_company_out_of_the_real_settings(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = DesktopApp(app, App(services), tray=False)
    demo = build_app(services.paths.demo_home, clock=services.clock, is_demo=True)
    try:
        await load_demo(demo._services)
        assert demo._services.settings.get("general.company_name") == "Aurora Windows & Doors"
        assert demo._services.settings.get("general.office_address")
    finally:
        await demo.aclose()
        demo.close()
    assert services.settings.get("general.company_name") == ""
    real_file = services.paths.settings_file
    assert not real_file.exists() or "Aurora" not in real_file.read_text(encoding="utf-8")
    del desktop
