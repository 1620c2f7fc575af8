"""wh-questions whose wh-phrase is a complement, not the subject: a stranded preposition ("Which
country did the Beatles come from?"), a time noun ("What year did the Titanic sink?") and an
attribute asked of a subject ("What colour is a flamingo's plumage?")."""

import re

from capqa.statements.rules.clauses import _fronted_auxiliary_clause
from capqa.statements.rules.lexicon import _AUXILIARIES, _COPULAS, _DETERMINERS, _PREPOSITIONS
from capqa.statements.rules.morphology import (
    _is_adjective, _is_finite_verb, _is_plural_noun, _lemmas, _with_article,
)

# "who/what/which (N) AUX REST" where the wh-phrase is a noun phrase without a verb.
_WH_PHRASE_AUX = re.compile(r"^(who|whom|what|which)((?: [\w'-]+){0,4}?) (is|are|was|were|do|does|did|can|could|"
                            r"will|would|shall|should|may|might|must|has|have|had) (.+)$", re.IGNORECASE)
_ANSWER_SLOT = "\x00"
# Time nouns: the answer is an adverbial of time ("World War II ended in 1945").
_TIME_NOUNS = {"year": "in", "century": "in", "decade": "in", "month": "in", "season": "in", "day": "on",
               "date": "on"}


def _wh_phrase_words(match):
    words = match.group(2).split()
    if any(word.lower() in _AUXILIARIES or (_is_finite_verb(word) and "NOUN" not in _lemmas(word))
           for word in words):
        return None
    return words


def _stranded(match, answer):
    """"Which river does Paris lie on?" -> "Paris lies on the Seine"; "Which city did the Games
    return to in 2012?" -> "The Games returned to London in 2012"."""
    words = _wh_phrase_words(match)
    auxiliary, rest = match.group(3).lower(), match.group(4).split()
    if words is None or (not words and auxiliary in _COPULAS and match.group(1).lower() in ("what", "which")):
        return None  # "What is X made of?" is the copula shape's ("X is made of Y")
    slot = _stranded_slot(rest)
    if slot is None:
        return None
    if slot == len(rest) and rest[-1].lower() == "like" and _is_adjective(answer.split()[-1]):
        # "What does velvet feel like?" + soft -> "Velvet feels soft"
        return _fronted_auxiliary_clause(auxiliary, rest[:-1], answer, after_verb=False)
    if slot == len(rest):
        return _fronted_auxiliary_clause(auxiliary, rest, answer, after_verb=False)
    clause = _fronted_auxiliary_clause(auxiliary, rest[:slot] + [_ANSWER_SLOT] + rest[slot:], "", after_verb=False)
    return clause.replace(_ANSWER_SLOT, answer) if clause and _ANSWER_SLOT in clause else None


def _stranded_slot(rest):
    """Where the answer goes: after a final preposition, or after one followed by another
    prepositional phrase ("return to | in 2012"); None when no preposition is stranded."""
    if len(rest) < 2:
        return None
    if rest[-1].lower() in _PREPOSITIONS:
        return len(rest)
    for index in range(1, len(rest) - 1):
        if rest[index].lower() in _PREPOSITIONS and rest[index + 1].lower() in _PREPOSITIONS - {"of"}:
            return index + 1
    return None


def _time_noun(match, answer):
    """"What year did the Titanic sink?" -> "The Titanic sank in 1912"."""
    words = _wh_phrase_words(match)
    if match.group(1).lower() not in ("what", "which") or not words or len(words) != 1:
        return None
    preposition = _TIME_NOUNS.get(words[0].lower())
    if not preposition:
        return None
    auxiliary, rest = match.group(3).lower(), match.group(4).split()
    adverbial = answer if answer.split()[0].lower() in _PREPOSITIONS else f"{preposition} {answer}"
    return _fronted_auxiliary_clause(auxiliary, rest, adverbial, after_verb=False)


def _attribute(match, answer):
    """"What colour is a flamingo's plumage?" -> "A flamingo's plumage is pink": a "what N"
    asked of a subject noun phrase with a copula is the subject's predicate."""
    words = _wh_phrase_words(match)
    auxiliary, rest = match.group(3).lower(), match.group(4).split()
    if match.group(1).lower() != "what" or not words or auxiliary not in _COPULAS:
        return None
    first = rest[0]
    noun_phrase = (first.lower() in _DETERMINERS or first[:1].isupper() or first.lower().endswith("'s")
                   or (len(rest) == 1 and not _is_adjective(first)) or _is_plural_noun(first))
    if not noun_phrase or rest[-1].lower() in _PREPOSITIONS:
        return None
    return f"{' '.join(rest)} {auxiliary} {_with_article(answer, ' '.join(words))}"

