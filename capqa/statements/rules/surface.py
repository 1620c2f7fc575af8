"""Word-level clause helpers: where a copula's subject ends without a parse to say so, a list
answer's verb ("are" or "include"), and the adverbial a where/when/why/how answer becomes."""

import re

from capqa.common.validation import parse_count
from capqa.statements.rules.lexicon import (CAUSE_START, DAY, DEGREE_ADVERBS, DETERMINERS, LIST_ANSWER, MANNER_START,
                                            NUMBER_WORDS, PLACE_START, RESULT_CONNECTIVES, TIME_POINT)
from capqa.statements.rules.morphology import (is_adjective, is_adverb, is_count_noun, is_participle, is_plural_noun,
                                               is_predicate_word, lemmas_of, looks_like_clause, name_capital_only,
                                               parsed_clause, singular_of, strip_determiner)

_VENUES = frozenset("stadium arena airport station university college school hospital museum theatre theater "
                     "club hotel park field court garden gardens cathedral church palace castle house hall "
                     "centre center library zoo".split())
_CENTURIES = re.compile(r"^\d{1,2}(?:st|nd|rd|th)(?:(?:,| and| or| to|-)\s*\d{1,2}(?:st|nd|rd|th))* centur(?:y|ies)\b",
                        re.IGNORECASE)
# A season of a given year is one of a kind and takes "the": "in the summer of 1521" (a bare "in summer" stays).
# A result connective opening a reason's answer joins it to nothing the statement says.
_RESULT_OPENING = re.compile(r"^(?:so\s++)?(?:" + "|".join(sorted(RESULT_CONNECTIVES)) + r")\b,?\s*+", re.IGNORECASE)
_SEASON_OF = re.compile(r"^(?:spring|summer|autumn|fall|winter) of\b", re.IGNORECASE)


def split_subject(words):
    """Subject and predicate after a fronted copula: "a catalyst | consumed during a reaction",
    "the Treaty of Versailles | signed"; no predicate: ``(words, [])``.

    A noun phrase goes on through a name ("the Dead Sea"), an "of" complement ("the Statue of
    Liberty") and the modifiers after a determiner ("the first FIFA World Cup").
    """
    index = 1
    while index < len(words):
        word, previous = words[index].lower(), words[index - 1].lower()
        if previous == "of":
            index += 1 + (word in DETERMINERS and index + 1 < len(words))
            continue
        if word == "of" or (words[index][:1].isupper() and word != "i"):
            index += 1
            continue
        if word in ("a", "an", "the") and index < len(words) - 1:
            return words[:index], words[index:]
        if previous in DETERMINERS and not is_participle(word):
            index += 1
            continue
        if is_predicate_word(word) and word not in ("a", "an", "the"):
            return words[:index], words[index:]
        index += 1
    return words, []


def split_noun_predicate(words):
    """Subject and nominal or adjectival predicate with no marker between them ("tomatoes |
    vegetables", "the Earth | round"): the subject is a determiner and a word, or a name."""
    index = 1 if words[0].lower() in DETERMINERS else 0
    if index < len(words) and words[index][:1].isupper():
        while index + 1 < len(words) and words[index + 1][:1].isupper():
            index += 1
    index += 1
    return (words[:index], words[index:]) if index < len(words) else (words, [])


def list_or_single(subject, answer, article_subject=None):
    """"The X include A, B and C." / "One X is A." / "One X is that <clause>." for plural X."""
    if looks_like_clause(answer):
        return f"one {singular_of(strip_determiner(subject))} is that {answer}"
    if LIST_ANSWER.search(answer):
        return f"{subject} {list_verb(subject, answer)} {answer}"
    if is_plural_noun(answer.split()[-1]) and not answer.split()[-1].lower() == answer.split()[-1].upper():
        return f"{subject} are {answer}"
    bare = strip_determiner(subject)
    first = bare.split()[0].lower() if bare.split() else ""
    if is_plural_noun(first) or first.endswith("s"):
        return f"one {singular_of(bare)} is {answer}"
    return f"one of {subject} is {answer}"


def list_verb(subject: str, answer: str) -> str:
    """"are" when the answer lists as many items as the subject counts ("the three primary
    colours" + "red, yellow and blue"), else "include" (a part of the list, CAP's convention)."""
    counts = [NUMBER_WORDS.get(word.lower()) or parse_count(word) for word in subject.split()]
    count = next((number for number in counts if number), None)
    items = [item for item in re.split(r",|\band\b|\bor\b", answer) if item.strip()]
    return "are" if count and count == len(items) else "include"


def answer_adverbial(wh_word, answer):
    if wh_word == "where":
        first = answer.split()[0]
        # "in Peru", "mostly in the south", "located in Peru": the answer has its preposition
        if PLACE_START.match(answer) or looks_like_clause(answer) or is_participle(first) or (
                is_adverb(first) and PLACE_START.match(answer[len(first):].strip())):
            return answer
        if answer.split()[-1].lower().strip(".,") in _VENUES and not (answer.islower() and is_count_noun(answer)):
            # a venue's name; a bare lower-case "garden" is a part of the scene, as "kitchen" is (below)
            return f"at {answer}"  # "at Twickenham Stadium", "at Augusta National Golf Club"
        if is_count_noun(answer):
            return f"in the {answer}"  # "chest", "cerebellum": a part of the whole the question names
        return f"in {answer}"
    if wh_word == "when":
        if _CENTURIES.match(answer):
            return f"in the {answer}"  # "10th and 11th centuries" -> "in the 10th and 11th centuries"
        if _SEASON_OF.match(answer):
            return f"in the {answer}"
        return f"on {answer}" if DAY.match(answer) else f"in {answer}" if TIME_POINT.match(answer) else answer
    if wh_word == "why":
        answer = _RESULT_OPENING.sub("", answer) or answer  # "(so) therefore the chlorophyll breaks down"
        if CAUSE_START.match(answer):
            return answer
        clause = looks_like_clause(answer) or (len(answer.split()) > 2 and parsed_clause(answer))
        if clause:  # "because he was afraid", "because air scatters ...": the sentence's capital goes
            answer = name_capital_only(answer)
        return f"because {answer}" if clause else f"because of {answer}"  # "of Rayleigh scattering"
    if looks_like_clause(answer) and not MANNER_START.match(answer):
        return f": {answer}"  # "A bill becomes a law: it is passed by both houses and signed"
    if MANNER_START.match(answer) or is_adjective(answer) or adjective_phrase(answer) or _adverb_phrase(answer):
        return answer  # "by boiling", "sweet" ("How does honey taste?"), "very lonely" / "very quickly"
    first = answer.split()[0].lower()
    return f"by {answer}" if first.endswith("ing") and "VERB" in lemmas_of(first) else f"through {answer}"


def adjective_phrase(answer: str) -> bool:
    """Whether the answer is an adjective after its degree adverbs ("very lonely", "quite tired"),
    a complement as the adjective alone is ("sweet")."""
    words = answer.split()
    return 0 < len(words) <= 3 and is_adjective(words[-1]) and all(
        word.lower() in DEGREE_ADVERBS or is_adverb(word) for word in words[:-1])


def _adverb_phrase(answer: str) -> bool:
    words = answer.split()
    return 0 < len(words) <= 3 and all(word.lower() in DEGREE_ADVERBS or is_adverb(word) for word in words[:-1]) and (
        is_adverb(words[-1]))
