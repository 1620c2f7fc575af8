"""The monotonicity diagnostic: the paper's table from its per-row scores, exactness against brute
force on small data, input errors, the evaluate module, the command and the plots."""

import itertools
import json
import math
import os

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from capqa.cli import diagnose
from capqa.common.constants import LABELS, SEVERITY
from capqa.diagnose import report
from capqa.monotonicity import bootstrap as boot, measures as mono

from support.data import REPO_ROOT, data_path
from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")
mpl_figure = lazy_module("matplotlib.figure")
mpl_patches = lazy_module("matplotlib.patches")
plots = lazy_module("capqa.monotonicity.plots")

METRICS = ("cap", "bleu", "rouge_l", "meteor", "bertscore")
PAPER_RESAMPLES = 10_000
PAPER_SEED = 42
# The published file keeps 16 decimals; rates computed from the same counts agree to that.
RATE = {"rel": 1e-12, "abs": 1e-15}
# The published means were taken over unrounded scores, the published per-row scores are
# rounded (data/README.md): they agree to ~1e-12, not to the last bit.
MEAN = {"rel": 1e-11, "abs": 1e-13}
CI_TOLERANCE = 0.01


# --- The paper's table --------------------------------------------------------------------

@pytest.fixture(scope="module")
def paper_test_split(paper_scores):
    return paper_scores[paper_scores["split"] == "test"].reset_index(drop=True)


@pytest.fixture(scope="module")
def paper_tables(paper_test_split):
    """Point estimates of all five metrics, exact: cheap (no bootstrap)."""
    columns = {metric: paper_test_split[metric].to_numpy() for metric in METRICS}
    return boot.diagnostic_tables(columns, paper_test_split["label"].tolist(), n_resamples=0)


@pytest.fixture(scope="module")
def paper_bootstrap(paper_test_split):
    """The paper's bootstrap (10,000 resamples, seed 42) for CAP and BLEU: ~15 s of CPU on 2
    cores. All five metrics take ~40 s of CPU (over a minute when the machine is shared); set
    CAPQA_FULL_BOOTSTRAP=1 to check them all. The resamples do not depend on which metrics are
    bootstrapped, so CAP's and BLEU's intervals are the same either way."""
    metrics = METRICS if os.environ.get("CAPQA_FULL_BOOTSTRAP") == "1" else ("cap", "bleu")
    columns = {metric: paper_test_split[metric].to_numpy() for metric in metrics}
    return boot.diagnostic_tables(columns, paper_test_split["label"].tolist(), n_resamples=PAPER_RESAMPLES,
                                  seed=PAPER_SEED, reference="cap", progress=False)


def _by(records, *keys):
    return {tuple(record[key] for key in keys): record for record in records}


def test_the_test_split_is_the_papers(paper_test_split, paper_results):
    assert len(paper_test_split) == paper_results["rows"] == 7826
    assert paper_results["severity"] == SEVERITY
    assert [tuple(pair) for pair in paper_results["hard_pairs"]] == list(mono.check_hard_pairs(None, SEVERITY))


def test_cap_pair_counts_are_the_published_ones(paper_tables):
    cap = _by(paper_tables["correlations"], "metric")[("cap",)]
    assert (cap["comparable_pairs"], cap["pair_wins"], cap["pair_ties"], cap["pair_losses"]) == (
        23_796_795, 18_490_019, 21, 5_306_755)
    assert cap["pairwise_accuracy"] == 0.7769961879320303


def test_correlations_reproduce_the_paper(paper_tables, paper_results):
    mine = _by(paper_tables["correlations"], "metric")
    for published in paper_results["correlations"]:
        record = mine[(published["metric"],)]
        for key in ("n", "comparable_pairs", "pair_wins", "pair_ties", "pair_losses"):
            assert record[key] == published[key], (published["metric"], key)
        assert record["pairwise_accuracy"] == published["pairwise_accuracy"]
        for key in ("spearman", "kendall"):
            assert record[key] == pytest.approx(published[key], abs=1e-9), (published["metric"], key)
    assert len(mine) == len(paper_results["correlations"]) == 5


