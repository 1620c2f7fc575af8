"""wh-questions with a fronted auxiliary and a subject of their own: the answer goes where the
wh-phrase came from.

- an adverbial (where / when / why / how, a preposition with its wh-phrase, a time noun): "The
  Berlin Wall fell in 1989", "Water begins to boil at 100°C";
- a degree or a measure (how + adjective, how many / how much): "Mozart was 35 years old when he
  died", "A spider has eight legs";
- an object (what / who / whom, a stranded preposition): "Juliet loved Romeo", "Paris lies on the
  Seine"; "What N does X V?" reads "The N X Vs is ...", CAP-Statements' convention.

Copular questions that ask for the subject's identity ("What is X?") are ``wh_equative``'s.
"""

import re
from typing import List, Optional

from capqa.statements.rules.agreement import NEVER, no_determiner, with_never
from capqa.statements.rules.analysis import Frame, render, texts
from capqa.statements.rules.declarative import (Clause, adverbial_slot, declarative, join, main_verb_position,
                                                object_slot)
from capqa.statements.rules.lexicon import (COMPARATIVE_TAGS, COMPARATIVE_WORDS, COPULAS, DEFINITE_HEADS, LINKING_VERBS,
                                            MEASURE_ADJECTIVES, NUMBER_WORDS, PREPOSITIONS, TIME_NOUNS,
                                            TIME_PREPOSITIONS)
from capqa.statements.rules.morphology import (indefinite_article, is_adjective, is_bare_noun_phrase, is_mass_noun,
                                               is_participle, is_plural_noun, lemmas_of, looks_like_clause,
                                               plural_phrase, with_article)
from capqa.statements.rules.parser import Word
from capqa.statements.rules.surface import adjective_phrase, answer_adverbial, list_or_single
from capqa.statements.rules.wh_phrase import missing_noun, wh_noun

_NUMBER = re.compile(r"^[\d.,]+$")
_MONEY = re.compile(r"[$£€¥]|\b(?:dollars?|pounds?|euros?|cents?|pence|yen|rupees?)\b", re.IGNORECASE)
# "the last time X won Y": the time clause whose verb takes "last" / "first".
_ORDINAL_TIME = re.compile(r"^the (last|first|only) time$", re.IGNORECASE)


def inverted(frame: Frame, answer: str) -> Optional[str]:
    """The statement for a wh-question whose subject is not the wh-phrase, or None."""
    clause = declarative(frame)
    if clause is None:
        return None
    wh, phrase = frame.wh, texts(frame.phrase)
    if frame.preposition:
        noun = wh_noun(phrase)
        if answer.split()[0].lower() not in PREPOSITIONS:
            answer = f"{frame.preposition} {_definite(answer, noun)}"
        # A time ("in what year") goes at the end, a place right after the verb ("occurs in X").
        return _adverbial_clause(frame, clause, answer, after_verb=noun.lower() not in TIME_NOUNS)
    if wh == "how" and phrase and phrase[0].lower() in ("many", "much"):
        return _comparison(frame, clause, answer) or _count(frame, clause, answer)
    if wh == "how" and phrase:
        return _degree(frame, clause, answer)
    if wh in ("where", "when", "why", "how"):
        return _adverbial_question(frame, clause, answer)
    if wh in ("what", "which") and len(phrase) == 1 and phrase[0].lower() in TIME_NOUNS and not stranded(clause):
        if clause.subject.lower() == "it" and clause.rest and clause.rest[0].lower == "be":
            return clause.text({1: answer})  # "What time will it be in 2 hours?": the time is what "it" will be
        preposition = TIME_NOUNS[phrase[0].lower()]
        adverbial = answer if answer.split()[0].lower() in PREPOSITIONS else f"{preposition} {answer}"
        return _adverbial_clause(frame, clause, adverbial, after_verb=False)
    if wh == "whose":
        owner = re.sub(r"[’']s?$", "", answer)
        return _object(clause, f"{owner}'s {render(frame.phrase)}")
    return _object_question(frame, clause, answer)


def _definite(answer: str, noun: str) -> str:
    """"in which part of the cell" + chloroplast -> "in the chloroplast": a unique part's article."""
    if noun.lower() in DEFINITE_HEADS and is_bare_noun_phrase(answer):
        return f"the {answer}"
    return answer


def _adverbial_clause(frame: Frame, clause: Clause, adverbial: str, after_verb: bool) -> str:
    if frame.auxiliary in COPULAS and not clause.rest:
        return clause.text({0: adverbial})
    return clause.text({adverbial_slot(clause, after_verb): adverbial})


