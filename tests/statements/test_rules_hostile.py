"""Issue 27 item 1: hostile text makes no statement hang; issue 35 items 4 and 5: nor crash. Every pattern of capqa/statements runs in
time linear in its input (docs/rules.md, "Linear time"); these inputs are the repros of the issue
and a run of each character class the patterns repeat, as the answer, the question and both.

The quick test uses 100 kB inputs; the slow one a megabyte, where a quadratic pattern takes hours
(the issue measured 20-80 s at 32 kB). The alarm only ends a hang: a linear pass takes seconds.
"""

import signal

import pytest

from capqa.common.validation import parse_count
from capqa.statements.check import statement_issues
from capqa.statements.rules import convert, rule_statement, rule_statements
from capqa.statements.rules.convert import statement
from capqa.statements.rules.lexicon import strip_trailing

UNITS = [". ", ",", "\t;", "..", " ", "_", '"', "(", "a", "a) ", "A. ", "1. ", "😀", "- x\n", "[1]", "**", "? ",
         " — it ", "which ", ", which ", "Question: ", "True or false: ", "Tell me ", "n't ", "'s ", "Mr. ", "x: ",
         "___ ", "A) x ", "!", ";", "\n", "-", "1", "é", "the ", "is ", "What "]
QUICK_UNITS = [". ", ",", "\t;", "..", "!", "a) ", "A. ", "Mr. ", "_", "😀"]
HANG_SECONDS = 120  # per statement; a linear pass over a megabyte takes a few seconds


class Hung(BaseException):
    """Raised by the alarm: not an Exception, so the converter's per-pair ``except Exception``
    (a text it cannot take gets the safe form) cannot swallow it and let the next call run unwatched."""