def test_descriptives_reproduce_the_paper(paper_tables, paper_results):
    mine = _by(paper_tables["descriptives"], "metric", "label")
    for published in paper_results["descriptives"]:
        record = mine[(published["metric"], published["label"])]
        assert (record["n"], record["severity"]) == (published["n"], published["severity"])
        for key in ("mean", "std", "min", "p05", "median", "p95", "max"):
            assert record[key] == pytest.approx(published[key], **MEAN), (published["metric"], key)
    assert len(mine) == len(paper_results["descriptives"]) == 40


def test_every_class_pair_row_reproduces_the_paper(paper_tables, paper_results):
    mine = _by(paper_tables["class_pairs"], "metric", "better", "worse")
    assert len(mine) == len(paper_results["class_pairs"]) == 125
    for published in paper_results["class_pairs"]:
        record = mine[(published["metric"], published["better"], published["worse"])]
        where = (published["metric"], published["better"], published["worse"])
        for key in ("hard_pair", "n_better", "n_worse", "pairs", "wins", "ties", "losses",
                    "mean_violation"):
            assert record[key] == published[key], (where, key)
        for key in ("accuracy", "auc", "violation_rate"):
            assert record[key] == pytest.approx(published[key], **RATE), (where, key)
        for key in ("mean_better", "mean_worse"):
            assert record[key] == pytest.approx(published[key], **MEAN), (where, key)
    # Class pairs come in the paper's order.
    assert [(r["metric"], r["better"], r["worse"]) for r in paper_tables["class_pairs"]] == [
        (r["metric"], r["better"], r["worse"]) for r in paper_results["class_pairs"]]


def test_mean_violations_are_the_papers(paper_tables, paper_results):
    mine = {r["metric"]: r for r in paper_tables["monotonicity"]}
    assert {m: (r["mean_violations"], r["class_pairs"]) for m, r in mine.items()} == {
        "cap": (4, 25), "bleu": (14, 25), "rouge_l": (12, 25), "meteor": (12, 25), "bertscore": (11, 25)}
    for published in paper_results["monotonicity"]:
        record = mine[published["metric"]]
        assert record["mean_violation_rate"] == published["mean_violation_rate"]
        assert record["row_level_violation_rate"] == pytest.approx(published["row_level_violation_rate"], **RATE)


def _interval_fields(record):
    return [key for key in record if "_ci_" in key]


def _bootstrapped(tables):
    return {record["metric"] for record in tables["correlations"]}


@pytest.mark.parametrize("table, keys, intervals_per_record", [
    ("correlations", ("metric",), 6),
    ("descriptives", ("metric", "label"), 2),
    ("class_pairs", ("metric", "better", "worse"), 4),
])
def test_bootstrap_intervals_agree_with_the_published_ones(paper_bootstrap, paper_results, table, keys,
                                                           intervals_per_record):
    mine = _by(paper_bootstrap[table], *keys)
    published_records = [r for r in paper_results[table] if r["metric"] in _bootstrapped(paper_bootstrap)]
    compared = 0
    for published in published_records:
        record = mine[tuple(published[key] for key in keys)]
        for field in _interval_fields(published):
            assert record[field] == pytest.approx(published[field], abs=CI_TOLERANCE), (record, field)
            compared += 1
    assert published_records and compared == intervals_per_record * len(published_records)


def test_paired_differences_agree_with_the_published_ones(paper_bootstrap, paper_results):
    mine = _by(paper_bootstrap["paired_differences"], "metric", "statistic")
    published_records = [r for r in paper_results["paired_differences"]
                         if r["metric"] in _bootstrapped(paper_bootstrap)]
    assert len(mine) == len(published_records) >= 3
    for published in published_records:
        record = mine[(published["metric"], published["statistic"])]
        assert record["reference"] == published["reference"] == "cap"
        for key in ("mean_difference", "ci_low", "ci_high", "p_reference_not_better"):
            assert record[key] == pytest.approx(published[key], abs=CI_TOLERANCE), (published, key)


# --- Exactness against brute force on small data -------------------------------------------

