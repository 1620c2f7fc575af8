"""The rule converter's language gate (issue 31 item 4): a question or answer that is not English
is passed through as its answer, marked `not_english` by the check, warned once; names, titles
and mottos in English questions stay the converter's."""

import os
import subprocess
import sys

import pytest

from capqa.common.paths import REPO_ROOT
from capqa.statements.check import statement_issues
from capqa.statements.rules import language, rule_statement, rule_statements


@pytest.mark.parametrize("question, answer", [
    ("Кой е написал Фауст?", "Гьоте"),
    ("東京タワーの高さは何メートルですか？", "333メートル"),
    ("Who wrote War and Peace?", "Лев Николаевич Толстой написал роман «Война и мир» в 1860-х годах."),
])
def test_another_script_is_not_english_with_or_without_the_detector(question, answer):
    assert language.not_english(question, answer)
    assert rule_statement(question, answer) == answer
    assert statement_issues(question, answer, answer) == ["not_english"]


@pytest.mark.parametrize("question, answer", [
    ("Wer schrieb Faust?", "Goethe"),
    ("¿Quién pintó la Mona Lisa?", "Leonardo da Vinci"),
    ("Qui a écrit Les Misérables ?", "Victor Hugo"),
    ("Wie hoch ist der Mount Everest?", "8849 m"),
    ("Wer wohnt in Berlin?", "Viele Menschen"),
    ("Quel est le plus grand pays du monde ?", "La Russie"),
])
def test_a_latin_script_language_is_recognised_by_the_detector(question, answer):
    pytest.importorskip("pycld2")
    assert language.not_english(question, answer)
    assert rule_statement(question, answer) == answer
    assert statement_issues(question, answer, "The Wer schrieb Faust is Goethe.") == ["not_english"]


@pytest.mark.parametrize("question, answer", [
    ("Who wrote Faust?", "Goethe"),
    ("What is the motto of the French Republic?", "Liberté, égalité, fraternité"),
    ("Who composed La Marseillaise?", "Claude Joseph Rouget de Lisle"),
    ("What does carpe diem mean?", "seize the day"),
    ("who sang la vie en rose", "Édith Piaf"),
    ("Which Japanese film won the 2020 Oscar for best international feature?", "Drive My Car (ドライブ・マイ・カー)"),
    # Words English's lexicon knows, which the detector alone reads as Latin.
    ("Reverse a string in Python", "s[::-1]"),
])
def test_english_questions_with_foreign_names_and_titles_stay_english(question, answer):
    assert language.not_english(question, answer) is None
    assert rule_statement(question, answer) != answer


def test_batches_agree_with_one_by_one():
    questions = ["Кой е написал Фауст?", "Who wrote Faust?", "Как се казва столицата на България?"]
    answers = ["Гьоте", "Goethe", "София"]
    made = rule_statements(questions, answers)
    assert made == [rule_statement(*pair) for pair in zip(questions, answers)]
    assert made[0] == "Гьоте" and made[2] == "София" and made[1] != "Goethe"


def test_one_warning_per_process():
    """In a fresh process (the warning is said once per process): two passed-through pairs, one
    batch and one single, give one warning naming the code."""
    script = ("import logging; logging.basicConfig(level=logging.WARNING)\n"
              "from capqa.statements.rules import rule_statement, rule_statements\n"
              "assert rule_statements(['Кой е написал Фауст?'], ['Гьоте']) == ['Гьоте']\n"
              "assert rule_statement('Как се казва столицата на България?', 'София') == 'София'\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=REPO_ROOT, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "English only" in line]
    assert len(warnings) == 1 and "not_english" in warnings[0]


def test_the_detector_is_named_in_the_rules_identity(monkeypatch):
    from capqa.statements.rules.version import engine_identity

    assert engine_identity()["pycld2"] == language.detector_version() != ""
    monkeypatch.setattr(language, "pycld2", None)
    assert engine_identity()["pycld2"] == "absent"
    assert language.not_english("Wer schrieb Faust?", "Goethe") is None  # Latin script: not told apart
    assert language.not_english("Кой е написал Фауст?", "Гьоте") == "other script"


@pytest.mark.parametrize("question, answer", [
    ("Write a function to find the shortest list using a lambda function.", "min(input_list, key=lambda x: len(x))"),
    ("Count the singers per country.", "SELECT country, count(*) FROM singer GROUP BY country"),
    ("Write a python function to reverse a string.", "def reverse_text(s):\n    return s[::-1]"),
])
def test_code_answering_an_english_question_is_never_another_language(question, answer):
    """pycld2 read ``min(input_list, key=lambda x: len(x))`` as Slovak: the identifiers of code are
    words of no language, so an answer holding code's marks is not sent to the detector."""
    pytest.importorskip("pycld2")
    assert language.not_english(question, answer) is None
