"""Clause surgery: splitting subject from predicate after a fronted auxiliary, putting the
auxiliary and an adverbial back, affirming or negating a yes/no clause."""

import re

from capqa.statements.rules.lexicon import (
    _DAY, _NUMBER_WORDS, _AUXILIARIES, _CAUSE_START, _COPULAS, _DETERMINERS, _LIST_ANSWER, _MANNER_START, _MODALS,
    _NEGATIONS, _PLACE_START, _PREPOSITIONS, _PRONOUNS, _TIME_POINT,
)
from capqa.statements.rules.agreement import with_never
from capqa.statements.rules.morphology import (
    _is_adjective, _is_adverb,
    _agree, _is_base_verb, _is_clause, _is_participle, _is_plural_noun, _is_predicate_word, _lemmas,
    _plural_phrase, _singular, _strip_determiner,
)

def _split_subject(words):
    """Subject and predicate after a fronted copula: "a catalyst | consumed during a reaction",
    "the Treaty of Versailles | signed"; no predicate: ``(words, [])``.

    A noun phrase goes on through a name ("the Dead Sea"), an "of" complement ("the Statue of
    Liberty") and the modifiers after a determiner ("the first FIFA World Cup").
    """
    index = 1
    while index < len(words):
        word, previous = words[index].lower(), words[index - 1].lower()
        if previous == "of":
            index += 1 + (word in _DETERMINERS and index + 1 < len(words))
            continue
        if word == "of" or (words[index][:1].isupper() and word != "i"):
            index += 1
            continue
        if word in ("a", "an", "the") and index < len(words) - 1:
            return words[:index], words[index:]
        if previous in _DETERMINERS and not _is_participle(word):
            index += 1
            continue
        if _is_predicate_word(word) and word not in ("a", "an", "the"):
            return words[:index], words[index:]
        index += 1
    return words, []


def _split_noun_predicate(words):
    """Subject and nominal or adjectival predicate with no marker between them ("tomatoes |
    vegetables", "the Earth | round"): the subject is a determiner and a word, or a name."""
    index = 1 if words[0].lower() in _DETERMINERS else 0
    if index < len(words) and words[index][:1].isupper():
        while index + 1 < len(words) and words[index + 1][:1].isupper():
            index += 1
    index += 1
    return (words[:index], words[index:]) if index < len(words) else (words, [])


def _unfronted_verb(auxiliary, rest):
    """(subject, finite verb, verb phrase) of "AUXILIARY SUBJECT VERB ...": do-support folded into
    the verb ("did X win" -> X, "won"), any other auxiliary kept before it ("has X won" -> X,
    "has won"); None when no subject is found."""
    subject, verb_phrase = _split_verb(rest, perfect=auxiliary in ("has", "have", "had"))
    if not subject:
        return None
    subject_text = " ".join(subject)
    if auxiliary in ("do", "does", "did"):
        verb = _agree(verb_phrase[0], _plural_phrase(subject_text) or auxiliary == "do", auxiliary == "did")
    else:
        verb = f"{auxiliary} {verb_phrase[0]}"
    return subject_text, verb, verb_phrase


def _split_verb(words, perfect=False):
    """Subject and verb phrase after a fronted do/modal ("penguins | fly", "a whale | breathe air"),
    or after a fronted has/have/had with ``perfect`` ("the invention | helped people").

    A word that can only be a verb wins over one that is also a noun ("vanes on an electric fan |
    do"); a verb never follows a determiner, a preposition or a possessive.
    """
    is_verb_form = _is_participle if perfect else _is_base_verb
    candidates = [index for index in range(1, len(words))
                  if is_verb_form(words[index]) and not words[index][:1].isupper()
                  and not (index == len(words) - 1 and words[index].lower() == "like")
                  and words[index - 1].lower() not in _DETERMINERS | _PREPOSITIONS
                  and not words[index - 1].lower().endswith("'s")]
    if not candidates:
        return None, None
    index = next((i for i in candidates if "NOUN" not in _lemmas(words[i])), None)
    if index is None:
        # All are nouns too: the verb is not inside a compound noun ("the first world war | end"),
        # else it is the last one before an object, a preposition or the end.
        index = next((i for i in candidates if i == 1 or words[i - 1].lower() in _PRONOUNS
                      or not (words[i - 1].islower() and "NOUN" in _lemmas(words[i - 1]))), None)
    if index is None:
        index = next((i for i in reversed(candidates) if i == len(words) - 1 or words[i + 1].lower() in
                      _DETERMINERS | _PREPOSITIONS | _PRONOUNS), candidates[0])
    return words[:index], words[index:]