def _brute_force_counts(scores, severity):
    wins = ties = losses = 0
    for i, j in itertools.combinations(range(len(scores)), 2):
        if severity[i] == severity[j]:
            continue
        better, worse = (i, j) if severity[i] > severity[j] else (j, i)
        wins += scores[better] > scores[worse]
        ties += scores[better] == scores[worse]
        losses += scores[better] < scores[worse]
    return wins + ties + losses, wins, ties, losses


def _random_rows(seed, n=150, labels=LABELS, decimals=1):
    rng = np.random.default_rng(seed)
    labels = rng.choice(list(labels), size=n)
    # Coarse scores: many ties, within and across classes.
    scores = np.round(rng.random(n) + np.array([SEVERITY.get(label, 0) for label in labels]) / 8, decimals)
    return scores, labels


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pair_counts_and_correlations_match_brute_force_and_scipy(seed):
    scores, labels = _random_rows(seed)
    severity = np.array([SEVERITY[label] for label in labels], dtype=float)
    result = mono.monotonicity_report(scores, labels)
    pairs, wins, ties, losses = _brute_force_counts(scores, severity)
    assert (result["comparable_pairs"], result["wins"], result["ties"], result["losses"]) == (
        pairs, wins, ties, losses)
    assert ties > 0
    assert result["spearman"] == pytest.approx(stats.spearmanr(scores, severity).statistic, abs=1e-12)
    assert result["kendall"] == pytest.approx(stats.kendalltau(scores, severity).statistic, abs=1e-12)
    for record in result["pairs"]:
        chosen = np.isin(labels, [record["better"], record["worse"]])
        expected = _brute_force_counts(scores[chosen], severity[chosen])
        assert (record["pairs"], record["wins"], record["ties"], record["losses"]) == expected
        assert record["auc"] == pytest.approx((record["wins"] + record["ties"] / 2) / record["pairs"])


def test_bootstrap_statistics_equal_those_of_the_materialised_resamples():
    """The weighted shortcut must give what recomputing on each resampled data set gives."""
    scores, labels = _random_rows(3, n=120)
    rows = mono.prepare_labels(labels)
    order = mono.ScoreOrder(mono.prepare_scores(scores, rows.n_rows), rows)
    weights = next(boot.resample_weights(rows.n_rows, 4, seed=7))
    tables = mono.weighted_tables(order, weights)
    overall = mono.overall_statistics(tables, rows)
    pair_counts = mono.class_pair_counts(tables, rows)
    for b, counts in enumerate(weights):
        resampled_scores = np.repeat(scores, counts)
        resampled_labels = np.repeat(labels, counts)
        expected = mono.monotonicity_report(resampled_scores, resampled_labels)
        assert overall["wins"][b] == expected["wins"] and overall["ties"][b] == expected["ties"]
        assert overall["pairs"][b] == expected["comparable_pairs"]
        assert overall["spearman"][b] == pytest.approx(expected["spearman"], abs=1e-12)
        assert overall["kendall"][b] == pytest.approx(expected["kendall"], abs=1e-12)
        assert list(pair_counts["wins"][b]) == [p["wins"] for p in expected["pairs"]]
        means = mono.class_means(tables)[b]
        assert means == pytest.approx([expected["class_means"][label] for label in rows.classes])


def test_the_same_seed_gives_the_same_bootstrap_and_metrics_share_resamples():
    scores, labels = _random_rows(4, n=200)
    columns = {"a": scores, "b": scores[::-1].copy()}
    first = boot.diagnostic_tables(columns, labels, n_resamples=300, seed=5, reference="a", progress=False)
    again = boot.diagnostic_tables(columns, labels, n_resamples=300, seed=5, reference="a", progress=False)
    assert first == again
    # Paired: a metric against itself differs by exactly zero on every resample.
    same = boot.diagnostic_tables({"a": scores, "copy": scores.copy()}, labels, n_resamples=200,
                                  seed=5, reference="a", progress=False)
    assert all(r["mean_difference"] == r["ci_low"] == r["ci_high"] == 0 and r["p_reference_not_better"] == 1
               for r in same["paired_differences"])


