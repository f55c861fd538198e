"""The inquiry board: the table model over ``App.inquiries`` board pages, and its view."""
