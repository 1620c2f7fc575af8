"""The CAP metric end to end: the formula against the paper, the real pipeline on local models."""

import math
import random

import numpy as np
import pytest

from capqa.common.constants import ALPHA, NEUTRAL_WEIGHT
from capqa.dev.offline_models import build_nli_model, build_seq2seq_model
from capqa.engine.model_checks import nli_label_indices
from capqa.metric.formula import cap_from_probabilities
from capqa.statements.rules import rule_statements

from support.lazy import lazy_module
from support.models import KNOWN_PROBABILITIES
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")
nli = lazy_module("capqa.engine.nli")
generator = lazy_module("capqa.statements.generator")

QUESTIONS = ["Name a city in Bulgaria.", "What travels through the stem of a plant?",
             "Which material is the best conductor of electricity?", "At what temperature does water begin to boil?"]
GOLDS = ["Sofia", "water and food", "Metal", "100°C"]
PREDICTIONS = ["Burgas", "water", "Plastic", "212°F"]
STATEMENT_GOLDS = ["Sofia is a city in Bulgaria.", "Water and food travel through the stem of a plant.",
                   "Metal is the best conductor of electricity.", "Water begins to boil at 100°C."]
STATEMENT_PREDICTIONS = ["Burgas is a city in Bulgaria.", "Water travels through the stem of a plant.",
                         "Plastic is the best conductor of electricity.", "Water begins to boil at 212°F."]


def expected_known_cap(alpha=ALPHA, neutral_weight=NEUTRAL_WEIGHT):
    direction = KNOWN_PROBABILITIES["entailment"] + neutral_weight * KNOWN_PROBABILITIES["neutral"]
    return alpha * direction + (1 - alpha) * direction


def test_formula_reproduces_every_published_cap(paper_scores):
    forward = paper_scores[["pe_f", "pn_f", "pc_f"]].to_numpy()
    reverse = paper_scores[["pe_r", "pn_r", "pc_r"]].to_numpy()
    cap, _, _ = cap_from_probabilities(forward, reverse)
    assert len(cap) == 8826
    np.testing.assert_allclose(cap, paper_scores["cap"].to_numpy(), rtol=0, atol=1e-6)


def test_formula_weights_forward_direction_by_alpha():
    forward = np.array([[1.0, 0.0, 0.0]])
    reverse = np.array([[0.0, 1.0, 0.0]])
    cap, d_forward, d_reverse = cap_from_probabilities(forward, reverse, alpha=0.85, neutral_weight=0.3)
    assert d_forward[0] == 1.0 and d_reverse[0] == pytest.approx(0.3)
    assert cap[0] == pytest.approx(0.85 + 0.15 * 0.3)


def test_label_indices_follow_id2label():
    assert nli_label_indices({0: "contradiction", 1: "entailment", 2: "neutral"}) == [1, 2, 0]
    assert nli_label_indices({0: "ENTAILMENT", 1: "NEUTRAL", 2: "CONTRADICTION"}) == [0, 1, 2]
    with pytest.raises(ValueError, match="entailment, neutral and contradiction.*LABEL_0"):
        nli_label_indices({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})


@pytest.fixture(scope="module")
def known_metric(known_nli_model, tiny_seq2seq_model, metric_path):
    return evaluate.load(metric_path, nli_model=known_nli_model, statement_model=tiny_seq2seq_model)


def test_statement_mode_gives_the_formula_value(known_metric):
    result = known_metric.compute(predictions=STATEMENT_PREDICTIONS, references=STATEMENT_GOLDS, return_details=True)
    expected = expected_known_cap()
    np.testing.assert_allclose(result["scores"], [expected] * 4, atol=1e-6)
    assert result["cap"] == pytest.approx(expected, abs=1e-6)
    # Without questions the texts go to the NLI model as they are.
    assert result["premises"] == STATEMENT_GOLDS and result["hypotheses"] == STATEMENT_PREDICTIONS
    for direction in ("forward", "reverse"):
        np.testing.assert_allclose(result[f"p_entailment_{direction}"], KNOWN_PROBABILITIES["entailment"], atol=1e-6)
        np.testing.assert_allclose(result[f"p_neutral_{direction}"], KNOWN_PROBABILITIES["neutral"], atol=1e-6)
        np.testing.assert_allclose(result[f"p_contradiction_{direction}"], KNOWN_PROBABILITIES["contradiction"], atol=1e-6)


