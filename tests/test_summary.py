"""Summaries of scored tables (``capqa.diagnostics.summary``): what ``score`` prints and writes as
OUT.summary.json, and what ``compare`` reads back, end to end on a real (tiny, random) NLI model."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from capqa.cli import main
from capqa.diagnostics.summary import ScoreSummary, read_summary, summarise_scores, summary_path

ROWS = ("question,gold_answer,answer,dataset\n"
        "Name a city in Bulgaria.,Sofia,Burgas,geo\n"
        "What is the capital of France?,Paris,Paris,geo\n"
        "When did the Berlin Wall fall?,in 1989,1989,history\n"
        "What does water boil at?,100 degrees Celsius,at 90 degrees,science\n"
        "Who wrote Hamlet?,Shakespeare,Marlowe,history\n")
# The same questions with words dropped from the answers: a second "system".
WORSE = ROWS.replace("Burgas", "Bur").replace("at 90 degrees", "degrees").replace(",1989,", ",19,")


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (tmp_path / "a.csv").write_text(ROWS, encoding="utf-8")
    (tmp_path / "b.csv").write_text(WORSE, encoding="utf-8")
    return tmp_path


def test_the_summary_holds_means_with_intervals_blanks_and_the_hashcode():
    rng = np.random.default_rng(0)
    cap = rng.uniform(size=200)
    table = pd.DataFrame({"cap": cap.astype(str), "correct": np.where(cap > 0.5, "True", "False"),
                          "answer": ["an answer"] * 197 + ["", " \u200b", "\t"]})
    summary = summarise_scores(table, "cap-eval=0.1.0|x=1", answer_column="answer", n_resamples=2000)
    assert summary.rows == 200 and summary.blank_predictions == 3 and summary.hashcode == "cap-eval=0.1.0|x=1"
    assert summary.cap.mean == pytest.approx(cap.mean())
    assert summary.metrics["accuracy"].mean == pytest.approx((cap > 0.5).mean())
    theirs = stats.bootstrap((cap,), np.mean, n_resamples=2000, method="percentile", random_state=1).confidence_interval
    width = theirs.high - theirs.low
    assert summary.cap.low == pytest.approx(theirs.low, abs=0.1 * width)
    assert summary.cap.high == pytest.approx(theirs.high, abs=0.1 * width)
    assert ScoreSummary.from_json(json.loads(json.dumps(summary.to_json()))) == summary
    text = summary.to_text()
    assert "95% CI [" in text and "3 blank predictions" in text and "cap-eval=0.1.0|x=1" in text


def test_one_row_has_a_mean_and_says_there_is_no_interval():
    summary = summarise_scores(pd.DataFrame({"cap": ["0.25"]}), None)
    assert summary.cap.mean == 0.25 and not summary.cap.has_interval
    assert "(no CI: one row)" in summary.to_text() and "hashcode: unknown" in summary.to_text()
    assert json.loads(json.dumps(summary.to_json()))["metrics"]["cap"]["ci_low"] is None


def test_a_table_that_is_not_scored_is_refused():
    with pytest.raises(ValueError, match="no 'cap' column: is it a scored file"):
        summarise_scores(pd.DataFrame({"answer": ["x"]}), None)


def test_score_prints_and_writes_its_summary(workdir, random_nli_model, capsys):
    argv = ["score", "a.csv", "--out", "a-cap.csv", "--nli-model", random_nli_model, "--device", "cpu",
            "--statement-model", "rules", "--verdict", "strict"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    summary = read_summary(workdir / "a-cap.csv")
    scored = pd.read_csv(workdir / "a-cap.csv")
    assert summary.rows == 5 and summary.cap.mean == pytest.approx(scored["cap"].mean())
    assert summary.metrics["accuracy"].mean == pytest.approx(scored["correct"].mean())
    assert summary.hashcode.startswith("cap-eval=") and "|statements=rules(" in summary.hashcode
    assert f"hashcode: {summary.hashcode}" in printed and "accuracy:" in printed and "CAP:" in printed
    assert summary_path(workdir / "a-cap.csv").name == "a-cap.csv.summary.json"


def test_compare_scores_unscored_files_then_compares_them(workdir, random_nli_model, capsys):
    options = ["--nli-model", random_nli_model, "--device", "cpu", "--statement-model", "rules"]
    argv = ["compare", "a.csv", "b.csv", "--by", "dataset", "--plot", "forest.png", *options]
    assert main(argv) == 0
    first = capsys.readouterr()
    assert "a.csv is not scored yet: scoring it into a.cap.csv" in first.err
    assert (workdir / "b.cap.csv.summary.json").is_file() and (workdir / "forest.png").stat().st_size > 1000
    hashcode = read_summary(workdir / "a.cap.csv").hashcode
    assert f"Scored under hashcode `{hashcode}`" in first.out
    assert "b − a  CAP" in first.out and "Mean CAP by `dataset`" in first.out
    # Scored files are compared as they are: the same table again, nothing scored.
    assert main(["compare", "a.cap.csv", "b.cap.csv", "--names", "a", "b", "--by", "dataset"]) == 0
    again = capsys.readouterr()
    assert again.out == first.out and "scoring" not in again.err
    # Metric options only score unscored inputs: given with scored ones, they change nothing, and it says so.
    assert main(["compare", "a.cap.csv", "b.cap.csv", "--names", "a", "b", "--by", "dataset", "--alpha", "0.5"]) == 0
    ignored = capsys.readouterr()
    assert ignored.out == first.out and "the metric options given are used only to score unscored" in ignored.err


def test_compare_refuses_mixed_settings_and_stale_summaries(workdir, random_nli_model, capsys, cli_errors_raise):
    options = ["--nli-model", random_nli_model, "--device", "cpu", "--statement-model", "rules"]
    assert main(["score", "a.csv", "--out", "a-cap.csv", *options]) == 0
    assert main(["score", "b.csv", "--out", "b-cap.csv", *options, "--alpha", "0.5"]) == 0
    with pytest.raises(ValueError, match=r"different settings \(alpha=0.85 vs alpha=0.5\)"):
        main(["compare", "a-cap.csv", "b-cap.csv"])
    capsys.readouterr()
    assert main(["compare", "a-cap.csv", "b-cap.csv", "--allow-mixed-settings", "--format", "markdown"]) == 0
    assert "MIXED SETTINGS" in capsys.readouterr().out
    scored = (workdir / "b-cap.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (workdir / "b-cap.csv").write_text("".join(scored[:-1]), encoding="utf-8")
    with pytest.raises(ValueError, match="has 4 rows but its summary says 5"):
        main(["compare", "a-cap.csv", "b-cap.csv", "--allow-mixed-settings"])


def test_a_users_own_correct_column_is_not_taken_for_a_verdict(workdir, random_nli_model):
    (workdir / "c.csv").write_text(ROWS.replace(",dataset\n", ",correct\n", 1), encoding="utf-8")
    assert main(["score", "c.csv", "--out", "c-cap.csv", "--nli-model", random_nli_model, "--device", "cpu",
                 "--statement-model", "rules"]) == 0
    assert list(read_summary(workdir / "c-cap.csv").metrics) == ["cap"]
