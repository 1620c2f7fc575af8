"""Issue 33: the questions' parses kept on disk beside the rule statements, so that a second
system's job on the same benchmark parses only its own answers, with the same statements."""

import pandas as pd
import pytest

from capqa.statements.question_parses import PARSE_FORMAT, parse_cache, with_question_parses
from capqa.statements.rules.convert import question_parse_text
from capqa.statements.rules.parser import decode_parse, encode_parse, known_parses, parse
from capqa.statements.rules.queries import clear_parses
from capqa.statements.rules_engine import RuleEngine
from capqa.statements.statement_cache import TextCache

from support.data import TEST_DATA_DIR


@pytest.fixture(scope="module")
def two_systems():
    """The same 30 questions answered by two systems, and their golds."""
    frame = pd.read_csv(TEST_DATA_DIR / "real_qa_answers.csv", dtype=str, keep_default_na=False)
    frame = frame[frame.system.isin(["chatgpt", "gpt4"])]
    frame = frame[frame.question.isin(frame.question.drop_duplicates().head(30))]
    return [sorted(set(zip(rows.question, rows.answer)) | set(zip(rows.question, rows.gold)))
            for _, rows in frame.groupby("system")]


def test_a_parse_read_back_is_the_parse():
    words = parse("Which river flows through the city of Lyon, and how long is it?")
    assert decode_parse(encode_parse(words)) == words


@pytest.mark.parametrize("stored", ["nonsense", "{}", "[[1, 2]]", '[["a", "a", "NN", "ROOT", 0, 0, true, 9]]'])
def test_what_is_not_a_stored_parse_is_refused(stored):
    with pytest.raises(ValueError):
        decode_parse(stored)


def test_an_unreadable_stored_parse_is_parsed_again_and_replaced(tmp_path, two_systems):
    first, _ = two_systems
    question = first[0][0]
    text = question_parse_text(question)
    parse_cache(str(tmp_path)).put({(text,): "[[1, 2]]"})
    clear_parses()
    assert RuleEngine(0, cache_dir=str(tmp_path)).write([first[0]]) == RuleEngine(0).write([first[0]])
    assert decode_parse(parse_cache(str(tmp_path)).get([(text,)])[(text,)]) == known_parses([text])[text]


def test_a_second_system_finds_its_questions_parsed_and_writes_the_same_statements(tmp_path, two_systems):
    first, second = two_systems
    questions = sorted({question for question, _ in second})
    made_without = RuleEngine(0).write(second)
    clear_parses()
    RuleEngine(0, cache_dir=str(tmp_path)).write(first)
    clear_parses()  # a new job, in a new process
    texts = [question_parse_text(question) for question in questions]
    in_memory = with_question_parses(str(tmp_path), questions, lambda: known_parses(texts))
    assert sorted(in_memory) == sorted(texts) and None not in texts
    clear_parses()
    assert RuleEngine(0, cache_dir=str(tmp_path)).write(second) == made_without


def test_the_parses_are_kept_under_the_parsers_identity(tmp_path, two_systems):
    first, _ = two_systems
    RuleEngine(0, cache_dir=str(tmp_path)).write(first)
    question = question_parse_text(first[0][0])
    assert (question,) in parse_cache(str(tmp_path)).get([(question,)])
    another_parser = TextCache(str(tmp_path), [["parses", PARSE_FORMAT], ["parser", "another==1.0"]])
    assert another_parser.get([(question,)]) == {}


def test_workers_keep_the_questions_parses_too(tmp_path, two_systems):
    first, _ = two_systems
    engine = RuleEngine(1, cache_dir=str(tmp_path))
    try:
        engine.write(first)
    finally:
        engine.close()
    questions = [(question_parse_text(question),) for question in dict.fromkeys(question for question, _ in first)]
    assert len(parse_cache(str(tmp_path)).get(questions)) == len(questions)
