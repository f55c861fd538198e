"""The owner's double booking, through the App, on both engines (``tests/store/conftest.py``):
imported unchanged from ``tests/rhythm/test_visits.py`` with its clock and App fixtures."""

from __future__ import annotations

from tests.rhythm.test_visits import app, clock, test_two_visits_cannot_be_booked_into_one_slot

__all__ = ["app", "clock", "test_two_visits_cannot_be_booked_into_one_slot"]
