"""An answer sentence whose subject is the question's noun phrase cut short takes the whole phrase.

"Find the constant term in the expansion of $$X$$" + "The constant term is 125." says what the
constant term is of only through the question: on its own the sentence has lost its referent. When
the answer's subject is a determiner, modifiers and a noun that the question has word for word,
followed there by a prepositional complement ("in the expansion of X", "of $(x - 3)^3 + ...$"), the
statement's subject is the question's whole phrase: "The constant term in the expansion of $$X$$ is
125.". A subject with a complement of its own, a superlative one (it sets its own scope: "The largest
desert is Antarctica"), or one the question does not name, stays as it is.
"""

import re
from typing import Dict, List, Optional

from capqa.statements.rules.lexicon import (AUXILIARIES, DETERMINERS, FINITE_TAGS, NOMINAL_SUBJECT_DEPS, PREPOSITIONS,
                                            strip_trailing)
from capqa.statements.rules.parser import Parse, parse
from capqa.statements.rules.queries import parse_question
from capqa.statements.rules.sentences import sentence_head

_NOUN_TAGS = frozenset(("NN", "NNS"))
_MODIFIER_TAGS = frozenset(("DT", "JJ", "JJR", "NN", "NNS", "CD", "VBN"))
_COPULA_NEXT = re.compile(r"^(?:is|are|was|were|equals)\b")
_MIN_SHARED_WORDS = 2
_MAX_CUT_SENTENCE_WORDS = 8
_FUNCTION_WORDS = DETERMINERS | PREPOSITIONS | AUXILIARIES


def completed_subject(kept: str, question: str) -> str:
    """``kept`` with its cut-short subject given the question's complement (see the module)."""
    opening = " ".join(kept.split(" ", 2)[:2]).lower()
    if " " not in opening or opening not in question.lower():
        return kept  # the question has not the subject's first words: nothing to parse for
    head = sentence_head(kept)  # what ``full_sentence`` parsed of it: the subject is at its start
    words = parse(head)
    end = _bare_subject_end(words)
    if end is None:
        return kept
    question_words = parse_question(question)
    phrase = _question_phrase(question_words, [word.lower for word in words[:end + 1]])
    if not phrase:
        return kept
    rest = kept[_offsets(words)[end + 1] if end + 1 < len(words) else len(head):].lstrip()
    phrase = phrase[:1].upper() + phrase[1:] if kept[:1].isupper() else phrase
    return f"{phrase} {rest}"


def completed_task_subject(kept: str, target: str) -> str:
    """``kept`` ("The remainder is 3.") with its subject given the whole object of the task it
    answers ("Find the remainder when $X$ is divided by 7."): when the sentence opens with the
    object's first words (two at least, "the" first) and a copula follows them, the object takes
    their place. Read from the text, not the parse, since a task's formulas defeat the small
    parser ("the minimum value of \\[\\sqrt{x^2 + 400} + ...\\]")."""
    object_words, kept_words = target.split(), kept.split()
    if not object_words or object_words[0].lower() != "the":
        return kept
    shared = 0
    while shared < min(len(object_words), len(kept_words)) and (
            object_words[shared].lower() == kept_words[shared].lower()):
        shared += 1
    if shared < _MIN_SHARED_WORDS or shared == len(object_words) or not _COPULA_NEXT.match(
            " ".join(kept_words[shared:]).lower()) or not _formulas_whole(target):
        return kept
    target = re.sub(r"\.\s*+(\\\]|\$)$", r"\1", target)  # a formula's own full stop ("... + 900}.\]") ends no subject
    return f"{target[:1].upper() if kept[:1].isupper() else target[:1]}{target[1:]} {' '.join(kept_words[shared:])}"


