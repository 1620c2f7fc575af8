"""Sentences with blanks and sentences to complete, filled with the answer.

- Several blanks take as many parts of the answer ("skin; 4 kilograms", "skin and 4 kg").
- A word on both sides of the seam is written once: "about ___ metres high" + "5,895 metres"
  -> "about 5,895 metres high"; "The ___ is" + "the skin" -> "The skin is".
- An article before the blank agrees with the answer: "an ___" + "queue" -> "a queue", and goes
  when the answer brings its own ("a ___" + "the heart" -> "the heart").
- An answer that already is the sentence (it repeats the stem) is the statement.
"""

import re
from typing import List, Optional

from capqa.statements.rules.lexicon import ARTICLES, BLANK, strip_trailing
from capqa.statements.rules.morphology import capitalize, indefinite_article
from capqa.statements.text_metrics import normalize_statement

_PART_SEPARATORS = (re.compile(r"\s*;\s*"), re.compile(r"\s*,\s*"), re.compile(r"\s+and\s+", re.IGNORECASE))


def fill_blanks(question: str, answer: str) -> Optional[str]:
    """``question`` with its blanks filled by ``answer``, or None without a blank."""
    segments = BLANK.split(question)
    if len(segments) < 2:
        return None
    if repeats_stem(segments[0], answer):
        return answer
    parts = _parts(answer, len(segments) - 1)
    filled = []
    for index in range(len(segments) - 1):
        part = parts[min(index, len(parts) - 1)]
        segments[index], part = _seam_before(segments[index], part)
        part, segments[index + 1] = _seam_after(part, segments[index + 1])
        filled.append(part)
    pieces = [segments[0]]
    for part, segment in zip(filled, segments[1:]):
        # A blank written against a word ("is_____") still stands for a word of its own.
        space_before = " " if pieces[-1][-1:].isalnum() else ""
        space_after = " " if segment[:1].isalnum() else ""
        pieces += [space_before + part + space_after, segment]
    return "".join(pieces)


def _parts(answer: str, count: int) -> List[str]:
    if count == 1:
        return [answer]
    for separator in _PART_SEPARATORS:
        parts = [part for part in separator.split(answer) if part]
        if len(parts) == count:
            return parts
    return [answer]


def _seam_before(before: str, part: str) -> tuple:
    """The text before a blank and the part that fills it, with an article agreeing and a word
    that both have written once."""
    words = before.rstrip().split(" ")
    part_words = part.split()
    if not part_words or not words or not words[-1]:
        return before, part
    last = words[-1]
    if last.lower() in ARTICLES and part_words[0].lower() in ARTICLES:
        return " ".join(words[:-1]) + (" " if len(words) > 1 else ""), _keep_case(last, part)
    if last.lower() in ("a", "an") and part[:1].isalnum():
        words[-1] = _keep_case(last, indefinite_article(part))
        return " ".join(words) + " ", part
    if last.lower() == part_words[0].lower() and len(part_words) > 1:
        return before, " ".join(part_words[1:])
    return before, part


def _seam_after(part: str, after: str) -> tuple:
    """A unit or word the part ends with and the text after the blank starts with, written once."""
    part_words, after_words = part.split(), after.lstrip().split(" ")
    if not part_words or not after_words or not after_words[0]:
        return part, after
    first = after_words[0].strip(".,;:!?")
    if first and part_words[-1].lower().strip(".,;:") == first.lower() and len(part_words) > 1:
        return " ".join(part_words[:-1]), after
    return part, after


def _keep_case(model: str, word: str) -> str:
    return capitalize(word) if model[:1].isupper() else word


def repeats_stem(stem: str, answer: str) -> bool:
    """Whether the answer already starts with the (at least three-word) stem: it is the sentence."""
    if answer[:1].lower() != stem.lstrip()[:1].lower():  # the cheap test first: most answers differ here
        return False
    stem_words = normalize_statement(stem).split()
    return len(stem_words) >= 3 and normalize_statement(answer).split()[:len(stem_words)] == stem_words


def complete(stem: str, answer: str) -> str:
    """A sentence to complete ("The capital of France is", "... is an") with the answer."""
    if repeats_stem(stem, answer):
        return answer
    stem = strip_trailing(stem)
    if stem.endswith((".", "!")):
        return f"{stem}. {capitalize(answer)}"
    words = stem.split()
    if words and words[-1].lower() in ("a", "an") and answer[:1].isalnum():
        if answer.split()[0].lower() in ARTICLES:
            words = words[:-1]
        else:
            words[-1] = indefinite_article(answer)
    return _join_overlapping(words, answer)


def _join_overlapping(stem_words: List[str], answer: str) -> str:
    """Stem and answer joined, without the words the answer repeats from the stem's end
    ("... is the concept of" + "the concept of autonomy")."""
    answer_words = answer.split()
    lowered_stem = [word.lower() for word in stem_words]
    lowered_answer = [word.lower() for word in answer_words]
    overlap = next((size for size in range(min(len(stem_words), len(answer_words) - 1, 12), 0, -1)
                    if lowered_stem[-size:] == lowered_answer[:size] and (size > 1 or lowered_answer[0] in ARTICLES)),
                   0)
    return " ".join(stem_words + answer_words[overlap:])
