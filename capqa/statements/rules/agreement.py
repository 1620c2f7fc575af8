"""The answer as a subject: its case ("me" -> "I"), its number, and the verb made to agree with
it ("Which planets have rings?" + "Saturn" -> "Saturn has rings"; "Who is next?" + "I" -> "I am
next"); negative answers ("none", "no one", "never") as negation."""

import re

from capqa.statements.rules.lexicon import LIST_ANSWER, MODALS
from capqa.statements.rules.morphology import head_noun, inflect, is_finite_verb, lemmas_of, plural_phrase

_SUBJECT_CASE = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they", "myself": "I"}
_PLURAL_PRONOUNS = frozenset("you we they".split())
# Answers that deny the question's presupposition: each becomes a determiner or an adverb.
NO_ONE = frozenset("no one|nobody|noone|none|nothing|no-one".split("|"))
NEVER = frozenset(("never", "not ever"))
_NONE = frozenset(("none", "zero", "0", "no", "not any", "nothing"))
_PRESENT_TAGS = ("VBZ", "VBP")


def subject_case(answer: str) -> str:
    """A pronoun answer in the subject case ("me" -> "I")."""
    return _SUBJECT_CASE.get(answer.lower(), answer)


def answer_is_plural(answer: str) -> bool:
    """Whether a subject answer takes a plural verb: a list, "we/you/they", a plural head; a
    bare name is singular ("Paris", "Mars")."""
    lowered = answer.lower()
    if lowered in _PLURAL_PRONOUNS or (LIST_ANSWER.search(answer) and " or " not in answer):
        return True
    head = head_noun(answer.split())
    if not lemmas_of(head).get("NOUN"):
        return False  # an unknown word is a name ("jeff bezos", "Paris"), not a plural by its -s
    if answer[:1].isupper() and lowered.split()[0] not in ("the", "a", "an", "some", "these", "those"):
        return False  # a title or a name without an article is one thing: "Jaws", "Star Wars"
    return plural_phrase(answer)


def agree(verb: str, subject: str) -> str:
    """The finite ``verb`` (a copula, "has"/"have" or a present form) in agreement with
    ``subject``; past forms and modals are unchanged."""
    lowered, subject_lower = verb.lower(), subject.lower()
    if lowered in ("is", "are", "am"):
        return "am" if subject_lower == "i" else "are" if answer_is_plural(subject) else "is"
    if lowered in ("was", "were"):
        return "was" if subject_lower == "i" or not answer_is_plural(subject) else "were"
    present = (inflect(lowered, "VBZ"), inflect(lowered, "VBP"))
    if lowered in MODALS or not is_finite_verb(lowered) or lowered not in present:
        return verb
    plural = subject_lower == "i" or answer_is_plural(subject)
    return inflect(lowered, "VBP" if plural else "VBZ")


def as_subject(answer: str, predicate_words: list) -> str:
    """"ANSWER VERB REST" with the verb agreeing and a pronoun in the subject case."""
    subject = subject_case(answer)
    if not predicate_words:
        return subject
    return " ".join([subject, agree(predicate_words[0], subject)] + predicate_words[1:])


def is_no_one(answer: str) -> bool:
    return answer.lower() in NO_ONE


def no_determiner(answer: str) -> str:
    """"none" -> "no" before a counted noun ("A snake has no legs"); other answers unchanged."""
    return "no" if answer.lower() in _NONE else answer


_NEVER_AFTER = re.compile(r"^(?:is|are|was|were|am|has|have|had|can|could|will|would|shall|should|may|might|"
                          r"must)$", re.IGNORECASE)


def with_never(subject: str, verb_words: list) -> str:
    """"X never won Y" / "X has never had Y": "never" after an auxiliary, before a main verb."""
    if verb_words and _NEVER_AFTER.match(verb_words[0]):
        return " ".join([subject, verb_words[0], "never"] + verb_words[1:])
    return " ".join([subject, "never"] + verb_words)
