"""``python -m capqa score`` trusts only what it verifies: strict input tables, job fingerprints,
the output lock, torn and damaged output, and CSV-injection escaping (issue 17, points 2-4, 12)."""

import csv
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from capqa.cli import main as cli_main
from capqa.common.escaping import escape_formula
from capqa.common.tables import TableError, read_table
from capqa.jobs.fingerprint import JobSpec
from capqa.jobs.locking import OutputLockedError
from capqa.jobs.manifest import JobMismatchError
from capqa.jobs.output import ResumableCsv, read_manifest

from support.data import REPO_ROOT, data_path
from support.tolerances import MODEL_ATOL

N_ROWS = 12
CHUNK = 4

# The CLI re-raises user errors, so each test can check the exception's type and text (the one
# `error:` line they become is tested in test_cli.py).
pytestmark = pytest.mark.usefixtures("cli_errors_raise")


@pytest.fixture(scope="module")
def statement_rows(tmp_path_factory):
    """Real rows of CAP-Correctness: gold statement (premise) and predicted statement (hypothesis)."""
    sample = read_table(data_path("cap_correctness_sample.csv")).head(N_ROWS)
    # The last row has a quoted field (comma and quotes), to tear the output inside one.
    sample.loc[sample.index[-1], "hypothesis"] += ', so "it" is not food'
    path = tmp_path_factory.mktemp("jobs") / "rows.csv"
    sample[["row_id", "premise", "hypothesis"]].to_csv(path, index=False)
    return path


def score_args(input_path, out, nli_model, *extra):
    return ["score", str(input_path), "--out", str(out), "--question-column", "", "--gold-column", "premise",
            "--answer-column", "hypothesis", "--nli-model", nli_model, "--device", "cpu",
            "--chunk-size", str(CHUNK), *extra]


@pytest.fixture(scope="module")
def scored(statement_rows, random_nli_model, tmp_path_factory):
    """A finished job: its output bytes, to damage copies of it."""
    out = tmp_path_factory.mktemp("scored") / "scored.csv"
    assert cli_main(score_args(statement_rows, out, random_nli_model)) == 0
    return out


def copy_job(scored, folder):
    """A copy of the finished job's output and manifest in ``folder``."""
    out = folder / scored.name
    for suffix in ("", ".capjob.json"):
        (folder / (scored.name + suffix)).write_bytes(scored.with_name(scored.name + suffix).read_bytes())
    return out


def lines_of(path):
    return path.read_bytes().split(b"\n")


def assert_same_scores(path, expected_path):
    got, expected = (pd.read_csv(p, dtype={"row_id": str}) for p in (path, expected_path))
    pd.testing.assert_frame_equal(got, expected, atol=MODEL_ATOL)


# --- resume --------------------------------------------------------------------------------------

def test_resume_with_other_options_or_input_is_refused_naming_the_change(statement_rows, random_nli_model,
                                                                         scored, tmp_path):
    out = copy_job(scored, tmp_path)
    with pytest.raises(JobMismatchError, match=r"changed since: alpha \(0\.85 then, 0\.7 now\)"):
        cli_main(score_args(statement_rows, out, random_nli_model, "--alpha", "0.7"))
    with pytest.raises(JobMismatchError, match=r"changed since: escape_formulas \(True then, False now\)"):
        cli_main(score_args(statement_rows, out, random_nli_model, "--no-escape-formulas"))
    reordered = tmp_path / "reordered.csv"
    read_table(statement_rows).iloc[::-1].to_csv(reordered, index=False)
    with pytest.raises(JobMismatchError, match=r"changed since: the input rows \(12 rows then, 12 now; "
                                               r"another, edited or reordered file\)"):
        cli_main(score_args(reordered, out, random_nli_model))
    assert out.read_bytes() == scored.read_bytes()  # refused before anything was written


def test_the_gold_separator_is_part_of_the_job(statement_rows, random_nli_model, scored, tmp_path):
    """Issue 30: splitting gold cells gives other golds, so other scores: a resume refuses it."""
    out = copy_job(scored, tmp_path)
    with pytest.raises(JobMismatchError, match=r"changed since: gold_separator \(None then, ';' now\)"):
        cli_main(score_args(statement_rows, out, random_nli_model, "--gold-separator", ";"))


