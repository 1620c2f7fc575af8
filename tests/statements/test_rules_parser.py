"""Issue 33: the rule converter's parser at the machine's speed: thinc's ops chosen at load, numpy's
OpenBLAS held to one thread only while it parses, and the same statements whichever ops parse."""

import gc

import pandas as pd
import pytest

import capqa.statements.rules as rules
from capqa.statements.rules import convert, openblas, parser, rule_statements
from capqa.statements.rules.queries import clear_parses, parse_question

from support.data import TEST_DATA_DIR


@pytest.fixture
def ops_restored():
    """The ops the parser chose at load, put back after the test."""
    chosen = parser.ops_in_use()
    yield
    parser.use_ops(chosen)


def test_the_statements_are_the_same_whichever_ops_parse(ops_restored):
    frame = pd.read_csv(TEST_DATA_DIR / "statement_gold.csv", dtype=str, keep_default_na=False)
    questions, answers = list(frame.question), list(frame.answer)
    made = {}
    for ops in parser.OPS:
        parser.use_ops(ops)
        clear_parses()
        made[ops] = rule_statements(questions, answers)
    assert made["blis"] == made["numpy"]


def test_each_ops_multiplies_with_its_own_library(ops_restored):
    parser.use_ops("numpy")
    assert all(not node.ops.use_blis for _, component in parser.pipeline().pipeline
               for node in component.model.walk())
    parser.use_ops("blis")
    assert all(node.ops.use_blis for _, component in parser.pipeline().pipeline for node in component.model.walk())


def test_the_faster_ops_is_chosen_and_a_close_call_keeps_blis():
    assert parser.choose_ops({"blis": 1.0, "numpy": 0.7}) == "numpy"
    assert parser.choose_ops({"blis": 1.0, "numpy": 0.97}) == "blis"
    assert parser.choose_ops({"blis": 0.7, "numpy": 1.0}) == "blis"
    assert parser.choose_ops({"blis": 1.0}) == "blis"  # numpy's BLAS cannot be held to one thread


def test_the_measurement_times_each_ops_the_log_names_the_choice(caplog):
    seconds = parser.measure_ops(parser.pipeline())
    assert set(seconds) <= set(parser.OPS) and "blis" in seconds and all(took > 0 for took in seconds.values())
    assert ("numpy" in seconds) == (openblas.thread_control() is not None)
    with caplog.at_level("INFO", logger=parser.__name__):
        before = parser.use_ops(parser.ops_in_use())
    assert f"thinc's {before} ops" in caplog.text


def test_openblas_is_held_to_one_thread_for_the_block_only():
    control = openblas.thread_control()
    if control is None:
        pytest.skip("numpy does not use OpenBLAS here")
    original = control.threads()
    try:
        control.set(2)
        with openblas.one_thread():
            assert control.threads() == 1
        assert control.threads() == 2
        with pytest.raises(RuntimeError), openblas.one_thread():
            raise RuntimeError("the count comes back after an error too")
        assert control.threads() == 2
    finally:
        control.set(original)


def test_an_unknown_ops_is_a_clear_error():
    with pytest.raises(ValueError, match="`ops` must be one of blis, numpy"):
        parser.use_ops("cupy")


@pytest.fixture
def rounds(monkeypatch):
    """The number of distinct texts each ``parse_into`` of the converter's batch parses."""
    counts = []
    parse_into = convert.parse_into

    def counted(parsed, texts):
        texts = list(texts)
        counts.append(len({parser.bounded(text) for text in texts}))
        return parse_into(parsed, texts)

    monkeypatch.setattr(convert, "parse_into", counted)
    return counts


def test_a_batch_makes_the_statements_made_one_at_a_time(rounds):
    """Texts read late are parsed in a later round of the batch, not one by one, and the
    statements are those of ``statement`` called pair by pair (each text parsed on its own)."""
    frame = pd.read_csv(TEST_DATA_DIR / "statement_gold.csv", dtype=str, keep_default_na=False)
    # A search query's clause is parsed alone only once its parse shows a wh-word subject
    # (``convert._main``): a text no batch can name before the question's parse.
    pairs = list(zip(frame.question, frame.answer)) + [("why dry ether is used in woods reaction", "low flash points")]
    clear_parses()
    batched = rule_statements([question for question, _ in pairs], [answer for _, answer in pairs])
    assert len(rounds) >= 3 and rounds[1] > 0 and rounds[-1] == 0  # a late round, then nothing left
    clear_parses()
    assert batched == [convert.statement(question, answer) for question, answer in pairs]


def test_inside_a_batch_a_text_not_parsed_yet_stops_the_reader():
    parsed = {}
    with parser.batched(parsed), pytest.raises(parser.NotParsedYet) as stopped:
        parser.parse_many(["Who wrote Hamlet?", "A text never parsed before 8841."])
    assert "A text never parsed before 8841." in stopped.value.texts
    parser.parse_into(parsed, stopped.value.texts)
    with parser.batched(parsed):
        inside = parser.parse("A text never parsed before 8841.")
    assert inside == parser.parse("A text never parsed before 8841.")


def test_a_question_is_parsed_into_its_parts_once_for_all_its_answers():
    clear_parses()
    rule_statements(["who wrote the play hamlet"] * 3, ["Shakespeare", "William Shakespeare", "Marlowe"])
    assert parse_question.cache_info().misses == 1


def test_the_collector_is_paused_for_the_whole_call_and_left_as_it_was(monkeypatch):
    """The language checks and the batch run with the cycle collector off (a full pass walks every
    kept parse); it is on again after, unless it was off before."""
    seen = []
    language = rules.not_english

    def checked(question, answer):
        seen.append(gc.isenabled())
        return language(question, answer)

    monkeypatch.setattr(rules, "not_english", checked)
    assert gc.isenabled()
    assert rule_statements(["Who wrote Hamlet?"], ["Shakespeare"]) == ["Shakespeare wrote Hamlet."]
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        rule_statements(["Who wrote Hamlet?"], ["Marlowe"])
        assert not gc.isenabled()
    finally:
        gc.enable()
