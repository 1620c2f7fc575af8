"""Verdicts: policies, validation-only thresholds, the binary report, and the metric option."""

import json

import numpy as np
import pandas as pd
import pytest

from capqa.cli import main as cli_main
from capqa.common.constants import LABELS
from capqa.metric.options import MetricOptions
from capqa.plus.calibration import add_cap_plus, cap_plus, frame_inputs
from capqa.plus.cross_fit import threshold_scores
from capqa.verdicts.benchmark import (BENCHMARK_METRICS, benchmark_verdict_markdown, cross_fit_note, parse_policies,
                                      verdict_records)
from capqa.verdicts.judge import check_verdict, resolve_verdict
from capqa.verdicts.policies import POLICIES, accepted_classes, binary_targets, policy_credits
from capqa.verdicts.report import binary_report
from capqa.verdicts.thresholds import choose_threshold, fit_thresholds, load_thresholds, threshold_for

from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")

STATEMENTS = ["The capital of France is Paris.", "The capital of France is Lyon.", "Water boils at 100 C."]
GOLDS = ["Paris is the capital of France.", "Paris is the capital of France.", "Water boils at 100 degrees."]


def test_policies_name_the_classes_the_issue_asks_for():
    assert accepted_classes(POLICIES["strict"]) == ("exact", "equivalent", "alternative_correct")
    assert accepted_classes(POLICIES["lenient"]) == ("exact", "equivalent", "alternative_correct",
                                                     "overinclusive_valid")
    assert POLICIES["graded"]["partial"] == pytest.approx(4 / 6)
    assert POLICIES["graded"]["exact"] == 1.0 and set(POLICIES["graded"]) == set(LABELS)


@pytest.mark.parametrize("mapping, message", [
    ({"exactly": 1.0}, "unknown classes"),
    ({"exact": 1.5}, "credit in \\[0, 1\\]"),
    ({"exact": 0.2}, "no answer could be judged correct"),
    ({label: 1.0 for label in LABELS}, "no answer could be judged incorrect"),
])
def test_bad_user_mappings_are_refused(mapping, message):
    with pytest.raises(ValueError, match=message):
        policy_credits(mapping, "verdict")


def test_user_mapping_leaves_other_classes_at_zero():
    credits = policy_credits({"exact": 1.0, "partial": 0.5})
    assert credits["invalid"] == 0.0 and accepted_classes(credits) == ("exact", "partial")


def test_threshold_maximises_youden_j_between_neighbouring_scores():
    scores = np.array([0.1, 0.2, 0.3, 0.6, 0.7, 0.9])
    targets = np.array([False, False, True, False, True, True])
    cut = choose_threshold(scores, targets)
    # Cut between 0.2 and 0.3: TPR 1, FPR 1/3 -> J 2/3; between 0.6 and 0.7: TPR 2/3, FPR 0 -> J 2/3;
    # the lowest cut wins the tie.
    assert cut["threshold"] == pytest.approx(0.25)
    assert cut["youden_j"] == pytest.approx(2 / 3) and cut["balanced_accuracy"] == pytest.approx(5 / 6)


def test_equally_good_cuts_tie_exactly_and_the_lowest_wins():
    # From the top: N N P | N N N P | N. Accepting the top 3 rows (TP 1, FP 2) and the top 7 (TP 2,
    # FP 5) both give J = 1/6 exactly, but in floats 2/2 - 5/6 < 1/2 - 2/6 by 1e-16: argmax over
    # float J picked the higher cut. Integer counts (TP * N - FP * P) tie, and the lowest cut wins.
    assert 2 / 2 - 5 / 6 < 1 / 2 - 2 / 6
    scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    targets = [False, True, False, False, False, True, False, False]
    cut = choose_threshold(scores, targets)
    assert cut["threshold"] == pytest.approx(0.15) and cut["youden_j"] == pytest.approx(1 / 6)
    assert (cut["plateau_low"], cut["plateau_high"], cut["plateau_cuts"]) == (pytest.approx(0.15),
                                                                              pytest.approx(0.55), 2)
    # A unique best cut is a plateau of one.
    single = choose_threshold([0.1, 0.2, 0.8, 0.9], [False, False, True, True])
    assert single["plateau_cuts"] == 1 and single["plateau_low"] == single["plateau_high"] == single["threshold"]


