"""The drafting area's windows: approval window, 待审批 queue, compose dialog, screenshot demo."""
