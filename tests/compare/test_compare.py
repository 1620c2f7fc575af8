"""Comparing systems (``capqa.compare.systems``, ``python -m capqa compare``): intervals and p-values
that agree with scipy, exact answers where the answer is known, clear refusals, reproducible runs."""

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from capqa.compare.report import FORMATS, forest_plot, format_comparison
from capqa.compare.significance import approximate_randomisation, bootstrap_means, estimate, holm
from capqa.compare.systems import DETECT_CLUSTERS, Alignment, ScoredSystem, compare_systems

from support.identity import job_identity

IDENTITY = job_identity()


def scored_table(cap, n_questions=None, relation=None, seed=0):
    """A table as `score` writes it (the columns compare reads), with the given CAP per row."""
    n = len(cap)
    questions = [f"Question {i % (n_questions or n)}?" for i in range(n)]
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"question": questions, "gold_answer": [f"gold {i}" for i in range(n)],
                         "answer": [f"answer {i}" for i in range(n)], "cap": np.asarray(cap, dtype=float),
                         "relation": relation if relation is not None else rng.choice(["exact", "partial", "invalid"], n),
                         "dataset": ["ARC-Easy" if i % 3 else "mmlu" for i in range(n)]})


def systems_of(*caps, identities=None, **table_options):
    identities = identities or [IDENTITY] * len(caps)
    return [ScoredSystem(f"S{i}", scored_table(cap, **table_options), identity)
            for i, (cap, identity) in enumerate(zip(caps, identities))]


@pytest.fixture(scope="module")
def scores():
    """Two systems' skewed scores in [0, 1], the second a little better and noisily related."""
    rng = np.random.default_rng(7)
    first = rng.beta(2, 3, size=300)
    second = np.clip(first + rng.normal(0.02, 0.15, size=300), 0, 1)
    return first, second


# --- agreement with scipy -----------------------------------------------------------------------

def test_the_mean_ci_agrees_with_scipy_bootstrap(scores):
    first, _ = scores
    ours = estimate(first, bootstrap_means(first[None], n_resamples=4000, seed=1)[0])
    theirs = stats.bootstrap((first,), np.mean, n_resamples=4000, method="percentile", random_state=2)
    width = theirs.confidence_interval.high - theirs.confidence_interval.low
    # Monte Carlo error of a 2.5 % quantile of 4,000 resamples is ~1.5 % of the width.
    assert ours.low == pytest.approx(theirs.confidence_interval.low, abs=0.1 * width)
    assert ours.high == pytest.approx(theirs.confidence_interval.high, abs=0.1 * width)
    assert ours.mean == pytest.approx(first.mean())


def test_the_paired_difference_ci_agrees_with_scipy_paired_bootstrap(scores):
    first, second = scores
    resampled = bootstrap_means(np.stack([first, second]), n_resamples=4000, seed=3)
    ours = estimate(second - first, resampled[1] - resampled[0])
    theirs = stats.bootstrap((first, second), lambda a, b, axis=-1: np.mean(b, axis=axis) - np.mean(a, axis=axis),
                             paired=True, vectorized=True, n_resamples=4000, method="percentile", random_state=4)
    width = theirs.confidence_interval.high - theirs.confidence_interval.low
    assert ours.low == pytest.approx(theirs.confidence_interval.low, abs=0.1 * width)
    assert ours.high == pytest.approx(theirs.confidence_interval.high, abs=0.1 * width)


def test_the_randomisation_p_value_agrees_with_scipy_permutation_test(scores):
    first, second = scores
    ours = approximate_randomisation(first, second, n_permutations=20000, seed=5)
    theirs = stats.permutation_test((first, second), lambda a, b, axis=-1: np.mean(b - a, axis=axis),
                                    permutation_type="samples", vectorized=True, n_resamples=20000,
                                    alternative="two-sided", random_state=6).pvalue
    assert 0.001 < theirs < 0.5, theirs  # a p-value with Monte Carlo error worth comparing
    standard_error = np.sqrt(theirs * (1 - theirs) / 20000)
    assert ours == pytest.approx(theirs, abs=5 * np.sqrt(2) * standard_error)


def test_holm_adjusts_step_down_and_keeps_the_order():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([0.2]) == pytest.approx([0.2])


