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
   refuses none of 14 English clips.
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
# Whisper's own hallucination signal: text that compresses this well is a loop ("4.4.4.4.4…"),
# which a tiny model writes with a *good* log-prob.
LOOP_COMPRESSION = 2.4

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’]*")
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
    """Share of tokens an English sentence is rarely made of (see the module docstring)."""
    tokens = _TOKEN.findall(text)
    if not tokens:
        return 0.0
    odd = 0
    for token in tokens:
        low = token.lower()
        has_digit = any(c.isdigit() for c in low)
        has_alpha = any(c.isalpha() for c in low)
        if (
            (has_digit and has_alpha)
            or (len(low) == 1 and has_alpha and low not in _REAL_SINGLE_LETTERS)
            or low.isdigit()
            or low in _NUMBER_WORDS
        ):
            odd += 1
    return odd / len(tokens)


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
    )
