"""Word-level clause helpers: where a copula's subject ends without a parse to say so, a list
answer's verb ("are" or "include"), and the adverbial a where/when/why/how answer becomes."""

import re

from capqa.statements.rules.lexicon import (
    _CAUSE_START, _DAY, _DETERMINERS, _LIST_ANSWER, _MANNER_START, _NUMBER_WORDS, _PLACE_START, _TIME_POINT,
)
from capqa.statements.rules.morphology import (
    _is_adjective, _is_adverb, _is_clause, _is_participle, _is_plural_noun, _is_predicate_word, _lemmas,
    _singular, _strip_determiner,
)


_VENUES = frozenset("stadium arena airport station university college school hospital museum theatre theater "
                     "club hotel park field court garden gardens cathedral church palace castle house hall "
                     "centre center library zoo".split())
_CENTURIES = re.compile(r"^\d{1,2}(?:st|nd|rd|th)(?:(?:,| and| or| to|-)\s*\d{1,2}(?:st|nd|rd|th))* centur(?:y|ies)\b",
                        re.IGNORECASE)


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


def _adverbial(wh_word, answer):
    if wh_word == "where":
        first = answer.split()[0]
        # "in Peru", "mostly in the south", "located in Peru": the answer has its preposition
        if _PLACE_START.match(answer) or _is_clause(answer) or _is_participle(first) or (
                _is_adverb(first) and _PLACE_START.match(answer[len(first):].strip())):
            return answer
        if answer.split()[-1].lower().strip(".,") in _VENUES:
            return f"at {answer}"  # "at Twickenham Stadium", "at Augusta National Golf Club"
        return f"in {answer}"
    if wh_word == "when":
        if _CENTURIES.match(answer):
            return f"in the {answer}"  # "10th and 11th centuries" -> "in the 10th and 11th centuries"
        return f"on {answer}" if _DAY.match(answer) else f"in {answer}" if _TIME_POINT.match(answer) else answer
    if wh_word == "why":
        if _CAUSE_START.match(answer):
            return answer
        return f"because {answer}" if _is_clause(answer) else f"because of {answer}"  # "of Rayleigh scattering"
    if _is_clause(answer) and not _MANNER_START.match(answer):
        return f": {answer}"  # "A bill becomes a law: it is passed by both houses and signed"
    if _MANNER_START.match(answer) or _is_adjective(answer):
        return answer  # "by boiling", "sweet" ("How does honey taste?")
    first = answer.split()[0].lower()
    return f"by {answer}" if first.endswith("ing") and "VERB" in _lemmas(first) else f"through {answer}"
