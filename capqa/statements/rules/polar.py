"""Yes/no questions: the clause in declarative order, affirmed or negated by the answer.

"Does a whale breathe air?" + yes -> "A whale breathes air"; + no -> "A whale does not breathe
air". A negated question asks the positive one ("Isn't the tomato a fruit?" + yes -> "The tomato
is a fruit"), unless the answer's own clause says otherwise ("Can't ostriches fly?" + "right,
they can't"). "Is there X?" + no -> "There is no X"; "Do all birds fly?" + no -> "Not all birds
fly"; "Has X ever won Y?" + no -> "X has never won Y". An answer that picks one of the question's
alternatives ("Is Canada bigger or smaller than the US?" + bigger) keeps only that one.
"""

import re
from typing import List, Optional, Sequence, Tuple

from capqa.statements.rules.analysis import Frame, render, split_subject
from capqa.statements.rules.declarative import declarative, join, negative as negative_auxiliary
from capqa.statements.rules.judged import predicate_verdict
from capqa.statements.rules.lexicon import (AUXILIARIES, COPULAS, DETERMINERS, NEGATIONS, NEGATIVE_ANSWERS, PRONOUNS,
                                            YES_NO)
from capqa.statements.rules.parser import Word

_NEGATIVE_PRONOUNS = {"anyone": "no one", "anybody": "nobody", "anything": "nothing"}
_UNIVERSAL = frozenset(("all", "every", "everyone", "everybody", "everything"))
_AGREEMENT = frozenset("right correct exactly true indeed yes yeah yep".split())
# "Yes, in 1921." completes the clause; "No, only in the south." is a second thought.
_COMPLETES = re.compile(r"^(?:in|on|at|since|during|from|until|by) [\w'-]+", re.IGNORECASE)


def polarity(answer: str) -> Optional[Tuple[bool, str]]:
    """(negative, explanation) of a yes/no answer ("No, they are fruits" -> (True, "they are
    fruits")); None when the answer does not open with a polarity word."""
    match = YES_NO.match(answer)
    if not match:
        return None
    return match.group(1).lower() in NEGATIVE_ANSWERS, match.group(2).strip()


def polar(frame: Frame, answer: str) -> Optional[Tuple[str, str]]:
    """(statement, explanation to add as its own sentence) for a yes/no question, or None."""
    read = polarity(answer) or _verdict_read(frame, answer)
    if read is None:
        chosen = _chosen_alternative(frame, answer)
        return (chosen, "") if chosen else None
    negative, explanation = read
    word = answer.split()[0].lower().strip(",.!")
    if explanation and _echoes(explanation, frame):
        if word in _AGREEMENT and any(token in NEGATIONS for token in explanation.lower().replace("n't", " not").split()):
            negative = True  # "Can't ostriches fly?" + "right, they can't"
        explanation = ""
    statement = affirmed(frame, negative)
    if statement is None:
        return None
    if explanation and _COMPLETES.match(explanation) and len(explanation.split()) <= 4:
        return join(statement, explanation), ""
    return statement, explanation


def _verdict_read(frame: Frame, answer: str) -> Optional[Tuple[bool, str]]:
    """(negative, explanation) of an answer that says the question's predicate ("Is it plausible
    that X?" + "It is not plausible because ..."), or None."""
    read = predicate_verdict(answer, {word.lower for word in frame.subject + frame.rest})
    if read is None or read.kind not in ("true", "false"):
        return None
    return read.kind == "false", read.explanation