def _adverbial_question(frame: Frame, clause: Clause, answer: str) -> Optional[str]:
    wh = frame.wh
    if wh == "where" and frame.auxiliary in COPULAS:
        placed = _place_before_time(clause, answer_adverbial(wh, answer))
        if placed:
            return placed
    if wh == "when" and answer.lower() in NEVER:
        return _never(frame, clause)
    if wh == "where" and clause.rest and stranded(clause) and object_slot(clause) == len(clause.rest):
        # "Where does the name Garcia come from?" + Spain -> "... comes from Spain"
        words = answer.split()
        if len(words) > 1 and words[0].lower() == clause.rest[-1].lower:
            answer = " ".join(words[1:])
        return clause.text({len(clause.rest): answer})
    if wh == "when" and frame.auxiliary in COPULAS and not clause.rest:
        ordinal = _ORDINAL_TIME.match(_head_of_time(frame))
        if ordinal:
            return _ordinal_time(frame, ordinal.group(1).lower(), answer)
    if wh == "how" and frame.auxiliary in COPULAS and (not clause.rest or not any(
            word.tag == "VBN" for word in clause.rest)):
        return clause.text({len(clause.rest): answer})  # "How is the water?" + "very salty"
    return _adverbial_clause(frame, clause, answer_adverbial(wh, answer), after_verb=wh == "where" or (
        wh == "how" and complement_adjective(_main_verb(frame, clause), answer)))


def complement_adjective(verb: str, answer: str) -> bool:
    """Whether a "how" answer is an adjective (its degree adverbs before it: "very happy") after a
    linking verb: the verb's complement, so it goes right after the verb, before the question's
    prepositional phrases ("The boy felt happy at the end of the story", not "... at the end of the
    story happy")."""
    return bool(set(lemmas_of(verb).get("VERB", (verb,))) & LINKING_VERBS) and adjective_phrase(answer)


def _place_before_time(clause: Clause, place: str) -> Optional[str]:
    """"Where was Sandra before the office?", "Where was the football before the kitchen?": the place
    goes right after the copula, before the time phrase (which the parse may hang on the subject's
    noun); None without such a phrase."""
    subject = clause.subject.split()
    cut = next((index for index in range(1, len(subject)) if subject[index].lower() in TIME_PREPOSITIONS), None)
    if cut is not None:
        return join(" ".join(subject[:cut]), *clause.verb_group, place, " ".join(subject[cut:]), render(clause.rest))
    if clause.rest and clause.rest[0].lower in TIME_PREPOSITIONS:
        return clause.text({0: place})
    return None


def _head_of_time(frame: Frame) -> str:
    words = texts(frame.subject)
    return " ".join(words[:3])


def _ordinal_time(frame: Frame, ordinal: str, answer: str) -> Optional[str]:
    """"When was the last time Kentucky won the NCAA?" -> "Kentucky last won the NCAA in 2012"."""
    words = frame.subject[3:]
    verb = next((index for index, word in enumerate(words) if word.tag in ("VBD", "VBZ", "VBP")
                 or (index and word.tag == "VBN")), None)
    if not verb:
        return None
    time = answer_adverbial("when", answer)
    return join(render(words[:verb]), ordinal, render(words[verb:]), time)


def _never(frame: Frame, clause: Clause) -> str:
    """"When did X win Y?" + never -> "X never won Y"; "When has X had Y?" -> "X has never had Y"."""
    if frame.do_support:
        return join(clause.subject, "never", *clause.verb_group, render(clause.rest))
    return join(clause.subject, *clause.verb_group, "never", render(clause.rest))


