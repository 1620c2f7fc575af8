"""wh-questions whose wh-phrase is the subject: the answer takes its place.

"Who painted the Mona Lisa?" -> "Leonardo da Vinci painted the Mona Lisa"; "Which planet does
not have any moons?" -> "Mercury does not have any moons"; "How many bones are in the body?" ->
"There are 206 bones in the body"; "Whose portrait is on the bill?" -> "George Washington's
portrait is on the bill"; comparisons keep the other choice: "Who is older, A or B?" + B -> "B
is older than A". "What N ..." reads "The N that ... is X", CAP-Statements' convention.
"""

import re
from typing import List, Optional, Sequence, Tuple

from capqa.statements.rules.agreement import is_no_one, no_determiner, subject_case
from capqa.statements.rules.analysis import Frame, agrees_as_verb, render, texts
from capqa.statements.rules.declarative import join, subject_agrees
from capqa.statements.rules.lexicon import (COMPARATIVE_TAGS, COMPARATIVE_WORDS, COPULAS, FINITE_TAGS, MULTIPLIER_WORDS,
                                            NAMING_NOUNS, NUMBER_WORDS, PREDICATE_ADJECTIVES)
from capqa.statements.rules.morphology import (definite_subject, head_noun, indefinite_article, inflect, is_count_noun,
                                               lemmas_of, looks_like_clause, plural_phrase, with_article)
from capqa.statements.rules.parser import Word
from capqa.statements.rules.surface import list_or_single
from capqa.statements.rules.wh_phrase import (articled_subject, definite_compound, missing_noun, wh_noun,
                                              with_subject_article)

_PLACE_PREPOSITIONS = frozenset("in on at inside within aboard".split())
_ORDER_WORDS = {"first": "before", "earlier": "earlier than", "last": "after", "later": "later than"}


def wh_subject(frame: Frame, answer: str) -> Optional[str]:
    """The statement when the wh-phrase is the subject of ``frame.rest``, or None."""
    rest = list(frame.rest)
    if not rest:
        return None
    rejected = _neither_or_both(rest, answer)
    if rejected:
        return rejected
    choices = _choices(rest, answer)
    if choices is None and looks_like_clause(answer) and len(answer.split()) >= 4 and _has_choices(rest):
        return answer  # "Which band had more members, X or Y?" + "X had five members, while Y had four"
    if choices is not None:
        rest, other = choices
        answer = chosen_option(list(frame.rest), answer)
        if other:
            return _comparison(frame, rest, answer, other)
    wh, phrase = frame.wh, texts(frame.phrase)
    if wh in ("who", "which", "what") and answer.lower().startswith("by ") and len(answer.split()) > 1 and not (
            answer.split()[1].lower().endswith("ing")):
        # "Who wrote X?" + "(It's) by Jane Austen": the agent is the subject ("by using ..." is a means: it stays)
        answer = answer[3:]
    if wh == "how" and phrase and phrase[0].lower() in ("many", "much"):
        return _count(frame, rest, answer)
    if wh == "whose":
        owner = re.sub(r"[’']s?$", "", answer)
        return join(f"{owner}'s {render(frame.phrase)}", render(rest))
    if wh in ("where", "when", "why", "how"):
        return None
    if wh == "what" and not phrase:
        special = _what_happens(render(rest), answer) or _what_passive(rest, answer)
        if special:
            return special
    if wh == "what" and len(phrase) == 1 and phrase[0].lower() in ("term", "word", "name"):
        described = _TERM_DESCRIBES.match(render(rest))
        if described:
            return join("the", phrase[0].lower(), "for", described.group(1), "is", answer)
    negated = negative_subject(frame.phrase, answer)
    if negated:
        return join(negated, render(rest))
    if wh == "what" and phrase and phrase[0].lower() != "of" and not looks_like_clause(answer):
        return _relative(frame, rest, answer)
    if phrase and phrase[0].lower() == "of" and rest and _is_relative(rest[0]) and predicate_start(rest):
        # "Which of the teams that X played on never won ...?" -> "Of the teams that X played on, Y never won ..."
        start = predicate_start(rest)
        return join(join(render(frame.phrase), render(rest[:start])) + ",",
                    as_subject(with_subject_article(answer, wh_noun(phrase)), rest[start:]))
    topic = _statement_topic(phrase, rest)
    if topic and looks_like_clause(answer):
        return _replace_pronoun(answer, topic)  # "Which of the following statements about DNA is true?"
    noun = wh_noun(phrase)
    if noun:
        return as_subject(with_subject_article(answer, noun), rest)
    definite_whole = any(word.lower == "the" for word in rest)  # "What protects the brain?": a part of it
    return as_subject(articled_subject(answer, definite_whole), rest)


