"""What surrounds the question proper: context sentences in front of it, labels such as
"Passage:" or "Question:", instructions ("Read the passage."), answer options ("A) ... B) ..."),
and pronouns in the question that the context names ("She won ..." -> "Marie Curie won ...")."""

import re
from typing import NamedTuple

from capqa.statements.rules.answer_text import split_sentences
from capqa.statements.rules.lexicon import _DETERMINERS, _WHITESPACE
from capqa.statements.rules.morphology import _is_finite_verb, _plural_phrase

_LABEL = re.compile(r"(?:^|(?<=\s))(?:passage|context|paragraph|text|background|story|article|question|q)\s*:\s*",
                    re.IGNORECASE)
_QUESTION_LABEL = re.compile(r"(?:^|(?<=\s))(?:question|q)\s*:\s*", re.IGNORECASE)
_INSTRUCTION = re.compile(r"^(?:read|answer|use|consider|look at|based on)\b.*\b(?:passage|text|question|paragraph|"
                          r"context|following|below|story|article)\b[^.]*[.:]?$", re.IGNORECASE)
_TRAILING_INSTRUCTION = re.compile(r"^(?:answer|respond|reply|be|keep|give|explain|use|please|think|show|"
                                  r"justify|only)\b[^.?!]{0,60}[.!]?$", re.IGNORECASE)
# An option marker: "A)", "(B)", "c.", "D:" after a space, followed by the option's text.
_OPTION_MARKER = re.compile(r"(?:^|(?<=\s))\(?([A-Ha-h])[).:]\s+")
_SUBJECT_PRONOUN = re.compile(r"\b(he|she|it|they|his|her|its|their)\b", re.IGNORECASE)
_PERSONAL = frozenset(("he", "she", "his", "her"))


class QuestionParts(NamedTuple):
    context: list      # the sentences before the question, labels and instructions removed
    question: str      # the question proper, options removed
    options: dict      # option letter (lower-case) -> option text


def split_question(text: str) -> QuestionParts:
    """Context sentences, the question proper and its answer options."""
    text, options = _take_options(_WHITESPACE.sub(" ", text).strip())
    labelled = list(_QUESTION_LABEL.finditer(text))
    if labelled and text[labelled[-1].end():].strip():
        context_text, question = text[:labelled[-1].start()], text[labelled[-1].end():].strip()
    else:
        sentences = split_sentences(text)
        # "Who was X? Answer briefly.": a short instruction after the question is not the question.
        while len(sentences) > 1 and sentences[-2].endswith("?") and not sentences[-1].endswith("?") and (
                _TRAILING_INSTRUCTION.match(sentences[-1])):
            sentences = sentences[:-1]
        context_text, question = " ".join(sentences[:-1]), _LABEL.sub("", sentences[-1]).strip()
    context = [sentence for sentence in split_sentences(_LABEL.sub("", context_text))
               if not _INSTRUCTION.match(sentence)]
    return QuestionParts(context, question, options)


def _take_options(text):
    """The text without a trailing run of options "A) x B) y ...", and the options by letter."""
    markers = list(_OPTION_MARKER.finditer(text))
    for start, first in enumerate(markers):
        if first.group(1).lower() != "a" or first.start() == 0:
            continue
        run = [first]
        for marker in markers[start + 1:]:
            if ord(marker.group(1).lower()) == ord(run[-1].group(1).lower()) + 1:
                run.append(marker)
        if len(run) < 2:
            continue
        ends = [marker.start() for marker in run[1:]] + [len(text)]
        options = {marker.group(1).lower(): text[marker.end():end].strip(" ,;") for marker, end in zip(run, ends)}
        return text[:first.start()].strip(), options
    return text, {}


def resolve_pronoun(question: str, context: list) -> str:
    """The question with its first third-person pronoun replaced by the subject of the context
    sentence it most likely refers to ("his dog" -> "Tom's dog"); unchanged without one."""
    if not context:
        return question
    match = _SUBJECT_PRONOUN.search(question)
    if not match:
        return question
    pronoun = match.group(1).lower()
    antecedent = _antecedent(pronoun, context)
    if not antecedent:
        return question
    possessive = pronoun in ("his", "its", "their") or (pronoun == "her" and _precedes_noun(question, match.end()))
    replacement = f"{antecedent}'s" if possessive else antecedent
    if match.start() > 0 and replacement.split()[0] in ("The", "A", "An"):
        replacement = replacement[0].lower() + replacement[1:]
    return question[:match.start()] + replacement + question[match.end():]


def _precedes_noun(text, position):
    following = text[position:].split()[:1]
    return bool(following) and following[0].isalpha() and following[0].lower() not in ("?", "to", "with", "for")


def _antecedent(pronoun, context):
    """The first context subject that agrees with ``pronoun``: a name for he/she, a plural for
    they, a singular for it."""
    for sentence in context:
        subject = _subject_of(sentence)
        if not subject or _SUBJECT_PRONOUN.fullmatch(subject):
            continue
        plural = _plural_phrase(subject)
        if pronoun in ("they", "their"):
            if plural:
                return subject
        elif pronoun in _PERSONAL:
            if subject[0].isupper() and subject.split()[0].lower() not in _DETERMINERS and not plural:
                return subject
        elif not plural:
            return subject
    return None


def _subject_of(sentence):
    """The words before the sentence's first verb ("The Amazon River | flows ...")."""
    words = sentence.split()
    for index in range(1, len(words)):
        word, previous = words[index], words[index - 1].lower()
        if word[:1].isupper() or previous in _DETERMINERS or word.endswith(","):
            continue
        if _is_finite_verb(word.lower()):
            return " ".join(words[:index]).strip(",")
    return None