def test_scores_are_rounded_to_ten_decimals_before_comparison():
    with pytest.warns(RuntimeWarning, match="`scores` are all equal"):
        result = mono.monotonicity_report([0.5 + 1e-12, 0.5], ["exact", "invalid"])
    assert (result["wins"], result["ties"]) == (0, 1)
    assert math.isnan(result["spearman"]) and math.isnan(result["kendall"])
    result = mono.monotonicity_report([0.5 + 1e-9, 0.5], ["exact", "invalid"])
    assert (result["wins"], result["ties"]) == (1, 0)


# --- Subsets, custom severities, errors -----------------------------------------------------

def test_absent_classes_are_skipped():
    scores, labels = _random_rows(5, labels=("exact", "partial", "invalid"))
    result = mono.monotonicity_report(scores, labels)
    assert list(result["class_means"]) == ["exact", "partial", "invalid"]
    assert result["class_pairs"] == 3
    assert [(p["better"], p["worse"]) for p in result["pairs"]] == [
        ("exact", "partial"), ("exact", "invalid"), ("partial", "invalid")]


def test_classes_of_equal_severity_are_not_compared():
    result = mono.monotonicity_report([0.9, 0.1, 0.5], ["exact", "equivalent", "partial"])
    assert result["comparable_pairs"] == 2 and result["class_pairs"] == 2


def test_custom_severities_order_the_classes_and_drop_unknown_hard_pairs():
    severity = {"bad": 0, "good": 2, "ok": 1}
    result = mono.monotonicity_report([0.1, 0.9, 0.5, 0.6], ["bad", "good", "ok", "bad"], severity)
    assert list(result["class_means"]) == ["good", "ok", "bad"]
    assert (result["wins"], result["losses"], result["comparable_pairs"]) == (4, 1, 5)
    assert [p["hard_pair"] for p in result["pairs"]] == [False] * 3
    flagged = mono.monotonicity_report([0.1, 0.9, 0.5], ["bad", "good", "ok"], severity,
                                       hard_pairs=[("good", "ok")])
    assert [p["hard_pair"] for p in flagged["pairs"]] == [True, False, False]


def test_overriding_the_papers_severities_changes_the_comparisons():
    severity = dict(SEVERITY, partial=6)
    scores, labels = [0.9, 0.2], ["exact", "partial"]
    assert mono.monotonicity_report(scores, labels)["comparable_pairs"] == 1
    # With partial as correct as exact nothing is comparable: refused rather than all NaN.
    with pytest.raises(ValueError, match="at least two different severities; it holds only exact, partial"):
        mono.monotonicity_report(scores, labels, severity)


@pytest.mark.parametrize("scores, labels, error, words", [
    ([0.1, float("nan")], ["exact", "invalid"], ValueError, "`scores` must be finite"),
    ([0.1, float("inf")], ["exact", "invalid"], ValueError, "`scores` must be finite"),
    ([0.1], ["exact", "invalid"], ValueError, "same length"),
    ([0.1, 0.2], ["exact", "wrong"], ValueError, "unknown classes ['wrong']"),
    ([0.1, "x"], ["exact", "invalid"], TypeError, "`scores` must be a list of numbers"),
    ([0.1, 0.2], "exact", TypeError, "`labels` must be a list"),
    ([], [], ValueError, "non-empty"),
])
def test_bad_input_is_refused_with_a_clear_error(scores, labels, error, words):
    with pytest.raises(error, match=None) as raised:
        mono.monotonicity_report(scores, labels)
    assert words in str(raised.value)


@pytest.mark.parametrize("severity, hard_pairs, words", [
    ({"a": "high"}, None, "`severity['a']` must be a finite number"),
    ({"a": float("nan")}, None, "finite number"),
    ([("a", 1)], None, "`severity` must be a non-empty dict"),
    (None, [("exact", "nonsense")], "`hard_pairs` entries"),
    (None, [("partial", "equivalent")], "'partial' (severity 4) is not above 'equivalent' (severity 6)"),
    (None, [("exact", "equivalent")], "is not above"),
])
def test_bad_options_are_refused(severity, hard_pairs, words):
    with pytest.raises((TypeError, ValueError)) as raised:
        mono.monotonicity_report([0.1, 0.2], ["exact", "invalid"], severity, hard_pairs)
    assert words in str(raised.value)