def _list_or_single(subject, answer, article_subject=None):
    """"The X include A, B and C." / "One X is A." / "One X is that <clause>." for plural X."""
    if _is_clause(answer):
        return f"one {_singular(_strip_determiner(subject))} is that {answer}"
    if _LIST_ANSWER.search(answer):
        return f"{subject} {list_verb(subject, answer)} {answer}"
    if _is_plural_noun(answer.split()[-1]) and not answer.split()[-1].lower() == answer.split()[-1].upper():
        return f"{subject} are {answer}"
    bare = _strip_determiner(subject)
    first = bare.split()[0].lower() if bare.split() else ""
    if _is_plural_noun(first) or first.endswith("s"):
        return f"one {_singular(bare)} is {answer}"
    return f"one of {subject} is {answer}"



def list_verb(subject: str, answer: str) -> str:
    """"are" when the answer lists as many items as the subject counts ("the three primary
    colours" + "red, yellow and blue"), else "include" (a part of the list, CAP's convention)."""
    counts = [_NUMBER_WORDS.get(word.lower()) or (int(word) if word.isdigit() else None) for word in subject.split()]
    count = next((number for number in counts if number), None)
    items = [item for item in re.split(r",|\band\b|\bor\b", answer) if item.strip()]
    return "are" if count and count == len(items) else "include"


def _fronted_auxiliary_clause(auxiliary, rest, adverbial, after_verb=True):
    """The clause behind a fronted auxiliary in declarative order, with the adverbial after the
    verb (a place, when the verb has no object) or at the end. A "not" after the auxiliary (from
    "Why can't X ...?") stays with it: "X cannot ...", "X does not ..."."""
    if rest and rest[0].lower() == "not" and len(rest) > 1:
        clause = _fronted_auxiliary_clause(auxiliary, rest[1:], adverbial, after_verb)
        return _negated(clause, auxiliary, rest[1:]) if clause else None
    if auxiliary in _COPULAS:
        subject, predicate = _split_subject(rest)
        if not predicate and rest[-1].lower() in _PREPOSITIONS:
            subject, predicate = _split_noun_predicate(rest)  # "Mount Everest | part of"
        elif not predicate and len(rest) > 1 and rest[-1].islower() and "ADJ" in _lemmas(rest[-1]):
            subject, predicate = rest[:-1], rest[-1:]  # "Why is the Statue of Liberty | green?"
        if after_verb and predicate and _is_participle(predicate[0]):
            return " ".join(subject + [auxiliary, predicate[0], adverbial] + predicate[1:])
        return " ".join(subject + [auxiliary] + predicate + [adverbial])
    clause = _unfronted_verb(auxiliary, rest)
    if clause is None:
        return None
    subject_text, verb, verb_phrase = clause
    if after_verb and (len(verb_phrase) == 1 or (verb_phrase[1].lower() in _PREPOSITIONS
                                                 and not _is_infinitive(verb_phrase[1:]))):
        return " ".join([subject_text, verb, adverbial] + verb_phrase[1:])
    return " ".join([subject_text, verb] + verb_phrase[1:] + [adverbial])


def _never_clause(auxiliary, rest):
    """"When did X win Y?" + never -> "X never won Y"; "When has X had Y?" -> "X has never had Y"."""
    if auxiliary in _COPULAS:
        subject, predicate = _split_subject(rest)
        return with_never(" ".join(subject), [auxiliary] + predicate)
    clause = _unfronted_verb(auxiliary, rest)
    if clause is None:
        return None
    subject_text, verb, verb_phrase = clause
    if auxiliary in ("do", "does", "did"):
        return with_never(subject_text, [verb] + verb_phrase[1:])
    return with_never(subject_text, [auxiliary] + verb_phrase)


def _negated(clause, auxiliary, rest):
    """``clause`` (built from ``rest`` after ``auxiliary``) with "not" after its auxiliary."""
    if auxiliary in _COPULAS or auxiliary in _MODALS or auxiliary in ("has", "have", "had"):
        negation = "cannot" if auxiliary == "can" else f"{auxiliary} not"
        return re.sub(rf"\b{auxiliary}\b", negation, clause, count=1)
    subject, verb_phrase = _split_verb(rest)
    subject_text = " ".join(subject or [])
    inflected = _agree(verb_phrase[0], _plural_phrase(subject_text) or auxiliary == "do", auxiliary == "did") \
        if subject else ""
    prefix = f"{subject_text} {inflected}"
    if not subject or not clause.startswith(prefix):
        return None
    return f"{subject_text} {auxiliary} not {verb_phrase[0]}{clause[len(prefix):]}"


def _is_infinitive(words):
    """"to boil" in "begin to boil": the adverbial goes after the whole verb, not inside it."""
    return len(words) > 1 and words[0].lower() == "to" and _is_base_verb(words[1])


