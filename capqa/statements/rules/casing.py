"""Capitals for a statement built from a question written all in lower case, as search queries are
("who is the author of the book the hobbit" + "j. r. r. tolkien").

- A word of the question that the tagger calls a proper noun, or that the lexicon does not know
  (it knows no names: "kentucky", "voldemort"), is capitalised; a short one that cannot be an
  English word ("nfl", "ncaa", "usa") is written in capitals.
- A title after "the book / film / song / ..." is title-cased ("the book The Hobbit").
- A lower-case answer's words that the lexicon does not know are capitalised ("twickenham
  stadium" -> "Twickenham stadium", "the forex market" -> "the Forex market"); an answer to
  "who" that looks like a name ("roger federer", "j. r. r. tolkien") is title-cased.
Words the answer writes with capitals keep them. The statement's own words are not touched.
"""

import re
from typing import Dict, Iterable, List

from capqa.statements.rules.morphology import lemmas_of
from capqa.statements.rules.queries import COMMON_ENDINGS, may_be_name, parse_question, question_text

_TITLE_NOUNS = frozenset("book film movie song album novel show series play poem opera musical painting "
                         "single sitcom".split())
_TITLE_END = frozenset("by from which that who whom when where in on at with for about was were".split())
_MAX_TITLES = 3
_NAME_OPENERS = frozenset("new north south east west northern southern eastern western san santa los las saint st "
                          "mount lake fort port cape upper lower".split())
_NAME_CLOSERS = frozenset("city river mountains island islands county valley canyon bay sea ocean desert".split())
_SMALL = frozenset("a an the of in on at to for and or but by as vs into with from onto upon".split())
_ONSETS = frozenset("bl br ch cl cr dr dw fl fr gh gl gn gr kh kl kn kr ph pl pr ps qu rh sc sh sk sl sm sn sp st sv "
                    "sw th tr ts tw vl wh wr zh".split())
_VOWELS = frozenset("aeiouy")
_VOWEL_ACRONYMS = frozenset("usa uae ufo ioc eua".split())
_NAMES_ASKED = re.compile(r"^(?:who|whom|whose)\b")
_WORD = re.compile(r"[^\W\d_][\w'’.-]*")


def is_search_style(question: str) -> bool:
    """A question written all in lower case, with at least three words."""
    return question == question.lower() and len(question.split()) >= 3 and any(c.isalpha() for c in question)


def casing_texts(question: str, proper: str = "") -> List[str]:
    """The texts ``cased_statement(..., question, ..., proper)`` parses (the question proper as
    a query, when the question is written in lower case), so that a batch can parse them with
    the rest: a claim or an instruction does not parse its question otherwise."""
    return [question_text(proper or question)] if is_search_style(question) else []


def cased_statement(statement: str, question: str, answer: str, proper: str = "") -> str:
    """``statement`` with the capitals a lower-case question left out (see the module docstring);
    ``proper``: the question proper as the converter parsed it (its parse is reused)."""
    if not is_search_style(question):
        return statement
    question = proper or question
    answer_words = {word.strip(".,;:!?\"'()").lower() for word in answer.split()}
    forms = {word: cased for word, cased in _question_forms(question).items() if word not in answer_words}
    if _NAMES_ASKED.match(question) or len(answer.split()) >= 2:
        # a name: "roger federer", "twickenham stadium"; asked "who", "heath ledger" too
        forms.update(_answer_forms(answer, person=bool(_NAMES_ASKED.match(question))))
    phrases = _title_phrases(question) + _place_names(question, forms)
    out = _WORD.sub(lambda match: _recased(match.group(0), forms), statement)
    for phrase in phrases:
        out = _replace_phrase(out, phrase)
    return out[:1].upper() + out[1:]


def _place_names(question: str, forms: Dict[str, str]) -> List[str]:
    """Known words that open or close a place's name next to a name ("new york city", "north
    america", "the jordan river"): the parse of the normal form calls them common words."""
    words = [word.strip(".,;:!?\"'()") for word in question.lower().split()]
    phrases = []
    for first, second in zip(words, words[1:]):
        if (first in _NAME_OPENERS and second in forms) or (first in forms and second in _NAME_CLOSERS):
            phrases.append(f"{first} {second}")
    return phrases


def _recased(word: str, forms: Dict[str, str]) -> str:
    bare = word.rstrip(".")
    cased = forms.get(bare.lower())
    return cased + word[len(bare):] if cased and bare in (bare.lower(), bare.capitalize()) else word