def completed_predicate(kept: str, question: str) -> str:
    """``kept`` ending where the question's phrase goes on ("No system is needed" to "What system
    is needed for a body to get its supply of oxygen?", "None of these is a positive effect" to "A
    positive effect of burning biofuel is") with the rest of that phrase: the sentence says its
    claim of the question's whole phrase, which, cut short, loses what it is needed for or an
    effect of. The last two words of the sentence (one a content word) must be the question's
    word for word, and the rest runs to the question's next auxiliary or its end."""
    first, semicolon, rest = kept.partition("; ")
    if semicolon:  # "No system is needed; the lungs do it alone.": the first clause's phrase
        return f"{completed_predicate(first, question)}{semicolon}{rest}"
    kept_words = strip_trailing(kept).split()
    question_words = strip_trailing(question).split()
    if len(kept_words) < _MIN_SHARED_WORDS + 1 or len(kept_words) > _MAX_CUT_SENTENCE_WORDS:
        return kept
    end = [word.lower() for word in kept_words[-_MIN_SHARED_WORDS:]]
    if not any(word not in _FUNCTION_WORDS for word in end):
        return kept
    lowered = [word.lower() for word in question_words]
    for start in range(len(lowered) - _MIN_SHARED_WORDS):
        if lowered[start:start + _MIN_SHARED_WORDS] != end:
            continue
        tail = []
        for word in question_words[start + _MIN_SHARED_WORDS:]:
            if word.lower() in AUXILIARIES:
                break
            tail.append(word)
        if not tail or tail[0].lower() not in PREPOSITIONS or not _formulas_whole(" ".join(tail)):
            return kept  # only a complement of the phrase ("of burning biofuel", "for a body to ...")
        return f"{strip_trailing(kept)} {' '.join(tail)}"
    return kept


def _bare_subject_end(words: Parse) -> Optional[int]:
    """The index of the subject's noun when the sentence opens with a determined subject of
    modifiers and a noun only, followed by its verb ("The constant term is"); else None."""
    if len(words) < 3 or words[0].tag != "DT":
        return None
    for word in words[1:]:
        if word.tag not in _MODIFIER_TAGS:
            return None  # a superlative ("The largest desert is Antarctica") sets its own scope
        if word.tag in _NOUN_TAGS and word.dep in NOMINAL_SUBJECT_DEPS:
            following = words[word.i + 1] if word.i + 1 < len(words) else None
            has_complement = any(other.head == word.i and other.dep == "prep" for other in words)
            if following is None or has_complement or following.tag not in FINITE_TAGS:
                return None
            return word.i
    return None


def _question_phrase(words: Parse, subject: List[str]) -> Optional[str]:
    """The question's noun phrase that opens with ``subject`` word for word and goes on with a
    prepositional complement of its noun: the text to its end (its last dependant)."""
    size = len(subject)
    offsets = _offsets(words)
    text = "".join(word.text + (" " if word.space else "") for word in words)
    for start in range(len(words) - size + 1):
        if [word.lower for word in words[start:start + size]] != subject:
            continue
        noun = words[start + size - 1]
        if not any(word.head == noun.i and word.dep == "prep" and word.i > noun.i for word in words):
            continue
        end = _last_dependant(words, noun.i)
        phrase = text[offsets[start]:offsets[end] + len(words[end].text)].rstrip(" ?.!,;:")
        if phrase.endswith((".$", ".\\]")):
            phrase = phrase[:-3] + phrase[-2:] if phrase.endswith("\\]") else phrase[:-2] + "$"  # a formula's own
            # full stop ("... = (2x - 10)^3.$", "... + 4100}.\]")
        if not _formulas_whole(phrase):
            return None  # the parse cut a formula: never half of one
        return phrase if len(phrase) > len(" ".join(subject)) else None
    return None


def _formulas_whole(text: str) -> bool:
    """Whether every formula the text opens it also closes ("$...$", "\\[...\\]", "\\(...\\)")."""
    return text.replace("\\$", "").count("$") % 2 == 0 and text.count("\\[") == text.count("\\]") and (
        text.count("\\(") == text.count("\\)"))


def _last_dependant(words: Parse, index: int) -> int:
    """The index of the last word of ``index``'s subtree."""
    children: Dict[int, List[int]] = {}
    for word in words:
        if word.i != word.head:
            children.setdefault(word.head, []).append(word.i)
    last, todo = index, [index]
    while todo:
        current = todo.pop()
        last = max(last, current)
        todo.extend(children.get(current, ()))
    return last


def _offsets(words: Parse) -> List[int]:
    """Each word's character offset in the parsed text."""
    offsets, position = [], 0
    for word in words:
        offsets.append(position)
        position += len(word.text) + (1 if word.space else 0)
    return offsets
