"""The offline rule-based statement converter: ``statement_model="rules"``.

Turns a question and an answer into declarative sentences with no model download: spaCy's
``en_core_web_sm`` parses the question and the answer (``parser.py``; a lower-case search query
is parsed as the question it stands for, ``queries.py``), the question's structure
is read from the parse (``analysis.py``: wh-movement, inversion, do-support, modals, negation),
and ``lemminflect`` inflects the verbs. ``convert.py`` holds the pipeline:

- the prompt: context sentences, labels, options (``context.py``) and forms: claims, embedded
  questions, imperatives, blanks (``forms.py``, ``prompts.py``, ``blanks.py``);
- the answer: markdown, emoji, fillers, disclaimers and hedges removed, every claim kept
  (``answer_text.py``, ``answers.py``); a full-sentence answer kept, its pronoun resolved
  (``sentences.py``);
- the builders: ``wh_subject.py`` (the wh-phrase is the subject), ``wh_equative.py`` ("What is
  X?"), ``wh_inverted.py`` (objects, adverbials, degrees, counts), ``polar.py`` (yes/no);
- the statement's capitalisation (``casing.py``).

Context sentences stay in front of the statement; a multi-sentence answer gives several
sentences, never joined with "; ". A question or answer that is not English (``language.py``) is
passed through unconverted: the statement is the answer as given, with one warning per process.
``version.engine_identity()`` names what produced them.
"""

import logging
import threading
from typing import List, Tuple

from capqa.common.validation import check_same_length, check_text, check_text_list, visible_text
from capqa.statements.rules.answer_cleaning import lower_article
from capqa.statements.rules.convert import batch_statements, collector_paused
from capqa.statements.rules.language import not_english
from capqa.statements.rules.lexicon import BLANK, WHITESPACE, strip_trailing
from capqa.statements.rules.morphology import as_sentence

__all__ = ["naive_statement", "rule_statement", "rule_statements"]

logger = logging.getLogger(__name__)
_warned = threading.Event()


def rule_statement(question: str, answer: str) -> str:
    """The statement for ``question`` answered by ``answer``.

    Context sentences before the question stay in front of it; the answer's own words and every
    claim it makes are kept, what is not content (labels, option letters, hedges, fillers,
    markdown) is dropped. Example: ``rule_statement("When did the Berlin Wall fall?", "in
    1989")`` gives ``"The Berlin Wall fell in 1989."``.
    """
    check_text(question, "question")
    check_text(answer, "answer")
    if _passed_through(question, answer):
        return answer.strip()
    return batch_statements([_printed(question, answer)])[0]


def rule_statements(questions: List[str], answers: List[str]) -> List[str]:
    """``rule_statement`` over two equally long lists; each distinct pair is converted once."""
    questions = check_text_list(questions, "questions")
    answers = check_text_list(answers, "answers")
    check_same_length(questions, "questions", answers, "answers")
    with collector_paused():  # the batch's own pause, over the language checks too (see there)
        pairs = list(dict.fromkeys(zip(questions, answers)))
        made = {pair: pair[1].strip() for pair in pairs if _passed_through(*pair)}
        pairs = [pair for pair in pairs if pair not in made]
        made.update(zip(pairs, batch_statements([_printed(*pair) for pair in pairs])))
        return [made[pair] for pair in zip(questions, answers)]


def _printed(question: str, answer: str) -> Tuple[str, str]:
    """The pair as it prints: a control, zero-width or bidi character is no word, and left in it
    hides a question mark ("Who wrote Faust?\\x00") or splits a word from its parse."""
    return visible_text(question), visible_text(answer)


def _passed_through(question: str, answer: str) -> bool:
    """Whether the pair is not English, and so passed through as its answer (one warning per
    process, at the first such pair)."""
    language = not_english(question, answer)
    if language and not _warned.is_set():
        _warned.set()
        logger.warning("rule statements: the converter reads English only; a question or answer in another language "
                       "(%s, first seen: %r) is passed through unconverted, its statement the answer as given "
                       "(statement_issues marks it `not_english`); this is said once per process", language,
                       question[:80])
    return bool(language)


def naive_statement(question: str, answer: str) -> str:
    """The baseline the converter is measured against: the blank filled, or the answer appended."""
    question = WHITESPACE.sub(" ", question).strip()
    answer = lower_article(strip_trailing(WHITESPACE.sub(" ", answer).strip()))
    if BLANK.search(question):
        return as_sentence(BLANK.sub(lambda _: answer, question, count=1))
    return as_sentence(f"{strip_trailing(question)} {answer}")
