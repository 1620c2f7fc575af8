"""``python -m capqa score``: a file scored in chunks equals the metric, and an interrupted job resumes."""

import numpy as np
import pandas as pd
import pytest

from capqa.cli import main as cli_main
from capqa.common.tables import read_table
from capqa.jobs.scoring import score_table
from capqa.metric.options import MetricOptions
from capqa.records.job import JobSettings

from support.data import TEST_DATA_DIR, data_path
from support.jobs import InterruptedScorer
from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")

# The CLI re-raises user errors, so the tests can check the exception (its one `error:` line is
# tested in test_cli.py).
pytestmark = pytest.mark.usefixtures("cli_errors_raise")
# The rows' gold and predicted statements, scored without questions.
STATEMENTS = JobSettings(None, "premise", "hypothesis")


@pytest.fixture(scope="module")
def statement_rows(tmp_path_factory):
    """30 real rows of CAP-Correctness: gold statement (premise) and predicted statement (hypothesis)."""
    sample = read_table(data_path("cap_correctness_sample.csv")).head(30)
    path = tmp_path_factory.mktemp("score") / "rows.csv"
    sample[["premise", "hypothesis", "label_semantic"]].to_csv(path, index=False)
    return path


def run_score(input_path, out, nli_model, chunk_size):
    return cli_main(["score", str(input_path), "--out", str(out), "--question-column", "",
                     "--gold-column", "premise", "--answer-column", "hypothesis",
                     "--nli-model", nli_model, "--chunk-size", str(chunk_size), "--device", "cpu"])


def test_scored_file_matches_the_metric(statement_rows, random_nli_model, metric_path, tmp_path):
    out = tmp_path / "scored.csv"
    assert run_score(statement_rows, out, random_nli_model, chunk_size=7) == 0
    scored = pd.read_csv(out, keep_default_na=False)
    rows = read_table(statement_rows)
    assert list(scored["premise"]) == list(rows["premise"]) and list(scored["label_semantic"]) == list(rows["label_semantic"])
    metric = evaluate.load(metric_path, nli_model=random_nli_model)
    expected = metric.compute(predictions=list(rows["hypothesis"]), references=list(rows["premise"]))["scores"]
    np.testing.assert_allclose(scored["cap"], expected, rtol=0, atol=MODEL_ATOL)


def test_interrupted_job_resumes_without_rescoring(statement_rows, random_nli_model, tmp_path):
    rows = read_table(statement_rows)
    scorer = MetricOptions(nli_model=random_nli_model, device="cpu").build_scorer()
    out = tmp_path / "partial.csv"
    # The first run is interrupted (Ctrl-C) while scoring its fourth chunk: three chunks are kept.
    with pytest.raises(KeyboardInterrupt):
        score_table(rows, InterruptedScorer(scorer, calls=3), out, STATEMENTS, chunk_size=4)
    assert score_table(rows, scorer, out, STATEMENTS, chunk_size=4).added == 18
    whole = tmp_path / "whole.csv"
    score_table(rows, scorer, whole, STATEMENTS, chunk_size=30)
    pd.testing.assert_frame_equal(pd.read_csv(out), pd.read_csv(whole), atol=MODEL_ATOL)


def test_bad_files_are_refused_with_the_column(statement_rows, random_nli_model, tmp_path):
    with pytest.raises(ValueError, match="has no column 'question', 'gold_answer', 'answer'"):
        cli_main(["score", str(statement_rows), "--out", str(tmp_path / "x.csv"), "--nli-model", random_nli_model])
    empty_cell = tmp_path / "empty.csv"
    # A blank answer is an answer (it scores 0); a blank gold answer is an error.
    pd.DataFrame({"premise": ["A cat.", " "], "hypothesis": ["A cat.", "A dog."]}).to_csv(empty_cell, index=False)
    with pytest.raises(ValueError, match=r"empty.csv` row 2 \(line 3\), column 'premise', is an empty string"):
        run_score(empty_cell, tmp_path / "y.csv", random_nli_model, chunk_size=5)
    with pytest.raises(ValueError, match="must be a .csv or .jsonl file"):
        read_table(tmp_path / "rows.txt")


