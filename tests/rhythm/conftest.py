"""The Telegram fixtures of tests/notify (loopback Bot API, the owner preset) for reminders."""

from tests.notify.conftest import owner_env, tg, tg_env  # noqa: F401
