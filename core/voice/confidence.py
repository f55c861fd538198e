"""Is a transcript trustworthy? Whisper's own scores plus what the words look like.

Two questions, asked of every dictation:

1. **Did an English-only model just hear Chinese?** tiny.en cannot say "this is not English": fed
   Mandarin it writes confident-looking noise ("King 3K4 her 4f1 Year 1 FN4…"). We judge from the
   signals we have (a multilingual model would simply detect the language; an ``.en`` model has no
   language head): a low average log-probability of the decoded tokens, and text that is mostly
   tokens no English sentence is made of — letter/digit mixes ("K4", "4f1"), lone letters, runs of
   bare numbers and number words. Measured on espeak-ng speech with tiny.en (2026-11): Mandarin
   sentences score avg log-prob −0.67…−1.12 with 30–90 % such tokens; English sentences −0.28…−0.87
   with few (numbers of a measurement). ``looks_foreign`` combines both so that neither alone
   decides: on 14 espeak-ng Mandarin clips it refuses 12 and marks the other 2 uncertain; it
   refuses none of 14 English clips. Plain numbers (1,200, 2.4, 041-234-5678) are not odd: with
   them counted, spoken measurements ("1,200 by 1,500") were refused as Mandarin (2026-12).
2. **Is this transcript uncertain?** Low avg log-prob or a high no-speech probability (Whisper's
   own thresholds are −1.0 and 0.6; dictation is short, so we are stricter). The desktop shows an
   uncertain transcript for confirmation instead of inserting it silently.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

# Whisper's decoder scores, averaged over the audio (weighted by segment length).
FOREIGN_LOGPROB = -0.95  # below this alone: not English this model understands
# (share of odd tokens at least, log-prob below): mostly odd tokens need little doubt, some need more
FOREIGN_ODD_RULES = ((0.5, -0.4), (0.3, -0.75))
UNCERTAIN_LOGPROB = -0.8
UNCERTAIN_ODD = (0.2, -0.7)  # some odd tokens and a middling score: ask before inserting
UNCERTAIN_NO_SPEECH = 0.6
# Mostly odd tokens in text that repeats itself ("1, 1, 1, 2, 1, 2…", "I'm four, you're four…"):
# what tiny.en makes of Mandarin even when its log-prob looks fine (seen on CI: −0.69, 50 % odd,
# compression 1.73). English dictation, measurements included, compresses to about 1.0–1.3.
UNCERTAIN_ODD_REPEATING = (0.3, 1.5)
# Whisper's own hallucination signal: text that compresses this well is a loop ("4.4.4.4.4…"),
# which a tiny model writes with a *good* log-prob.
LOOP_COMPRESSION = 2.4

# A number written as one (1200, 1,200, 2.4, 041-234-5678) is one token; else letters and digits.
_TOKEN = re.compile(r"\d[\d,.\-]*\d|[A-Za-z0-9][A-Za-z0-9'’]*")
# Numbers a dictated measurement, price or phone number is made of: several digits, thousands
# grouped by commas, a decimal, or groups of two or more digits joined by hyphens. "4-5-4-4" is not.
_GROUP_SEPARATOR = re.compile(r"[,.\-]")
_PLAIN_NUMBER = re.compile(r"\d{2,}(\.\d+)?|\d{1,3}(,\d{3})+(\.\d+)?|\d+\.\d+|\d{2,}(-\d{2,})+")
_NUMBER_WORDS = frozenset(
    [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
    ]
)
_REAL_SINGLE_LETTERS = frozenset({"a", "i"})


@dataclass(frozen=True)
class Scores:
    avg_logprob: float  # mean token log-probability, weighted by segment duration
    no_speech_prob: float
    odd_ratio: float  # share of tokens that are not plausible English words
    compression: float = 1.0  # gzip ratio of the text (Whisper's repetition measure)


def odd_token_ratio(text: str) -> float:
    """Share of tokens an English sentence is rarely made of (see the module docstring).

    A measurement ("1,200 by 1,800"), a price or a phone number is English a window maker
    dictates every day, so such numbers are not odd; single digits and number words are, because
    in runs they are what tiny.en writes for Mandarin tones.
    """
    counts = [_odd_count(token.lower()) for token in _TOKEN.findall(text)]
    total = sum(n for n, _ in counts)
    return sum(odd for _, odd in counts) / total if total else 0.0


def _odd_count(low: str) -> tuple[int, int]:
    """(tokens, odd tokens) in one token: a run of digits that is no plain number ("4-5-4-4",
    "1.4.2.5") counts each of its groups, as separate digits would."""
    if low[0].isdigit() and not any(c.isalpha() for c in low):
        if _PLAIN_NUMBER.fullmatch(low):
            return 1, 0
        groups = len(_GROUP_SEPARATOR.split(low))
        return groups, groups
    has_digit = any(c.isdigit() for c in low)
    odd = has_digit or (len(low) == 1 and low not in _REAL_SINGLE_LETTERS) or low in _NUMBER_WORDS
    return 1, int(odd)


def compression_ratio(text: str) -> float:
    data = text.encode("utf-8")
    return len(data) / len(zlib.compress(data)) if data else 1.0


def score(text: str, segments: list[tuple[float, float, float]]) -> Scores:
    """``segments``: (duration_s, avg_logprob, no_speech_prob) of each decoded segment."""
    total = sum(max(d, 0.01) for d, _, _ in segments)
    if not segments or total <= 0:
        return Scores(0.0, 0.0, odd_token_ratio(text), compression_ratio(text))
    lp = sum(max(d, 0.01) * p for d, p, _ in segments) / total
    ns = sum(max(d, 0.01) * n for d, _, n in segments) / total
    return Scores(lp, ns, odd_token_ratio(text), compression_ratio(text))


def looks_foreign(scores: Scores) -> bool:
    """An English-only model produced this from speech it did not understand (e.g. Mandarin)."""
    if scores.avg_logprob < FOREIGN_LOGPROB:
        return True
    if scores.odd_ratio >= 0.5 and scores.compression > LOOP_COMPRESSION:
        return True  # a loop of letters and numbers: what tiny.en makes of Mandarin tones
    return any(
        scores.odd_ratio >= ratio and scores.avg_logprob < logprob
        for ratio, logprob in FOREIGN_ODD_RULES
    )


def is_uncertain(scores: Scores) -> bool:
    """Show it for confirmation rather than insert it (see the module docstring)."""
    ratio, logprob = UNCERTAIN_ODD
    return (
        scores.avg_logprob < UNCERTAIN_LOGPROB
        or scores.no_speech_prob > UNCERTAIN_NO_SPEECH
        or scores.compression > LOOP_COMPRESSION
        or (scores.odd_ratio >= ratio and scores.avg_logprob < logprob)
        or (
            scores.odd_ratio >= UNCERTAIN_ODD_REPEATING[0]
            and scores.compression >= UNCERTAIN_ODD_REPEATING[1]
        )
    )
