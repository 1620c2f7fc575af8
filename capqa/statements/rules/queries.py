"""The text a question is parsed as, so that a search query parses like the question it stands for.

A tagger trained on edited text reads a lower-case query without a question mark as a noun phrase:
"when did the berlin wall fall" comes out as wall/NNP fall/NNP, "what does istj mean" with "istj"
as the verb. Written the way an editor would ("When did the Berlin wall fall?") the same words
parse as a question. ``parse_question`` parses that normal form once and hands back the words
as the question wrote them, so the statement keeps the question's own text:

- a query without a final mark gets its first letter upper-cased and, when it opens like a
  question ("when did", "who", "is there"), a "?" (a question written with its mark is
  parsed as written, without the mark);
- in a question written all in lower case (but maybe its first letter), a word the lexicon does not know ("berlin", "simba",
  "istj", "kentucky"; it knows no names) is capitalised, the way the query's author would
  write a name. Learned common nouns the lexicon lacks ("mitosis") are recognised by their
  endings and left alone.
"""

import functools

from capqa.statements.rules.analysis import analyse
from capqa.statements.rules.lexicon import (AUXILIARIES, DETERMINERS, NEGATIONS, PREPOSITIONS, PRONOUNS, QUESTION_START,
                                            WH_START, strip_trailing)
from capqa.statements.rules.morphology import lemmas_of
from capqa.statements.rules.parser import CACHE, Parse, parse

_MARKS = ("?", "!", ".")
# Endings of derived English words the lexicon lacks ("unreactive", "photosynthesizing").
_ENGLISH_ENDINGS = ("ive", "ous", "able", "ible", "ical", "ally", "ness", "less", "ful", "izing", "ising", "ized",
                    "ised", "ize", "ise", "ish", "ward", "wise", "oid", "ene", "ane", "yl", "ase")
# Closed-class words, which the lexicon (open classes only) does not know either.
_FUNCTION_WORDS = AUXILIARIES | DETERMINERS | NEGATIONS | PREPOSITIONS | PRONOUNS | frozenset(
    "and or but nor so yet if then than because since while whether though although unless until "
    "what which who whom whose where when why how not also too very just only even both either neither "
    "each every all none nobody nothing someone something anyone anything everyone everything "
    "him them me us mine yours hers ours theirs himself herself itself themselves yourself myself "
    "one two three four five six seven eight nine ten vs etc via per upon amid among".split())
# Endings of learned common nouns the lexicon lacks ("epithelium", "mitosis"): no names.
COMMON_ENDINGS = ("ium", "ion", "ism", "ity", "ogy", "sis", "itis", "ide", "ate", "ine", "ase", "ose", "oma", "ema",
                  "ula", "ule", "cyte", "phyll", "ics", "ment", "ness")


def may_be_name(word: str) -> bool:
    """Whether a lower-case word may be a name: alphabetic, no function word, unknown to the
    lexicon, and without the ending of a learned common noun or a derived English word."""
    return (len(word) >= 2 and word.isalpha() and word not in _FUNCTION_WORDS and not lemmas_of(word)
            and not word.endswith(COMMON_ENDINGS + _ENGLISH_ENDINGS))


@functools.lru_cache(maxsize=65536)
def question_text(question: str) -> str:
    """The text the question proper ``question`` is parsed as (see the module docstring). A
    question that ends with its own mark is edited text: it is parsed without the mark, as it
    was written (only its names capitalised)."""
    text = strip_trailing(question.strip())
    if text[1:] == text[1:].lower():  # all lower case, or only its first letter a capital
        text = " ".join(word.capitalize() if may_be_name(word) else word for word in text.split(" "))
    if question.rstrip()[-1:] in _MARKS:
        return text
    if QUESTION_START.match(text) or WH_START.match(text):
        text += "?"
    return text[:1].upper() + text[1:]


@functools.lru_cache(maxsize=65536)
def parse_question(question: str) -> Parse:
    """The parse of ``question_text(question)``, its words carrying the text of the question
    (the normal form changes letters' case only, so each word is found at the same offset),
    without the "?" that was added and without the question's final mark. Kept by question: the
    statement reads it and so does its casing (``casing.py``), and a question has many answers;
    ``clear_parses`` empties it with the parser's cache."""
    text = strip_trailing(question.strip())
    normal = question_text(question)
    words = parse(normal)
    if len(normal) > len(text) and words and words[-1].text == "?":
        words = words[:-1]
    restored, offset = [], 0
    for word in words:
        own = text[offset:offset + len(word.text)]
        restored.append(word._replace(text=own) if own.lower() == word.text.lower() else word)
        offset += len(word.text) + (1 if word.space else 0)
    if restored:
        restored[-1] = restored[-1]._replace(space=False)
    return tuple(restored)


def clear_parses() -> None:
    """Every parse kept in memory dropped: the parser's cache, the questions' parses and their
    frames."""
    CACHE.clear()
    parse_question.cache_clear()
    analyse.cache_clear()
