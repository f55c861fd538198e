"""The 8-stage sales pipeline: transitions, audit trail, timeouts."""
