"""One result schema (``capqa.records.results``) and the scorer's own rules: every front end's fields come
from it, a blank prediction scores 0 everywhere without a model call, several golds give every
field from one chosen gold, the scorer checks its input, and silent switches are said (issue 22,
points 2 and 3)."""

import logging

import numpy as np
import pandas as pd
import pytest

from capqa.cli import main as cli_main
from capqa.dev.offline_models import build_seq2seq_model
from capqa.metric.options import MetricOptions
from capqa.metric.scorer import CAPScorer
from capqa.records.results import (BLANK_EXPLANATION, PER_EXAMPLE, empty_result, output_columns, result_fields,
                                   verdict_meaning)
from capqa.statements.rules import rule_statements
from capqa.verdicts.judge import resolve_verdict

from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
nli = lazy_module("capqa.engine.nli")
capqa_statements_generator = lazy_module("capqa.statements.generator")

QUESTION = "Name a city in Bulgaria."
BLANKS = ["", "   ", "\u200b", "\ufeff\u200d \t"]
SETTINGS = [("cap", None), ("plus", None), ("cap", "strict"), ("plus", "graded")]


_SCORERS = {}


def build(nli_model, **options):
    """One scorer per set of options for this module (they keep no state between calls)."""
    key = (nli_model, tuple(sorted(options.items())))
    if key not in _SCORERS:
        _SCORERS[key] = MetricOptions(nli_model=nli_model, statement_model="rules", device="cpu",
                                      **options).build_scorer()
    return _SCORERS[key]


class PairCounter:
    """Counts the pairs the real NLI model computes (a forward hook; nothing is replaced)."""

    def __init__(self, model):
        self.rows = 0
        self._hook = model.register_forward_hook(lambda module, args, kwargs, output: self._add(kwargs),
                                                 with_kwargs=True)

    def _add(self, kwargs):
        self.rows += int(kwargs["input_ids"].shape[0])

    def close(self):
        self._hook.remove()


# --- The schema ----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant, verdict", SETTINGS)
@pytest.mark.parametrize("details", [False, True])
def test_a_result_and_the_empty_result_have_the_schemas_fields(random_nli_model, variant, verdict, details):
    scorer = build(random_nli_model, variant=variant, verdict=verdict)
    result = scorer.score(["Burgas", ""], ["Sofia", "Sofia"], [QUESTION, QUESTION], return_details=details)
    fields = result_fields(variant, scorer.verdict, details)
    expected = ({spec.key for spec in fields} | {spec.mean for spec in fields if spec.mean} | {"hashcode"}
                | set(verdict_meaning(scorer.verdict)))
    assert set(result) == expected
    assert set(scorer.score([], [], return_details=details)) == expected
    assert set(empty_result(variant, scorer.verdict, details)) == expected - {"hashcode"}
    assert all(len(result[spec.key]) == 2 for spec in fields)


def test_a_scored_file_has_the_schemas_columns(random_nli_model, tmp_path, monkeypatch):
    monkeypatch.setenv("CAPQA_TRACEBACK", "1")
    rows = tmp_path / "rows.csv"
    pd.DataFrame({"question": [QUESTION] * 3, "gold": ["Sofia", "Varna", "Sofia|Plovdiv"],
                  "answer": ["Burgas", " ", "Plovdiv"]}).to_csv(rows, index=False)
    out = tmp_path / "scored.csv"
    assert cli_main(["score", str(rows), "--out", str(out), "--gold-column", "gold", "--gold-separator", "|",
                     "--nli-model", random_nli_model, "--statement-model", "rules", "--device", "cpu",
                     "--variant", "plus", "--verdict", "graded"]) == 0
    scored = pd.read_csv(out, keep_default_na=False)
    verdict = resolve_verdict("graded", "plus")
    assert list(scored.columns) == ["question", "gold", "answer", *output_columns("plus", verdict)]
    # The blank answer: 0 everywhere, relation invalid, no statements.
    blank = scored.iloc[1]
    assert (blank["cap"], blank["cap_plus"], blank["credit"], blank["relation"]) == (0.0, 0.0, 0.0, "invalid")
    assert str(blank["correct"]) == "False" and blank["hypotheses"] == "" and blank["best_reference"] == 0
    assert scored.loc[2, "best_reference"] in (0, 1) and scored.loc[0, "cap"] > 0


def test_every_field_says_when_it_is_there_and_what_a_blank_gets():
    assert len({spec.key for spec in PER_EXAMPLE}) == len(PER_EXAMPLE)
    for spec in PER_EXAMPLE:
        assert spec.description and spec.when in ("always", "plus", "verdict", "graded", "details")
    columns = [column for spec in PER_EXAMPLE for column, _ in spec.columns]
    assert len(set(columns)) == len(columns)


# --- A blank prediction ---------------------------------------------------------------------------