@pytest.fixture(scope="module")
def varied_seq2seq_model(models_dir):
    """A tiny T5 whose wider random weights give different inputs different statements."""
    return str(build_seq2seq_model(models_dir / "t5-varied", initializer_factor=3.0))


def test_question_mode_uses_the_statement_model(known_nli_model, varied_seq2seq_model, metric_path):
    metric = evaluate.load(metric_path, nli_model=known_nli_model, statement_model=varied_seq2seq_model)
    result = metric.compute(predictions=PREDICTIONS, references=GOLDS, questions=QUESTIONS, return_details=True)
    model = generator.StatementGenerator(varied_seq2seq_model, device="cpu")
    # What the NLI model compared: the model's statement of each (question, gold) as premise and
    # of each (question, prediction) as hypothesis, none replaced by a rule statement.
    assert result["premises"] == model.generate(QUESTIONS, GOLDS)
    assert result["hypotheses"] == model.generate(QUESTIONS, PREDICTIONS)
    assert result["statement_fallback"] == [False] * 4 and result["statement_engine"] == ["seq2seq"] * 4
    # Eight different statements, none the rules': a swap, a shift or the rule path would show.
    assert len(set(result["premises"] + result["hypotheses"])) == 8
    assert not set(result["premises"]) & set(rule_statements(QUESTIONS, GOLDS))
    assert "statements=model(name=t5-varied," in result["hashcode"]
    np.testing.assert_allclose(result["scores"], [expected_known_cap()] * 4, atol=1e-6)


def test_alpha_and_neutral_weight_change_the_score(known_nli_model, metric_path):
    metric = evaluate.load(metric_path, nli_model=known_nli_model, alpha=0.5, neutral_weight=0.0)
    result = metric.compute(predictions=STATEMENT_PREDICTIONS[:1], references=STATEMENT_GOLDS[:1])
    assert result["scores"][0] == pytest.approx(expected_known_cap(0.5, 0.0), abs=1e-6)


@pytest.fixture(scope="module")
def random_scorer(random_nli_model):
    return nli.NLIScorer(random_nli_model, revision=None, device="cpu", batch_size=3)


def test_forward_and_reverse_are_the_two_directions(random_nli_model, metric_path, random_scorer):
    metric = evaluate.load(metric_path, nli_model=random_nli_model)
    result = metric.compute(predictions=STATEMENT_PREDICTIONS, references=STATEMENT_GOLDS, return_details=True)
    forward = random_scorer.predict(STATEMENT_GOLDS, STATEMENT_PREDICTIONS)
    reverse = random_scorer.predict(STATEMENT_PREDICTIONS, STATEMENT_GOLDS)
    np.testing.assert_allclose(result["p_entailment_forward"], forward[:, 0], atol=1e-6)
    np.testing.assert_allclose(result["p_entailment_reverse"], reverse[:, 0], atol=1e-6)
    np.testing.assert_allclose(result["forward"], forward[:, 0] + NEUTRAL_WEIGHT * forward[:, 1], atol=1e-6)
    # A random model tells the two directions apart: the test would catch a swap.
    assert not np.allclose(forward, reverse, atol=1e-4)
    np.testing.assert_allclose(forward.sum(axis=1), 1.0, atol=1e-6)


def test_scores_do_not_depend_on_batch_size_or_order(random_nli_model, metric_path):
    rng = random.Random(0)
    predictions = [f"{p} {i}" for i, p in enumerate(STATEMENT_PREDICTIONS * 5)]
    golds = [f"{g} ({i % 3})" for i, g in enumerate(STATEMENT_GOLDS * 5)]
    reference = None
    for batch_size in (1, 4, 64):
        metric = evaluate.load(metric_path, nli_model=random_nli_model, batch_size=batch_size)
        order = list(range(len(predictions)))
        rng.shuffle(order)
        result = metric.compute(predictions=[predictions[i] for i in order], references=[golds[i] for i in order])
        scores = np.empty(len(order))
        scores[order] = result["scores"]
        if reference is None:
            reference = scores
        np.testing.assert_allclose(scores, reference, atol=1e-6)
    assert reference.std() > 1e-4  # the scores differ between examples, so order mattered


