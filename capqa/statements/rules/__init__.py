"""The offline rule-based statement converter: ``statement_model="rules"``.

Turns a question and an answer into one declarative sentence with no model and no download:
regular expressions find the question's shape, ``lemminflect`` inflects the verbs. Shapes, tried
in order (the first that applies wins):

1. the answer is already a full sentence: kept as it is;
2. fill-in-the-blank (``___``): the answer fills the first blank;
3. wh-words in situ ("... in order to do what?"): the answer replaces them;
4. imperatives: "Give an example of X.", "Name one X.", "Name three X.", "List the X.";
5. sentence completions ("The freezing point of water is"): the answer is appended;
6. wh-questions (what/which/who/whom/whose/when/where/why/how/how many/how much) with the
   auxiliary inversion undone: "When did the Berlin Wall fall?" + "in 1989" ->
   "The Berlin Wall fell in 1989.";
7. yes/no questions: "Can penguins fly?" + "no" -> "Penguins cannot fly.".

Anything else gets the safe form ``The answer to "QUESTION" is ANSWER.``, which keeps the whole
question and the whole answer. Text before the last sentence of a question (a context
paragraph) is kept in front of the statement.
"""

import re

from capqa.validation import check_same_length, check_text, check_text_list
from capqa.statements.rules.lexicon import (
    _BLANK, _FRONTED, _SENTENCE_SPLIT, _TRAILING_PUNCTUATION, _WHITESPACE, _WH_START,
)
from capqa.statements.rules.morphology import _capitalize, _sentence
from capqa.statements.rules.sentence_shapes import (
    _answer_is_sentence, _blank, _completion, _imperative, _in_situ, _yes_no,
)
from capqa.statements.rules.wh_copula import (
    _called_with_phrase, _copula, _function, _term_describes, _we_call, _what_happens,
    _which_of_following,
)
from capqa.statements.rules.wh_verbs import (
    _do_question, _how_adjective, _how_many, _preposition_wh, _wh_adverbial, _what_subject,
    _which_noun, _who_copula, _whose,
)

_SECOND_QUESTION = re.compile(r"^(.+?),? and (?:what|how|why|where|when|which|who)\b.*$", re.IGNORECASE)
_APPROXIMATELY = re.compile(r"^(approximately|roughly|about) |,? (approximately|roughly)$", re.IGNORECASE)


def _fallback(question, answer):
    return f'The answer to "{question.strip()}" is {answer}'


# Shapes of the question's last sentence, in the order they are tried.

_QUESTION_SHAPES = (
    _which_of_following, _what_happens, _function, _called_with_phrase, _we_call, _term_describes,
    _preposition_wh, _who_copula, _whose, _how_many, _how_adjective, _wh_adverbial, _copula, _do_question, _which_noun,
    _what_subject, _yes_no,
)



# --- Entry points ----------------------------------------------------------------------------
def _clean_answer(answer):
    """Whitespace collapsed, final punctuation dropped, a capitalised leading article or pronoun
    lowered (the answer usually lands mid-sentence; the sentence start is capitalised later)."""
    answer = _TRAILING_PUNCTUATION.sub("", _WHITESPACE.sub(" ", answer).strip())
    first, _, rest = answer.partition(" ")
    if rest and first in ("A", "An", "The", "It", "They", "This", "These", "Their", "Its"):
        return f"{first.lower()} {rest}"
    return answer


def _convert_question(question, answer):
    """The statement for a single question sentence, or None."""
    question = _TRAILING_PUNCTUATION.sub("", question)
    first_clause = _SECOND_QUESTION.match(question)
    if first_clause and _WH_START.match(question):
        question = first_clause.group(1)
    adverb = _APPROXIMATELY.search(question)
    if adverb and _WH_START.match(_APPROXIMATELY.sub("", question).strip()):
        question = _APPROXIMATELY.sub("", question).strip()
        answer = f"{(adverb.group(1) or adverb.group(2)).lower()} {answer}"
    for shape in _QUESTION_SHAPES:
        statement = shape(question, answer)
        if statement:
            return statement
    fronted = _FRONTED.match(question)
    if fronted:
        statement = _convert_question(fronted.group(2), answer)
        if statement:
            return f"{fronted.group(1)}, {_lower_first_article(statement)}"
    return None


def _lower_first_article(text):
    first, _, rest = text.partition(" ")
    return f"{first.lower()} {rest}" if first in ("The", "A", "An", "It", "They") else text


def rule_statement(question, answer):
    """One declarative sentence for ``question`` answered by ``answer``."""
    check_text(question, "question")
    check_text(answer, "answer")
    question = _WHITESPACE.sub(" ", question).strip()
    cleaned_answer = _clean_answer(answer)
    if not cleaned_answer:
        return _sentence(_fallback(question, answer.strip()))
    kept = _answer_is_sentence(question, answer.strip())
    if kept:
        return _sentence(kept)
    filled = _blank(question, cleaned_answer)
    if filled:
        return _sentence(filled)
    sentences = _SENTENCE_SPLIT.split(question)
    context, last = " ".join(sentences[:-1]), sentences[-1]
    statement = None
    for shape in (_in_situ, _imperative, _completion, _convert_question):
        statement = shape(last, cleaned_answer)
        if statement:
            break
    if not statement:
        return _sentence(_fallback(question, cleaned_answer))
    return _sentence(f"{context} {_capitalize(statement)}" if context else statement)


def rule_statements(questions, answers):
    """``rule_statement`` over two equally long lists."""
    questions = check_text_list(questions, "questions")
    answers = check_text_list(answers, "answers")
    check_same_length(questions, "questions", answers, "answers")
    return [rule_statement(question, answer) for question, answer in zip(questions, answers)]


def naive_statement(question, answer):
    """The baseline the converter is measured against: the blank filled, or the answer appended."""
    question, answer = _WHITESPACE.sub(" ", question).strip(), _clean_answer(answer)
    if _BLANK.search(question):
        return _sentence(_BLANK.sub(lambda _: answer, question, count=1))
    return _sentence(f"{_TRAILING_PUNCTUATION.sub('', question)} {answer}")