def _adverbial(wh_word, answer):
    if wh_word == "where":
        first = answer.split()[0]
        # "in Peru", "mostly in the south", "located in Peru": the answer has its preposition
        if _PLACE_START.match(answer) or _is_clause(answer) or _is_participle(first) or (
                _is_adverb(first) and _PLACE_START.match(answer[len(first):].strip())):
            return answer
        return f"in {answer}"
    if wh_word == "when":
        return f"on {answer}" if _DAY.match(answer) else f"in {answer}" if _TIME_POINT.match(answer) else answer
    if wh_word == "why":
        if _CAUSE_START.match(answer):
            return answer
        return f"because {answer}" if _is_clause(answer) else f"because of {answer}"  # "of Rayleigh scattering"
    if _MANNER_START.match(answer) or _is_clause(answer) or _is_adjective(answer):
        return answer  # "by boiling", "sweet" ("How does honey taste?")
    first = answer.split()[0].lower()
    return f"by {answer}" if first.endswith("ing") and "VERB" in _lemmas(first) else f"through {answer}"



def _affirm(auxiliary, words, negative):
    if auxiliary in _COPULAS and words[0].lower() == "there" and len(words) > 1:
        return _existential(auxiliary, words[1:], negative)
    if auxiliary in _COPULAS:
        subject, predicate = _split_subject(words)
        if not predicate:
            subject, predicate = _split_noun_predicate(words)
        return _polar_clause(subject, auxiliary, predicate, negative)
    if auxiliary in ("has", "have", "had"):
        subject, predicate = _split_verb(words, perfect=True)
        if not subject:
            subject, predicate = _split_subject(words)
        return _polar_clause(subject, auxiliary, predicate, negative)
    subject, verb_phrase = _split_verb(words)
    if not subject:
        return None
    if negative and subject[0].lower() in ("all", "every", "everyone", "everybody", "everything"):
        # "Do all birds fly?" + no -> "Not all birds fly.", not "All birds do not fly."
        return "not " + (_affirm(auxiliary, words, negative=False) or "")
    if auxiliary in _MODALS:
        modal = ("cannot" if auxiliary == "can" else f"{auxiliary} not") if negative else auxiliary
        return " ".join(subject + [modal] + verb_phrase)
    if negative:
        return " ".join(subject + [f"{auxiliary} not"] + verb_phrase)
    plural = auxiliary == "do"
    verb = _agree(verb_phrase[0], plural, auxiliary == "did")
    return " ".join(subject + [verb] + verb_phrase[1:])


def _echoes(explanation, question):
    """Whether an explanation after yes/no only repeats the question ("yes, it is consumed")."""
    question_words = set(question.lower().split())
    return all(word in question_words or word in _PRONOUNS or word in _AUXILIARIES or word in _NEGATIONS
               for word in explanation.lower().strip(" .").split())


# A negative answer turns an "any" subject into "no" ("anyone" -> "no one") and "ever" into
# "never"; a positive answer drops "ever" ("Has X ever won Y?" + yes -> "X has won Y").
_NEGATIVE_PRONOUNS = {"anyone": "no one", "anybody": "nobody", "anything": "nothing"}
_SUBJECT_ADVERBS = frozenset("ever already always still really just also".split())


def _existential(copula, rest, negative):
    """"Is there life on Mars?" + no -> "There is no life on Mars"; + yes -> "There is life ..."."""
    if not negative:
        return " ".join(["there", copula] + rest)
    first = rest[0].lower()
    if first in ("a", "an", "any"):
        return " ".join(["there", copula, "no"] + rest[1:])
    if first in _DETERMINERS or not first.isalpha() or first in ("more", "less", "fewer", "many", "much"):
        return " ".join(["there", copula, "not"] + rest)
    return " ".join(["there", copula, "no"] + rest)


def _polar_clause(subject, auxiliary, predicate, negative):
    adverbs = []
    while len(subject) > 1 and subject[-1].lower() in _SUBJECT_ADVERBS:
        adverbs.insert(0, subject.pop())
    ever = [word for word in adverbs if word.lower() == "ever"]
    adverbs = [word for word in adverbs if word.lower() != "ever"]
    if negative and subject[0].lower() in _NEGATIVE_PRONOUNS:
        subject = [_NEGATIVE_PRONOUNS[subject[0].lower()]] + subject[1:]
        return " ".join(subject + [auxiliary] + ever + adverbs + predicate)
    if negative and subject[0].lower() in ("all", "every", "everyone", "everybody", "everything"):
        return " ".join(["not"] + subject + [auxiliary] + adverbs + predicate)  # "Not all swans are white"
    if negative:
        middle = ["never"] if ever else ["not"]
        return " ".join(subject + [auxiliary] + middle + adverbs + predicate)
    return " ".join(subject + [auxiliary] + adverbs + predicate)
