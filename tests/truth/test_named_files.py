"""A file is the owner's when its exact path is what he named (``core.provenance.named_file``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.provenance import named_file, named_paths

HOME = Path("/home/owner")


@pytest.mark.parametrize(
    ("words", "raw", "expected"),
    [
        ("用 Desktop/customers.csv 群发", "~/Desktop/customers.csv", "Desktop/customers.csv"),
        (
            "用 Desktop/customers.csv 群发",
            "/home/owner/Desktop/customers.csv",
            "Desktop/customers.csv",
        ),
        ("用 Desktop/customers.csv 群发", "/data/attachments/12/customers.csv", None),
        ("用 Desktop/customers.csv 群发", "customers.csv", None),
        (
            "用 Desktop/customers.csv 群发",
            "Desktop/../Desktop/customers.csv",
            "Desktop/customers.csv",
        ),
        (
            "用桌面上的“/srv/lists/My Customers.csv”群发",
            "/srv/lists/My Customers.csv",
            "/srv/lists/My Customers.csv",
        ),
        ("用 /srv/a.csv，然后", "/srv/a.csv", "/srv/a.csv"),
        ("用 /srv/a.csv，然后", "/srv/b/a.csv", None),
        (
            "文件是 C:\\Users\\Bob\\Desktop\\c.csv 。",
            "C:/Users/Bob/Desktop/c.csv",
            "C:/Users/Bob/Desktop/c.csv",
        ),
        ("用 customers.csv", "/tmp/customers.csv", None),
        ("群发给所有客户", "/home/owner/Desktop/customers.csv", None),
        ("用 x/customers.csv.evil.csv", "x/customers.csv", None),
    ],
)
def test_only_the_exact_path_he_named_is_his(words: str, raw: str, expected: str | None) -> None:
    got = named_file(words, raw, home=HOME)
    if expected is None:
        assert got is None
    else:
        assert got == (HOME / expected).resolve(strict=False)


def test_every_path_in_his_words_is_found() -> None:
    words = '先用 ~/a.csv，再用「/srv/b c.csv」和 "Desktop/d.csv"（不是 e）'
    assert set(named_paths(words, home=HOME)) == {
        HOME / "a.csv",
        Path("/srv/b c.csv"),
        HOME / "Desktop/d.csv",
    }
