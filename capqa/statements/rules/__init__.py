"""The offline rule-based statement converter: ``statement_model="rules"``.

Turns a question and an answer into one declarative sentence with no model and no download:
regular expressions find the question's shape, ``lemminflect`` inflects the verbs.

The pipeline (``rule_statement``):

1. the question is split into context sentences, the question proper and its answer options
   (labels such as "Passage:" and instructions dropped; ``context.py``); a pronoun of the question
   that the context names is replaced by its referent; contractions and negated auxiliaries are
   written out (``_normalised``);
2. the answer is reduced to its content: labels, option letters, hedges and restating openers go
   (``answers.py``); a negative answer's reason ("No one, it was cancelled") is kept for the end;
3. an answer that is already a full sentence is kept; a blank (``___``) is filled;
4. otherwise the first row of ``SHAPES`` whose pattern matches the question and whose builder
   gives a statement wins (the table is in the order the rows are tried; a builder declines
   with ``None`` when its finer checks fail, and the next matching row is tried);
5. anything else gets the safe form ``The answer to "QUESTION" is ANSWER.``, which keeps the
   whole question and the whole answer.

The context sentences stay in front of the statement; the statement is always one sentence.
"""

import re
from typing import Callable, List, NamedTuple, Optional, Pattern

from capqa.statements.rules.answers import clean_answer, elliptical_subject, lower_article
from capqa.statements.rules.context import resolve_pronoun, split_question, split_sentences
from capqa.statements.rules.how_degree import (
    _HOW_ADJECTIVE, _HOW_COPULA, _HOW_DEGREE, _how_adjective, _how_copula, _how_degree,
)
from capqa.statements.rules.lexicon import (
    _BLANK, _FRONTED, _IMPERATIVE_START, _TRAILING_PUNCTUATION, _WH_START, _WHITESPACE,
)
from capqa.statements.rules.morphology import _capitalize, _sentence
from capqa.statements.rules.sentence_shapes import (
    _YES_NO_QUESTION, _answer_is_sentence, _blank, _completion, _imperative, _in_situ, _yes_no,
    positive_auxiliary,
)
from capqa.statements.rules.wh_copula import (
    _CALLED_WITH_PHRASE, _COPULA_QUESTION, _FUNCTION, _TERM_DESCRIBES, _WE_CALL, _WHAT_HAPPENS_START,
    _WHICH_OF_FOLLOWING, _called_with_phrase, _copula, _function, _term_describes, _we_call, _what_happens,
    _which_of_following,
)
from capqa.statements.rules.wh_complement import _WH_PHRASE_AUX, _attribute, _stranded, _time_noun
from capqa.statements.rules.wh_verbs import (
    _DO_QUESTION, _HOW_MANY, _PREPOSITION_WH, _WH_AUX, _WHICH_NOUN, _WHO, _WHO_COPULA, _WHOSE, _WH_MODAL,
    _do_question, _how_many, _preposition_wh, _wh_adverbial, _what_subject, _which_noun,
    _who_copula, _whose, _wh_modal,
)
from capqa.validation import check_same_length, check_text, check_text_list

__all__ = ["SHAPES", "Shape", "naive_statement", "rule_statement", "rule_statements"]

_ANY = re.compile(r"^.+$")
# "What's", "Who're": a contracted copula after the wh-word is read in full.
_CONTRACTED_WH = re.compile(r"^(what|who|where|when|why|how|which)[’']([sr]e?)\b", re.IGNORECASE)
_EXPANDED = {"s": "is", "re": "are"}
# "Why can't penguins fly?" -> "Why can not penguins fly?": the shapes keep "not" with the auxiliary.
_WH_NEGATED = re.compile(r"^((?:what|which|who|whom|whose|when|where|why|how)\b(?: [\w'-]+){0,3}?) "
                         r"(is|are|was|were|do|does|did|could|would|should|must|has|have|had|ca|wo)n[’']t\b",
                         re.IGNORECASE)
_CONTRACTED = {"ca": "can", "wo": "will"}
_CHOICE_TAIL = re.compile(r"^(.+?),\s*([^,]+?) or ([^,]+)$", re.IGNORECASE)
_NEGATIVE_REASON = re.compile(r"^(no one|nobody|nothing|none|never)\s*[,;:]\s*(\w.+)$", re.IGNORECASE)
_SECOND_QUESTION = re.compile(r"^(.+?),? and (?:what|how|why|where|when|which|who)\b.*$", re.IGNORECASE)
_APPROXIMATELY = re.compile(r"^(approximately|roughly|about) |,? (approximately|roughly)$", re.IGNORECASE)