def affirmed(frame: Frame, negative: bool) -> Optional[str]:
    """The frame's clause, negated when ``negative``."""
    subject = list(frame.subject)
    if not subject:
        return None
    first = subject[0].lower
    if first == "there" and frame.auxiliary in COPULAS:
        return _existential(frame.auxiliary, list(frame.rest), negative)
    if negative and first in _NEGATIVE_PRONOUNS:
        return join(_NEGATIVE_PRONOUNS[first], render(subject[1:]), _verb(frame, False), render(frame.rest))
    if negative and first in _UNIVERSAL:
        return join("not", _clause(frame, False))
    if negative and first == "both" and frame.auxiliary in COPULAS:
        # "Were both X and Y Austrian?" + no -> "X and Y were not both Austrian"
        return join(render(subject[1:]), frame.auxiliary, "not both", render(frame.rest))
    rest = list(frame.rest)
    if rest and rest[0].lower == "ever":
        if negative:
            return join(render(subject), frame.auxiliary if not frame.do_support else "", "never",
                        _verb_form(frame, rest[1:]))
        frame = frame._replace(rest=tuple(rest[1:]))
    return _clause(frame, negative)


def _clause(frame: Frame, negative: bool) -> Optional[str]:
    clause = declarative(frame._replace(negated=negative))
    return clause.text() if clause else None


def _verb(frame: Frame, negative: bool) -> str:
    return negative_auxiliary(frame.auxiliary) if negative else frame.auxiliary


def _verb_form(frame: Frame, rest: Sequence[Word]) -> str:
    clause = declarative(frame._replace(rest=tuple(rest), negated=False))
    if clause is None:
        return render(rest)
    return join(*clause.verb_group, render(clause.rest)) if frame.do_support else render(rest)


def _existential(copula: str, rest: List[Word], negative: bool) -> str:
    """"Is there life on Mars?" + no -> "There is no life on Mars"; + yes -> "There is life ..."."""
    if not negative or not rest:
        return join("there", copula, render(rest))
    first = rest[0].lower
    if first in ("a", "an", "any"):
        return join("there", copula, "no", render(rest[1:]))
    if first in DETERMINERS or not first.isalpha() or first in ("more", "less", "fewer", "many", "much"):
        return join("there", copula, "not", render(rest))
    return join("there", copula, "no", render(rest))


def _echoes(explanation: str, frame: Frame) -> bool:
    """Whether an explanation after yes/no only repeats the question ("yes, it is consumed")."""
    question = {word.lower for word in frame.subject + frame.rest} | {frame.auxiliary}
    words = explanation.lower().replace("n't", " not").strip(" .!").split()
    return all(word.strip(",") in question or word in PRONOUNS or word in AUXILIARIES or word in NEGATIONS
               or word in ("ca", "wo", "sha", "can", "not") for word in words)


def _chosen_alternative(frame: Frame, answer: str) -> Optional[str]:
    """"Is Paris or London the capital?" + Paris -> "Paris is the capital"; "Is Canada bigger or
    smaller than the US?" + bigger -> "Canada is bigger than the US"; "Are noble gases reactive
    or unreactive?" + "highly reactive" -> "Noble gases are highly reactive"."""
    chosen = answer.lower().strip(" .!").split()
    kept = _without_other(list(frame.subject) + list(frame.rest), chosen)
    if kept:
        subject, rest = split_subject(frame.auxiliary, kept, need_predicate="predicate")
        return _clause(frame._replace(subject=subject, rest=rest), False)
    rest = [word.lower for word in frame.rest]
    if frame.auxiliary in COPULAS and "or" in rest and frame.subject:
        return join(render(frame.subject), frame.auxiliary, answer.strip(" .!"))
    return None


def _without_other(words: List[Word], chosen: List[str]) -> Optional[List[Word]]:
    """``words`` with "X or Y" reduced to the chosen one, or None when it is neither."""
    lowered = [word.lower for word in words]
    if "or" not in lowered or not chosen:
        return None
    index, size = lowered.index("or"), len(chosen)
    for start, end in ((index - size, index), (index + 1, index + 1 + size)):
        if start >= 0 and [word.strip(",") for word in lowered[start:end]] == chosen:
            other = (index + 1, index + 1 + size) if start < index else (index - size, index)
            return words[:min(start, other[0])] + words[start:end] + words[max(end, other[1]):]
    return None