def test_a_cluster_bootstrap_of_repeated_rows_equals_the_row_bootstrap_of_the_clusters(scores):
    """Five identical rows per question: resampling questions gives exactly the row-level figures
    of one row per question, where resampling rows would be five times too sure."""
    first, second = scores[0][:60], scores[1][:60]
    repeated = np.repeat(np.stack([first, second]), 5, axis=1)
    clusters = np.repeat(np.arange(60), 5)
    assert np.allclose(bootstrap_means(repeated, 500, seed=8, clusters=clusters),
                       bootstrap_means(np.stack([first, second]), 500, seed=8))
    assert approximate_randomisation(*repeated, 2000, seed=9, clusters=clusters) == \
        approximate_randomisation(first, second, 2000, seed=9)
    naive = approximate_randomisation(*repeated, 2000, seed=9)
    assert naive < approximate_randomisation(first, second, 2000, seed=9)


# --- known answers ------------------------------------------------------------------------------

def test_identical_systems_differ_by_zero_with_p_one(scores):
    result = compare_systems(systems_of(scores[0], scores[0]))
    pair = result.pair("S0", "S1")
    assert (pair.difference.mean, pair.difference.low, pair.difference.high) == (0.0, 0.0, 0.0)
    assert pair.p_value == 1.0 and pair.p_adjusted == 1.0


def test_a_constructed_better_system_is_significant(scores):
    first, _ = scores
    better = np.clip(first + 0.05, 0, 1)
    result = compare_systems(systems_of(first, better, first, identities=[IDENTITY] * 3))
    pair = result.pair("S0", "S1")
    assert pair.p_value < 0.01 and pair.p_adjusted < 0.01
    assert 0 < pair.difference.low <= pair.difference.mean <= pair.difference.high
    assert pair.difference.mean == pytest.approx(better.mean() - first.mean())
    assert result.pair("S0", "S2").p_value == 1.0  # S2 is S0 again
    # Holm over the three pairs: never below the raw p-value.
    assert all(p.p_adjusted >= p.p_value for p in result.pairs)


def test_breakdowns_and_relations_are_the_plain_means(scores):
    first, second = scores
    result = compare_systems(systems_of(first, second), by=["dataset"])
    table = scored_table(first)
    for group in result.groups:
        assert group.rows == int((table["dataset"] == group.value).sum())
        assert group.cap["S0"].mean == pytest.approx(first[table["dataset"] == group.value].mean())
    relations = [r for r in result.relations if r.system == "S0"]
    assert sum(r.rows for r in relations) == len(first)
    assert sum(r.lost_share for r in relations) == pytest.approx(1.0)
    for r in relations:
        assert r.mean_cap == pytest.approx(first[table["relation"] == r.relation].mean())


def test_rows_in_another_order_are_aligned(scores):
    first, second = scores
    systems = systems_of(first, second)
    shuffled = systems[1].table.sample(frac=1.0, random_state=0)
    aligned = compare_systems([systems[0], ScoredSystem("S1", shuffled, IDENTITY)])
    assert aligned.to_json() == compare_systems(systems).to_json()


def test_results_are_seeded_and_reproducible(scores):
    systems = systems_of(*scores)
    once, again = (compare_systems(systems, seed=11, cluster="question") for _ in range(2))
    assert once.to_json() == again.to_json()
    other = compare_systems(systems, seed=12, cluster="question")
    assert other.pair("S0", "S1").difference != once.pair("S0", "S1").difference


# --- clusters and Holm's families ----------------------------------------------------------------

def test_repeated_questions_are_clustered_by_default_and_the_note_says_so(scores):
    """Issue 34: a clustered null rejected 36 % of the time with rows resampled; questions with
    several rows are now resampled whole unless --no-cluster says otherwise."""
    repeated = systems_of(*scores, n_questions=60)             # 5 rows per question
    default = compare_systems(repeated, seed=3)
    assert (default.settings.cluster, default.settings.cluster_reason) == ("question", "detected")
    assert default.settings.clusters == 60 and default.settings.repeated_clusters == 60
    assert default.to_json() == compare_systems(repeated, seed=3, cluster="question").to_json() | {
        "settings": default.to_json()["settings"]}
    note = format_comparison(default, "text")
    assert "clusters of `question` (60 clusters, 60 with several rows)" in note
    assert "by default since some `question` has several rows (--no-cluster: resample rows)" in note
    off = compare_systems(repeated, seed=3, cluster=None)
    assert (off.settings.cluster, off.settings.cluster_reason) == (None, "off")
    assert "rows resampled independently (clustering turned off)" in format_comparison(off, "text")
    # Where the difference is shared by a question's rows, resampling whole questions widens the interval.
    rng = np.random.default_rng(4)
    base = rng.uniform(0.2, 0.8, 300)
    shared = np.clip(base + rng.normal(0, 0.1, 60)[np.arange(300) % 60], 0, 1)
    correlated = systems_of(base, shared, n_questions=60)
    width = {cluster: compare_systems(correlated, seed=3, cluster=cluster).pair("S0", "S1").difference
             for cluster in (DETECT_CLUSTERS, None)}
    assert (width[DETECT_CLUSTERS].high - width[DETECT_CLUSTERS].low) > 1.5 * (width[None].high - width[None].low)
    unique = compare_systems(systems_of(*scores), seed=3)
    assert (unique.settings.cluster, unique.settings.cluster_reason) == (None, "no repeated questions")
    assert "rows resampled independently (no question has several rows)" in format_comparison(unique, "text")
    assert repr(DETECT_CLUSTERS) == "DETECT_CLUSTERS"


