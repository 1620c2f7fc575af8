"""Copular wh-questions that ask what or who something is: "What is the capital of Australia?",
"Which river is the longest in Europe?", "Who was the Taj Mahal built for?", "What colour is a
flamingo's plumage?", "What is the function of the spleen?", "What do we call X?".

The subject keeps its words; the answer is its complement, with the article its role needs
(``morphology.with_article``); a predicate the question ends with stays ("is made of", "is
called", "is proportional to"); a list answer to a plural subject "include"s its items.
"""

import re
from typing import Optional

from capqa.statements.rules.analysis import Frame, render, texts
from capqa.statements.rules.declarative import declarative, join, object_slot, subject_agrees
from capqa.statements.rules.lexicon import (COPULAS, LIST_ANSWER, NAMING_PARTICIPLES, PREPOSITIONS, PROPOSITION_HEADS,
                                            TIME_NOUNS)
from capqa.statements.rules.morphology import (definite_subject, head_noun, inflect, is_base_verb, is_finite_verb,
                                               is_participle, is_plural_noun, is_superlative, is_third_person_verb,
                                               lemmas_of, looks_like_clause, plural_phrase, singular_of, with_article)
from capqa.statements.rules.surface import list_or_single, list_verb
from capqa.statements.rules.wh_phrase import wh_noun, with_subject_article

_FUNCTION = re.compile(r"^the (?:main |primary |major )?(?:function|role|purpose|job)s? of (.+?)"
                       r"(?: (?:in|during|within) .+)?$", re.IGNORECASE)
_SUBORDINATORS = frozenset("when while after before if because since until once as".split())
_NAMING_SUBJECTS = frozenset("we you people scientists they one".split())


def equative(frame: Frame, answer: str) -> Optional[str]:
    """The statement for "what/which/who + copula + subject", or for "What do we call X?"."""
    if frame.do_support and frame.wh == "what" and _names(frame):
        subject = render(frame.rest[1:])
        return join(subject, "are" if plural_phrase(subject) else "is", "called", answer)
    if frame.auxiliary not in COPULAS or frame.preposition or frame.wh not in ("what", "which", "who", "whom"):
        return None
    clause = declarative(frame)
    if clause is None:
        return None
    copula, subject, rest = clause.verb_group[0], _aside_closed(clause.subject), clause.rest
    if rest and _asks_a_time(frame) and rest[-1].lower not in PREPOSITIONS:
        # "What year was X born?" asks when, not what X is: ``inverted`` says "born in 1995" (a stranded
        # "What time is the show on?" stays here: "on 8pm")
        return None
    if rest and _progressive(rest) and frame.wh in ("what", "who", "whom") and not frame.phrase:
        return clause.text({_progressive_object_slot(rest): answer})
    if rest:
        if rest[0].lower == "like" and not answer.split()[0].lower() in ("a", "an", "the"):
            # "What is the weather like in the Sahara?" + "hot and dry"
            return join(subject, render(rest[1:]), copula, answer)
        if rest[0].lower in _SUBORDINATORS:
            # "who is the original singer of just when i needed you most", "What colour are bananas
            # when ripe?": the clause stays at the end
            if frame.wh == "who":
                return join(_who_is(subject, copula, answer), render(rest))
            return clause.text({0: with_article(answer, subject)})
        if frame.wh in ("who", "what") and _reduced_relative(frame, rest):
            # "who was the first player drafted?": the participle is the subject's ("the first player
            # drafted"), no passive whose agent is asked for
            described = join(subject, render(rest))
            return _who_is(described, copula, answer) if frame.wh == "who" else _what_is(described, copula, answer)
        if frame.wh == "who" and not any(word.tag in ("VBN", "IN", "TO", "RP", "JJ") for word in rest):
            return None
        return clause.text({object_slot(clause): with_article(answer, subject)})
    absent = _none_such(subject, copula, answer)
    if absent:
        return absent
    if frame.wh == "which" or (frame.wh == "what" and frame.phrase and frame.phrase[0].lower == "of"):
        return _which_is(frame, subject, copula, answer)
    if frame.wh == "who":
        return _who_is(subject, copula, answer)
    words = subject.split()
    if "like" in (word.lower() for word in words[1:]) and answer.split()[0].lower() not in ("a", "an", "the"):
        # "What is the weather like in the Sahara?" + "hot and dry": the parse keeps "like" inside
        return join(" ".join(word for word in words if word.lower() != "like"), copula, answer)
    if frame.phrase:
        # "What colour is a flamingo's plumage?" -> "A flamingo's plumage is pink"
        return join(subject, copula, with_article(answer, render(frame.phrase)))
    return _what_is(subject, copula, answer)


