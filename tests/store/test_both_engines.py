"""Existing store, search and intake tests, run again here against both engines.

Each is imported unchanged from its own folder; collected here, it gets this folder's ``home``
(``tests/store/conftest.py``), so it runs once on SQLite and once on PostgreSQL.
"""

from __future__ import annotations

from tests.desktop.test_board_query import (
    test_every_column_sorts_in_sql_both_ways,
    test_filters_by_stage_class_and_needs_me,
    test_paging_returns_disjoint_pages,
    test_phone_search_matches_every_format,
    test_text_search_name_email_suburb_words,
    test_the_search_index_gives_the_same_answers_as_a_scan,
)
from tests.desktop.test_board_sort_plan import (
    board,
    test_a_new_sort_order_keeps_the_counts_a_new_filter_counts_again,
    test_a_row_testing_search_gives_the_same_page_either_way,
)
from tests.intake.test_cli import (
    eml_dir,
    test_human_tables,
    test_ingest_offline_then_json_views,
)
from tests.intake.test_pipeline import (
    model,
    pipeline,
    pipelines,
    server,
    test_a_second_number_given_earlier_finds_the_customer,
    test_merge_by_email_then_by_phone,
    test_new_inquiry_then_reply_in_thread_merges,
    test_owner_edits_are_never_overwritten,
    test_reingest_is_a_no_op,
    test_reply_in_the_same_batch_sees_its_thread_and_calls_run_concurrently,
)
from tests.runtime.test_changes import test_another_writer_s_rows_come_back_as_one_change
from tests.runtime.test_lease import (
    test_a_clean_stop_frees_the_lease_at_once,
    test_a_process_clock_far_ahead_never_takes_a_live_lease,
    test_one_holder_until_its_heartbeat_is_stale,
)

__all__ = [
    "board",
    "eml_dir",
    "model",
    "pipeline",
    "pipelines",
    "server",
    "test_a_clean_stop_frees_the_lease_at_once",
    "test_a_new_sort_order_keeps_the_counts_a_new_filter_counts_again",
    "test_a_process_clock_far_ahead_never_takes_a_live_lease",
    "test_a_row_testing_search_gives_the_same_page_either_way",
    "test_a_second_number_given_earlier_finds_the_customer",
    "test_another_writer_s_rows_come_back_as_one_change",
    "test_every_column_sorts_in_sql_both_ways",
    "test_filters_by_stage_class_and_needs_me",
    "test_human_tables",
    "test_ingest_offline_then_json_views",
    "test_merge_by_email_then_by_phone",
    "test_new_inquiry_then_reply_in_thread_merges",
    "test_one_holder_until_its_heartbeat_is_stale",
    "test_owner_edits_are_never_overwritten",
    "test_paging_returns_disjoint_pages",
    "test_phone_search_matches_every_format",
    "test_reingest_is_a_no_op",
    "test_reply_in_the_same_batch_sees_its_thread_and_calls_run_concurrently",
    "test_text_search_name_email_suburb_words",
    "test_the_search_index_gives_the_same_answers_as_a_scan",
]
