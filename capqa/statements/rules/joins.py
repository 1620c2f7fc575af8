"""Function words said twice where the answer meets the frame, or in the answer itself:
"because because it had no water", "and and", "so therefore": the second says nothing new.
Code and quoted text are never touched: "`a and and b`" or '"is is"' is what they are."""

import re
from typing import List

from capqa.statements.rules.code import code_chunks
from capqa.statements.rules.lexicon import DOUBLED_JOIN_WORDS, RESULT_CONNECTIVES, WHITESPACE

_DOUBLED = re.compile(r"\b(" + "|".join(sorted(DOUBLED_JOIN_WORDS, key=len, reverse=True)) + r")\s++\1\b",
                      re.IGNORECASE)
_SO_RESULT = re.compile(r"\b(so)\s++(" + "|".join(sorted(RESULT_CONNECTIVES)) + r")\b", re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"\n]{0,400}\"|“[^”\n]{0,400}”")


def without_doubled_joins(text: str, answer: str) -> str:
    """``text`` with a function word said twice in a row said once ("The plant died because
    because ..." -> "... because ..."), and "so" before a result connective gone ("so therefore"
    -> "therefore"), outside the answer's code and any quoted text."""
    if not _DOUBLED.search(text) and not _SO_RESULT.search(text):
        return text
    kept = _protected(text, answer)
    out: List[str] = []
    start = 0
    for begin, end in kept:
        out.append(_collapsed(text[start:begin]))
        out.append(text[begin:end])
        start = end
    out.append(_collapsed(text[start:]))
    return "".join(out)


def _collapsed(piece: str) -> str:
    piece = _DOUBLED.sub(_once, piece)
    return _SO_RESULT.sub(lambda match: _cased_as(match.group(2), match.group(1)), piece)


def _once(match: "re.Match") -> str:
    """The doubled word said once; a lower-case word before a capitalised one is kept twice, as the
    second may open a title ("the The Who")."""
    first, second = match.group(0).split()[0], match.group(0).split()[-1]
    return match.group(0) if first.islower() and second[:1].isupper() else first


def _cased_as(word: str, model: str) -> str:
    """``word`` with a capital where ``model`` had one (a sentence's first word)."""
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


def _protected(text: str, answer: str) -> List[tuple]:
    """The (start, end) spans of ``text`` that are quoted text or the answer's code, in order, not
    overlapping."""
    spans = [match.span() for match in _QUOTED.finditer(text)]
    for chunk in code_chunks(answer):
        code = WHITESPACE.sub(" ", chunk).strip()
        position = text.find(code) if code else -1
        if position >= 0:
            spans.append((position, position + len(code)))
    merged: List[tuple] = []
    for begin, end in sorted(spans):
        if merged and begin < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((begin, end))
    return merged
