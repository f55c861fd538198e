"""Where a text came from: the one type the guards read before they trust a word.

docs/contracts.md principle 7 ("only people state facts, and trust travels with the text") as a data
type. Every text the fact guard, the recipient rule and the write rule look at is a ``Text``
carrying its ``Provenance``:

    OWNER     typed or dictated by the owner: desktop fields, his Telegram messages, the words
              of his assistant turn, his settings, his confirmed memories, a CSV file he picked
    CUSTOMER  written by a customer: the mail thread (sender, subject, body)
    MODEL     written by a model: tool arguments, drafts, summaries, fields the pipeline filled
    SYSTEM    the app's own text (status lines, prompts)

Only people's words are evidence (``people_words``): a model-written instruction, CSV row or
note is a request, never a fact. Some values are the owner's alone — where a customer should
pay is never something a customer's mail can vouch for — so ``owner_words`` exists too.

A plain ``str`` handed to a guard is a caller's vouching that it is the owner's (the local
command line, old callers); code that holds text of another origin wraps it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

__all__ = [
    "FORWARD_MARK",
    "PEOPLE",
    "Provenance",
    "Text",
    "named_file",
    "named_paths",
    "owner_words",
    "people_words",
]

# The first words of a forwarded message as the assistant reads it (``core.notify.forwards``):
# a turn whose history carries it has read a stranger's words, like a tool result.
FORWARD_MARK = "[forwarded message]"


class Provenance(StrEnum):
    OWNER = "owner"
    CUSTOMER = "customer"
    MODEL = "model"
    SYSTEM = "system"


PEOPLE = frozenset({Provenance.OWNER, Provenance.CUSTOMER})


@dataclass(frozen=True)
class Text:
    """A text and who wrote it."""

    value: str
    source: Provenance

    @classmethod
    def owner(cls, value: str | None) -> Text:
        return cls(value or "", Provenance.OWNER)

    @classmethod
    def customer(cls, value: str | None) -> Text:
        return cls(value or "", Provenance.CUSTOMER)

    @classmethod
    def model(cls, value: str | None) -> Text:
        return cls(value or "", Provenance.MODEL)

    @property
    def is_evidence(self) -> bool:
        """People's words (owner or customer) may back a value; the model's and ours never."""
        return self.source in PEOPLE


def _of(item: str | Text) -> Text:
    return item if isinstance(item, Text) else Text.owner(item)


def people_words(texts: Iterable[str | Text]) -> list[str]:
    """The values of the texts a person wrote (owner or customer), in order."""
    return [t.value for t in map(_of, texts) if t.is_evidence and t.value]


def owner_words(texts: Iterable[str | Text]) -> list[str]:
    """The values of the texts the owner himself wrote."""
    return [t.value for t in map(_of, texts) if t.source is Provenance.OWNER and t.value]


# a path in the owner's words: "quoted" (may hold spaces) or one token, ending in a file suffix
_QUOTED_PATH = re.compile(r"[\"'“‘「『]([^\"'”’」』\n]+?\.[A-Za-z0-9]{1,8})[\"'”’」』]")
_BARE_PATH = re.compile(
    r"(?<![^\s\"'“”‘’「」『』（）()，。；：、,;])"
    r"((?:[A-Za-z]:)?[^\s\"'“”‘’「」『』（）()，。；：、,;<>|]*\.[A-Za-z0-9]{1,8})"
    r"(?=$|[\s\"'“”‘’「」『』（）()，。；：、,;!?！？])"
)


def _normal(raw: str, home: Path | None) -> Path:
    text = raw.strip().replace("\\", "/")
    if text == "~" or text.startswith("~/"):
        path = (home or Path.home()) / text[2:]
    else:
        path = Path(text).expanduser()
    if not path.is_absolute():  # "Desktop/customers.csv" is in his home folder
        path = (home or Path.home()) / path
    return path.resolve(strict=False)


def named_paths(words: str, *, home: Path | None = None) -> list[Path]:
    """Every file path the owner's words name, made whole: a relative one ("Desktop/a.csv",
    "a.csv") is taken from his home folder, ``~`` expanded, links resolved."""
    found = [m.group(1) for m in _QUOTED_PATH.finditer(words)]
    rest = _QUOTED_PATH.sub(" ", words)  # a quoted path's last word is no path of its own
    found += [m.group(1) for m in _BARE_PATH.finditer(rest)]
    return list(dict.fromkeys(_normal(raw, home) for raw in found if raw.strip()))


def named_file(words: str, raw: str, *, home: Path | None = None) -> Path | None:
    """``raw`` (a path a model passed) as the file the owner named, or None when his words
    name no such file. The exact path decides, never a file name: a customer's mailed
    ``attachments/…/customers.csv`` is not the ``Desktop/customers.csv`` he meant."""
    if not raw.strip():
        return None
    wanted = _normal(raw, home)
    return wanted if wanted in named_paths(words, home=home) else None