def _degree(frame: Frame, clause: Clause, answer: str) -> Optional[str]:
    """"How tall is X?" -> "X is 330 m tall"; "How long did the war last?" -> "... lasted 116 years";
    "How far away is the Moon?" -> "The Moon is 384,400 km away"."""
    degree = frame.phrase[0].lower
    if "ADJ" not in lemmas_of(degree) and "ADV" not in lemmas_of(degree) and frame.phrase[0].tag not in ("JJ", "RB"):
        return None
    # "away" of "how far away", "ago" of "how long ago"; an adjunct ("before a flight") follows the degree
    particle = [word.lower for word in frame.phrase[1:]]
    adjunct = render(frame.phrase[1:]) if particle and frame.phrase[1].tag == "IN" else ""
    if adjunct:
        particle = []
    if frame.auxiliary not in COPULAS:
        infinitive = _it_takes(clause, frame)
        if infinitive is not None:
            return clause.text({infinitive: _for_subject_out(clause, infinitive, answer)})  # "It takes light from the Sun about 8 minutes to reach Earth"
        words = answer.split()
        if words[0].lower() in PREPOSITIONS and not (len(words) > 1 and _NUMBER.match(words[1])):
            particle = []  # "How far back does it go?" + "to the 1600s": the answer's phrase says where
        # "It has been | six months", "Sara will be | 17 in 5 years": the degree is the copula's after its auxiliary
        slot = 1 if clause.rest and clause.rest[0].lower in ("been", "be") else len(clause.rest)
        if degree == "far" and not particle:  # a distance: the measure before the adjuncts ("travel | in 4 h")
            slot = next((index for index, word in enumerate(clause.rest) if word.tag == "IN"), slot)
        said = " ".join(_with_particle(words, particle))
        # "until dawn" says when for itself: the adjunct before it ("hunt into the night until dawn")
        said = join(adjunct, said) if particle == [] and words[0].lower() in PREPOSITIONS else join(said, adjunct)
        return clause.text({slot: said})
    clause = _predicate_phrase_out(clause)
    answer_words = answer.split()
    if degree == "old" and _NUMBER.match(answer_words[-1]):
        answer_words.append("years")
    if particle:
        answer_words = _with_particle(answer_words, particle)  # "384,400 km away": the particle, not "far"
    elif _takes_degree(degree, answer_words):
        answer_words.append(degree)
    return clause.text({_degree_slot(clause): join(" ".join(answer_words), adjunct)})


def _with_particle(answer_words: List[str], particle: List[str]) -> List[str]:
    """The answer with the degree's particle after it, unless it says it ("2,000 years ago")."""
    if not particle or [word.lower() for word in answer_words[-len(particle):]] == particle:
        return answer_words
    return answer_words + particle


def _takes_degree(degree: str, answer_words: List[str]) -> bool:
    """Whether the degree's adjective follows the answer: after a measure only a dimension's
    ("330 m tall", not "5,500 degrees hot"), never after an adjective of the answer's own ("very
    hot", "huge")."""
    last = answer_words[-1].lower()
    if last == degree or (is_adjective(last) and "ADV" not in lemmas_of(last)):  # "very" is a degree's adverb
        return False
    measured = any(_MEASURE_WORD.search(word) or word.lower() in NUMBER_WORDS for word in answer_words)
    return degree in MEASURE_ADJECTIVES or not measured


_MEASURE_WORD = re.compile(r"\d")


def _degree_slot(clause: Clause) -> int:
    """Where a copula's degree goes: after a passive's participle and an infinitive it takes ("was
    built | nearly 2,000 years ago", "is allowed to be | 22 inches tall"), else right after the
    copula ("is | 330 m tall from ...", "is | quite likely to rain")."""
    rest = clause.rest
    if not rest or not (rest[0].tag == "VBN" or (rest[0].tag == "VBD" and is_participle(rest[0].lower))):
        return 0
    index = 1
    while index + 1 < len(rest) and rest[index].tag == "TO" and rest[index + 1].tag == "VB":
        index += 2
    return index


def _it_takes(clause: Clause, frame: Frame) -> Optional[int]:
    """Where a duration goes in "it takes X TIME to V": before the infinitive, or before the
    "for" that gives the infinitive its subject ("It took 17 years for the team to win ...")."""
    if clause.subject.lower() != "it" or not frame.rest or frame.rest[0].lower not in ("take", "takes", "took"):
        return None
    infinitive = next((index for index in range(len(clause.rest) - 1) if clause.rest[index].tag == "TO"
                       and clause.rest[index + 1].tag.startswith("VB")), None)
    if infinitive is None:
        return None
    for index in range(infinitive - 1, -1, -1):
        if clause.rest[index].lower == "for":
            return index
        if clause.rest[index].lower in PREPOSITIONS or clause.rest[index].tag.startswith("VB"):
            break  # "take him to the store for an hour to ...": no subject phrase of the infinitive
    return infinitive


def _for_subject_out(clause: Clause, slot: int, answer: str) -> str:
    """The answer without the infinitive's subject its own "took" named ("It took Apple 42 years."
    -> "42 years"), when the duration goes before the question's "for Apple to ..."."""
    if clause.rest[slot].lower != "for":
        return answer
    infinitive = next(index for index in range(slot, len(clause.rest)) if clause.rest[index].tag == "TO")
    subject = render(clause.rest[slot + 1:infinitive])
    if subject and answer.lower().startswith(subject.lower() + " "):
        return answer[len(subject) + 1:]
    return answer


