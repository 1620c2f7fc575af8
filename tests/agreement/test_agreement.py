"""``python -m capqa agreement`` (``capqa.agreement``): the baselines against an independent
computation and the published EM, kappa and the clustered CIs against references, thresholds never
chosen on the judged rows, and the command end to end on a subset with a tiny random NLI model."""

import collections
import json
import re
import string

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from capqa.agreement.baselines import baseline_values, contains_gold, exact_match, squad_tokens, token_f1
from capqa.agreement.card import agreement_card, run_agreement
from capqa.agreement.judged import GOLD_SEPARATOR, read_judged
from capqa.agreement.report import FORMATS, accuracy_plot, format_card
from capqa.agreement.scoring import SCORED_FILE, score_judged
from capqa.agreement.statistics import agreement
from capqa.agreement.verdicts import resolve_threshold, shipped_verdicts
from capqa.cli import main as cli_main
from capqa.metric.options import MetricOptions
from capqa.verdicts.thresholds import (check_not_fitted_on, choose_threshold, cluster_folds, cross_validated_verdicts,
                                       fit_thresholds)

from support.jobs import InterruptedScorer

pytestmark = pytest.mark.usefixtures("cli_errors_raise")
QUESTIONS = 3   # per source, for the runs with a model


# --- The baselines -------------------------------------------------------------------------------

