"""CLI commands of this area (see core.cli.main for the conventions)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (filled in by its feature)."""