_DEGREE_ADVERBS = frozenset("best most least also often usually always never still".split())
_TOPIC = re.compile(r"\b(?:about|regarding|concerning|on) (.+)$", re.IGNORECASE)


def negative_subject(phrase: Sequence[Word], answer: str) -> str:
    """The wh-phrase negated by a negative answer, "" for any other answer: "what three oceans" +
    "none" -> "no oceans" (the count asked for goes: none of it is there), "which of the two
    brothers" + "neither" -> "neither of the two brothers" (a partitive keeps its count), "which
    planet" + "neither" -> "neither planet"."""
    word = answer.lower().strip(" .!")
    if not phrase or not (is_no_one(word) or word == "neither"):
        return ""
    if phrase[0].lower == "of":  # a partitive keeps its count: "neither of the two brothers"
        return join("neither" if word == "neither" else "none", render(phrase))
    words = [item for item in phrase if not (item.tag == "CD" or item.lower in NUMBER_WORDS)] or list(phrase)
    return join("neither" if word == "neither" else "no", render(words))


def _statement_topic(phrase: List[str], rest: List[Word]) -> str:
    """"DNA" of "which of the following statements about DNA is true", else ""."""
    if not rest or rest[0].lower not in COPULAS or len(rest) < 2 or rest[1].lower not in ("true", "correct",
                                                                                            "accurate", "false"):
        return ""
    match = _TOPIC.search(" ".join(phrase))
    return match.group(1) if match else ""


_TERM_DESCRIBES = re.compile(r"^(?:describes|refers to|is used for|means|names) (.+)$", re.IGNORECASE)
_WHAT_HAPPENS = re.compile(r"^(?:happens|happened|(?:will|would|might|could|can|does|did) happen) (?:to (.+?) )?"
                           r"(when|as|if|after|during|in|while|before|once|at) (.+)$", re.IGNORECASE)
_WHAT_HAPPENS_TO = re.compile(r"^(?:happens|happened|(?:will|would|might|could|can) happen) to (.+)$", re.IGNORECASE)
_WHAT_HAPPENS_ALONE = re.compile(r"^(?:happens|happened|(?:will|would|might|could|can|does|did) happen)\s*+[?.!]?$",
                                 re.IGNORECASE)
_NOT_AN_OBJECT = frozenset(("that", "if", "whether", "to", "when", "where", "how", "why"))


def _what_happens(rest: str, answer: str) -> Optional[str]:
    """"What happens to X when Y?" + "it increases" -> "When Y, X increases"; "What happened in
    1066?" + "the Norman conquest" -> "The Norman conquest happened in 1066"."""
    match = _WHAT_HAPPENS.match(rest)
    if match:
        topic, connective, condition = match.groups()
        if not topic and connective.lower() in ("in", "during", "at") and not looks_like_clause(answer):
            return join(answer, rest.split()[0].lower(), connective, condition)
        outcome = _replace_pronoun(answer, topic) if topic else (
            answer if looks_like_clause(answer) else f"the result is {answer}")
        return f"{connective} {condition}, {outcome}"
    if _WHAT_HAPPENS_ALONE.match(rest) and looks_like_clause(answer):
        return answer  # "(When X,) what happens" + "they see more": the answer's clause is what happens
    match = _WHAT_HAPPENS_TO.match(rest)
    return _replace_pronoun(answer, match.group(1)) if match else None


def _replace_pronoun(answer: str, topic: str) -> str:
    words = answer.split()
    if words and words[0].lower() in ("it", "they"):
        return join(topic, " ".join(words[1:]))
    return answer if looks_like_clause(answer) else join(topic, answer)