def _squad_normalised(text):
    """The SQuAD v1.1 script's normalize_answer, written out again for the comparison."""
    text = "".join(char for char in text.lower() if char not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def _reference_baselines(answer, golds):
    """(exact match, token F1, contains) of the best gold, computed on normalised strings."""
    said = _squad_normalised(answer)
    f1s = []
    for gold in map(_squad_normalised, golds):
        common = sum((collections.Counter(said.split()) & collections.Counter(gold.split())).values())
        if not said or not gold:
            f1s.append(float(said == gold))
        else:
            precision, recall = common / len(said.split()), common / len(gold.split())
            f1s.append(2 * precision * recall / (precision + recall) if common else 0.0)
    normalised = [_squad_normalised(gold) for gold in golds]
    return (said in normalised, max(f1s), any(gold and f" {gold} " in f" {said} " for gold in normalised))


def test_the_baselines_agree_with_an_independent_computation_on_every_judged_row():
    rows = read_judged()
    values = baseline_values(list(rows.table["answer"]), rows.golds)
    expected = [_reference_baselines(answer, golds) for answer, golds in zip(rows.table["answer"], rows.golds)]
    assert values["exact_match"].tolist() == [e[0] for e in expected]
    np.testing.assert_allclose(values["token_f1"], [e[1] for e in expected], rtol=0, atol=1e-12)
    assert values["contains"].tolist() == [e[2] for e in expected]


def test_exact_match_on_nq301_is_the_published_figure():
    """Kamalloo et al. measured EM on the same 1,490 judged answers: 65.4 %."""
    rows = read_judged(sources=["NQ301"])
    matched = baseline_values(list(rows.table["answer"]), rows.golds)["exact_match"]
    assert len(rows.table) == 1490
    assert round(100 * float(np.mean(matched == rows.human)), 1) == 65.4


@pytest.mark.parametrize("answer, golds, em, f1, contains", [
    ("The Eiffel Tower!", ["eiffel tower"], True, 1.0, True),
    ("It is the Eiffel Tower in Paris.", ["Eiffel Tower"], False, 0.5, True),  # P 2/6, R 1
    ("start", ["art"], False, 0.0, False),          # whole tokens only
    ("Paris", ["Lyon", "paris"], True, 1.0, True),  # the best gold counts
    ("the", ["The"], True, 1.0, False),             # nothing left to contain
])
def test_baselines_on_worked_examples(answer, golds, em, f1, contains):
    assert (exact_match(answer, golds), token_f1(answer, golds), contains_gold(answer, golds)) == (
        em, pytest.approx(f1), contains)
    assert squad_tokens("An apple, the pear: a fig.") == ["apple", "pear", "fig"]


def test_the_judged_rows_split_golds_and_cluster_questions_across_sources():
    rows = read_judged()
    assert len(rows.table) == 3789 and rows.questions == 736 and rows.left_out == 0
    assert all(GOLD_SEPARATOR not in gold for golds in rows.golds for gold in golds)
    clusters = pd.Series(rows.clusters)
    assert (clusters.groupby(rows.table["source"].to_numpy()).nunique().sum() > rows.questions)  # shared questions


# --- Kappa and the clustered intervals --------------------------------------------------------------

def test_kappa_and_accuracy_of_a_worked_table():
    # tp 20, fp 5, fn 10, tn 15: accuracy 0.7; chance (25*30 + 25*20) / 50^2 = 0.5; kappa 0.4.
    human = np.array([True] * 30 + [False] * 20)
    accepted = np.array([True] * 20 + [False] * 10 + [True] * 5 + [False] * 15)
    measured = agreement({"m": accepted}, human, np.arange(50), n_resamples=0)["m"]
    assert measured.accuracy.mean == pytest.approx(0.7) and measured.kappa.mean == pytest.approx(0.4)
    assert not measured.accuracy.has_interval


@pytest.fixture(scope="module")
def clustered():
    """300 questions of 1 to 6 answers whose verdicts are right or wrong together, mostly."""
    rng = np.random.default_rng(11)
    sizes = rng.integers(1, 7, size=300)
    clusters = np.repeat(np.arange(300), sizes)
    human = rng.random(len(clusters)) < 0.6
    question_right = np.repeat(rng.random(300) < 0.75, sizes)
    right = np.where(rng.random(len(clusters)) < 0.85, question_right, ~question_right)
    return clusters, human, np.where(right, human, ~human)


def test_the_clustered_intervals_agree_with_scipy_bootstrap_over_questions(clustered):
    clusters, human, accepted = clustered
    ours = agreement({"m": accepted}, human, clusters, n_resamples=4000, seed=3)["m"]
    counts = [np.bincount(clusters, weights=(accepted == a) & (human == h)) for a in (True, False) for h in (True, False)]

    def accuracy(tp, fp, fn, tn, axis=-1):
        return (tp.sum(axis) + tn.sum(axis)) / (tp + fp + fn + tn).sum(axis)

    def kappa(tp, fp, fn, tn, axis=-1):
        tp, fp, fn, tn = (part.sum(axis) for part in (tp, fp, fn, tn))
        n = tp + fp + fn + tn
        chance = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / n ** 2
        return ((tp + tn) / n - chance) / (1 - chance)

    for statistic, estimate in ((accuracy, ours.accuracy), (kappa, ours.kappa)):
        theirs = stats.bootstrap(counts, statistic, paired=True, vectorized=True, n_resamples=4000,
                                 method="percentile", random_state=4).confidence_interval
        width = theirs.high - theirs.low
        assert estimate.mean == pytest.approx(statistic(*counts))
        # Monte Carlo error of a 2.5 % quantile of 4,000 resamples is ~1.5 % of the width.
        assert estimate.low == pytest.approx(theirs.low, abs=0.1 * width)
        assert estimate.high == pytest.approx(theirs.high, abs=0.1 * width)


def test_resampling_questions_widens_the_interval_of_correlated_answers(clustered):
    clusters, human, accepted = clustered
    by_question = agreement({"m": accepted}, human, clusters, n_resamples=2000)["m"].accuracy
    by_row = agreement({"m": accepted}, human, np.arange(len(human)), n_resamples=2000)["m"].accuracy
    assert by_question.high - by_question.low > 1.3 * (by_row.high - by_row.low)


# --- Thresholds never chosen on the judged rows -----------------------------------------------------

def test_each_fold_is_judged_by_the_threshold_of_the_other_folds(clustered):
    clusters, human, _ = clustered
    scores = np.clip(human * 0.3 + np.random.default_rng(5).random(len(human)) * 0.7, 0, 1)
    folds = cluster_folds(clusters, 5, seed=1)
    assert all(len(set(folds[clusters == c])) == 1 for c in range(300))   # a question stays in one fold
    questions_per_fold = np.bincount(folds[np.unique(clusters, return_index=True)[1]])
    assert questions_per_fold.max() - questions_per_fold.min() <= 1
    accepted, cuts = cross_validated_verdicts(scores, human, folds)
    for fold, cut in enumerate(cuts):
        held = folds == fold
        threshold = choose_threshold(scores[~held], human[~held])["threshold"]
        assert cut["threshold"] == threshold
        assert (accepted[held] == (np.round(scores[held], 8) >= threshold)).all()
    assert (cluster_folds(clusters, 5, seed=1) == folds).all()


def test_a_bare_threshold_and_a_file_fitted_on_the_judged_rows_are_refused(tmp_path):
    with pytest.raises(ValueError, match="bare threshold"):
        resolve_threshold("shipped", 0.7, "cap")
    with pytest.raises(ValueError, match="number of clusters"):
        cluster_folds(np.arange(3), 5)
    rng = np.random.default_rng(2)
    scores, human = rng.random(400), rng.random(400) < 0.6
    check_not_fitted_on(scores, "cap")    # the shipped thresholds: fitted on the paper's validation rows
    fitted = fit_thresholds(pd.DataFrame({"cap": scores[:300], "label": np.where(human[:300], "exact", "invalid")}),
                            split=None, scores=["cap"])
    path = tmp_path / "fitted_here.json"
    path.write_text(json.dumps(fitted))
    verdict = resolve_threshold("shipped", "strict", "cap", str(path))
    with pytest.raises(ValueError, match="fitted on the rows it would judge: 300 of these 400"):
        shipped_verdicts(scores, verdict, str(path))
    shipped_verdicts(rng.random(400), verdict, str(path))   # other rows: accepted


# --- The command, end to end on a subset ----------------------------------------------------------

@pytest.fixture(scope="module")
def cli_run(tmp_path_factory, random_nli_model):
    out = tmp_path_factory.mktemp("agreement")
    argv = ["agreement", "--nli-model", random_nli_model, "--device", "cpu", "--out", str(out / "run"),
            "--questions", str(QUESTIONS), "--resamples", "40", "--chunk-size", "16"]
    return out, argv


def test_the_command_prints_the_card_and_says_which_model_ran(cli_run, capsys):
    out, argv = cli_run
    assert cli_main([*argv, "--plot", str(out / "accuracy.png")]) == 0
    printed, errors = capsys.readouterr()
    assert "nli_model=nli-random" in printed and "NLI MODEL: these CAP figures come from `nli-random`" in printed
    assert "verdict=strict(score=cap,threshold=0.89460393)" in printed
    assert "EM [kamalloo2023]" in printed and "published, not recomputed" in printed
    assert (out / "accuracy.png").stat().st_size > 10_000 and "warning: NLI MODEL" in errors
    scored = pd.read_csv(out / "run" / SCORED_FILE, keep_default_na=False)
    disagreements = pd.read_csv(out / "run" / "disagreements.csv", keep_default_na=False)
    human = scored["judgement"] == "correct"
    assert len(disagreements) == int(((scored["cap"] >= 0.89460393) != human).sum())
    assert set(disagreements["id"]) == set(scored["id"][(scored["cap"] >= 0.89460393) != human])


def test_a_rerun_resumes_and_gives_the_same_card_in_every_format(cli_run, capsys):
    out, argv = cli_run
    assert cli_main([*argv, "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)
    scored = (out / "run" / SCORED_FILE).read_bytes()
    assert cli_main([*argv, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == first and (out / "run" / SCORED_FILE).read_bytes() == scored
    overall = first["groups"][0]
    assert overall["source"] == "all sources" and list(overall["methods"]) == ["cap", "exact_match", "token_f1", "contains"]
    flags = first["statement_flags"]
    assert flags["disagreements"] == len(first["disagreements"])
    assert flags["flagged_disagreements"] == sum(bool(row["statement_issues"]) for row in first["disagreements"])
    for row in first["disagreements"]:
        assert row["gold_statement"] and row["answer_statement"] and row["human"] != row["cap"]


def test_a_thresholds_file_fitted_on_the_scored_rows_is_refused(cli_run, tmp_path):
    out, argv = cli_run
    cli_main(argv)
    scored = pd.read_csv(out / "run" / SCORED_FILE, keep_default_na=False)
    labels = np.where(scored["judgement"] == "correct", "exact", "invalid")
    path = tmp_path / "thresholds.json"
    path.write_text(json.dumps(fit_thresholds(scored.assign(label=labels), split=None, scores=["cap"])))
    with pytest.raises(ValueError, match="was fitted on the rows it would judge"):
        cli_main([*argv, "--thresholds", str(path)])


def test_an_interrupted_scoring_resumes_and_folds_judge_cap_without_the_shipped_threshold(cli_run, random_nli_model,
                                                                                          tmp_path):
    out, argv = cli_run
    cli_main(argv)   # the command's scored file (done once for the module), and its NLI cache
    rows = read_judged(questions_per_source=QUESTIONS)
    scorer = MetricOptions(nli_model=random_nli_model, device="cpu",
                           score_cache_dir=str(out / "run" / "score-cache")).build_scorer()
    with pytest.raises(KeyboardInterrupt):
        score_judged(rows, InterruptedScorer(scorer, calls=1), tmp_path, chunk_size=10)
    assert len(pd.read_csv(tmp_path / SCORED_FILE)) == 10
    resumed = score_judged(rows, scorer, tmp_path, chunk_size=10)
    np.testing.assert_allclose(resumed.scores, pd.read_csv(out / "run" / SCORED_FILE)["cap"], rtol=0, atol=1e-5)
    card = agreement_card(rows, resumed, None, n_folds=3, n_resamples=20, progress=False)
    assert "3 folds split by question" in card.judged["cap"].how and len(card.judged["cap"].cuts) == 3
    for format in FORMATS:
        assert "verdict=none" in format_card(card, format)
    assert accuracy_plot(card).axes


def test_run_agreement_refuses_bad_options_before_loading_a_model(tmp_path):
    options = MetricOptions(nli_model=str(tmp_path / "no-such-model"), device="cpu")
    with pytest.raises(ValueError, match="bare threshold"):
        run_agreement(MetricOptions(nli_model=str(tmp_path / "no-such-model"), device="cpu", verdict=0.5), tmp_path)
    with pytest.raises(ValueError, match="`n_folds` must be"):
        run_agreement(options, tmp_path, questions_per_source=1, n_folds=5)
    with pytest.raises(ValueError, match="`sources` names"):
        run_agreement(options, tmp_path, sources=["SQuAD"])