def test_the_fingerprint_says_what_the_output_is_never_how_ranks_talk(scored):
    """Issue 30: the device is no part of the job (device_type made a CLI job differ from the
    library's), and the process group's backend is passed, not read back out of the fingerprint."""
    from capqa.jobs.distributed import BACKENDS, process_group_backend

    settings = read_manifest(scored)["job"]["settings"]
    assert "device_type" not in settings and {"gold_separator", "nli_code", "code"} <= set(settings)
    assert "commit" not in settings  # provenance: the same sources at another commit are the same job
    assert [process_group_backend(device) for device in ("cuda:1", "cuda", "cpu", "mps")] == [
        "nccl", "nccl", "gloo", "gloo"]
    assert BACKENDS == ("nccl", "gloo")


def test_a_distributed_job_needs_its_backend_named(statement_rows, random_nli_model, tmp_path):
    from capqa.jobs.distributed import Ranks
    from capqa.jobs.scoring import score_table
    from capqa.metric.options import MetricOptions
    from capqa.records.job import JobSettings

    scorer = MetricOptions(nli_model=random_nli_model, device="cpu").build_scorer()
    with pytest.raises(ValueError, match=r"`backend` must be one of nccl, gloo .*, got None"):
        score_table(read_table(statement_rows), scorer, tmp_path / "out.csv",
                    JobSettings(None, "premise", "hypothesis"), ranks=Ranks(0, 2, 0))
    assert not (tmp_path / "out.csv").exists()


def test_a_second_writer_is_refused_by_the_lock(statement_rows, random_nli_model, scored, tmp_path):
    out = copy_job(scored, tmp_path)
    job = JobSpec.for_table(read_table(statement_rows), {"another": "job"})
    # A first writer holds the output (the lock is per open file, so this holds against any process).
    with ResumableCsv.open(tmp_path / "held.csv", job, ["a"]):
        with pytest.raises(OutputLockedError, match=r"`--out` .*held.csv is being written by PID \d+"):
            cli_main(score_args(statement_rows, tmp_path / "held.csv", random_nli_model))
    # Released: the finished job is found complete and nothing is rescored.
    assert cli_main(score_args(statement_rows, out, random_nli_model)) == 0
    assert out.read_bytes() == scored.read_bytes()


def cut_in_last_row_after_cap(data: bytes, n_columns: int) -> int:
    """Offset just after the ``cap`` field (4th column) of the last row."""
    last_row_start = data.rstrip(b"\n").rfind(b"\n") + 1
    row = next(csv.reader([data[last_row_start:].decode("utf-8")]))
    assert len(row) == n_columns
    return last_row_start + len(",".join(row[:4]).encode("utf-8"))


def cut_inside_quoted_field(data: bytes, n_columns: int) -> int:
    """Offset inside the first quoted field of the last row."""
    last_row_start = data.rstrip(b"\n").rfind(b"\n") + 1
    return data.index(b'"', last_row_start) + 3


@pytest.mark.parametrize("cut", [cut_in_last_row_after_cap, cut_inside_quoted_field])
def test_a_torn_last_row_is_rewritten(statement_rows, random_nli_model, scored, tmp_path, cut, capsys):
    out = copy_job(scored, tmp_path)
    data = out.read_bytes()
    n_columns = len(pd.read_csv(scored, nrows=0).columns)
    out.write_bytes(data[:cut(data, n_columns)])
    assert cli_main(score_args(statement_rows, out, random_nli_model)) == 0
    # The last committed chunk no longer matched its checksum: its rows (only those) were scored again.
    assert f"scored {N_ROWS - (N_ROWS - 1) // CHUNK * CHUNK} new rows" in capsys.readouterr().err
    assert_same_scores(out, scored)