def _what_passive(rest: Sequence[Word], answer: str) -> Optional[str]:
    """"What carries oxygen in the blood?" + "hemoglobin, a protein found inside red blood cells"
    -> "Oxygen in the blood is carried by hemoglobin, a protein ...": a heavy answer (an apposition
    or a relative clause after its noun) goes to the end, as CAP-Statements writes it. A light one
    keeps the question's active voice with the answer as its subject ("A thermometer measures
    temperature"): None here."""
    verb = rest[0]
    if len(rest) < 2 or verb.lower in COPULAS or verb.tag == "MD" or verb.lower in ("do", "does", "did", "has", "have",
                                                                                      "had", "happens", "happened"):
        return None
    if not (verb.tag in ("VBZ", "VBD", "VBP") or verb.lower.endswith("s")) or "VERB" not in lemmas_of(verb.lower):
        return None
    obj = render(rest[1:])
    if rest[1].lower in _NOT_AN_OBJECT or rest[1].tag in ("IN", "TO", "RB") or looks_like_clause(obj):
        return None
    if any(word.tag == "TO" and after.tag == "VB" for word, after in zip(rest[2:], rest[3:])):
        return None  # "What caused Luther to write hymns?": the object's infinitive keeps the active
    if not _HEAVY.search(answer):
        # "What takes place as X?" + "it is refracted": the answer's own sentence stands
        return answer if looks_like_clause(answer) else None
    past = verb.tag == "VBD" or (verb.lower == inflect(verb.lower, "VBD") and verb.lower != inflect(verb.lower, "VBZ"))
    plural = plural_phrase(obj)
    copula = ("were" if plural else "was") if past else ("are" if plural else "is")
    return join(obj, copula, inflect(verb.lower, "VBN"), "by", definite_compound(answer))


# An answer heavy with an apposition or a relative clause after its noun, which goes last.
_HEAVY = re.compile(r",|\b(?:which|that|who|whose|where)\b", re.IGNORECASE)


def as_subject(answer: str, rest: Sequence[Word]) -> str:
    """The answer as the subject of ``rest``, its first verb agreeing ("Jupiter and Saturn are")."""
    subject = subject_case(answer)
    position = next((index for index, word in enumerate(rest) if word.tag not in ("RB", "RBS", "RBR")
                     and word.lower not in _DEGREE_ADVERBS), 0)
    verb = rest[position]
    if verb.tag.startswith("VB") or verb.tag == "MD" or verb.lower in COPULAS or "VERB" in lemmas_of(verb.lower):
        agreed = subject_agrees(verb.text, subject)
        return join(subject, render(rest[:position]), agreed, render(rest[position + 1:]))
    return join(subject, render(rest))


def _relative(frame: Frame, rest: List[Word], answer: str) -> str:
    """"What organ pumps blood?" -> "The organ that pumps blood is the heart"; "What language is
    spoken in Brazil?" -> "The language spoken in Brazil is Portuguese"."""
    start = predicate_start(rest)
    noun_phrase, modifier, rest = join(render(frame.phrase), render(rest[:start])), rest[:start], rest[start:]
    first = rest[0]
    if any(_is_relative(word) for word in modifier):
        relative = join("and", render(rest))  # "the agronomist that worked on X | and won Y"
    elif first.lower in COPULAS and len(rest) > 1 and (rest[1].tag == "VBN" or rest[1].lower in PREDICATE_ADJECTIVES
                                                        or rest[1].tag in ("IN",)) and not _finite_conjunct(rest):
        relative = render(rest[1:])
    else:
        relative = join("that", render(rest))
    subject = join("the", noun_phrase, relative)
    if plural_phrase(noun_phrase):
        return list_or_single(subject, answer)
    past = first.tag == "VBD" or first.lower in ("was", "did")
    articled = with_article(answer, noun_phrase)
    if articled == answer and is_count_noun(answer) and head_noun(noun_phrase.split()).lower() not in NAMING_NOUNS:
        articled = f"{indefinite_article(answer)} {answer}"  # "The tool used to cut wood is a saw"
    return join(subject, "was" if past else "is", definite_compound(answer) if articled == answer else articled)