@pytest.fixture
def hang_alarm():
    def hung(signum, frame):
        raise Hung(f"no statement after {HANG_SECONDS} s: a pattern is not linear")

    previous = signal.signal(signal.SIGALRM, hung)
    yield lambda: signal.alarm(HANG_SECONDS)
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _statements(unit, size, arm):
    body = unit * max(1, size // len(unit))
    for question, answer in (("What is it?", "x" + body + "y"), ("Why" + body + " x?", "because y"),
                             ("What is " + body + "?", "x" + body)):
        arm()
        statement = rule_statement(question, answer)
        arm()
        statement_issues(question, answer, statement)
        assert statement.endswith((".", '"', "”")), (unit, statement[-80:])


def test_the_issues_repro_patterns_are_linear(hang_alarm):
    # The repro of issue 27: 'x' + '. ' * 16000 + 'y' (and ',' * n, '\t;' * n).
    hang_alarm()
    for text in ("x" + ". " * 16000 + "y", "x" + "," * 32000 + "y", "x" + "\t;" * 16000 + "y"):
        assert strip_trailing(text) == text
    assert strip_trailing("x" + ". " * 500_000) == "x"


@pytest.mark.parametrize("unit", QUICK_UNITS)
def test_hostile_text_of_100_kb_makes_statements(unit, hang_alarm):
    _statements(unit, 100_000, hang_alarm)


@pytest.mark.slow
@pytest.mark.parametrize("unit", UNITS)
def test_hostile_text_of_a_megabyte_makes_statements(unit, hang_alarm):
    _statements(unit, 1_000_000, hang_alarm)


# Issue 35 items 4 and 5: text of one kind that the converter never saw, as the question, the
# answer and both. Each pair makes a statement (the safe form at worst) and the check reads it.
HOSTILE_KINDS = {
    "label only": ["Answer:", "Options:", "A:", "Choices :", "Options: A) Paris B) Lyon C) Nice", "Question:", "Q: A:",
                   "Passage: Question:", "Answer choices:", "Choose the correct answer:", "Options:\nA) Paris\nB) Lyon"],
    "punctuation only": ["?", "!!!", "...", "?!", ",", ";", "—", "()", '"', "¿?", "…", "*", "#"],
    "digits only": ["1", "123", "³", "²³", "١٢٣", "①", "½", "𝟑", "Ⅲ", "1" * 5000],
    "digits in a count": ["What are the ³ states of matter?", "Name the ² primary colours.", "What are the ① things?",
                          "What are the " + "9" * 30 + " states of matter?", "What are the ١٢٣ states?"],
    "emoji only": ["😀", "😀😀😀", "👨‍👩‍👧", "🇫🇷", "❤️", "👍?"],
    "right to left": ["ما هي عاصمة فرنسا؟", "מה הבירה של צרפת?", "What is \u202eit?", "Who wrote \u202bكتاب\u202c?"],
    "combining marks": ["\u0301", "e\u0301\u0301\u0301", "What is cafe\u0301?", "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇?"],
    "one very long token": ["x" * 20_000, "What is " + "a" * 20_000 + "?", "Supercalifragilistic" * 500],
}
# Plain answers (a name, a list, an option letter) and two of each hostile kind.
ANSWERS_OF_EVERY_KIND = ["Paris", "solid, liquid and gas", "B", "one, two and three"] + [
    text for texts in HOSTILE_KINDS.values() for text in texts[:2]]


@pytest.mark.parametrize("kind", HOSTILE_KINDS)
def test_hostile_kinds_of_text_make_statements_that_the_check_reads(kind):
    # convert.statement, not rule_statement: the batch's safe form for a failing pair would hide a crash here.
    for text in HOSTILE_KINDS[kind]:
        for question, answer in [(text, answer) for answer in ANSWERS_OF_EVERY_KIND] + [
                ("What is the capital of France?", text), (text, text)]:
            made = statement(question, answer)
            assert made.strip(), (question, answer)
            statement_issues(question, answer, made)


@pytest.mark.parametrize("question", ["Answer:", "Options:", "A:", "Choices :", "Options: A) Paris B) Lyon C) Nice"])
def test_a_question_that_is_only_a_label_gets_the_safe_form(question):
    made = rule_statement(question, "Paris")
    assert made == f'The answer to "{question}" is Paris.'
    assert "fallback_form" in statement_issues(question, "Paris", made)


@pytest.mark.parametrize("answer", ["?", "...", "!!!"])
def test_an_answer_of_punctuation_only_is_quoted_in_the_safe_form(answer):
    assert rule_statement("What is the capital of France?", answer) == (
        f'The answer to "What is the capital of France?" is "{answer}"')


def test_a_superscript_digit_is_no_count_of_a_list():
    # "³".isdigit() is true, int("³") fails: the list verb reads decimal digits only.
    assert rule_statement("What are the ³ states of matter?", "solid, liquid and gas") == (
        "The ³ states of matter include solid, liquid and gas.")
    assert rule_statement("What are the 3 states of matter?", "solid, liquid and gas") == (
        "The 3 states of matter are solid, liquid and gas.")


@pytest.mark.parametrize("invisible", ["\x00", "\u200b", "\ufeff", "\u200e", "\x07"])
def test_a_character_that_prints_nothing_changes_no_statement(invisible):
    # Left in, a NUL after the "?" hid the question mark: "Goethe wrote Faust?\x00."
    plain = rule_statement("Who wrote Faust?", "Goethe")
    assert plain == "Goethe wrote Faust."
    for question, answer in [(f"Who wrote Faust?{invisible}", "Goethe"), (f"Who wrote{invisible} Faust?", "Goethe"),
                             ("Who wrote Faust?", f"Goe{invisible}the{invisible}")]:
        assert rule_statement(question, answer) == plain == rule_statements([question], [answer])[0]


def test_parse_count_reads_decimal_digits_only():
    assert [parse_count(text) for text in ("3", "042", "١٢", "³", "①", "½", "", "-1", "1" * 19)] == [
        3, 42, 12, None, None, None, None, None, None]
    assert parse_count("١٢", ascii_only=True) is None


def test_a_pair_the_converter_cannot_convert_gets_the_safe_form_and_the_others_theirs(monkeypatch, caplog):
    real_finish = convert.finish

    def finish_failing_on_one(prepared):
        if prepared.question == "Who broke?":
            raise IndexError("list index out of range")
        return real_finish(prepared)

    monkeypatch.setattr(convert, "finish", finish_failing_on_one)  # batch_statements calls convert.finish
    with caplog.at_level("WARNING", logger="capqa.statements.rules"):
        made = rule_statements(["Who broke?", "When did the Berlin Wall fall?"], ["Tom", "in 1989"])
    assert made == ['The answer to "Who broke?" is Tom.', "The Berlin Wall fell in 1989."]
    assert "failed on 1 of 2 (question, answer) pairs" in caplog.text and "IndexError" in caplog.text