@pytest.mark.parametrize("questions", [True, False])
def test_a_blank_prediction_scores_zero_without_a_model_call(random_nli_model, questions, caplog):
    scorer = build(random_nli_model, variant="plus", verdict="graded")
    counter = PairCounter(scorer.nli.model)
    answers = ["Burgas is a city in Bulgaria.", *BLANKS]
    golds = ["Sofia is a city in Bulgaria."] * len(answers)
    with caplog.at_level(logging.WARNING, logger="capqa.metric.scorer"):
        result = scorer.score(answers, golds, [QUESTION] * len(answers) if questions else None, return_details=True)
    counter.close()
    # Only the one answered example reached the NLI model: its two directions.
    assert counter.rows == 2
    for i in range(1, len(answers)):
        assert (result["scores"][i], result["cap_plus"][i], result["correct"][i], result["credit"][i]) == (
            0.0, 0.0, False, 0.0)
        relation = result["relation"][i]
        assert relation["label"] == "invalid" and relation["explanation"] == BLANK_EXPLANATION
        assert "blank" in relation["explanation"] and relation["probabilities"]["invalid"] == 1.0
        assert result["hypotheses"][i] == "" and result["p_entailment_forward"][i] is None
    alone = scorer.score(answers[:1], golds[:1], [QUESTION] if questions else None)
    assert result["scores"][0] == pytest.approx(alone["scores"][0], abs=MODEL_ATOL)
    assert result["cap"] == pytest.approx(alone["scores"][0] / len(answers), abs=MODEL_ATOL)
    said = [record for record in caplog.records if "blank" in record.getMessage()]
    assert len(said) == 1 and said[0].getMessage().startswith(f"{len(BLANKS)} of {len(answers)} predictions")


def test_every_front_end_scores_a_blank_answer_zero(random_nli_model, metric_path):
    import evaluate

    from capqa.harness.shared import score_samples

    metric = evaluate.load(metric_path, nli_model=random_nli_model, statement_model="rules", device="cpu",
                           verdict="strict")
    result = metric.compute(predictions=["\u200b", "Burgas"], references=["Sofia", "Sofia"],
                            questions=[QUESTION, QUESTION])
    assert result["scores"][0] == 0.0 and result["correct"][0] is False
    records = score_samples(["", "Burgas"], [["Sofia"], ["Sofia"]], [QUESTION, QUESTION], nli_model=random_nli_model,
                            statement_model="rules", device="cpu", verdict="strict")
    assert (records[0]["cap"], records[0]["correct"]) == (0.0, False)
    assert records[1]["cap"] == pytest.approx(result["scores"][1], abs=MODEL_ATOL)
    assert records[0]["cap_hashcode"] == result["hashcode"]


def test_the_space_file_check_takes_a_blank_answer_and_refuses_a_blank_gold():
    from capqa.space.file_job import check_file_request

    table = pd.DataFrame({"question": [QUESTION, QUESTION], "gold": ["Sofia", "Sofia"], "answer": ["Burgas", " "]})
    check_file_request(table, "question", "gold", "answer", None, None)
    with pytest.raises(Exception, match="Column 'gold' is empty in row 2"):
        check_file_request(table.assign(gold=["Sofia", ""]), "question", "gold", "answer", None, None)


def test_blank_golds_and_questions_stay_errors_naming_the_position(random_nli_model):
    scorer = build(random_nli_model)
    with pytest.raises(ValueError, match=r"`references\[1\]\[1\]` is an empty string"):
        scorer.score(["Burgas", "Varna"], [["Sofia"], ["Sofia", "\u200b"]])
    with pytest.raises(ValueError, match=r"`questions\[0\]` is an empty string"):
        scorer.score(["Burgas"], ["Sofia"], [" "])


# --- Several golds ----------------------------------------------------------------------------

@pytest.mark.parametrize("variant, verdict", SETTINGS)
@pytest.mark.parametrize("answer", ["Plovdiv is a city.", "Plovdiv"])
def test_every_field_comes_from_the_one_chosen_gold(random_nli_model, variant, verdict, answer):
    """With the random model, CAP and CAP+ prefer different golds for these answers; under "plus"
    the second answer's best CAP+ is a tie of gold 1 with its repeat, gold 3: the first counts."""
    scorer = build(random_nli_model, variant=variant, verdict=verdict)
    golds = ["Sofia", "Plovdiv", "Varna", "Plovdiv"]
    alone = [scorer.score([answer], [gold], [QUESTION], return_details=True) for gold in golds]
    headline = "cap_plus" if variant == "plus" else "scores"
    by_headline = [single[headline][0] for single in alone]
    chosen = int(np.argmax(by_headline))
    assert by_headline[chosen] > min(by_headline) + 1e-3  # the golds differ, so the choice matters
    result = scorer.score([answer], [golds], [QUESTION], return_details=True)
    assert result["best_reference"] == [chosen]
    expected = alone[chosen]
    for spec in result_fields(variant, scorer.verdict, details=True):
        if spec.key == "best_reference":
            continue
        got, want = result[spec.key][0], expected[spec.key][0]
        if spec.key == "relation":
            assert got["label"] == want["label"] and got["probability"] == pytest.approx(want["probability"],
                                                                                         abs=MODEL_ATOL)
        elif isinstance(want, float):
            assert got == pytest.approx(want, abs=MODEL_ATOL), spec.key
        else:
            assert got == want, spec.key


