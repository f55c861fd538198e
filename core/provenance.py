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

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["FORWARD_MARK", "PEOPLE", "Provenance", "Text", "owner_words", "people_words"]

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