def _predicate_phrase_out(clause: Clause) -> Clause:
    """"How far is the Moon from the Earth?": "from the Earth" is the predicate's, not the
    subject's, though the parse attaches it to "the Moon"."""
    subject = clause.subject.split()
    for index in range(1, len(subject)):
        if subject[index].lower() in PREPOSITIONS - {"of"}:
            moved = tuple(Word(text, text.lower(), "IN" if position == 0 else "NN", "", -1, -1, True)
                          for position, text in enumerate(subject[index:]))
            return clause._replace(subject=" ".join(subject[:index]), rest=moved + clause.rest)
    return clause


def stranded(clause: Clause) -> bool:
    """Whether the clause has a stranded preposition (its object is the answer)."""
    slot = object_slot(clause)
    return 0 < slot <= len(clause.rest) and clause.rest[slot - 1].lower in PREPOSITIONS and (
        clause.rest[slot - 1].tag in ("IN", "RP", "TO"))


def _count(frame: Frame, clause: Clause, answer: str) -> Optional[str]:
    """"How many legs does a spider have?" -> "A spider has eight legs"."""
    quantifier, noun_phrase = frame.phrase[0].lower, texts(frame.phrase[1:])
    if frame.auxiliary in COPULAS and not noun_phrase:
        if quantifier == "much" and _MONEY.search(answer) and not clause.rest:
            return join(clause.subject, "costs" if not plural_phrase(clause.subject) else "cost", answer)
        return clause.text({len(clause.rest): answer})
    if noun_phrase and noun_phrase[-1].lower() == "times" and answer.lower().strip(" .!") in NEVER:
        # "How many times has Canada won the World Cup?" + "Never." -> "Canada has never won the World Cup"
        return with_never(clause.subject, [*clause.verb_group, render(clause.rest)])
    counted = join(no_determiner(answer), *missing_noun(answer, noun_phrase, quantifier))
    if noun_phrase and noun_phrase[-1].lower() == "times":
        # "The pizza is 3 times as expensive as the salad": a multiple before the degree it multiplies
        return clause.text({0 if clause.rest and clause.rest[0].lower == "as" else len(clause.rest): counted})
    if frame.auxiliary in COPULAS and clause.rest and clause.rest[0].tag in ("IN", ","):
        return clause.text({0: counted})  # "How many miles is he from home?": the measure is the copula's, before "from"
    than = next((index for index, word in enumerate(clause.rest) if word.lower == "than"), None)
    if noun_phrase and noun_phrase[0].lower() in COMPARATIVE_WORDS and than is not None and object_slot(clause) > than:
        # "How many more pages did she read on Monday than on Tuesday?": the difference before the adjuncts it compares
        slot = next((index for index, word in enumerate(clause.rest[:than]) if word.tag == "IN"), than)
        return clause.text({slot: counted})
    infinitive = _it_takes(clause, frame)  # "It will take her | 5 days | to read the book"
    if infinitive is not None:
        counted = _for_subject_out(clause, infinitive, counted)
    return clause.text({object_slot(clause) if infinitive is None else infinitive: counted})


def _comparison(frame: Frame, clause: Clause, answer: str) -> Optional[str]:
    """"How much taller is X than Y?" + "about 518 metres" -> "X is about 518 metres taller than
    Y"; "How many years older was A than B?" + 8 -> "A was 8 years older than B": the difference
    goes before the comparative, and the "than" phrase, which the parse leaves in the subject,
    after it. None when the wh-phrase compares nothing or the verb is no copula (``_count``
    puts a difference before its noun: "scored 19 more goals than Ronaldo")."""
    words = frame.phrase[1:]
    compared = next((index for index, word in enumerate(words) if word.tag in COMPARATIVE_TAGS
                     or word.lower in COMPARATIVE_WORDS or _ends_comparative(word.lower)), None)
    if compared is None or (frame.auxiliary not in COPULAS and compared + 1 < len(words)):
        return None  # "How many more goals did X score": the difference counts the noun (``_count``)
    degree = render(words[compared:])
    difference = join(answer, *missing_noun(answer, texts(words[:compared]), frame.phrase[0].lower))
    if not _ends_comparative(difference) and not difference.lower().endswith(f" {degree.lower()}"):
        difference = join(difference, degree)  # "3 tonnes heavier", "11 years younger" say it already
    if frame.auxiliary in COPULAS:
        clause = _than_out(clause)
        return (_predicate_phrase_out(clause) if _named_subject(frame) else clause).text({0: difference})
    # "How much faster does light travel than sound?": the difference before "than", or where an
    # object goes ("will be 8 centimeters shorter after burning")
    than = next((index for index, word in enumerate(clause.rest) if word.lower == "than"), None)
    return clause.text({object_slot(clause) if than is None else than: difference})