# --- The scorer checks its input ------------------------------------------------------------------

def test_the_scorer_takes_a_string_as_one_gold_not_as_its_letters(random_nli_model):
    scorer = build(random_nli_model)
    as_string = scorer.score(["Burgas is a city."], ["Sofia is a city."], return_details=True)
    as_list = scorer.score(["Burgas is a city."], [["Sofia is a city."]], return_details=True)
    assert as_string["premises"] == ["Sofia is a city."]
    assert as_string["scores"] == pytest.approx(as_list["scores"], abs=MODEL_ATOL)
    with pytest.raises(TypeError, match=r"`predictions\[0\]` must be a string"):
        scorer.score([None], ["Sofia"])
    with pytest.raises(TypeError, match="`references` must be a list"):
        scorer.score(["Burgas"], "Sofia")
    with pytest.raises(TypeError, match="`return_details` must be True or False"):
        scorer.score(["Burgas"], ["Sofia"], return_details="yes")


# --- Silent switches, said --------------------------------------------------------------------

def test_an_empty_model_statement_is_replaced_logged_and_marked(random_nli_model, tmp_path, caplog):
    """A statement model whose every output is empty (all-zero output weights: it writes only
    padding): the rule statement stands in, the log says how many, the details mark them."""
    import torch
    from transformers import T5ForConditionalGeneration

    folder = build_seq2seq_model(tmp_path / "t5-mute")
    model = T5ForConditionalGeneration.from_pretrained(folder)
    with torch.no_grad():
        model.lm_head.weight.zero_()
    model.save_pretrained(folder)
    generator = capqa_statements_generator.StatementGenerator(str(folder), device="cpu", max_new_tokens=3)
    with caplog.at_level(logging.WARNING, logger="capqa.statements.generator"):
        made, fallback = generator.generate_with_fallbacks([QUESTION, QUESTION], ["Sofia", "Burgas"])
    assert made == rule_statements([QUESTION, QUESTION], ["Sofia", "Burgas"]) and fallback == [True, True]
    assert "statement was refused for 2 of 2 (question, answer) pairs (empty 2)" in caplog.text
    scorer = CAPScorer(nli.NLIScorer(random_nli_model, device="cpu"), generator)
    result = scorer.score(["Burgas", ""], ["Sofia", "Sofia"], [QUESTION, QUESTION], return_details=True)
    assert result["statement_fallback"] == [True, False]
    assert result["statement_engine"] == ["rules", ""]  # the rules wrote both; a blank prediction needs none
    rules = build(random_nli_model).score(["Burgas"], ["Sofia"], [QUESTION], return_details=True)
    assert rules["statement_fallback"] == [False] and rules["statement_engine"] == ["rules"]


def test_calibration_on_another_nli_model_is_said_once(random_nli_model, caplog):
    scorer = MetricOptions(nli_model=random_nli_model, statement_model="rules", device="cpu",
                           variant="plus").build_scorer()  # a fresh one: it has said nothing yet
    with caplog.at_level(logging.WARNING, logger="capqa.metric.scorer"):
        for _ in range(2):
            scorer.score(["Burgas is a city."], ["Sofia is a city."])
    said = [record for record in caplog.records if "were fitted on" in record.getMessage()]
    assert len(said) == 1 and "nli-random" in said[0].getMessage()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="capqa.metric.scorer"):
        MetricOptions(nli_model=random_nli_model, statement_model="rules", device="cpu").build_scorer().score(
            ["Burgas is a city."], ["Sofia is a city."])  # CAP alone: nothing fitted runs
    assert "were fitted on" not in caplog.text


# --- The statement check, per example ---------------------------------------------------------

def test_the_details_carry_the_issues_of_both_statements_compared(random_nli_model, tmp_path):
    """The tiny T5 writes statements that are not sentences about the answer: the details carry,
    per example, statement_issues of the gold's and of the prediction's statement, marked by side;
    a blank prediction and scoring without questions carry none; a file cell joins the codes."""
    from capqa.records.results import file_columns
    from capqa.statements.check import statement_issues

    generator = capqa_statements_generator.StatementGenerator(str(build_seq2seq_model(tmp_path / "t5")), device="cpu", max_new_tokens=6)
    scorer = CAPScorer(nli.NLIScorer(random_nli_model, device="cpu"), generator)
    golds = [["Sofia", "Plovdiv"], ["Sofia"]]
    result = scorer.score(["Burgas", " "], golds, [QUESTION, QUESTION], return_details=True)
    gold = golds[0][result["best_reference"][0]]
    expected = ([f"gold:{code}" for code in statement_issues(QUESTION, gold, result["premises"][0])]
                + [f"prediction:{code}" for code in statement_issues(QUESTION, "Burgas", result["hypotheses"][0])])
    assert expected and result["statement_issues"] == [expected, []]
    assert file_columns(result)["statement_issues"] == [" ".join(expected), ""]
    assert scorer.score(["Burgas"], ["Sofia"], return_details=True)["statement_issues"] == [[]]
    assert "statement_issues" not in scorer.score(["Burgas"], ["Sofia"], [QUESTION])
