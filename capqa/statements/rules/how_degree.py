""""How + adjective/adverb" questions: a degree or measure is the answer ("How old was Mozart
when he died?" + 35 -> "Mozart was 35 years old when he died"; "How long did the war last?" +
"116 years" -> "The war lasted 116 years"; "How is the water?" + "very salty")."""

import re

from capqa.statements.rules.clauses import _fronted_auxiliary_clause, _split_subject
from capqa.statements.rules.lexicon import _AUXILIARIES, _COPULAS, _PREPOSITIONS
from capqa.statements.rules.morphology import _is_participle, _lemmas

_HOW_ADJECTIVE = re.compile(r"^how (\w+) (is|are|was|were) (.+)$", re.IGNORECASE)
_HOW_DEGREE = re.compile(r"^how (\w+) (do|does|did|can|could|will|would|should|must|may|might|has|have|had) (.+)$",
                         re.IGNORECASE)
_HOW_COPULA = re.compile(r"^how (is|are|was|were) (.+)$", re.IGNORECASE)
# A clause after the subject that is not part of it: "Mozart | when he died".
_SUBORDINATE = re.compile(r" (when|while|after|before|if|because|since|until|once|during) ", re.IGNORECASE)
# Adjectives a distance or a number replaces instead of following ("is 384,000 km from").
_REPLACED_BY_MEASURE = frozenset(("far",))
_NUMBER = re.compile(r"^[\d.,]+$")


def _how_adjective(match, answer):
    """"How tall is X?" -> "X is 330 m tall"; "How far is X from Y?" -> "X is 5 km from Y"."""
    adjective, copula, rest = match.group(1).lower(), match.group(2).lower(), match.group(3)
    if adjective in ("many", "much") or adjective in _AUXILIARIES:
        return None
    lemmas = _lemmas(adjective)
    if "ADJ" not in lemmas and "ADV" not in lemmas:
        return None
    parts = _SUBORDINATE.split(f" {rest} ", maxsplit=1)
    rest, tail = parts[0].strip(), (f"{parts[1]} {parts[2].strip()}" if len(parts) == 3 else "")
    subject, predicate = _split_subject(rest.split())
    if predicate and predicate[0].lower() not in _PREPOSITIONS:
        subject, predicate = rest.split(), []
    answer_words = answer.split()
    if adjective == "old" and _NUMBER.match(answer_words[-1]):
        answer_words.append("years")
    degree = [] if adjective in _REPLACED_BY_MEASURE or answer_words[-1].lower() == adjective else [adjective]
    return " ".join(subject + [copula] + answer_words + degree + predicate + ([tail] if tail else []))


def _how_degree(match, answer):
    """"How long did the war last?" -> "The war lasted 116 years"."""
    auxiliary, rest = match.group(2).lower(), match.group(3).split()
    lemmas = _lemmas(match.group(1))
    if match.group(1).lower() in ("many", "much") or ("ADJ" not in lemmas and "ADV" not in lemmas):
        return None
    return _fronted_auxiliary_clause(auxiliary, rest, answer, after_verb=False)


def _how_copula(match, answer):
    """"How is the water in the Dead Sea?" + "very salty" -> "The water in the Dead Sea is very
    salty"; a final participle ("How is steel made?") is the manner shape's."""
    copula, rest = match.group(1).lower(), match.group(2).split()
    if _is_participle(rest[-1]) or copula not in _COPULAS:
        return None
    return " ".join(rest + [copula, answer])
