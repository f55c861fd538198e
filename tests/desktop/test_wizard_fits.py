"""The welcome window gives every profile field its own room.

Seen on a 1366×768 screen in Chinese: the three-line 落款 box ran under the 办公室地址 field,
because the dialog took its height before the command buttons' wrapped descriptions were known.
"""

from __future__ import annotations

from itertools import pairwise

from desktop.wizard import FirstRunWizard


def test_no_profile_field_overlaps_the_next(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    wizard = FirstRunWizard(ctx)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitExposed(wizard)
    fields = [wizard.company, wizard.signature, wizard.office]
    for upper, lower in pairwise(fields):
        assert upper.geometry().bottom() < lower.geometry().top(), (upper, lower)
    assert wizard.signature.height() >= wizard.fontMetrics().lineSpacing() * 3
    for button in (wizard.sign_in_button, wizard.ai_button, wizard.demo_button):
        assert button.height() >= button.minimumSizeHint().height()