def test_diagnostic_tables_refuse_an_unknown_reference_and_empty_columns():
    with pytest.raises(ValueError, match="`reference` must be one of"):
        boot.diagnostic_tables({"a": [0.1, 0.2]}, ["exact", "invalid"], n_resamples=0, reference="b")
    with pytest.raises(TypeError, match="`score_columns` must be a non-empty dict"):
        boot.diagnostic_tables({}, ["exact"], n_resamples=0)
    with pytest.raises(ValueError, match=r"`score_columns\['a'\]` must be finite"):
        boot.diagnostic_tables({"a": [0.1, float("nan")]}, ["exact", "invalid"], n_resamples=0)


# --- The evaluate module --------------------------------------------------------------------

@pytest.fixture(scope="module")
def module_path():
    return str(REPO_ROOT / "monotonicity.py")


def test_evaluate_module_gives_the_papers_cap_counts(module_path, paper_test_split, paper_results):
    module = evaluate.load(module_path)
    assert type(module).__name__ == "Monotonicity"
    result = module.compute(predictions=paper_test_split["cap"].tolist(), references=paper_test_split["label"].tolist())
    published = paper_results["correlations"][0]
    assert (result["comparable_pairs"], result["wins"], result["ties"], result["losses"]) == (
        published["comparable_pairs"], published["pair_wins"], published["pair_ties"], published["pair_losses"])
    assert result["pairwise_accuracy"] == published["pairwise_accuracy"]
    assert (result["mean_violations"], result["class_pairs"]) == (4, 25)
    assert list(result["class_means"]) == list(LABELS)
    assert len(result["pairs"]) == 25 and sum(p["hard_pair"] for p in result["pairs"]) == 4


def test_evaluate_module_add_batch_and_custom_severity(module_path):
    module = evaluate.load(module_path, severity={"good": 2, "ok": 1, "bad": 0})
    module.add_batch(predictions=[0.8, 0.5], references=["good", "ok"])
    module.add_batch(predictions=[0.5], references=["bad"])
    result = module.compute()
    assert (result["wins"], result["ties"], result["comparable_pairs"]) == (2, 1, 3)


def test_evaluate_module_keeps_float64_precision(module_path):
    # float32 would merge these two scores into a tie.
    result = evaluate.load(module_path).compute(predictions=[0.5 + 1e-9, 0.5], references=["exact", "invalid"])
    assert (result["wins"], result["ties"]) == (1, 0)


@pytest.mark.parametrize("predictions, references, words", [
    ([0.1, float("nan")], ["exact", "invalid"], "`predictions` must be finite"),
    ([0.1], ["exact", "invalid"], "`predictions` and `references` must have the same length"),
    ([0.1, 0.2], ["exact", "nope"], "`references` contains unknown classes"),
])
def test_evaluate_module_refuses_bad_input(module_path, predictions, references, words):
    with pytest.raises(ValueError) as raised:
        evaluate.load(module_path).compute(predictions=predictions, references=references)
    assert words in str(raised.value)