def _named_subject(frame: Frame) -> bool:
    """Whether the subject is a name before its first preposition ("Mars | from the Sun than
    Earth"): a name needs no phrase to pick it out, so the phrase is the comparison's ("farther
    from the Sun"), though the parse attaches it to the name."""
    head = []
    for word in frame.subject:
        if word.tag in ("IN", "TO"):
            break
        head.append(word)
    return bool(head) and len(head) < len(frame.subject) and all(
        word.tag in ("NNP", "NNPS") or (index == 0 and word.lower == "the") for index, word in enumerate(head))


def _ends_comparative(text: str) -> bool:
    """Whether ``text`` ends with a comparative ("heavier", "more expensive", "younger")."""
    last = text.split()[-1].lower() if text.split() else ""
    base = (lemmas_of(last).get("ADJ") or lemmas_of(last).get("ADV") or (last,))[0]
    return last in COMPARATIVE_WORDS or (base != last and last.endswith("er"))


def _than_out(clause: Clause) -> Clause:
    """The clause with the subject's "than" phrase moved after the verb ("the Burj Khalifa than
    the Shard" -> "the Burj Khalifa" ... "than the Shard")."""
    subject = clause.subject.split()
    lowered = [word.lower() for word in subject]
    if "than" not in lowered[1:]:
        return clause
    index = lowered.index("than", 1)
    moved = tuple(Word(text, text.lower(), "IN" if position == 0 else "NN", "", -1, -1, True)
                  for position, text in enumerate(subject[index:]))
    return clause._replace(subject=" ".join(subject[:index]), rest=moved + clause.rest)


def _object(clause: Clause, answer: str) -> str:
    return clause.text({object_slot(clause): answer})


def _object_question(frame: Frame, clause: Clause, answer: str) -> Optional[str]:
    """what / which / who / whom as an object or a complement."""
    phrase = texts(frame.phrase)
    rest = clause.rest
    if frame.auxiliary in COPULAS:
        return None  # an identity question: wh_equative's
    is_stranded = stranded(clause)
    if phrase and phrase[0].lower() != "of" and is_adjective(answer) and len(phrase) == 1 and not is_stranded:
        # "What charge do electrons carry?" + positive -> "Electrons carry a positive charge."
        noun = phrase[0]
        article = "" if is_plural_noun(noun) or is_mass_noun(noun) else indefinite_article(answer)
        return _object(clause, join(article, answer, noun))
    if phrase and phrase[0].lower() != "of" and frame.do_support and not is_stranded and _relative_reading(frame):
        return _what_noun_relative(frame, clause, answer)
    main = _main_verb(frame, clause)
    if main == "do" and not is_stranded:
        if frame.do_support:
            return join(clause.subject, _without_pronoun(answer))  # "What does an acid do (to X)?"
        return join(clause.subject, *clause.verb_group, render(rest[:clause.verb_index - 1]),
                    answer, render(rest[clause.verb_index:]))
    if rest and rest[-1].lower == "like" and is_adjective(answer.split()[-1]):
        return clause.text({len(rest) - 1: answer}).rsplit(" like", 1)[0]  # "tastes sour"
    if looks_like_clause(answer) and not is_stranded and not answer.lower().startswith("that "):
        answer = f"that {answer}"
    return _object(clause, answer)


def _relative_reading(frame: Frame) -> bool:
    """"What sport does X play?" reads "The sport X plays is tennis" (not with a time noun)."""
    return frame.wh in ("what", "which") and not any(word.lower in TIME_NOUNS for word in frame.phrase[-1:])


def _what_noun_relative(frame: Frame, clause: Clause, answer: str) -> str:
    noun_phrase = render(frame.phrase)
    subject = join("the", noun_phrase, clause.text())
    if plural_phrase(noun_phrase):
        return list_or_single(subject, answer)
    copula = "was" if frame.auxiliary == "did" else "is"
    return join(subject, copula, with_article(answer, noun_phrase))


def _main_verb(frame: Frame, clause: Clause) -> str:
    if frame.do_support and not frame.negated:
        return frame.rest[main_verb_position(frame.rest)].lower if frame.rest else ""
    return clause.rest[clause.verb_index - 1].lower if clause.rest and clause.verb_index else ""


def _without_pronoun(answer: str) -> str:
    words = answer.split()
    return " ".join(words[1:]) if len(words) > 1 and words[0].lower() in ("it", "they") else answer
