"""Summaries of scored tables (``capqa.compare.summary``): what ``score`` prints and writes as
OUT.summary.json, and what ``compare`` reads back, end to end on a real (tiny, random) NLI model."""

import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from capqa.cli import main
from capqa.compare.summary import (ScoreSummary, load_summary, read_summary, summarise_scores, summary_path,
                                   write_summary)

from support.identity import job_identity

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


def test_the_summary_holds_means_with_intervals_blanks_and_the_identity():
    rng = np.random.default_rng(0)
    cap = rng.uniform(size=200)
    table = pd.DataFrame({"cap": cap.astype(str), "correct": np.where(cap > 0.5, "True", "False")})
    identity = job_identity(rows=200)
    summary = summarise_scores(table, identity, blank_predictions=3, n_resamples=2000)
    assert summary.rows == 200 and summary.blank_predictions == 3 and summary.identity == identity
    assert summary.hashcode == identity.hashcode() and summary.hashcode.startswith("cap-eval=0.1.0|")
    assert summary.cap.mean == pytest.approx(cap.mean())
    assert summary.metrics["accuracy"].mean == pytest.approx((cap > 0.5).mean())
    theirs = stats.bootstrap((cap,), np.mean, n_resamples=2000, method="percentile", random_state=1).confidence_interval
    width = theirs.high - theirs.low
    assert summary.cap.low == pytest.approx(theirs.low, abs=0.1 * width)
    assert summary.cap.high == pytest.approx(theirs.high, abs=0.1 * width)
    assert ScoreSummary.from_json(json.loads(json.dumps(summary.to_json()))) == summary
    text = summary.to_text()
    assert "95% CI [" in text and "3 blank predictions" in text and identity.hashcode() in text


def test_the_summary_records_which_statements_the_calibration_assumed():
    """Issue 34: the paper's 77.70 %, CAP+ and the thresholds rest on the paper's statements; a
    summary says so beside the hashcode, which names the statements this run made."""
    from capqa.common.constants import CALIBRATION_STATEMENTS

    identity = job_identity(rows=2)
    record = summarise_scores(pd.DataFrame({"cap": ["0.2", "0.4"]}), identity).to_json()
    assert record["calibration_statements"] == CALIBRATION_STATEMENTS
    assert "paper's statement model" in record["calibration_statements"]["engine"]
    assert record["hashcode"] == identity.hashcode() and "statements=rules(version=4," in record["hashcode"]
    assert ScoreSummary.from_json(record).identity == identity


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
    with pytest.raises(ValueError, match=r"different settings \(alpha: 0.85 vs 0.5\)"):
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


def test_the_gold_separator_is_in_the_identity_and_compare_refuses_a_mixed_pair(workdir, random_nli_model,
                                                                             cli_errors_raise):
    """Issue 30: splitting the gold cell changes the scores (by up to 0.389 on real rows), so two
    files scored with and without a separator are not comparable, and their hashcodes say why."""
    (workdir / "golds.csv").write_text(ROWS.replace(",Paris,Paris,", ",Lyon;Paris,Paris,"), encoding="utf-8")
    options = ["--nli-model", random_nli_model, "--device", "cpu", "--statement-model", "rules"]
    assert main(["score", "golds.csv", "--out", "whole.csv", *options]) == 0
    assert main(["score", "golds.csv", "--out", "split.csv", *options, "--gold-separator", ";"]) == 0
    whole, split = read_summary(workdir / "whole.csv"), read_summary(workdir / "split.csv")
    assert whole.hashcode.endswith("|gold_separator=none") and split.hashcode.endswith('|gold_separator=";"')
    assert split.identity.settings.gold_separator == ";"
    with pytest.raises(ValueError, match=r"`whole` and `split` were scored under different settings "
                                         r"\(gold_separator: none vs ';'\)"):
        main(["compare", "whole.csv", "split.csv"])


def test_a_file_scored_by_score_table_resumes_under_the_cli(workdir, random_nli_model, capsys):
    """Issue 30: the library (the Space's path) and ``python -m capqa score`` build one job: the
    CLI finds the file complete instead of refusing it ("changed since: device_type")."""
    from capqa.common.tables import read_table
    from capqa.jobs.scoring import score_table
    from capqa.metric.options import MetricOptions
    from capqa.records.job import JobSettings

    scorer = MetricOptions(nli_model=random_nli_model, device="cpu", statement_model="rules").build_scorer()
    scored = score_table(read_table(workdir / "a.csv").head(4), scorer, workdir / "a-cap.csv",
                         JobSettings("question", "gold_answer", "answer"))
    (workdir / "four.csv").write_text("".join(ROWS.splitlines(keepends=True)[:5]), encoding="utf-8")
    capsys.readouterr()
    assert main(["score", "four.csv", "--out", "a-cap.csv", "--nli-model", random_nli_model, "--device", "cpu",
                 "--statement-model", "rules"]) == 0
    assert "scored 0 new rows" in capsys.readouterr().err
    assert read_summary(workdir / "a-cap.csv").identity == scored.identity


def test_blank_answers_are_counted_in_the_inputs_not_in_the_escaped_file(workdir, random_nli_model, capsys):
    """Issue 35, item 13: answers of a tab or a carriage return are written escaped ('\\t), which
    no longer looks blank; the count comes from the answers as given."""
    answers = ["\t", "\r", " ", "\t\t", "\u200b", "\r\n", "Burgas", "Sofia"]
    pd.DataFrame({"question": ["Name a city in Bulgaria."] * 8, "gold_answer": ["Sofia"] * 8,
                  "answer": answers}).to_csv(workdir / "blank.csv", index=False)
    assert main(["score", "blank.csv", "--out", "blank-cap.csv", "--nli-model", random_nli_model, "--device", "cpu",
                 "--statement-model", "rules"]) == 0
    assert "8 (6 blank predictions)" in capsys.readouterr().out
    assert read_summary(workdir / "blank-cap.csv").blank_predictions == 6
    written = pd.read_csv(workdir / "blank-cap.csv", keep_default_na=False)
    assert written["answer"].iloc[0] == "'\t"  # escaped in the file, yet counted as blank