def test_the_cli_clusters_by_default_and_no_cluster_opts_out(scores, tmp_path, capsys):
    from capqa.cli import main as cli_main
    from capqa.compare.summary import summarise_scores, write_summary

    paths = []
    for system in systems_of(*scores, n_questions=60):
        path = tmp_path / f"{system.name}.csv"
        system.table.to_csv(path, index=False)
        write_summary(summarise_scores(system.table, IDENTITY, n_resamples=10), path)
        paths.append(str(path))
    assert cli_main(["compare", *paths, "--permutations", "200", "--resamples", "100", "--format", "json"]) == 0
    clustered = json.loads(capsys.readouterr().out)["settings"]
    assert (clustered["cluster"], clustered["cluster_reason"]) == ("question", "detected")
    assert cli_main(["compare", *paths, "--permutations", "200", "--resamples", "100", "--format", "json",
                     "--no-cluster", "--holm-family", "all"]) == 0
    rows = json.loads(capsys.readouterr().out)["settings"]
    assert (rows["cluster"], rows["cluster_reason"], rows["holm_family"]) == (None, "off", "all")
    with pytest.raises(SystemExit):
        cli_main(["compare", *paths, "--no-cluster", "--cluster", "question"])


def test_holm_runs_per_metric_or_over_every_test_and_the_table_says_which(scores):
    first, second = scores
    systems = systems_of(first, second, np.clip(second + 0.01, 0, 1), identities=[IDENTITY] * 3)
    for system in systems:   # a second metric: CAP+ (as `score --variant plus` writes it)
        system.table["cap_plus"] = np.clip(system.table["cap"] * 0.9 + 0.05, 0, 1)
    per_metric = compare_systems(systems, seed=5)
    together = compare_systems(systems, seed=5, holm_family="all")
    raw = np.array([p.p_value for p in per_metric.pairs])
    assert np.array_equal(raw, [p.p_value for p in together.pairs])
    assert np.allclose([p.p_adjusted for p in together.pairs], holm(raw))
    for metric in ("cap", "cap_plus"):
        family = [t for t, p in enumerate(per_metric.pairs) if p.metric == metric]
        assert np.allclose([per_metric.pairs[t].p_adjusted for t in family], holm(raw[family]))
    assert all(a.p_adjusted >= b.p_adjusted for a, b in zip(together.pairs, per_metric.pairs))
    assert "Holm-adjusted over the 3 pair(s) of each metric (one family per metric)" in format_comparison(per_metric)
    assert "Holm-adjusted over all 6 tests as one family (3 pair(s) × 2 metric(s))" in format_comparison(together)
    with pytest.raises(ValueError, match="`holm_family` must be one of metric, all"):
        compare_systems(systems, holm_family="pairs")


# --- refusals -----------------------------------------------------------------------------------

def test_files_without_the_same_examples_are_refused_naming_the_first_difference(scores):
    first, second = scores
    systems = systems_of(first, second)
    dropped = ScoredSystem("S1", systems[1].table.drop(index=4), IDENTITY)
    with pytest.raises(ValueError, match=r"`S1` has no row for question 'Question 4\?', gold_answer 'gold 4' "
                                         r"\(row 5 of `S0`\)"):
        compare_systems([systems[0], dropped])
    extra = ScoredSystem("S1", pd.concat([systems[1].table, systems[1].table.iloc[[0]].assign(gold_answer="new")]),
                         IDENTITY)
    with pytest.raises(ValueError, match=r"\(301 rows against 300\): `S1` row 301 .*'new'.* is not in `S0`"):
        compare_systems([systems[0], extra])
    with pytest.raises(ValueError, match="`S0` has no column 'row_id' to match rows by"):
        compare_systems(systems, Alignment(id_column="row_id"))