def test_text_is_read_as_written(tmp_path):
    path = tmp_path / "odd.jsonl"
    path.write_text('{"answer": "None", "gold": "NA"}\n{"answer": "1e3", "gold": "Zürich"}\n', encoding="utf-8")
    table = read_table(path)
    assert list(table["answer"]) == ["None", "1e3"] and list(table["gold"]) == ["NA", "Zürich"]
    numeric = tmp_path / "numeric.jsonl"
    numeric.write_text('{"answer": "a", "gold": "b"}\n{"answer": 1e3, "gold": "c"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="line 2, column 'answer': expected a string, got float"):
        read_table(numeric)


def score_args(input_path, out, nli_model, *extra):
    return ["score", str(input_path), "--out", str(out), "--question-column", "", "--gold-column", "premise",
            "--answer-column", "hypothesis", "--nli-model", nli_model, "--device", "cpu", *extra]


def test_resuming_with_other_columns_is_refused(statement_rows, random_nli_model, tmp_path):
    out = tmp_path / "scored.csv"
    assert cli_main(score_args(statement_rows, out, random_nli_model, "--variant", "plus")) == 0
    scored = pd.read_csv(out, dtype=str, keep_default_na=False)
    # As if the job had been cut off after 5 rows (header + 5 lines kept, byte for byte).
    out.write_bytes(b"".join(out.read_bytes().splitlines(keepends=True)[:6]))
    with pytest.raises(ValueError, match=r"holds rows of another job; changed since: .*variant \('plus' then, 'cap' now\)"):
        cli_main(score_args(statement_rows, out, random_nli_model, "--variant", "cap"))
    assert cli_main(score_args(statement_rows, out, random_nli_model, "--variant", "plus")) == 0
    resumed = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(resumed.columns) == list(scored.columns) and len(resumed) == len(scored)
    # Resumed rows ran in other batches: equal up to float rounding (see the determinism test).
    np.testing.assert_allclose(resumed["cap_plus"].astype(float), scored["cap_plus"].astype(float), rtol=0, atol=MODEL_ATOL)


def test_an_empty_output_file_and_a_new_folder_start_a_new_job(statement_rows, random_nli_model, tmp_path):
    empty = tmp_path / "empty.csv"
    empty.touch()
    assert cli_main(score_args(statement_rows, empty, random_nli_model)) == 0
    assert len(pd.read_csv(empty)) == 30
    nested = tmp_path / "new" / "folder" / "scored.csv"
    assert cli_main(score_args(statement_rows, nested, random_nli_model)) == 0 and nested.exists()


def test_bad_job_settings_fail_before_scoring(statement_rows, random_nli_model, tmp_path):
    with pytest.raises(ValueError, match="`--chunk-size` must be a positive integer"):
        cli_main(score_args(statement_rows, tmp_path / "a.csv", random_nli_model, "--chunk-size", "0"))
    split = tmp_path / "split.csv"
    pd.DataFrame({"premise": ["Sofia is a city.|", "A dog."], "hypothesis": ["Burgas is a city.", "A cat."]}
                 ).to_csv(split, index=False)
    with pytest.raises(ValueError, match=r"split.csv` row 1 \(line 2\), column 'premise': gold answer 2 of 2, "
                                         r"split on the gold separator '\|', is empty"):
        cli_main(score_args(split, tmp_path / "b.csv", random_nli_model, "--gold-separator", "|"))
    scored_before = tmp_path / "scored_before.csv"
    pd.DataFrame({"premise": ["A dog."], "hypothesis": ["A cat."], "cap": ["0.5"]}).to_csv(scored_before, index=False)
    with pytest.raises(ValueError, match="already has column\\(s\\) 'cap'"):
        cli_main(score_args(scored_before, tmp_path / "c.csv", random_nli_model))
    assert not any((tmp_path / name).exists() and (tmp_path / name).stat().st_size for name in ("a.csv", "b.csv", "c.csv"))


def test_statement_workers_change_neither_statements_nor_scores(random_nli_model, tmp_path):
    """Issue 33: the same file whatever the number of statement workers and the chunk size (the
    statements and their issue codes exactly; the scores up to the float rounding of other NLI
    batches), the workers making the next chunks' statements while a chunk is scored."""
    rows = read_table(TEST_DATA_DIR / "real_qa_answers.csv").head(36)
    rows = rows[["question", "gold", "answer"]].iloc[::-1].reset_index(drop=True)  # questions' rows apart
    settings = JobSettings("question", "gold", "answer")
    scored = {}
    for workers, chunk_size in ((0, 36), (2, 5), (1, 11)):
        scorer = MetricOptions(nli_model=random_nli_model, device="cpu", statement_workers=workers).build_scorer()
        out = tmp_path / f"scored-{workers}-{chunk_size}.csv"
        score_table(rows, scorer, out, settings, chunk_size=chunk_size)
        scorer.statements.close()
        scored[workers] = pd.read_csv(out, dtype=str, keep_default_na=False)
    for workers in (1, 2):
        for column in ("premises", "hypotheses", "statement_issues"):
            assert list(scored[workers][column]) == list(scored[0][column]), column
        np.testing.assert_allclose(scored[workers]["cap"].astype(float), scored[0]["cap"].astype(float),
                                   rtol=0, atol=MODEL_ATOL)