_RELATIVE_WORDS = frozenset(("that", "which", "who"))
_MODIFIER_OPENINGS = frozenset(("IN", "VBN", "VBG"))


def predicate_start(rest: Sequence[Word]) -> int:
    """Where the predicate starts in the words after a subject wh-phrase: after the phrase's own
    modifier, a prepositional phrase, a participle or a relative clause ("What song | from the
    album made by The Who | reached ...", "What agronomist | that worked on X | won ..."). Each
    relative pronoun (lower-case: "The Who" is a name) takes the next finite verb as its own; the
    first finite verb left over is the predicate's. 0 when the predicate opens ``rest`` or none is
    found."""
    if not rest or not (rest[0].tag in _MODIFIER_OPENINGS or _is_relative(rest[0])):
        return 0  # "What molecule | stores and releases ...": no modifier, whatever the tagger calls "stores"
    pending = 0
    for index, word in enumerate(rest):
        if _is_relative(word):
            pending += 1
        elif word.tag in FINITE_TAGS or (word.lower in COPULAS and word.tag.startswith("VB")):
            if not pending:
                while index > 1 and (rest[index - 1].lower in _DEGREE_ADVERBS or rest[index - 1].dep == "neg"):
                    index -= 1  # "... played on | never won"
                return index
            pending -= 1
    return 0


def _is_relative(word: Word) -> bool:
    """A relative pronoun (lower-case: "The Who" is a name); "that" whatever its tag (the tagger
    often calls it a complementizer after a noun)."""
    return word.lower in _RELATIVE_WORDS and word.text.islower() and (word.tag in ("WDT", "WP") or word.lower == "that")


def _finite_conjunct(rest: Sequence[Word]) -> bool:
    """Whether a verb is conjoined to the participle after the copula ("was inspired by a film and
    cast X", "was directed by X and starred Y"): it may be finite, so the copula stays (a reduced
    relative would leave it without a subject). Read from the tags, not the labels: the parser
    often hangs the second verb on a noun."""
    return any(word.tag == "CC" and after.tag.startswith("VB") and "VERB" in lemmas_of(after.lower)
               for word, after in zip(rest[2:], rest[3:]))  # not "... limes, and grapefruit/VB"


def _count(frame: Frame, rest: List[Word], answer: str) -> str:
    quantifier, noun_phrase = frame.phrase[0].lower, texts(frame.phrase[1:])
    counted = join(no_determiner(answer), *missing_noun(answer, noun_phrase, quantifier))
    verb_first = bool(rest) and rest[0].tag not in ("DT", "IN") and agrees_as_verb(rest[0], plural=not _is_one(answer))
    if not verb_first and not any(word.tag.startswith("VB") or word.tag == "MD" for word in rest):
        return join("there", "are" if not _is_one(answer) else "is", counted, render(rest))  # "how many players on a team"
    first = rest[0]
    if first.lower in COPULAS and len(rest) > 1 and (rest[1].lower == "there" or (
            noun_phrase and rest[1].lower in _PLACE_PREPOSITIONS)):
        tail = rest[2:] if rest[1].lower == "there" else rest[1:]
        return join("there", _counted_copula(first.lower, answer), counted, render(tail))
    if len(rest) > 2 and rest[-1].lower == "there" and rest[-2].lower in COPULAS:
        # "how many episodes of sabrina the teenage witch are there": the phrase's "of" took a title
        return join("there", _counted_copula(rest[-2].lower, answer), counted, render(rest[:-2]))
    return join(counted, render(rest))


def _counted_copula(copula: str, answer: str) -> str:
    """"is" / "are" ("was" / "were") agreeing with the count: "how many rooms is there" + 775."""
    past = copula in ("was", "were")
    if _is_one(answer):
        return "was" if past else "is"
    return "were" if past else "are"


def _is_one(answer: str) -> bool:
    """Whether the count is one: "one", "a", "1", not "one hundred eighty-seven" or "a dozen"."""
    words = answer.lower().split()
    return words[0] in ("one", "1", "a", "an") and not (len(words) > 1 and words[1].strip(",") in MULTIPLIER_WORDS)


