"""wh-questions about what something is: "What is X?", "What happens to X when Y?",
"What is X called?", "Which of the following is X?"."""

import re

from capqa.statements.rules.lexicon import (
    _AUXILIARIES, _DETERMINERS, _LIST_ANSWER, _PREDICATE_ADJECTIVES, _PREDICATE_NOUNS, _PREPOSITIONS,
    _PROPOSITION_HEADS,
)
from capqa.statements.rules.morphology import (
    definite_subject,
    _head_noun, _is_adverb, _is_base_verb, _is_clause, _is_finite_verb, _is_participle,
    _is_third_person_verb, _plural_phrase, _with_article,
)
from capqa.statements.rules.agreement import as_subject
from capqa.statements.rules.clauses import _list_or_single, list_verb

_WHICH_OF_FOLLOWING = re.compile(r"^which (?:one )?of (?:the following|these|those|the options|the choices)"
                                 r"(?: (\w+))? (.+)$", re.IGNORECASE)
_WHAT_HAPPENS = re.compile(r"^what (?:happens|happened|(?:will|would|might|could|can) happen) (?:to (.+?) )?"
                           r"(when|as|if|after|during|in|while|before|once|at) (.+)$", re.IGNORECASE)
_WHAT_HAPPENS_START = re.compile(r"^what (?:happens|happened|(?:will|would|might|could|can) happen)\b", re.IGNORECASE)
_WHAT_HAPPENS_TO = re.compile(r"^what (?:happens|happened|(?:will|would|might|could|can) happen) to (.+)$",
                              re.IGNORECASE)
_FUNCTION = re.compile(r"^what (?:is|are) (the (?:main |primary |major )?(?:function|role|purpose|job)s? "
                       r"of (.+?))(?: (in|during|within) .+)?$", re.IGNORECASE)
_CALLED_WITH_PHRASE = re.compile(r"^what (is|are|was|were) (.+?) ((?:\w+ly |also )*(?:called|known as|"
                                 r"named|termed)) ((?:in|by|among) .+)$", re.IGNORECASE)
_WE_CALL = re.compile(r"^what (?:do|does|did) (?:we|you|people|scientists|they) call (.+)$", re.IGNORECASE)
_TERM_DESCRIBES = re.compile(r"^what (term|word|name) (?:describes|refers to|is used for|means) (.+)$",
                             re.IGNORECASE)
_COPULA_QUESTION = re.compile(r"^(?:what|which) (is|are|was|were) (.+)$", re.IGNORECASE)


def _which_of_following(match, answer):
    first, rest = match.group(1), match.group(2)
    if first and first.lower() not in _AUXILIARIES and not _is_finite_verb(first):
        # "Which of the following statements is true" + a clause: the clause is the statement.
        if _is_clause(answer) and re.match(r"^(is|are) (true|correct|accurate)", rest, re.IGNORECASE):
            return answer
        return f"{answer} {rest}"
    return f"{answer} {first} {rest}" if first else f"{answer} {rest}"


def _what_happens(match, answer):
    question = match.string
    match = _WHAT_HAPPENS.match(question)
    if match:
        topic, connective, condition = match.groups()
        if not topic and connective.lower() in ("in", "during", "at") and not _is_clause(answer):
            # "What happened in 1066?" + "the Norman conquest" -> "The Norman conquest happened in 1066"
            return f"{answer} {match.string.split()[1].lower()} {connective} {condition}"
        outcome = _replace_pronoun(answer, topic) if topic else (
            answer if _is_clause(answer) else f"the result is {answer}")
        return f"{connective} {condition}, {outcome}"
    match = _WHAT_HAPPENS_TO.match(question)
    if match:
        return _replace_pronoun(answer, match.group(1))
    return None


def _replace_pronoun(answer, topic):
    words = answer.split()
    if words and words[0].lower() in ("it", "they"):
        return " ".join([topic] + words[1:])
    return answer if _is_clause(answer) else f"{topic} {answer}"


