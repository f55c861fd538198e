"""The ``inquiry-bridge`` command line (headless half)."""