def test_token_budget_batching_gives_the_same_scores(random_nli_model, random_scorer):
    budgeted = nli.NLIScorer(random_nli_model, revision=None, device="cpu", batch_size=64, max_tokens=40)
    expected = random_scorer.predict(STATEMENT_GOLDS, STATEMENT_PREDICTIONS)
    np.testing.assert_allclose(budgeted.predict(STATEMENT_GOLDS, STATEMENT_PREDICTIONS), expected, atol=1e-6)


def test_several_gold_answers_take_the_best(random_nli_model, metric_path):
    metric = evaluate.load(metric_path, nli_model=random_nli_model)
    prediction = STATEMENT_PREDICTIONS[0]
    golds = [STATEMENT_GOLDS[1], STATEMENT_GOLDS[0], STATEMENT_GOLDS[2]]
    single = [metric.compute(predictions=[prediction], references=[gold])["scores"][0] for gold in golds]
    result = metric.compute(predictions=[prediction, prediction], references=[golds, golds[:1]], return_details=True)
    assert result["scores"][0] == pytest.approx(max(single), abs=MODEL_ATOL)
    assert result["best_reference"] == [int(np.argmax(single)), 0]
    assert result["premises"][0] == golds[int(np.argmax(single))]
    assert result["scores"][1] == pytest.approx(single[0], abs=MODEL_ATOL)


