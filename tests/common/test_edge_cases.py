"""Metric edge cases (issue 17, defect 10): each gets a named error before any model is loaded,
both from the validation the metric, the Space and the CLI share and through the evaluate module."""

import pytest

from capqa.common.validation import check_text
from capqa.metric.options import stored_batch

from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")

QUESTION = "Name a city in Bulgaria."


@pytest.fixture(scope="module")
def metric(metric_path, random_nli_model):
    # Models load on first compute; every case below fails before that.
    return evaluate.load(metric_path, nli_model=random_nli_model, statement_model="rules", device="cpu")


def test_a_set_of_predictions_is_refused_as_unordered():
    with pytest.raises(TypeError, match=r"`predictions` is a set, which has no order"):
        stored_batch({"Sofia", "Burgas"}, ["Sofia", "Varna"], None)


@pytest.mark.parametrize("references, name", [
    (frozenset({"Sofia", "Varna"}), "`references` is a frozenset"),
    ([{"Sofia", "Plovdiv"}, "Varna"], r"`references\[0\]` is a set"),  # one example's golds
])
def test_sets_of_references_are_refused(references, name):
    with pytest.raises(TypeError, match=name + ", which has no order"):
        stored_batch(["Sofia", "Burgas"], references, None)


def test_a_set_of_questions_is_refused():
    with pytest.raises(TypeError, match=r"`questions` is a set"):
        stored_batch(["Sofia"], ["Sofia"], {QUESTION})


def test_a_lone_surrogate_is_refused_with_its_position():
    with pytest.raises(ValueError, match=r"`predictions\[1\]` has a lone surrogate U\+DC80 at character 3"):
        stored_batch(["Sofia", "Bur\udc80gas"], ["Sofia", "Varna"], None)


def test_a_lone_surrogate_in_one_gold_names_the_gold():
    with pytest.raises(ValueError, match=r"`references\[0\]\[1\]` has a lone surrogate U\+D800 at character 0"):
        stored_batch(["Sofia"], [["Sofia", "\ud800x"]], None)


def test_a_paired_surrogate_is_ordinary_text():
    assert check_text("Sofia \U0001F600", "predictions") == "Sofia \U0001F600"


@pytest.mark.parametrize("text", ["\u200b", "\ufeff", "\u200b\u200c\u200d", " \ufeff\u2060 \u00ad", "\x00\x07"])
def test_invisible_only_text_counts_as_empty(text):
    with pytest.raises(ValueError, match=r"`references\[0\]` is an empty string once invisible characters"):
        stored_batch(["Sofia"], [text], None)


@pytest.mark.parametrize("text", ["\ufeffSofia", "So\u200bfia", "\u200b4"])
def test_visible_text_with_invisible_characters_is_kept_as_it_is(text):
    assert stored_batch([text], ["Sofia"], None)["predictions"] == [text]


def test_whitespace_only_is_a_blank_answer_and_a_blank_gold_is_refused():
    # A blank prediction is kept (it scores 0: the blank policy); a blank gold answer is an error.
    assert stored_batch([" \t\n"], ["Sofia"], None)["predictions"] == [" \t\n"]
    with pytest.raises(ValueError, match=r"`references\[0\]` is an empty string"):
        stored_batch(["Sofia"], [" \t\n"], None)


@pytest.mark.parametrize("arguments, error, words", [
    ({"predictions": {"Burgas"}, "references": ["Sofia"]}, TypeError, "`predictions` is a set"),
    ({"predictions": ["Bur\udc80gas"], "references": ["Sofia"]}, ValueError, "lone surrogate U+DC80 at character 3"),
    ({"predictions": ["Burgas"], "references": ["\u200b"]}, ValueError, "invisible characters"),
    ({"predictions": ["Burgas"], "references": ["\ufeff"]}, ValueError, "invisible characters"),
])
def test_the_metric_refuses_them_before_pyarrow_or_a_model_sees_them(metric, arguments, error, words):
    with pytest.raises(error) as raised:
        metric.compute(questions=[QUESTION], **arguments)
    assert words in str(raised.value)
    with pytest.raises(error):
        metric.add_batch(questions=[QUESTION], **arguments)