# A phrase set off at the end of the subject by its comma: "the total of X in 2019, in millions".
_TRAILING_ASIDE = re.compile(r",\s(?:in|as|at|by|per|for|from|with|excluding|including)\s[^,]{1,40}$")


def _aside_closed(subject: str) -> str:
    """The subject with its comma's phrase closed by a comma before the copula ("the total ...,
    in millions, is 1,234.5"), as an aside is; a comma that closes an earlier aside opens none
    ("the distance, in miles, from F to G")."""
    aside = _TRAILING_ASIDE.search(subject)
    opens_an_aside = aside is not None and subject[:aside.start()].count(", ") % 2 == 0
    return f"{subject}," if opens_an_aside else subject


def _reduced_relative(frame: Frame, rest) -> bool:
    """Whether the verb phrase after the subject is only a participle that describes it, as a
    table's questions have them ("the first player drafted", "the last team listed"): a participle
    the parse reads as a past tense after "who", or one after a superlative or ordinal; no
    preposition to strand, and no participle that takes the name asked for ("called")."""
    word = rest[0]
    if len(rest) != 1 or not word.text.islower() or not is_participle(word.lower) or word.lower in NAMING_PARTICIPLES:
        return False
    return (word.tag == "VBD" and frame.wh == "who") or any(is_superlative(each.lower) for each in frame.subject)


def _progressive(rest) -> bool:
    """"Who is Tom | calling?", "Who is Mary | meeting/NN tomorrow?", "What was Alice | reading/NN?":
    a verb phrase that opens with a lower-case -ing word that can be a verb is a progressive whose
    object is asked for, whatever tag the parse gives that word after a name."""
    first = rest[0]
    return first.text.islower() and first.lower.endswith("ing") and (first.tag == "VBG" or "VERB" in lemmas_of(
        first.lower))


def _progressive_object_slot(rest) -> int:
    """Where the object goes in a progressive: after a stranded preposition ("meeting with"), else
    after the -ing verb and its particle ("picking up | tomorrow")."""
    if rest[-1].tag in ("IN", "TO") and rest[-1].lower in PREPOSITIONS:
        return len(rest)
    return 2 if len(rest) > 1 and rest[1].tag == "RP" else 1


def _none_such(subject: str, copula: str, answer: str) -> str:
    """"What is the capital of Antarctica?" + "none" -> "There is no capital of Antarctica": a
    negative answer says the definite subject the question presumes does not exist (it is no thing
    the subject is); "" for other answers and subjects."""
    words = subject.split()
    if answer.strip(" .!").lower() not in ("none", "nothing") or len(words) < 2 or words[0].lower() != "the":
        # ("Who was the king of X?" + "nobody": "Nobody was the king of X", the answer as the subject)
        return ""
    return join("there", copula, "no", " ".join(words[1:]))


def _asks_a_time(frame: Frame) -> bool:
    return frame.wh in ("what", "which") and len(frame.phrase) == 1 and frame.phrase[0].lower in TIME_NOUNS


def _names(frame: Frame) -> bool:
    words = frame.subject
    return len(words) == 1 and words[0].lower in _NAMING_SUBJECTS and bool(frame.rest) and frame.rest[0].lower == "call"


def _which_is(frame: Frame, predicate: str, copula: str, answer: str) -> str:
    """"Which river is the longest in Europe?" + the Volga -> "The Volga is the longest river in
    Europe": the answer is the subject; a superlative with no noun takes the wh-phrase's."""
    noun = _wh_noun(frame)
    words = predicate.split()
    if noun and len(words) >= 2 and words[0].lower() == "the" and is_superlative(words[1].lower()) and (
            len(words) == 2 or words[2].lower() in ("in", "of", "on", "among", "to", "at", "for", "ever")):
        words = words[:2] + [noun] + words[2:]
    if copula in ("is", "are", "was", "were"):
        copula = subject_agrees(copula, answer)
    subject = with_subject_article(answer, wh_noun(texts(frame.phrase)))
    return join(definite_subject(subject, predicate), copula, " ".join(words))