def _choices(rest: List[Word], answer: str) -> Optional[Tuple[List[Word], str]]:
    """``rest`` without a trailing ", A or B" (or ": A, B or C") whose choice the answer is, and
    the other choice (a comparison keeps it: "than B"); None without such a tail."""
    for index in range(len(rest) - 1, 0, -1):
        if _separates_choices(rest, index) and any(word.lower == "or" for word in rest[index + 1:]):
            options = _split_options(rest[index + 1:])
            lowered = _bare(answer)
            if lowered not in [_bare(option) for option in options]:
                return None
            others = [option for option in options if _bare(option) != lowered]
            return rest[:index], others[0] if len(others) == 1 else ""
    return None


def chosen_option(rest: List[Word], answer: str) -> str:
    """The option as the question writes it when the answer is its bare noun ("Which is faster, a
    cheetah or a horse?" + "cheetah" -> "a cheetah"): the question's determiner, not a bare singular."""
    if len(answer.split()) != 1 or not answer.islower():
        return answer
    options = _split_options(rest[next((index for index in range(len(rest) - 1, 0, -1)
                                        if _separates_choices(rest, index)), 0) + 1:])
    return next((option for option in options if _bare(option) == answer and option.lower() != answer), answer)


def _separates_choices(rest: Sequence[Word], index: int) -> bool:
    """Whether ``rest[index]`` opens the closing choices: a comma, or a colon that is no title's
    ("Avengers: Endgame", a capitalised word on both sides)."""
    word = rest[index]
    if word.text == ",":
        return True
    title = 0 < index < len(rest) - 1 and rest[index - 1].text[:1].isupper() and rest[index + 1].text[:1].isupper()
    return word.text == ":" and not title


def _has_choices(rest: List[Word]) -> bool:
    return any(word.text in (",", ":") for word in rest) and any(word.lower == "or" for word in rest)


def _neither_or_both(rest: List[Word], answer: str) -> Optional[str]:
    """"Which is heavier, X or Y?" + neither -> "Neither X nor Y is heavier"; + both -> "Both X
    and Y are heavier"."""
    word = answer.lower().strip(" .!")
    if word not in ("neither", "both", "neither of them", "both of them", "none of them"):
        return None
    for index in range(len(rest) - 1, 0, -1):
        if rest[index].text in (",", ":") and any(token.lower == "or" for token in rest[index + 1:]):
            options = _split_options(rest[index + 1:])
            if len(options) < 2:
                return None
            if word.startswith("both"):
                return as_subject(join("both", " and ".join(options)), rest[:index])
            listed = f"neither {options[0]} nor {options[1]}" if len(options) == 2 else f"none of {', '.join(options)}"
            verb = rest[0]
            return join(listed, "is" if verb.lower in ("is", "are") else verb.text, render(rest[1:index]))
    return None


def _split_options(words: Sequence[Word]) -> List[str]:
    options, current = [], []
    for word in words:
        if word.text == "," or word.lower == "or":
            if current:
                options.append(render(current))
            current = []
        else:
            current.append(word)
    if current:
        options.append(render(current))
    return options


def _bare(text: str) -> str:
    words = text.lower().strip(" .!?").split()
    return " ".join(words[1:] if words and words[0] in ("the", "a", "an") else words)


def _comparison(frame: Frame, rest: List[Word], answer: str, other: str) -> str:
    """"Who is older, A or B?" + A -> "A is older than B"; "Which came first, X or Y?" + X ->
    "X came before Y"; "Which has more calories, X or Y?" + X -> "X has more calories than Y"."""
    subject = definite_subject(answer, "")
    statement = as_subject(subject, rest)
    last = rest[-1].lower
    if last in _ORDER_WORDS:
        return join(statement.rsplit(" ", 1)[0], _ORDER_WORDS[last], other)
    if any(word.tag in COMPARATIVE_TAGS or word.lower in COMPARATIVE_WORDS for word in rest):
        return join(statement, "than", other)
    return statement