def test_evaluate_module_examples_run(module_path):
    """The examples of _KWARGS_DESCRIPTION are doctests; run them against the module."""
    import doctest

    module = evaluate.load(module_path)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(module.inputs_description, {"evaluate": evaluate}, "monotonicity", module_path, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 4


# --- The command and the plots --------------------------------------------------------------

def test_diagnose_command_writes_tables_summary_and_plots(tmp_path, paper_scores):
    out = tmp_path / "diag"
    code = diagnose.main([str(data_path("paper_scores.csv")), "--label-column", "label",
                        "--metrics", "cap,bleu", "--split-column", "split", "--split", "validation",
                        "--bootstrap", "200", "--seed", "1", "--out", str(out), "--quiet"])
    assert code == 0
    for name in [*(f"{t}.csv" for t in report.TABLES), "results.json", "summary.md", *report.PLOTS]:
        assert (out / name).stat().st_size > 0, name
    validation = paper_scores[paper_scores["split"] == "validation"]
    expected = mono.monotonicity_report(validation["bleu"], validation["label"])
    correlations = pd.read_csv(out / "correlations.csv").set_index("metric")
    assert correlations.loc["bleu", "pair_wins"] == expected["wins"]
    assert correlations.loc["bleu", "comparable_pairs"] == expected["comparable_pairs"]
    summary = (out / "summary.md").read_text()
    for heading in ("## Agreement with human severity", "## Hard pairs", "## Monotonicity",
                    "## Paired differences against cap", "class_pair_accuracy.png"):
        assert heading in summary
    assert f"| bleu | {expected['mean_violations']}/{expected['class_pairs']} |" in summary
    assert json.loads((out / "results.json").read_text())["monotonicity"][1]["metric"] == "bleu"


def test_diagnose_command_accepts_a_severity_file(tmp_path):
    data = tmp_path / "scores.csv"
    pd.DataFrame({"grade": ["good", "ok", "bad", "good"], "m": [0.9, 0.4, 0.5, 0.7]}).to_csv(data, index=False)
    severity = tmp_path / "severity.json"
    severity.write_text(json.dumps({"good": 2, "ok": 1, "bad": 0}))
    out = tmp_path / "out"
    assert diagnose.main([str(data), "--label-column", "grade", "--metrics", "m", "--severity", str(severity),
                        "--bootstrap", "0", "--out", str(out), "--no-plots"]) == 0
    monotonicity = pd.read_csv(out / "monotonicity.csv")
    assert monotonicity.loc[0, "mean_violations"] == 1 and monotonicity.loc[0, "class_pairs"] == 3


@pytest.mark.parametrize("extra, words", [
    (["--metrics", "cap,nothing"], "no column(s) ['nothing']"),
    (["--metrics", "cap", "--split", "test"], "--split needs --split-column"),
    (["--metrics", "cap", "--split-column", "split", "--split", "train"], "no rows with split == 'train'"),
    (["--metrics", "cap", "--label-column", "dataset"], "unknown classes"),
])
def test_diagnose_command_reports_bad_arguments(tmp_path, capsys, extra, words):
    with pytest.raises(SystemExit) as exit_info:
        diagnose.main([str(data_path("paper_scores.csv")), "--out", str(tmp_path), "--bootstrap", "0", *extra])
    assert exit_info.value.code == 2
    assert words in capsys.readouterr().err


def test_cli_dispatches_diagnose(tmp_path):
    from capqa.cli import main

    data = tmp_path / "s.csv"
    pd.DataFrame({"label": ["exact", "invalid"], "m": [0.9, 0.1]}).to_csv(data, index=False)
    assert main(["diagnose", str(data), "--metrics", "m", "--bootstrap", "0", "--out", str(tmp_path / "o"),
                 "--no-plots"]) == 0


def test_plots_show_the_diagnostic():
    scores, labels = _random_rows(6, n=300)
    columns = {"coarse": scores, "reversed": -scores}
    tables = boot.diagnostic_tables(columns, labels, n_resamples=50, seed=0, reference="coarse", progress=False)
    distributions = plots.class_distributions(pd.DataFrame(columns), labels)
    assert isinstance(distributions, mpl_figure.Figure) and len(distributions.axes) == 2
    assert [t.get_text().split("\n")[0] for t in distributions.axes[-1].get_xticklabels()] == list(LABELS)
    heatmap = plots.class_pair_heatmap(tables["class_pairs"])
    violations = {r["metric"]: r["mean_violations"] for r in tables["monotonicity"]}
    for axis in heatmap.axes[:2]:
        name = axis.get_title().split(":")[0]
        frames = [p for p in axis.patches if isinstance(p, mpl_patches.Rectangle)]
        assert len(frames) == violations[name]
    assert violations["reversed"] == 25 and violations["coarse"] < 25
    assert isinstance(plots.agreement_intervals(tables["correlations"]), mpl_figure.Figure)


def test_plots_refuse_bad_input():
    with pytest.raises(ValueError, match="unknown classes"):
        plots.class_distributions({"m": [0.1, 0.2]}, ["exact", "bogus"])
    with pytest.raises(ValueError, match="`class_pairs` is empty"):
        plots.class_pair_heatmap([])