def _question_forms(question: str) -> Dict[str, str]:
    forms = {}
    words = parse_question(question)
    for index, word in enumerate(words):
        if not word.text.isalpha() or word.lower in _SMALL or len(word.text) < 2:
            continue
        if index and words[index - 1].tag == "CD":
            continue  # a unit after a number: "72 oz"
        if word.lower.endswith("s") and lemmas_of(word.lower[:-1]):
            continue  # "mens": a plural or possessive without its apostrophe, not a name
        proper = word.tag in ("NNP", "NNPS") and (index or not lemmas_of(word.lower))  # not the capital parsed first
        acronym = may_be_name(word.lower) and _name_case(word.lower).isupper()  # "nba" whatever its tag
        if proper or acronym or (word.tag in ("NN", "NNS", "FW", "JJ") and not lemmas_of(word.lower)
                                           and not word.lower.endswith(COMMON_ENDINGS)):
            forms[word.lower] = _name_case(word.lower, proper=proper)
    return forms


def _looks_like_name(words: List[str]) -> bool:
    """Two to four words, no article, no plural at the end: "heath ledger", "tom hanks"."""
    return 2 <= len(words) <= 4 and words[0] not in _SMALL and all(word.isalpha() for word in words) and (
        lemmas_of(words[-1]).get("NOUN", (words[-1],))[0] == words[-1])


def _answer_forms(answer: str, person: bool = False) -> Dict[str, str]:
    """A lower-case answer that names something, title-cased word by word."""
    words = answer.split()
    if not words or answer != answer.lower() or len(words) > 5:
        return {}
    bare = [word.strip(".,;:!?\"'()") for word in words]
    if not any(word.isalpha() and not lemmas_of(word) for word in bare if word not in _SMALL) and not any(
            len(word) == 1 and word.isalpha() for word in bare) and not (person and _looks_like_name(bare)):
        return {}
    named = len(bare) >= 3 and bare[0] not in _SMALL and any(may_be_name(word) for word in bare)
    if (person and _looks_like_name(bare)) or named:  # "mount hamiguitan range wildlife sanctuary": a name
        return {word: _name_case(word) if not lemmas_of(word) or len(word) == 1 else word.capitalize()
                for word in bare if word and word not in _SMALL}
    # Not a person's name: only the words that cannot be English are names ("the forex market",
    # "thylakoid membranes", "a naval base" keep their ordinary words in lower case).
    return {word: _name_case(word) for word in bare if word and word not in _SMALL and (
        may_be_name(word) or (len(word) == 1 and word.isalpha()))}


def _name_case(word: str, proper: bool = False) -> str:
    """"kentucky" -> "Kentucky"; a word that cannot be English ("nfl", "ncaa", "usa", "us" as a
    proper noun) -> "NFL"."""
    if len(word) == 2 and (proper or not lemmas_of(word)):
        return word.upper()
    if len(word) == 3 and not lemmas_of(word) and (sum(char not in _VOWELS for char in word) >= 2
                                                 or word in _VOWEL_ACRONYMS):
        return word.upper()  # "nfl", "cbs", "usa"; "leo" and "ali" are names
    if 2 <= len(word) <= 5 and word[0] not in _VOWELS and word[1] not in _VOWELS and word[:2] not in _ONSETS:
        return word.upper()
    return word.capitalize()


def _title_phrases(question: str) -> List[str]:
    """Lower-case titles after "the book / film / song ..." ("the hobbit")."""
    words = question.rstrip("?. ").split()
    phrases = []
    for index, word in enumerate(words[:-1]):
        if word in _TITLE_NOUNS and (index == 0 or words[index - 1] in ("the", "a", "this", "that")):
            title = []
            for following in words[index + 1:]:
                if following in _TITLE_END:
                    break
                title.append(following)
            if title:
                phrases.append(" ".join(title))
            if len(phrases) == _MAX_TITLES:
                break
    return phrases


def _replace_phrase(text: str, phrase: str) -> str:
    position = text.lower().find(phrase)
    if position < 0:
        return text
    return text[:position] + _title_case(text[position:position + len(phrase)].split()) + text[position + len(phrase):]


def _title_case(words: Iterable[str]) -> str:
    words = list(words)
    return " ".join(word.capitalize() if index == 0 or word.lower() not in _SMALL else word.lower()
                    for index, word in enumerate(words))