def _wh_noun(frame: Frame) -> str:
    words = texts(frame.phrase)
    if words and words[0].lower() == "of":
        words = [word for word in words[1:] if word.lower() not in ("the", "these", "those", "following")]
    if not words or words[-1].lower() in ("one", "ones", "options", "choices"):
        return ""
    return singular_of(" ".join(words))


def _who_is(subject: str, copula: str, answer: str) -> str:
    """"Who is X?": a name is the subject ("Poseidon is the god of the sea"), a description the
    predicate ("The Beatles were a rock band")."""
    if answer.split()[0].lower() in ("a", "an") and len(answer.split()) > 1:
        return join(subject, copula, answer)
    if copula in ("are", "were") and subject.lower().startswith("the ") and plural_phrase(subject) and not (
            LIST_ANSWER.search(answer) or is_plural_noun(answer.split()[-1].lower())
            or answer.split()[0].lower() in ("the", "these", "those")):
        # "Who were the twins that played for Kentucky?" + one name: one of them
        return join(answer, "is" if copula == "are" else "was", "one of", subject)
    shared = _shared_role(subject, answer)
    if shared:
        return join(answer, "were" if copula in ("was", "were") else "are", shared)
    return join(answer, subject_agrees(copula, answer) if copula in ("is", "are") else copula, subject)


_ROLE_OF = re.compile(r"^the (?P<role>[a-z]+) (?P<rest>(?:of|for) .+)$")
_NAMED_PAIR = re.compile(r"^[A-Z][^,;]*? and [A-Z][^,;]*$")


def _shared_role(subject: str, answer: str) -> str:
    """The role named in the plural when names share it ("Who was the founder of Google?" + "Larry
    Page and Sergey Brin" -> "the founders of Google"); "" for one name, or a role not so named."""
    role = _ROLE_OF.match(subject)
    if not role or not _NAMED_PAIR.match(answer) or is_plural_noun(role.group("role")):
        return ""
    return f"the {inflect(role.group('role'), 'NNS')} {role.group('rest')}"


# An amount of money or a number with its unit: what plural fees, costs or totals came to, not one of them
_AMOUNT = re.compile(r"^(?:about |around |roughly |approximately )?[£$€¥]\s?\d|^\d[\d,.]*+\s?(?:%|percent\b)")


def _what_is(subject: str, copula: str, answer: str) -> str:
    function = _FUNCTION.match(subject)
    if function:
        statement = _function(subject, function.group(1), answer)
        if statement:
            return statement
    words = subject.split()
    if copula in ("are", "were") and words[0].lower() == "the" and _AMOUNT.match(answer):
        return join(subject, copula, answer)  # "What were the fees?" + "£30m": the amount they came to
    if copula in ("are", "were") and words[0].lower() == "the":
        return list_or_single(subject, answer)
    if is_third_person_verb(answer.split()[0]) and copula == "is":
        return join(subject, answer)
    if head_noun(words).lower() in PROPOSITION_HEADS and looks_like_clause(answer) and "=" not in answer:
        return join(subject, "states that", answer)
    return join(subject, copula, with_article(answer, subject))


def _function(subject: str, owner: str, answer: str) -> Optional[str]:
    """"What is the function of the spleen?" + "filters blood" -> "The spleen filters blood"."""
    words = answer.split()
    if words[0].lower() in ("it", "they"):
        return join(owner, " ".join(words[1:]))
    second = words[1] if len(words) > 1 else ""
    if is_third_person_verb(words[0]) or (plural_phrase(owner) and is_base_verb(words[0])
                                           and not second.endswith("ing") and not is_finite_verb(second)):
        return join(owner, answer)
    if plural_phrase(subject.split(" of ")[0]):
        return join(subject, list_verb(subject, answer) if LIST_ANSWER.search(answer) else "are", answer)
    return None