class Shape(NamedTuple):
    """One row of the dispatch table: a question shape, the pattern that recognises it, and the
    builder ``build(match, answer) -> statement or None``."""
    name: str
    pattern: Pattern
    build: Callable[[re.Match, str], Optional[str]]


# Shapes of the question sentence that are not questions to invert, in the order they are tried.
SENTENCE_SHAPES = (
    Shape("wh-word in situ", _ANY, _in_situ),
    Shape("imperative", _IMPERATIVE_START, _imperative),
    Shape("sentence completion", _ANY, _completion),
)
# Shapes of a question, in the order they are tried: the specific before the general.
SHAPES = (
    Shape("which of the following", _WHICH_OF_FOLLOWING, _which_of_following),
    Shape("what happens (to X) when Y", _WHAT_HAPPENS_START, _what_happens),
    Shape("what is the function of X", _FUNCTION, _function),
    Shape("what is X called in Y", _CALLED_WITH_PHRASE, _called_with_phrase),
    Shape("what do we call X", _WE_CALL, _we_call),
    Shape("what term describes X", _TERM_DESCRIBES, _term_describes),
    Shape("preposition + wh-phrase", _PREPOSITION_WH, _preposition_wh),
    Shape("wh-phrase + stranded preposition", _WH_PHRASE_AUX, _stranded),
    Shape("what year/day + auxiliary", _WH_PHRASE_AUX, _time_noun),
    Shape("what N + copula + subject", _WH_PHRASE_AUX, _attribute),
    Shape("who + copula", _WHO_COPULA, _who_copula),
    Shape("whose N", _WHOSE, _whose),
    Shape("how many/much", _HOW_MANY, _how_many),
    Shape("how + adjective + copula", _HOW_ADJECTIVE, _how_adjective),
    Shape("how + adjective + auxiliary", _HOW_DEGREE, _how_degree),
    Shape("how + copula", _HOW_COPULA, _how_copula),
    Shape("where/when/why/how + auxiliary", _WH_AUX, _wh_adverbial),
    Shape("what/which + copula", _COPULA_QUESTION, _copula),
    Shape("what/which/who + do-support", _DO_QUESTION, _do_question),
    Shape("what/who + modal or perfect", _WH_MODAL, _wh_modal),
    Shape("what/which N + verb", _WHICH_NOUN, _which_noun),
    Shape("wh-word subject + verb", _WHO, _what_subject),
    Shape("yes/no question", _YES_NO_QUESTION, _yes_no),
)


def _dispatch(shapes, question: str, answer: str) -> Optional[str]:
    for shape in shapes:
        match = shape.pattern.match(question)
        if match:
            statement = shape.build(match, answer)
            if statement:
                return statement
    return None


def _convert_question(question: str, answer: str) -> Optional[str]:
    """The statement for a single question sentence, or None."""
    question, answer = _normalised(question, answer)
    statement = _dispatch(SHAPES, question, answer)
    if statement:
        return statement
    fronted = _FRONTED.match(question)
    if fronted:
        statement = _convert_question(fronted.group(2), answer)
        if statement:
            return f"{fronted.group(1)}, {_lower_first_article(statement)}"
    return None


def _normalised(question: str, answer: str):
    """The question in the form the shapes read: contractions written out ("What's" -> "What
    is", "Why can't" -> "Why can not", a fronted "Isn't" made positive), a second question and
    listed choices dropped, "approximately" moved to the answer."""
    question = positive_auxiliary(_TRAILING_PUNCTUATION.sub("", question))
    question = _CONTRACTED_WH.sub(lambda match: f"{match.group(1)} {_EXPANDED[match.group(2).lower()]}", question)
    first_clause = _SECOND_QUESTION.match(question)
    if first_clause and _WH_START.match(question):
        question = first_clause.group(1)
    question = _WH_NEGATED.sub(
        lambda match: f"{match.group(1)} {_CONTRACTED.get(match.group(2).lower(), match.group(2))} not", question)
    choice = _CHOICE_TAIL.match(question)
    if choice and answer.lower().strip() in (choice.group(2).lower(), choice.group(3).lower()):
        question = choice.group(1)  # "Which came first, the chicken or the egg?" asks "Which came first?"
    adverb = _APPROXIMATELY.search(question)
    if adverb and _WH_START.match(_APPROXIMATELY.sub("", question).strip()):
        question = _APPROXIMATELY.sub("", question).strip()
        answer = f"{(adverb.group(1) or adverb.group(2)).lower()} {answer}"
    return question, answer