def test_a_damaged_middle_is_refused_with_its_line(statement_rows, random_nli_model, scored, tmp_path):
    out = copy_job(scored, tmp_path)
    lines = lines_of(out)
    # Line 3 (the second data row) loses its end: a partial middle row, intact rows after it.
    lines[2] = lines[2][:len(lines[2]) // 2]
    out.write_bytes(b"\n".join(lines))
    with pytest.raises(JobMismatchError, match=r"was changed after it was written: line 3 \(rows 1-4\)"):
        cli_main(score_args(statement_rows, out, random_nli_model))
    # An edited cell keeps the shape: the chunk's lines are named.
    out = copy_job(scored, tmp_path)
    out.write_bytes(out.read_bytes().replace(b"0.", b"1.", 1))
    with pytest.raises(JobMismatchError, match=r"lines 2-5 \(rows 1-4\) no longer match their checksum"):
        cli_main(score_args(statement_rows, out, random_nli_model))
    # Saved again by another program (here with other line ends): nothing is trusted, from the header on.
    out = copy_job(scored, tmp_path)
    out.write_bytes(out.read_bytes().replace(b"\r\n", b"\n"))
    with pytest.raises(JobMismatchError, match=r"was changed after it was written: the header \(line 1\) no longer"):
        cli_main(score_args(statement_rows, out, random_nli_model))


def test_output_without_a_manifest_is_not_trusted(statement_rows, random_nli_model, scored, tmp_path):
    out = tmp_path / "scored.csv"
    out.write_bytes(scored.read_bytes())
    with pytest.raises(JobMismatchError, match="already holds data but has no job manifest"):
        cli_main(score_args(statement_rows, out, random_nli_model))


def test_an_unusable_out_is_found_before_the_models_load(statement_rows, tmp_path):
    # The NLI model does not exist: reaching it would fail differently, so these errors come first.
    missing_model = str(tmp_path / "no-such-model")
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    with pytest.raises(OSError, match=r"cannot write `--out` .*a_file/out.csv"):
        cli_main(score_args(statement_rows, a_file / "out.csv", missing_model))
    with pytest.raises(IsADirectoryError, match="is a folder; give a file name"):
        cli_main(score_args(statement_rows, tmp_path, missing_model))


# --- CSV injection -------------------------------------------------------------------------------

FORMULAS = ["=HYPERLINK(\"http://x.example\",\"click\")", "=cmd|' /C calc'!A0", "@SUM(A1:A2)",
            "+1+2 is three", "-x is minus x", "\tTab first.", "\rCR first."]


def test_formula_cells_get_a_leading_quote_and_numbers_do_not():
    for cell in FORMULAS:
        assert escape_formula(cell) == "'" + cell
    for cell in ["-3", "+1.5", "-2e-3", ".5", "A plain answer.", "a=b", "", "'=already text"]:
        assert escape_formula(cell) == cell


def test_formula_cells_are_escaped_in_the_output_unless_turned_off(random_nli_model, tmp_path):
    rows = tmp_path / "formulas.csv"
    pd.DataFrame({"premise": ["Sofia is a city."] * len(FORMULAS), "hypothesis": FORMULAS,
                  "note": ["-7"] * len(FORMULAS)}).to_csv(rows, index=False, lineterminator="\r\n")
    escaped, raw = tmp_path / "escaped.csv", tmp_path / "raw.csv"
    assert cli_main(score_args(rows, escaped, random_nli_model)) == 0
    assert cli_main(score_args(rows, raw, random_nli_model, "--no-escape-formulas")) == 0
    safe = pd.read_csv(escaped, dtype=str, keep_default_na=False)
    # The input column and the generated hypotheses (the texts themselves, without questions).
    assert list(safe["hypothesis"]) == ["'" + cell for cell in FORMULAS]
    assert all(cell.startswith("'") for cell in safe["hypotheses"])
    assert list(safe["note"]) == ["-7"] * len(FORMULAS)  # a number is data, not a formula
    as_written = pd.read_csv(raw, dtype=str, keep_default_na=False)
    assert list(as_written["hypothesis"]) == FORMULAS
    pd.testing.assert_series_equal(safe["cap"].astype(float), as_written["cap"].astype(float), atol=MODEL_ATOL)


# --- strict input tables -------------------------------------------------------------------------

def write(path, text):
    path.write_bytes(text.encode("utf-8"))
    return path


def test_a_row_with_an_extra_field_is_refused_with_line_and_column(random_nli_model, tmp_path):
    # The repro: pandas would make the first column the index and score the wrong columns.
    path = write(tmp_path / "x.csv", "question,gold_answer,answer\nName a city in Bulgaria.,Sofia,Burgas,note1\n"
                                     "What is 2+2?,4,five,note2\n")
    with pytest.raises(TableError, match=r"`x.csv` line 2: 4 fields but the header has 3 \(column 4 has no header\)"):
        cli_main(["score", str(path), "--out", str(tmp_path / "o.csv"), "--nli-model", random_nli_model,
                  "--statement-model", "rules"])
    assert not (tmp_path / "o.csv").exists()
    short = write(tmp_path / "short.csv", "a,b,c\n1,2,3\n\n1,2\n")
    with pytest.raises(TableError, match=r"`short.csv` line 4: 2 fields but the header has 3 \(column 3 is missing\)"):
        read_table(short)


def test_duplicate_columns_and_a_bom_are_refused(tmp_path):
    duplicate = write(tmp_path / "dup.csv", "question,answer,question\nq,a,q2\n")
    with pytest.raises(TableError, match=r"`dup.csv` line 1: column name 'question' appears twice \(columns 1 and 3\)"):
        read_table(duplicate)
    bom = write(tmp_path / "bom.csv", "\ufeffquestion,answer\nq,a\n")
    with pytest.raises(TableError, match=r"`bom.csv` line 1, column 1: the header starts with a byte-order mark"):
        read_table(bom)
    bom_jsonl = write(tmp_path / "bom.jsonl", '\ufeff{"answer": "a"}\n')
    with pytest.raises(TableError, match=r"`bom.jsonl` line 1, column 1: a byte-order mark"):
        read_table(bom_jsonl)


def test_a_broken_quote_names_its_line(tmp_path):
    path = write(tmp_path / "quote.csv", 'a,b\n1,2\n3,"open\n')
    with pytest.raises(TableError, match=r"`quote.csv` line \d+: not valid CSV"):
        read_table(path)


def test_jsonl_errors_name_the_bad_line(tmp_path):
    path = write(tmp_path / "rows.jsonl", '{"answer": "a"}\n{"answer": "b"}\n{"answer": "c",}\n')
    with pytest.raises(TableError, match=r"`rows.jsonl` line 3, column 16: not valid JSON"):
        read_table(path)
    not_object = write(tmp_path / "list.jsonl", '{"answer": "a"}\n\n["b"]\n')
    with pytest.raises(TableError, match=r"`list.jsonl` line 3 is not a JSON object"):
        read_table(not_object)


# --- Ctrl-C --------------------------------------------------------------------------------------

def test_ctrl_c_keeps_the_committed_rows_and_says_how_to_resume(statement_rows, random_nli_model, scored,
                                                                tmp_path):
    """A real Ctrl-C (SIGINT to the process) after the first committed chunk: the job is paused
    there (tests/support/paused_score.py), so it cannot end before the signal arrives."""
    out, paused = tmp_path / "scored.csv", tmp_path / "paused"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1", "CAPQA_TEST_PAUSED": str(paused)}
    command = [sys.executable, str(REPO_ROOT / "tests" / "support" / "paused_score.py"),
               *score_args(statement_rows, out, random_nli_model)]
    process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stderr=subprocess.PIPE, text=True)
    # However long a loaded machine takes: a job that fails ends the wait with its exit code.
    while not paused.exists():
        assert process.poll() is None, f"the job ended before its first commit: {process.communicate()[1]}"
        time.sleep(0.05)
    assert read_manifest(out)["chunks"][-1]["rows"] == CHUNK
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=600)
    assert process.returncode == 130, errors
    assert "Traceback" not in errors and f"interrupted: rows 1-{CHUNK} are kept in {out}" in errors
    assert "rerun the same command" in errors
    assert cli_main(score_args(statement_rows, out, random_nli_model)) == 0
    assert_same_scores(out, scored)