def test_empty_input_gives_an_empty_result(known_metric):
    result = known_metric.compute(predictions=[], references=[])
    # The same hashcode as any result without questions: what would have produced the scores.
    statements = known_metric.compute(predictions=["a b"], references=["c d"])["hashcode"]
    assert result == {"cap": None, "scores": [], "hashcode": statements}
    detailed = known_metric.compute(predictions=[], references=[], return_details=True)
    assert detailed["scores"] == [] and detailed["premises"] == []


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(predictions=["a"], references=["b", "c"]), ValueError, "`predictions` and `references` must have the same length"),
    (dict(predictions=["a"], references=["b"], questions=["q", "r"]), ValueError, "`predictions` and `questions`"),
    (dict(predictions=[None], references=["b"]), TypeError, r"`predictions\[0\]` must be a string"),
    (dict(predictions=["a"], references=[None]), TypeError, r"`references\[0\]` must be a string"),
    (dict(predictions=["a"], references=["b"], questions=[None]), TypeError, r"`questions\[0\]` must be a string"),
    (dict(predictions=[3], references=["b"]), TypeError, r"`predictions\[0\]` must be a string"),
    (dict(predictions=["a"], references=["\u200b "]), ValueError, r"`references\[0\]` is an empty string once"),
    (dict(predictions=["a"], references=[""]), ValueError, r"`references\[0\]` is an empty string"),
    (dict(predictions=["a"], references=[[]]), ValueError, r"`references\[0\]` is an empty list"),
    (dict(predictions=["a"], references=[["b", ""]]), ValueError, r"`references\[0\]\[1\]` is an empty string"),
    (dict(predictions=["a"], references=["b"], questions=[""]), ValueError, r"`questions\[0\]` is an empty string"),
    (dict(predictions="a", references=["b"]), TypeError, "`predictions` must be a list of strings"),
])
def test_bad_input_names_the_argument(known_metric, kwargs, error, message):
    with pytest.raises(error, match=message):
        known_metric.compute(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(alpha=1.5), "`alpha` must be a float in \\[0, 1\\], got 1.5"),
    (dict(alpha=math.nan), "`alpha` must be a float in \\[0, 1\\], got nan"),
    (dict(neutral_weight=-0.1), "`neutral_weight` must be a float in \\[0, 1\\]"),
    (dict(device="tpu7"), "`device`"),
    (dict(device="cuda:0"), "`device`"),
    (dict(batch_size=0), "`batch_size` must be an int in \\[1, inf\\), got 0"),
    (dict(nli_model=""), "`nli_model` must be a Hub id or a local folder, or None, got ''"),
])
def test_bad_options_fail_at_load_time(metric_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        evaluate.load(metric_path, **kwargs)


def test_alpha_must_be_a_number(metric_path):
    with pytest.raises(TypeError, match="`alpha` must be a float in \\[0, 1\\], got 'high'"):
        evaluate.load(metric_path, alpha="high")


def test_model_without_nli_labels_is_refused_at_load(models_dir, metric_path):
    folder = build_nli_model(models_dir / "nli-unlabelled", id2label={0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    with pytest.raises(ValueError, match="`nli_model` must be an NLI classifier"):
        evaluate.load(metric_path, nli_model=str(folder))


def test_missing_nli_folder_says_no_such_folder_and_what_to_do_at_load(tmp_path, metric_path):
    missing = str(tmp_path / "no-such-model")
    with pytest.raises(OSError, match=f"NLI .*{missing}.*there is no such local folder.*local folder of an NLI"):
        evaluate.load(metric_path, nli_model=missing)


def test_plus_variant_adds_calibrated_scores_and_relations(random_nli_model, metric_path):
    from capqa.common.constants import LABELS
    from capqa.plus.calibration import cap_plus, diagnose_relation
    from capqa.plus.features import answer_overlap

    metric = evaluate.load(metric_path, nli_model=random_nli_model, variant="plus")
    result = metric.compute(predictions=STATEMENT_PREDICTIONS, references=STATEMENT_GOLDS, return_details=True)
    forward = np.column_stack([result[f"p_{label}_forward"] for label in ("entailment", "neutral", "contradiction")])
    reverse = np.column_stack([result[f"p_{label}_reverse"] for label in ("entailment", "neutral", "contradiction")])
    # BLEU and ROUGE-L between the answers themselves (here: the statements), as the fit saw them.
    overlap = answer_overlap(STATEMENT_GOLDS, STATEMENT_PREDICTIONS)
    np.testing.assert_allclose(result["cap_plus"], cap_plus(forward, reverse, *overlap), atol=1e-12)
    assert result["mean_cap_plus"] == pytest.approx(np.mean(result["cap_plus"]))
    assert all(0.0 <= score <= 1.0 for score in result["cap_plus"])
    expected_relations = diagnose_relation(forward, reverse, *overlap)
    assert [r["label"] for r in result["relation"]] == [r["label"] for r in expected_relations]
    for relation in result["relation"]:
        assert relation["label"] in LABELS and sum(relation["probabilities"].values()) == pytest.approx(1.0)
        assert relation["label"] in relation["explanation"]


def test_plain_variant_has_relations_but_no_cap_plus(known_metric):
    result = known_metric.compute(predictions=STATEMENT_PREDICTIONS[:2], references=STATEMENT_GOLDS[:2],
                                  return_details=True)
    assert "cap_plus" not in result and len(result["relation"]) == 2


def test_unknown_variant_is_refused(metric_path):
    with pytest.raises(ValueError, match="`variant` must be one of 'cap', 'plus'"):
        evaluate.load(metric_path, variant="cap++")


def test_arrays_series_and_dataset_columns_are_accepted(known_metric):
    import datasets
    import pandas as pd

    expected = known_metric.compute(predictions=STATEMENT_PREDICTIONS, references=STATEMENT_GOLDS)["scores"]
    table = datasets.Dataset.from_dict({"prediction": STATEMENT_PREDICTIONS, "gold": [[g] for g in STATEMENT_GOLDS]})
    for predictions, references in ((np.array(STATEMENT_PREDICTIONS), pd.Series(STATEMENT_GOLDS)),
                                    (table["prediction"], table["gold"])):
        result = known_metric.compute(predictions=predictions, references=references)
        np.testing.assert_allclose(result["scores"], expected, atol=MODEL_ATOL, rtol=0)


def test_return_details_must_be_a_bool(known_metric):
    with pytest.raises(TypeError, match="`return_details` must be True or False"):
        known_metric.compute(predictions=["a b"], references=["c d"], return_details="no")


def test_engine_checks_its_own_inputs(random_scorer):
    with pytest.raises(ValueError, match="`premises` and `hypotheses` must have the same length"):
        random_scorer.predict(["a b", "c d"], ["e f"])
    with pytest.raises(TypeError, match="`premises` must be a list of strings"):
        random_scorer.predict("a premise", "a hypothesis")
    with pytest.raises(TypeError, match=r"`hypotheses\[0\]` must be a string"):
        random_scorer.predict(["a b"], [None])

