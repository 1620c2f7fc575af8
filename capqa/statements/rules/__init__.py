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
sentences, never joined with "; ". ``version.engine_identity()`` names what produced them.
"""

from typing import List

from capqa.statements.rules.convert import finish, prepare, statement, texts_to_parse
from capqa.statements.rules.parser import parse_many
from capqa.statements.rules.lexicon import _BLANK, _WHITESPACE, strip_trailing
from capqa.statements.rules.answers import lower_article
from capqa.statements.rules.morphology import _sentence
from capqa.validation import check_same_length, check_text, check_text_list

__all__ = ["naive_statement", "rule_statement", "rule_statements"]


def rule_statement(question: str, answer: str) -> str:
    """The statement for ``question`` answered by ``answer``.

    Context sentences before the question stay in front of it; the answer's own words and every
    claim it makes are kept, what is not content (labels, option letters, hedges, fillers,
    markdown) is dropped. Example: ``rule_statement("When did the Berlin Wall fall?", "in
    1989")`` gives ``"The Berlin Wall fell in 1989."``.
    """
    check_text(question, "question")
    check_text(answer, "answer")
    return statement(question, answer)


def rule_statements(questions: List[str], answers: List[str]) -> List[str]:
    """``rule_statement`` over two equally long lists; each distinct pair is converted once."""
    questions = check_text_list(questions, "questions")
    answers = check_text_list(answers, "answers")
    check_same_length(questions, "questions", answers, "answers")
    pairs = list(dict.fromkeys(zip(questions, answers)))
    prepared = [prepare(question, answer) for question, answer in pairs]
    parse_many(text for item in prepared for text in texts_to_parse(item))  # one batch for the parser
    made = {pair: finish(item) for pair, item in zip(pairs, prepared)}
    return [made[pair] for pair in zip(questions, answers)]


def naive_statement(question: str, answer: str) -> str:
    """The baseline the converter is measured against: the blank filled, or the answer appended."""
    question = _WHITESPACE.sub(" ", question).strip()
    answer = lower_article(strip_trailing(_WHITESPACE.sub(" ", answer).strip()))
    if _BLANK.search(question):
        return _sentence(_BLANK.sub(lambda _: answer, question, count=1))
    return _sentence(f"{strip_trailing(question)} {answer}")