def test_shipped_thresholds_record_their_plateau():
    for policy in load_thresholds()["policies"].values():
        for cut in policy["thresholds"].values():
            assert cut["plateau_low"] == cut["threshold"] <= cut["plateau_high"] and cut["plateau_cuts"] >= 1


def test_fit_verdicts_refuses_metrics_that_name_no_column(tmp_path, capsys):
    from support.data import data_path

    out = tmp_path / "thresholds.json"
    for metrics in (" , ", "", ","):
        with pytest.raises(SystemExit) as stopped:
            cli_main(["fit-verdicts", "--scores", str(data_path("paper_scores.csv")), "--out", str(out),
                      "--metrics", metrics])
        assert stopped.value.code != 0
        assert "--metrics names no score column" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(ValueError, match="no score column"):
        fit_thresholds(pd.DataFrame({"label": ["exact"], "split": ["validation"]}), scores=())


def test_threshold_needs_both_kinds_of_rows():
    with pytest.raises(ValueError, match="both correct and incorrect"):
        choose_threshold([0.1, 0.2], [True, True])


def test_shipped_thresholds_are_the_validation_fit(paper_scores):
    shipped = load_thresholds()
    refit = fit_thresholds(add_cap_plus(paper_scores))
    assert shipped["fitted_on"]["split"] == "validation" and shipped["fitted_on"]["rows"] == 1000
    for policy in POLICIES:
        for score in ("cap", "cap_plus"):
            assert (refit["policies"][policy]["thresholds"][score]["threshold"]
                    == pytest.approx(shipped["policies"][policy]["thresholds"][score]["threshold"], abs=1e-8))
    # CAP+'s thresholds were chosen on its cross-fitted scores of the rows it was fitted on (issue 34),
    # CAP's on the published column; the file says so.
    assert shipped["scored_by"] == refit["scored_by"]
    assert shipped["scored_by"]["cap_plus"].startswith("CAP+ cross-fitted on the 1,000 validation rows")
    validation = paper_scores[paper_scores["split"] == "validation"]
    out_of_fold = threshold_scores(validation).scores
    in_sample = cap_plus(*frame_inputs(validation))
    strict = binary_targets(validation["label"], POLICIES["strict"])
    assert (shipped["policies"]["strict"]["thresholds"]["cap_plus"]["threshold"]
            == pytest.approx(choose_threshold(out_of_fold, strict)["threshold"], abs=1e-12))
    assert choose_threshold(in_sample, strict)["youden_j"] > choose_threshold(out_of_fold, strict)["youden_j"]
    np.testing.assert_allclose(shipped["fitting_rows"]["cap_plus"], np.round(out_of_fold, 8), rtol=0, atol=1e-12)
    # Validation only: refitting on the test rows moves the threshold.
    on_test = fit_thresholds(paper_scores, split="test", scores=("cap",))
    assert (on_test["policies"]["strict"]["thresholds"]["cap"]["threshold"]
            != shipped["policies"]["strict"]["thresholds"]["cap"]["threshold"])


def test_user_mapping_gets_its_threshold_from_the_same_rows():
    assert threshold_for({label: POLICIES["strict"][label] for label in LABELS}) == pytest.approx(threshold_for("strict"))