def test_a_header_only_input_is_refused_before_the_models_load(workdir, capsys):
    """Issue 35, item 15 and issue 36, item 6: no "CAP: nan (no CI: one row)", no NaN in a JSON
    file, no numpy warning: a clear message and a failing exit status."""
    (workdir / "empty.csv").write_text("question,gold_answer,answer\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status = main(["score", "empty.csv", "--out", "empty-cap.csv", "--nli-model", "no-such-model"])
    assert status == 1
    err = capsys.readouterr().err
    assert "`empty.csv` has no rows to score: it holds only its header line" in err and "nan" not in err
    assert not (workdir / "empty-cap.csv").exists()


def test_a_summary_of_no_rows_holds_null_in_strict_json(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "Mean of empty slice"
        summary = summarise_scores(pd.DataFrame({"cap": [], "correct": []}, dtype=str), job_identity())
    path = write_summary(summary, tmp_path / "empty.csv")
    record = json.loads(path.read_text(), parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))
    assert record["metrics"]["cap"] == {"mean": None, "ci_low": None, "ci_high": None}
    assert load_summary(path).rows == 0
    assert "CAP:      none (no rows to score: the input holds only its header)" in summary.to_text()
    assert "nan" not in summary.to_text().lower()


# What a hostile or damaged OUT.summary.json may hold, and the field each refusal names (issue 35, item 7).
BAD_SUMMARIES = [
    ("metrics a list", lambda r: r.update(metrics=[]), "metrics must be an object {metric: estimate}, got a list"),
    ("metrics null", lambda r: r.update(metrics=None), "metrics must be an object {metric: estimate}, got null"),
    ("rows 1e400", lambda r: r.update(rows=float("inf")), "rows must be a whole number from 0 to"),
    ("rows -1", lambda r: r.update(rows=-1), "rows must be a whole number from 0 to"),
    ("rows a string", lambda r: r.update(rows="5"), "rows must be a whole number from 0 to .*, got a string"),
    ("rows true", lambda r: r.update(rows=True), "rows must be a whole number from 0 to .*, got a boolean"),
    ("no cap", lambda r: r["metrics"].pop("cap"), "metrics has no 'cap'"),
    ("unknown metric", lambda r: r["metrics"].update(bleurt=r["metrics"]["cap"]),
     "metrics has an unknown metric 'bleurt'"),
    ("mean above 1", lambda r: r["metrics"]["cap"].update(mean=1.5), r"metrics.cap.mean must be a number from 0 to 1"),
    ("mean null", lambda r: r["metrics"]["cap"].update(mean=None), r"metrics.cap.mean must be a number from 0 to 1"),
    ("estimate a number", lambda r: r["metrics"].update(cap=0.5), r"metrics.cap must be an object with the fields"),
    ("interval reversed", lambda r: r["metrics"]["cap"].update(ci_low=0.9, ci_high=0.1),
     "metrics.cap: ci_low is above ci_high"),
    ("blank above rows", lambda r: r.update(blank_predictions=9), r"blank_predictions \(9\) is more than rows"),
    ("another object", lambda r: (r.clear(), r.update(x=1)), "it has no field 'format'"),
    ("an extra field", lambda r: r.update(x=1), "it has an unknown field 'x'"),
    ("format 1", lambda r: r.update(format=1), r"its format is 1, not 2 \(written by an earlier version"),
    ("no identity field", lambda r: r.pop("identity"), "it has no field 'identity'"),
    ("identity edited", lambda r: r["identity"]["scorer"].update(alpha="0.85"),
     r"identity.scorer.alpha must be a finite number, got a string"),
    ("identity short", lambda r: r["identity"]["scorer"]["nli"].pop("code"),
     r"identity.scorer.nli has no field 'code'"),
    ("hashcode edited", lambda r: r.update(hashcode="cap-eval=0.1.0"), "its hashcode is not the one of its identity"),
    ("seed a float", lambda r: r.update(seed=1.5), "seed must be a whole number"),
]


@pytest.mark.parametrize("edit, problem", [row[1:] for row in BAD_SUMMARIES], ids=[row[0] for row in BAD_SUMMARIES])
def test_a_summary_that_score_did_not_write_is_refused_naming_the_field(tmp_path, edit, problem):
    table = pd.DataFrame({"cap": ["0.2", "0.8", "0.5"]})
    path = write_summary(summarise_scores(table, job_identity(rows=3), blank_predictions=0), tmp_path / "s.csv")
    record = json.loads(path.read_text())
    edit(record)
    path.write_text(json.dumps(record))
    with pytest.raises(ValueError, match=f"`{re.escape(str(path))}` is not a summary that `score` wrote: {problem}"):
        read_summary(tmp_path / "s.csv")


@pytest.mark.parametrize("text, problem", [("[1, 2]", "the file must hold a JSON object, got a list"),
                                           ('{"rows": ', "not JSON"), ("[" * 100000, "not JSON")])
def test_a_summary_that_is_no_json_object_is_refused(tmp_path, text, problem):
    path = summary_path(tmp_path / "s.csv")
    path.write_text(text)
    with pytest.raises(ValueError, match=f"is not a summary that `score` wrote: {re.escape(problem)}"):
        read_summary(tmp_path / "s.csv")