def _lower_first_article(text: str) -> str:
    first, _, rest = text.partition(" ")
    return f"{first.lower()} {rest}" if first in ("The", "A", "An", "It", "They") else text


def _fallback(question: str, answer: str) -> str:
    return f'The answer to "{question.strip()}" is {answer}'


def _one_sentence(statement: str) -> str:
    """Sentences the statement was built from joined by semicolons: it is exactly one sentence."""
    sentences = split_sentences(_WHITESPACE.sub(" ", statement).strip())
    parts = [_TRAILING_PUNCTUATION.sub("", sentence) for sentence in sentences]
    return "; ".join(part[:1].lower() + part[1:] if index and not _keeps_capital(part) else part
                     for index, part in enumerate(parts) if part)


def _keeps_capital(part: str) -> bool:
    first = part.split()[0]
    return first == "I" or (first[1:] != first[1:].lower()) or not first[:1].isupper() or first.isupper() or (
        first[0].isupper() and first.lower() not in ("the", "a", "an", "it", "they", "this", "these", "he", "she",
                                                     "we", "you", "there", "its", "their", "his", "her"))


def rule_statement(question: str, answer: str) -> str:
    """One declarative sentence for ``question`` answered by ``answer``.

    Context sentences before the question stay in front of it (so the result is those sentences
    and then exactly one more); the answer's own words are kept, what is not content (labels,
    option letters, hedges) is dropped. Example: ``rule_statement("When did the Berlin Wall
    fall?", "in 1989")`` gives ``"The Berlin Wall fell in 1989."``.
    """
    check_text(question, "question")
    check_text(answer, "answer")
    parts = split_question(question)
    if not parts.question:
        return _sentence(_fallback(_WHITESPACE.sub(" ", question).strip(), answer.strip()))
    last = resolve_pronoun(parts.question, parts.context)
    content = clean_answer(answer, last, parts.options)
    if not content:
        return _sentence(_fallback(last, answer.strip()))
    content, explanation = _negative_with_reason(content)
    statement = _answer_is_sentence(last, content, answer) or _blank(last, lower_article(content))
    if not statement:
        statement = _statement_for(last, lower_article(elliptical_subject(content)))
    if statement and explanation:
        statement = f"{statement}; {explanation}"
    if not statement:
        return _sentence(" ".join(parts.context + [_fallback(last, lower_article(content))]))
    return _sentence(" ".join(parts.context + [_capitalize(_one_sentence(statement))]))


def _negative_with_reason(content: str):
    """"No one, it was cancelled" -> ("No one", "it was cancelled"): a negative answer and its
    reason; other answers -> (content, "")."""
    match = _NEGATIVE_REASON.match(content)
    return (match.group(1), match.group(2)) if match else (content, "")


def _statement_for(question: str, answer: str) -> Optional[str]:
    return _dispatch(SENTENCE_SHAPES, question, answer) or _convert_question(question, answer)


def rule_statements(questions: List[str], answers: List[str]) -> List[str]:
    """``rule_statement`` over two equally long lists."""
    questions = check_text_list(questions, "questions")
    answers = check_text_list(answers, "answers")
    check_same_length(questions, "questions", answers, "answers")
    return [rule_statement(question, answer) for question, answer in zip(questions, answers)]


def naive_statement(question: str, answer: str) -> str:
    """The baseline the converter is measured against: the blank filled, or the answer appended."""
    question, answer = _WHITESPACE.sub(" ", question).strip(), lower_article(
        _TRAILING_PUNCTUATION.sub("", _WHITESPACE.sub(" ", answer).strip()))
    if _BLANK.search(question):
        return _sentence(_BLANK.sub(lambda _: answer, question, count=1))
    return _sentence(f"{_TRAILING_PUNCTUATION.sub('', question)} {answer}")
