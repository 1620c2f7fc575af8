"""Issue 27 item 1: hostile text makes no statement hang. Every pattern of capqa/statements runs in
time linear in its input (docs/rules.md, "Linear time"); these inputs are the repros of the issue
and a run of each character class the patterns repeat, as the answer, the question and both.

The quick test uses 100 kB inputs; the slow one a megabyte, where a quadratic pattern takes hours
(the issue measured 20-80 s at 32 kB). The alarm only ends a hang: a linear pass takes seconds.
"""

import signal

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement
from capqa.statements.rules.lexicon import strip_trailing

UNITS = [". ", ",", "\t;", "..", " ", "_", '"', "(", "a", "a) ", "A. ", "1. ", "😀", "- x\n", "[1]", "**", "? ",
         " — it ", "which ", ", which ", "Question: ", "True or false: ", "Tell me ", "n't ", "'s ", "Mr. ", "x: ",
         "___ ", "A) x ", "!", ";", "\n", "-", "1", "é", "the ", "is ", "What "]
QUICK_UNITS = [". ", ",", "\t;", "..", "!", "a) ", "A. ", "Mr. ", "_", "😀"]
HANG_SECONDS = 120  # per statement; a linear pass over a megabyte takes a few seconds


@pytest.fixture
def hang_alarm():
    def hung(signum, frame):
        raise TimeoutError(f"no statement after {HANG_SECONDS} s: a pattern is not linear")

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