def test_duplicate_or_empty_ids_are_refused(scores):
    systems = systems_of(*scores)
    with_ids = [ScoredSystem(s.name, s.table.assign(id=[str(i // 2) for i in range(300)]), IDENTITY) for s in systems]
    with pytest.raises(ValueError, match="`S0` rows 1 and 2 have the same id '0'"):
        compare_systems(with_ids, Alignment(id_column="id"))


def test_mixed_settings_are_refused_unless_allowed_and_then_stated(scores):
    systems = systems_of(*scores, identities=[IDENTITY, job_identity(alpha=0.7)])
    with pytest.raises(ValueError, match=r"`S0` and `S1` were scored under different settings "
                                         r"\(alpha: 0.85 vs 0.7\).*--allow-mixed-settings"):
        compare_systems(systems)
    result = compare_systems(systems, allow_mixed_settings=True)
    assert result.settings.mixed_settings
    for format in ("text", "markdown", "latex"):
        text = format_comparison(result, format)
        assert "MIXED SETTINGS" in text and "alpha=0.7" in text.replace(r"\_", "_")


def test_every_setting_that_differs_is_named_from_the_records(scores):
    """Issue 30: compare reads the identity records field by field (no hashcode string is parsed
    back), names every difference, and the gold separator is one of them."""
    split = job_identity(settings=dataclasses.replace(IDENTITY.settings, gold_separator=";"), variant="plus")
    with pytest.raises(ValueError, match=r"\(variant: cap vs plus; gold_separator: none vs ';'\)"):
        compare_systems(systems_of(*scores, identities=[IDENTITY, split]))
    # What changes only the file, or only what people read, is no difference.
    renamed = dataclasses.replace(IDENTITY.settings, answer_column="prediction", escape_formulas=False)
    other_commit = dataclasses.replace(IDENTITY.scorer.versions, commit="fedcba987654+dirty")
    alike = job_identity(rows=300, settings=renamed, versions=other_commit)
    assert not compare_systems(systems_of(*scores, identities=[IDENTITY, alike])).settings.mixed_settings


def test_an_unknown_hashcode_is_refused(scores):
    with pytest.raises(ValueError, match="`S1` has no hashcode"):
        compare_systems(systems_of(*scores, identities=[IDENTITY, None]))


def test_one_row_files_and_single_systems_are_refused():
    with pytest.raises(ValueError, match="`S0` has 1 row\\(s\\): comparing systems needs at least 2 examples"):
        compare_systems(systems_of([0.5], [0.7]))
    with pytest.raises(ValueError, match="at least two systems"):
        compare_systems(systems_of([0.5, 0.6]))
    with pytest.raises(ValueError, match="at least 2 clusters"):
        compare_systems(systems_of([0.5, 0.6], [0.7, 0.8], n_questions=1), cluster="question")
    with pytest.raises(ValueError, match="`S0` has no column 'topic'"):
        compare_systems(systems_of([0.5, 0.6], [0.7, 0.8]), by=["topic"])


def test_a_score_that_is_not_a_number_is_refused_with_its_row(scores):
    systems = systems_of(*scores)
    broken = systems[1].table.astype({"cap": object})
    broken.loc[7, "cap"] = "n/a"
    with pytest.raises(ValueError, match="`S1`: column 'cap' row 8 holds 'n/a', expected a number"):
        compare_systems([systems[0], ScoredSystem("S1", broken, IDENTITY)])


# --- output -------------------------------------------------------------------------------------

def test_every_format_carries_the_hashcode_and_json_round_trips(scores, tmp_path):
    result = compare_systems(systems_of(*scores), by=["dataset"], cluster="question")
    for format in FORMATS:
        text = format_comparison(result, format)
        assert ("cap-eval=0.1.0" in text) and ("Holm" in text or format == "json")
    record = json.loads(format_comparison(result, "json"))
    assert record["pairs"][0]["difference"]["mean"] == pytest.approx(result.pairs[0].difference.mean)
    assert record["systems"][1]["hashcode"] == IDENTITY.hashcode() and record["settings"]["cluster"] == "question"
    forest_plot(result).savefig(tmp_path / "forest.png")
    assert (tmp_path / "forest.png").stat().st_size > 1000
