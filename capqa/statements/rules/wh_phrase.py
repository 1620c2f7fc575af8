"""The wh-phrase's noun and what the answer needs to take its place: "which layer of the Earth"
asks for one layer ("the outer core"), "which tool" for one of a kind ("a thermometer"), "how
many legs" for a count of legs ("eight legs")."""

from typing import List

from capqa.statements.rules.lexicon import (CURRENCY_SIGNS, DEFINITE_HEADS, LIST_ANSWER, MASS_NOUNS, MONEY_NOUNS,
                                            UNIQUE_NOUNS)
from capqa.statements.rules.morphology import (indefinite_article, is_bare_noun_phrase, is_count_noun, is_mass_noun,
                                               is_plural_noun, lemmas_of, singular_of)

_SUBSTANCES = frozenset("substance material element metal gas liquid mineral compound fuel food drink ingredient "
                        "acid chemical solid".split())
_PARTITIVE_WORDS = frozenset("of the following these those them options choices answers statements".split())
_NUMERAL_NOUNS = frozenset("dozens hundreds thousands millions billions trillions scores".split())


def wh_noun(phrase: List[str]) -> str:
    """The head noun of the wh-phrase ("organ" of "which organ", "layer" of "which layer of the
    Earth", "animals" of "which of these animals"); "" for "which of the following"."""
    words = list(phrase)
    if words and words[0].lower() == "of":
        # "which of these animals": one of them, so the noun counts as singular
        words = [singular_of(word) for word in words if word.lower() not in _PARTITIVE_WORDS]
    head = []
    for word in words:
        if word.lower() in ("of", "in", "on", "at", "for", "from", "with", "about", "that", "which"):
            break
        head.append(word)
    return head[-1] if head else ""


def with_subject_article(answer: str, noun: str) -> str:
    """A bare common noun answering "which N" as the subject, with the article its head needs:
    "the" for a unique part or unit ("the kidneys", "the ohm"), "a" for one of a kind ("a
    thermometer"); plurals and mass nouns stay bare ("hydrogen"); without a noun, unchanged."""
    if not noun or not is_bare_noun_phrase(answer) or LIST_ANSWER.search(answer) or not all(
            {"NOUN", "ADJ"} & set(lemmas_of(word)) for word in answer.split()):
        return answer  # a lower-case name ("roger federer") is no common noun: no article
    if noun.lower() in DEFINITE_HEADS or lemmas_of(noun.lower()).get("NOUN", ("",))[0] in DEFINITE_HEADS:
        return f"the {answer}"
    head = answer.split()[-1].lower()
    if is_plural_noun(noun) or is_plural_noun(head) or head.endswith(_MASS_ENDINGS) or head in MASS_NOUNS or noun.lower() in _SUBSTANCES:
        return answer  # "which metal" + mercury: a substance takes no article
    return f"{indefinite_article(answer)} {answer}"


def definite_compound(answer: str) -> str:
    """A bare lower-case compound of nouns ("steam engine indicator", "working fluid") made
    definite where it names the thing the question asks for as a subject or an agent ("... is
    limited by the working fluid"): a singular count noun never stands bare there. One word, a
    plural, a substance or an abstraction by its ending, a list or a word the lexicon does not know
    (a lower-case name: "roger federer") stays as it is."""
    words = answer.split()
    if not 2 <= len(words) <= 3 or not is_bare_noun_phrase(answer) or LIST_ANSWER.search(answer):
        return answer
    head = words[-1].lower()
    if not all("NOUN" in lemmas_of(word.lower()) for word in words):
        return answer  # an adjective's phrase may name a field or a kind ("computational complexity theory")
    if is_plural_noun(head) or is_mass_noun(head) or head.endswith(_MASS_ENDINGS) or head in _SUBSTANCES:
        return answer  # "elastic potential energy": a wrong "the" is worse than none
    return f"the {answer}"


def articled_subject(answer: str, definite_whole: bool) -> str:
    """A bare answer to "What V ...?" as the subject: a compound made definite
    (``definite_compound``), a lone singular count noun given its article ("thermometer" -> "a
    thermometer"; "the" when the question names a definite whole it is part of: "What protects the
    brain?" + "skull" -> "the skull"); anything else (mass nouns, plurals, names, code) as it is."""
    compound = definite_compound(answer)
    words = answer.split()
    if compound != answer or len(words) != 1 or not is_count_noun(words[0]):
        return compound
    return f"the {answer}" if definite_whole or words[0] in UNIQUE_NOUNS else f"{indefinite_article(answer)} {answer}"


# Endings of nouns that name a substance or an abstraction ("hydrogen", "sodium", "friction",
# "photosynthesis"), which take no article; a narrower list than morphology's, since a wrong
# "a" is worse than none.
_MASS_ENDINGS = ("gen", "ium", "ine", "ide", "ose", "ene", "ane", "tion", "sion", "ness", "ity", "ism", "ment",
                 "ance", "ence", "ing", "ics", "ogy", "sis", "ur", "on", "ite", "ate", "ol")


def missing_noun(answer: str, noun_phrase: list, quantifier: str = "many") -> list:
    """The counted noun, unless the answer already names it ("8 legs") or a measure ("2 litres")."""
    if noun_phrase and noun_phrase[0].lower() == "of":
        return noun_phrase  # "How much of the Earth ...?" -> "71 percent of the Earth"
    if not noun_phrase or (quantifier == "much" and (len(answer.split()) > 1 or (
            noun_phrase[-1].lower() in MONEY_NOUNS))):
        return []  # "How much money" + "$66": the amount is the money
    answer_lower = answer.lower()
    head = noun_phrase[-1].lower()
    lemma = lemmas_of(head).get("NOUN", (head,))[0]
    if head in answer_lower or lemma in answer_lower or any(sign in answer for sign in CURRENCY_SIGNS.get(lemma, ())):
        return []  # "$243" answers "How many dollars" with its dollars
    counted = _counted_head(noun_phrase)
    if counted and answer_lower.split()[-1] in _noun_forms(noun_phrase[counted - 1]):
        # "How many boxes of pizza" + "two boxes": the answer names the counted noun, not what it holds
        return noun_phrase[counted:]
    # "hundreds of thousands", "billions": a numeral noun takes "of" before the counted noun.
    return ["of"] + noun_phrase if answer_lower.split()[-1] in _NUMERAL_NOUNS else noun_phrase


def _counted_head(noun_phrase: list) -> int:
    """How many words of the counted phrase go up to its head before a preposition ("boxes" of
    "boxes of pizza": 1), or 0 when no preposition follows the head."""
    for index, word in enumerate(noun_phrase[1:], start=1):
        if word.lower() in ("of", "in", "on", "at", "for", "from", "with"):
            return index
    return 0


def _noun_forms(word: str) -> frozenset:
    """The word and its noun lemma, lower-case ("boxes", "box")."""
    lowered = word.lower()
    return frozenset((lowered, *lemmas_of(lowered).get("NOUN", ())))