def _function(match, answer):
    noun_phrase, owner = match.group(1), match.group(2)
    first = answer.split()[0]
    if first.lower() in ("it", "they"):
        return f"{owner} {answer.split(' ', 1)[1]}"
    second = answer.split()[1] if len(answer.split()) > 1 else ""
    if _is_third_person_verb(first) or (_plural_phrase(owner) and _is_base_verb(first)
                                        and not second.endswith("ing") and not _is_finite_verb(second)):
        return f"{owner} {answer}"
    subject = f"{noun_phrase}{match.string[match.end(2):]}"
    if _plural_phrase(noun_phrase.split(" of ")[0]):
        # "the main functions of the liver" + "detoxification and bile production": a list
        return f"{subject} {list_verb(subject, answer) if _LIST_ANSWER.search(answer) else 'are'} {answer}"
    return f"{subject} is {answer}"


def _called_with_phrase(match, answer):
    copula, subject, predicate, phrase = match.groups()
    return f"{subject} {copula.lower()} {predicate} {answer} {phrase}"


def _we_call(match, answer):
    subject = match.group(1)
    copula = "are" if _plural_phrase(subject) else "is"
    return f"{subject} {copula} called {answer}"


def _term_describes(match, answer):
    return f"the {match.group(1).lower()} for {match.group(2)} is {answer}"


def _copula(match, answer):
    copula, rest = match.group(1).lower(), match.group(2)
    if match.string[:5].lower() == "which":
        if copula in ("is", "are"):
            copula = "are" if _plural_phrase(answer) else "is"
        return f"{definite_subject(answer, rest)} {copula} {rest}"
    words = rest.split()
    if _is_participle(words[0]) and words[0].lower() not in ("called", "known", "named", "termed"):
        return as_subject(answer, [copula] + words)  # "What was discovered by X?" -> "Y was discovered by X"
    if "like" in (word.lower() for word in words[1:]) and answer.split()[0].lower() not in _DETERMINERS:
        # "What is the weather like in X?" + "hot and dry" -> "The weather in X is hot and dry"
        return f"{' '.join(word for word in words if word.lower() != 'like')} {copula} {answer}"
    predicate_start = _predicate_suffix_start(words)
    if predicate_start is not None:
        subject, predicate = " ".join(words[:predicate_start]), " ".join(words[predicate_start:])
        return f"{subject} {copula} {predicate} {_with_article(answer, subject)}"
    if copula in ("are", "were") and words[0].lower() == "the":
        return _list_or_single(rest, answer)
    if _is_third_person_verb(answer.split()[0]) and copula == "is":
        return f"{rest} {answer}"
    if _head_noun(words).lower() in _PROPOSITION_HEADS and _is_clause(answer) and "=" not in answer:
        return f"{rest} states that {answer}"
    return f"{rest} {copula} {_with_article(answer, rest)}"


def _predicate_suffix_start(words):
    """Where a question-final predicate starts ("... | also known as"), or None."""
    last = words[-1].lower()
    if not (last in _PREPOSITIONS or _is_participle(last)) or len(words) < 2:
        return None
    if words[-2].lower() in _AUXILIARIES and any(
            word.lower() in ("where", "that", "which", "who", "whom", "when") for word in words[1:-2]):
        return None  # the participle ends a relative clause: "the city where X is located"
    index = len(words) - 1
    while index > 1:
        previous = words[index - 1].lower()
        if (previous in _PREPOSITIONS and previous not in ("into", "between", "through")
                or previous in _PREDICATE_ADJECTIVES or previous in _PREDICATE_NOUNS
                or previous in ("a", "an", "also") or _is_adverb(previous)
                or _is_participle(previous) and words[index].lower() in _PREPOSITIONS):
            index -= 1
            continue
        break
    if words[index].lower() in _PREPOSITIONS and index == len(words) - 1 and last not in ("of", "to", "as"):
        return None
    return index
