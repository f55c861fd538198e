"""The truth-guard tests reuse the drafting tests' real servers and service fixtures."""

from tests.drafts.conftest import (  # noqa: F401  (fixtures)
    collect_leftover_qt_objects,
    drafting,
    graph,
    llm,
    llm_server,
    mailer,
    model,
)