def test_binary_report_matches_the_confusion_matrix():
    labels = ["exact", "invalid", "equivalent", "partial", "contradictory", "exact"]
    scores = [0.9, 0.8, 0.4, 0.3, 0.1, 0.95]
    report = binary_report(scores, labels, POLICIES["strict"], threshold=0.5)
    # Accepted: rows 0, 1, 5; correct: rows 0, 2, 5 -> TP 2, FP 1, FN 1, TN 2.
    tp, fp, fn, tn = 2, 1, 1, 2
    accuracy = (tp + tn) / 6
    chance = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / 36
    assert report["accuracy"] == pytest.approx(accuracy)
    assert report["balanced_accuracy"] == pytest.approx((tp / (tp + fn) + tn / (tn + fp)) / 2)
    assert report["f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))
    assert report["kappa"] == pytest.approx((accuracy - chance) / (1 - chance))
    # AUROC: pairs (correct, incorrect) with the correct one scored higher: 0.9>0.8,0.3,0.1; 0.4>0.3,0.1; 0.95>all.
    assert report["auroc"] == pytest.approx(8 / 9)
    invalid = next(record for record in report["classes"] if record["class"] == "invalid")
    assert invalid["error"] == "wrongly accepted" and invalid["error_rate"] == 1.0


def test_bootstrap_intervals_contain_the_estimate(paper_scores):
    test_rows = paper_scores[paper_scores["split"] == "test"].head(500)
    report = binary_report(test_rows["cap"], test_rows["label"], POLICIES["strict"], 0.9, n_resamples=200)
    for name in ("accuracy", "balanced_accuracy", "f1", "kappa", "auroc"):
        assert report[f"{name}_ci_low"] <= report[name] <= report[f"{name}_ci_high"]


def test_cluster_bootstrap_draws_whole_clusters():
    from capqa.monotonicity.bootstrap import cluster_codes, resample_weights

    # Every row its own cluster: exactly the row bootstrap.
    rows = np.vstack(list(resample_weights(6, 50, seed=3)))
    singletons = np.vstack(list(resample_weights(6, 50, seed=3, clusters=cluster_codes(list("abcdef")))))
    assert np.array_equal(rows, singletons)
    codes = cluster_codes(["q1", "q1", "q2", "q3", "q3", "q3"])
    weights = np.vstack(list(resample_weights(6, 200, seed=3, clusters=codes)))
    assert np.array_equal(weights[:, 0], weights[:, 1]) and np.array_equal(weights[:, 3], weights[:, 5])
    assert (weights[:, [0, 2, 3]].sum(axis=1) == 3).all()   # three clusters drawn per resample
    with pytest.raises(ValueError, match="`clusters` is empty at row 1"):
        cluster_codes(["q1", None, "q2"])


def test_cluster_bootstrap_widens_intervals_when_clusters_repeat_rows(paper_scores):
    test_rows = paper_scores[paper_scores["split"] == "test"].head(400)
    duplicated = pd.concat([test_rows] * 3, ignore_index=True)
    by_row = binary_report(duplicated["cap"], duplicated["label"], POLICIES["strict"], 0.9, n_resamples=300)
    clustered = binary_report(duplicated["cap"], duplicated["label"], POLICIES["strict"], 0.9, n_resamples=300,
                              clusters=np.tile(np.arange(len(test_rows)), 3))
    width = lambda report: report["accuracy_ci_high"] - report["accuracy_ci_low"]  # noqa: E731
    # Three copies of each row are one question's answers: treating them as independent rows
    # understates the interval by about sqrt(3).
    assert width(clustered) > 1.4 * width(by_row)
    assert clustered["accuracy"] == by_row["accuracy"]


def test_diagnose_cluster_option_resamples_clusters(tmp_path):
    from support.data import data_path

    frame = pd.read_csv(data_path("paper_scores.csv")).head(3000)
    frame["question"] = frame["row_id"] // 4
    scores = tmp_path / "scores.csv"
    frame.to_csv(scores, index=False)
    out = tmp_path / "out"
    assert cli_main(["diagnose", str(scores), "--metrics", "cap", "--split-column", "split", "--split", "test",
                     "--verdict", "strict", "--bootstrap", "20", "--no-plots", "--quiet", "--cluster", "question",
                     "--out", str(out)]) == 0
    summary = (out / "summary.md").read_text()
    assert summary.count("bootstrap resamples over `question` clusters") == 2
    with pytest.raises(SystemExit):
        cli_main(["diagnose", str(scores), "--metrics", "cap", "--cluster", "nope", "--out", str(tmp_path / "o2")])


def test_verdict_table_fits_on_validation_and_judges_test(paper_scores):
    records = verdict_records(paper_scores, ["cap", "bleu"], {"strict": POLICIES["strict"]}, n_resamples=0,
                              progress=False)
    cap = next(record for record in records if record["metric"] == "cap")
    assert cap["rows"] == 7826 and cap["threshold"] == pytest.approx(threshold_for("strict"), abs=1e-8)
    plus = verdict_records(paper_scores, ["cap_plus"], {"strict": POLICIES["strict"]}, n_resamples=0, progress=False)
    assert plus[0]["threshold"] == pytest.approx(threshold_for("strict", "cap_plus"), abs=1e-8)
    assert plus[0]["threshold_scored_by"].startswith("CAP+ cross-fitted")
    assert "The cap_plus thresholds were chosen on CAP+ cross-fitted" in cross_fit_note(plus)
    test_rows = paper_scores[paper_scores["split"] == "test"]
    direct = binary_report(test_rows["bleu"], test_rows["label"], POLICIES["strict"],
                           choose_threshold(paper_scores[paper_scores["split"] == "validation"]["bleu"],
                                            binary_targets(paper_scores[paper_scores["split"] == "validation"]["label"],
                                                           POLICIES["strict"]))["threshold"])
    bleu = next(record for record in records if record["metric"] == "bleu")
    assert bleu["accuracy"] == pytest.approx(direct["accuracy"]) and bleu["auroc"] == pytest.approx(direct["auroc"])
    with pytest.raises(ValueError, match="judge them on another split"):
        verdict_records(paper_scores, ["cap"], {"strict": POLICIES["strict"]}, eval_split="validation")


def test_space_table_lists_every_metric_and_policy(paper_scores):
    text = benchmark_verdict_markdown(n_resamples=20)
    for name in (*BENCHMARK_METRICS, *POLICIES, "Most wrongly accepted", "7,826"):
        assert name in text


def test_diagnose_adds_the_binary_report(tmp_path):
    from support.data import data_path

    out = tmp_path / "out"
    assert cli_main(["diagnose", str(data_path("paper_scores.csv")), "--metrics", "cap,cap_plus",
                     "--split-column", "split", "--split", "test", "--verdict", "strict,graded",
                     "--bootstrap", "20", "--no-plots", "--quiet", "--out", str(out)]) == 0
    table = pd.read_csv(out / "verdicts.csv")
    assert sorted(zip(table["policy"], table["metric"])) == sorted(
        [(p, m) for p in ("strict", "graded") for m in ("cap", "cap_plus")])
    assert (table["rows"] == 7826).all() and "accuracy_ci_low" in table
    assert "Most wrongly accepted" in (out / "summary.md").read_text()


def test_diagnose_refuses_an_unknown_policy(tmp_path, capsys):
    from support.data import data_path

    with pytest.raises(SystemExit):
        cli_main(["diagnose", str(data_path("paper_scores.csv")), "--metrics", "cap", "--split-column", "split",
                  "--verdict", "strictest", "--out", str(tmp_path)])
    assert "strictest" in capsys.readouterr().err
    assert parse_policies('{"exact": 1}')["custom"]["exact"] == 1.0


@pytest.mark.parametrize("verdict, error, message", [
    ("strictest", ValueError, "verdict"), (1.5, ValueError, "in \\[0, 1\\]"), (True, TypeError, "verdict"),
    ([0.5], TypeError, "verdict"),
])
def test_bad_verdict_option_is_refused(verdict, error, message):
    with pytest.raises(error, match=message):
        MetricOptions(verdict=verdict)


def test_metric_adds_correct_and_accuracy(random_nli_model, metric_path):
    plain = evaluate.load(metric_path, nli_model=random_nli_model).compute(predictions=STATEMENTS, references=GOLDS)
    assert "correct" not in plain and "accuracy" not in plain
    for verdict in ("strict", "lenient", 0.5):
        result = evaluate.load(metric_path, nli_model=random_nli_model, verdict=verdict).compute(
            predictions=STATEMENTS, references=GOLDS)
        np.testing.assert_allclose(result["scores"], plain["scores"], atol=MODEL_ATOL)
        threshold = resolve_verdict(verdict).threshold
        assert result["correct"] == [score >= threshold for score in np.round(plain["scores"], 10)]
        assert result["accuracy"] == pytest.approx(np.mean(result["correct"]))


def test_every_verdict_result_says_what_correct_means(random_nli_model, metric_path):
    graded = evaluate.load(metric_path, nli_model=random_nli_model, verdict="graded").compute(
        predictions=STATEMENTS, references=GOLDS)["verdict"]
    assert graded["policy"] == "graded" and graded["score"] == "cap"
    assert graded["correct_classes"] == ["exact", "equivalent", "alternative_correct", "overinclusive_valid", "partial"]
    assert "partial" in graded["meaning"] and f"{graded['threshold']:.4f}" in graded["meaning"]
    number = resolve_verdict(0.5).describe()
    assert number["policy"] is None and number["correct_classes"] is None and number["meaning"] == "CAP >= 0.5000"


def test_graded_verdict_credit_is_cap_plus(random_nli_model, metric_path):
    metric = evaluate.load(metric_path, nli_model=random_nli_model, variant="plus", verdict="graded")
    result = metric.compute(predictions=STATEMENTS, references=GOLDS)
    # Expected credit under the relation classifier with severity / 6 is CAP+ itself.
    np.testing.assert_allclose(result["credit"], result["cap_plus"], atol=MODEL_ATOL)
    assert result["correct"] == [score >= resolve_verdict("graded", "plus").threshold
                                 for score in np.round(result["cap_plus"], 10)]
    assert result["mean_credit"] == pytest.approx(np.mean(result["credit"]))


def test_score_command_writes_the_verdict(random_nli_model, tmp_path):
    rows = tmp_path / "rows.csv"
    pd.DataFrame({"gold": GOLDS, "answer": STATEMENTS}).to_csv(rows, index=False)
    out = tmp_path / "scored.csv"
    assert cli_main(["score", str(rows), "--out", str(out), "--question-column", "", "--gold-column", "gold",
                     "--answer-column", "answer", "--nli-model", random_nli_model, "--device", "cpu",
                     "--verdict", json.dumps({"exact": 1, "equivalent": 1})]) == 0
    scored = pd.read_csv(out)
    threshold = threshold_for({"exact": 1, "equivalent": 1})
    assert list(scored["correct"]) == [score >= threshold for score in np.round(scored["cap"], 10)]
    assert check_verdict(None) is None


def test_score_refuses_an_input_column_the_verdict_would_overwrite(random_nli_model, tmp_path, monkeypatch):
    monkeypatch.setenv("CAPQA_TRACEBACK", "1")  # the exception itself, not its one `error:` line
    rows = tmp_path / "rows.csv"
    pd.DataFrame({"gold": GOLDS, "answer": STATEMENTS, "correct": ["yes"] * len(GOLDS)}).to_csv(rows, index=False)
    command = ["score", str(rows), "--out", str(tmp_path / "scored.csv"), "--question-column", "",
               "--gold-column", "gold", "--answer-column", "answer", "--nli-model", random_nli_model,
               "--device", "cpu"]
    with pytest.raises(ValueError, match="the input already has column\\(s\\) 'correct'"):
        cli_main([*command, "--verdict", "strict"])
    assert cli_main(command) == 0  # without a verdict, `correct` is the user's own column


def test_a_resume_under_another_verdict_is_refused(random_nli_model, tmp_path):
    from capqa.jobs.manifest import JobMismatchError
    from capqa.jobs.scoring import score_table
    from capqa.metric.options import MetricOptions
    from capqa.records.job import JobSettings

    table = pd.DataFrame({"gold": GOLDS, "answer": STATEMENTS})
    out = tmp_path / "scored.csv"
    strict = MetricOptions(nli_model=random_nli_model, device="cpu", verdict="strict").build_scorer()
    assert score_table(table, strict, out, JobSettings(None, "gold", "answer")).added == len(table)
    lenient = MetricOptions(nli_model=random_nli_model, device="cpu", verdict="lenient").build_scorer()
    # Same columns, other thresholds: the rows written under `strict` must not be trusted.
    with pytest.raises(JobMismatchError, match="verdict"):
        score_table(table, lenient, out, JobSettings(None, "gold", "answer"))


@pytest.mark.parametrize("value", ["1.5", "-1", "3.5", "1.00001", "-0.002"])
def test_fit_verdicts_refuses_a_score_outside_the_unit_interval_by_line(tmp_path, capsys, value):
    """Issue 35 item 14: CAP's scores lie in [0, 1]; a threshold fitted on 3.5 would mean nothing."""
    rows = "split,label,cap\n" + "".join(f"validation,{label},0.{i}\n" for i, label in enumerate(
        ["exact", "invalid", "partial", "exact", "invalid"]))
    (tmp_path / "s.csv").write_text(rows.replace("0.3", value))
    with pytest.raises(SystemExit):
        cli_main(["fit-verdicts", "--scores", str(tmp_path / "s.csv"), "--metrics", "cap", "--split", "",
                  "--out", str(tmp_path / "t.json")])
    assert f"`s.csv` line 5, column 'cap': expected a score in [0, 1], got {value}" in capsys.readouterr().err
    assert not (tmp_path / "t.json").exists()
