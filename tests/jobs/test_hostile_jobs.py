"""Hostile states around a scoring job (issue 27 items 3, 7, 11, 18; issue 22 "failed first runs";
issue 26 "lock files"): planted lock files, edited manifests, failed first runs, formula column
names and impossible ranks. Each is refused with one clear message or handled, and no file of
the user's is written through, lost or left blocking."""

import json
import logging
import os
from datetime import timedelta

import pandas as pd
import pytest

from capqa.cli import main as cli_main
from capqa.common.tables import read_table
from capqa.jobs import distributed
from capqa.jobs.distributed import Ranks, RendezvousTimeout, join_job, rendezvous_timeout
from capqa.jobs.fingerprint import JobSpec
from capqa.jobs.locking import OutputLock, lock_path, path_names_file
from capqa.jobs.manifest import DamagedManifestError, JobMismatchError, manifest_path
from capqa.jobs.output import ResumableCsv

from support.data import data_path

N_ROWS = 6


@pytest.fixture(autouse=True)
def errors_as_lines(monkeypatch):
    """These tests read the one `error:` line a command prints (CAPQA_TRACEBACK would re-raise)."""
    monkeypatch.delenv("CAPQA_TRACEBACK", raising=False)


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    sample = read_table(data_path("cap_correctness_sample.csv")).head(N_ROWS)
    path = tmp_path_factory.mktemp("jobs") / "rows.csv"
    sample[["premise", "hypothesis"]].to_csv(path, index=False)
    return path


def score_args(input_path, out, *extra, nli_model=None):
    model = ["--nli-model", nli_model] if nli_model else []
    return ["score", str(input_path), "--out", str(out), "--question-column", "", "--gold-column", "premise",
            "--answer-column", "hypothesis", "--device", "cpu", "--chunk-size", "4", *model, *extra]


def error_line(capsys):
    errors = capsys.readouterr().err
    assert "Traceback" not in errors
    lines = [line for line in errors.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, errors
    return lines[0]


def job_files(out):
    return sorted(path.name for path in out.parent.iterdir() if path.name.startswith(out.name))


# --- issue 22: a failed first run blocks nothing -------------------------------------------------

def test_a_failed_first_run_leaves_nothing_and_its_fix_runs(rows, random_nli_model, tmp_path, monkeypatch, capsys):
    """The issue's repro: offline, the default NLI model cannot load; the corrected rerun with a
    local --nli-model was refused as "holds rows of another job", though no row was committed."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "scored.csv"
    assert cli_main(score_args(rows, out, "--statement-model", "rules")) == 1
    assert "could not load the NLI" in error_line(capsys)
    assert job_files(out) == []  # no header-only output, manifest or lock left behind
    assert cli_main(score_args(rows, out, "--statement-model", "rules", nli_model=random_nli_model)) == 0
    assert len(pd.read_csv(out)) == N_ROWS
    assert job_files(out) == ["scored.csv", "scored.csv.capjob.json", "scored.csv.summary.json"]


def header_only_job(out, settings):
    """What an earlier version (or a crash before the first chunk) left: a header and a manifest
    of no rows."""
    table = read_table(data_path("cap_correctness_sample.csv")).head(N_ROWS)
    with ResumableCsv.open(out, JobSpec.for_table(table, settings), ["premise", "hypothesis", "cap"]):
        pass
    return table


def test_an_output_with_no_committed_row_is_replaced_by_another_job_with_a_warning(tmp_path, caplog):
    out = tmp_path / "scored.csv"
    table = header_only_job(out, {"nli_model": "cross-encoder/nli-deberta-v3-large"})
    with caplog.at_level(logging.WARNING):
        with ResumableCsv.open(out, JobSpec.for_table(table, {"nli_model": "/models/nli"}), ["a", "b"]) as output:
            output.append("1,2\r\n", 1)
    assert any("held no committed row of an earlier job" in record.getMessage() and "nli_model" in record.getMessage()
               for record in caplog.records)
    assert out.read_bytes() == b"a,b\r\n1,2\r\n"
    assert json.loads(manifest_path(out).read_text())["job"]["settings"] == {"nli_model": "/models/nli"}


def test_a_header_only_output_whose_header_was_edited_is_not_replaced(tmp_path):
    out = tmp_path / "scored.csv"
    table = header_only_job(out, {"nli_model": "a"})
    out.write_text("my,own,notes\r\n")  # not what the job wrote: someone else's file now
    with pytest.raises(JobMismatchError, match="holds rows of another job"):
        ResumableCsv.open(out, JobSpec.for_table(table, {"nli_model": "b"}), ["a"])
    assert out.read_bytes() == b"my,own,notes\r\n"


def test_an_output_with_committed_rows_is_never_replaced(tmp_path):
    out = tmp_path / "scored.csv"
    table = read_table(data_path("cap_correctness_sample.csv")).head(N_ROWS)
    with ResumableCsv.open(out, JobSpec.for_table(table, {"v": 1}), ["a"]) as output:
        output.append("1\r\n", 1)
    before = out.read_bytes()
    with pytest.raises(JobMismatchError, match=r"changed since: v \(1 then, 2 now\)"):
        ResumableCsv.open(out, JobSpec.for_table(table, {"v": 2}), ["a"])
    assert out.read_bytes() == before


def test_a_job_interrupted_after_a_chunk_keeps_it(tmp_path):
    out = tmp_path / "scored.csv"
    table = read_table(data_path("cap_correctness_sample.csv")).head(N_ROWS)
    with pytest.raises(KeyboardInterrupt):
        with ResumableCsv.open(out, JobSpec.for_table(table, {}), ["a"]) as output:
            output.append("1\r\n", 1)
            raise KeyboardInterrupt
    assert out.read_bytes() == b"a\r\n1\r\n" and job_files(out) == ["scored.csv", "scored.csv.capjob.json"]


# --- issue 27 item 11 and issue 26: the lock file ------------------------------------------------

def plant(kind, path, victim):
    if kind == "symlink":
        path.symlink_to(victim)
    elif kind == "dangling symlink":
        path.symlink_to(victim.with_name("no-such-file"))
    elif kind == "hard link":
        os.link(victim, path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)


@pytest.mark.parametrize("kind", ["symlink", "dangling symlink", "hard link", "folder", "fifo"])
def test_a_planted_lock_path_is_refused_and_never_written_through(rows, random_nli_model, tmp_path, capsys, kind):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "out.csv"
    plant(kind, lock_path(out), victim)
    assert cli_main(score_args(rows, out, nli_model=random_nli_model)) == 1
    line = error_line(capsys)
    assert "its lock file" in line and "never written through" in line, line
    assert victim.read_text() == "precious\n" and not victim.with_name("no-such-file").exists()
    assert not out.exists()  # refused before anything was written
    assert os.path.lexists(lock_path(out))  # not ours to remove


def test_the_lock_file_is_removed_when_the_job_ends(rows, random_nli_model, tmp_path):
    out = tmp_path / "out.csv"
    assert cli_main(score_args(rows, out, nli_model=random_nli_model)) == 0
    assert not lock_path(out).exists()
    # A lock file left by a killed job is taken over, then removed.
    lock_path(out).write_text("PID 999999\n")
    assert cli_main(score_args(rows, out, nli_model=random_nli_model)) == 0
    assert not lock_path(out).exists()


def test_a_process_that_opened_the_lock_before_it_was_removed_does_not_hold_it(tmp_path):
    """The race that removing lock files opens: B opens OUT.lock, A finishes and removes it, B
    gets the lock of the removed file. B must see that the path no longer names what it locked
    (and start again), or B and a third writer C would both hold OUT."""
    import fcntl

    out = tmp_path / "out.csv"
    first = OutputLock.acquire(out)
    late = os.open(lock_path(out), os.O_RDWR)  # B's open, before A releases
    first.release()
    assert not lock_path(out).exists()
    fcntl.flock(late, fcntl.LOCK_EX | fcntl.LOCK_NB)  # B locks the removed file...
    assert not path_names_file(lock_path(out), late)  # ...and sees it is no longer OUT.lock
    third = OutputLock.acquire(out)  # C makes and locks a new one
    assert path_names_file(lock_path(out), third._descriptor)
    os.close(late)
    third.release()


def test_a_second_writer_is_still_refused_while_the_first_holds_the_lock(tmp_path):
    from capqa.jobs.locking import OutputLockedError

    out = tmp_path / "out.csv"
    holder = OutputLock.acquire(out)
    with pytest.raises(OutputLockedError, match=rf"is being written by PID {os.getpid()}"):
        OutputLock.acquire(out)
    holder.release()
    OutputLock.acquire(out).release()


def test_the_manifest_is_never_written_through_a_planted_temporary_file(tmp_path):
    out = tmp_path / "out.csv"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    # The name the old code used for its temporary manifest.
    (tmp_path / f"{manifest_path(out).name}.{os.getpid()}.tmp").symlink_to(victim)
    table = read_table(data_path("cap_correctness_sample.csv")).head(2)
    with ResumableCsv.open(out, JobSpec.for_table(table, {}), ["a"]) as output:
        output.append("1\r\n", 1)
    assert victim.read_text() == "precious\n"


# --- issue 27 item 18: a damaged manifest -------------------------------------------------------

def _edit(path, change):
    record = json.loads(path.read_text())
    path.write_text(json.dumps(change(record)))


DAMAGE = {
    "missing key": lambda path: _edit(path, lambda r: {k: v for k, v in r.items() if k != "job"}),
    "chunk rows as text": lambda path: _edit(path, lambda r: {**r, "chunks": [r["chunks"][0], {
        **r["chunks"][1], "rows": str(r["chunks"][1]["rows"])}, *r["chunks"][2:]]}),
    "a list instead of an object": lambda path: _edit(path, lambda r: [r]),
    "input rows as text": lambda path: _edit(path, lambda r: {**r, "job": {**r["job"], "input_rows": "six"}}),
    "settings as a list": lambda path: _edit(path, lambda r: {**r, "job": {**r["job"], "settings": []}}),
    "columns as a string": lambda path: _edit(path, lambda r: {**r, "columns": "a,b"}),
    "chunks out of order": lambda path: _edit(path, lambda r: {**r, "chunks": [r["chunks"][0], *r["chunks"][:0:-1]]}),
    "a chunk as null": lambda path: _edit(path, lambda r: {**r, "chunks": [r["chunks"][0], None]}),
    "no chunks": lambda path: _edit(path, lambda r: {**r, "chunks": []}),
    "a boolean for a count": lambda path: _edit(path, lambda r: {**r, "chunks": [{**r["chunks"][0], "rows": False}]}),
    "cut short": lambda path: path.write_bytes(path.read_bytes()[:40]),
    "not text": lambda path: path.write_bytes(b"\xff\xfe" * 10),
    "nested too deeply": lambda path: path.write_text("[" * 100_000),
    "empty": lambda path: path.write_text(""),
}


@pytest.fixture(scope="module")
def finished_job(rows, random_nli_model, tmp_path_factory):
    out = tmp_path_factory.mktemp("finished") / "out.csv"
    assert cli_main(score_args(rows, out, nli_model=random_nli_model)) == 0
    return out


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_manifest_says_so_and_what_to_do(rows, random_nli_model, finished_job, tmp_path, capsys, damage):
    out = tmp_path / "out.csv"
    for suffix in ("", ".capjob.json"):
        (tmp_path / (out.name + suffix)).write_bytes(finished_job.with_name(out.name + suffix).read_bytes())
    DAMAGE[damage](manifest_path(out))
    before = out.read_bytes()
    assert cli_main(score_args(rows, out, nli_model=random_nli_model)) == 1
    line = error_line(capsys)
    assert f"the job manifest {manifest_path(out)} is damaged" in line, line
    assert "cannot say which rows" in line and "move the output and its manifest aside" in line
    assert out.read_bytes() == before and not lock_path(out).exists()
    with pytest.raises(DamagedManifestError):
        ResumableCsv.open(out, JobSpec("x", 1), ["a"])


# --- issue 27 item 7: formula column names -------------------------------------------------------

def test_formula_column_names_are_escaped_like_cells(random_nli_model, tmp_path):
    name = '=HYPERLINK("http://x.example","click")'
    path = tmp_path / "in.csv"
    pd.DataFrame({"premise": ["Sofia is a city."], "hypothesis": ["Burgas is a city."], name: ["note"],
                  "-3": ["x"], "@user": ["y"]}).to_csv(path, index=False)
    escaped, raw = tmp_path / "escaped.csv", tmp_path / "raw.csv"
    assert cli_main(score_args(path, escaped, nli_model=random_nli_model)) == 0
    assert cli_main(score_args(path, raw, "--no-escape-formulas", nli_model=random_nli_model)) == 0
    header = list(pd.read_csv(escaped, nrows=0).columns)
    assert header[:5] == ["premise", "hypothesis", "'" + name, "-3", "'@user"]
    assert list(pd.read_csv(raw, nrows=0).columns)[:5] == ["premise", "hypothesis", name, "-3", "@user"]
    # A rerun resumes the same job: the escaped header is what the manifest records.
    assert cli_main(score_args(path, escaped, nli_model=random_nli_model)) == 0


def test_two_columns_that_escape_to_one_name_are_refused(random_nli_model, tmp_path, capsys):
    path = tmp_path / "in.csv"
    pd.DataFrame({"premise": ["a"], "hypothesis": ["b"], "=x": ["1"], "'=x": ["2"]}).to_csv(path, index=False)
    assert cli_main(score_args(path, tmp_path / "o.csv", nli_model=random_nli_model)) == 1
    assert "would both be written as \"'=x\"" in error_line(capsys)


def test_the_space_reads_back_a_file_with_a_formula_column_name(random_nli_model, tmp_path):
    from capqa.space import file_job
    from capqa.space.models import ModelLoader
    from capqa.space.settings import SpaceSettings

    path = tmp_path / "upload.csv"
    pd.DataFrame({"=q": ["Name a city in Bulgaria.", "What is 2+2?"], "gold": ["Sofia", "4"],
                  "answer": ["Burgas", "four"], "@label": ["invalid", "equivalent"]}).to_csv(path, index=False)
    loader = ModelLoader(SpaceSettings(nli_model=random_nli_model, statement_model="rules", device="cpu"))
    summary, preview, download, report, _ = file_job.score_file(loader, str(path), "=q", "gold", "answer",
                                                                "@label", "")
    assert "Scored **2 rows**" in summary and "=q" in preview.columns and "Monotonicity" in report
    _, token, name = download.url.rsplit("/", 2)
    written = file_job.DOWNLOADS.find(token, name)
    assert list(pd.read_csv(written, nrows=0).columns)[:4] == ["'=q", "gold", "answer", "'@label"]


# --- issue 27 item 3: impossible ranks and the rendezvous timeout ---------------------------------

@pytest.mark.parametrize("environment, message", [
    ({"RANK": "5", "WORLD_SIZE": "2"}, r"RANK is 5, but WORLD_SIZE is 2: ranks go from 0 to 1"),
    ({"RANK": "2", "WORLD_SIZE": "2"}, r"RANK is 2, but WORLD_SIZE is 2"),
    ({"RANK": "0", "WORLD_SIZE": "0"}, r"WORLD_SIZE must be at least 1"),
    ({"WORLD_SIZE": "2"}, r"WORLD_SIZE is 2 but RANK is not set"),
    ({"RANK": "1", "WORLD_SIZE": "4", "LOCAL_RANK": "2", "LOCAL_WORLD_SIZE": "2"}, r"LOCAL_RANK is 2, but only 2"),
    ({"RANK": "-1", "WORLD_SIZE": "2"}, r"RANK must be a non-negative integer, got '-1'"),
    ({"RANK": "１", "WORLD_SIZE": "2"}, r"RANK must be a non-negative integer"),
    ({"RANK": "9" * 5000, "WORLD_SIZE": "2"}, r"RANK must be a non-negative integer, got '9999"),
])
def test_an_impossible_rank_is_refused_at_once(rows, tmp_path, monkeypatch, capsys, environment, message):
    for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=message):
        Ranks.from_environment()
    # Through the command: one error line, before any model or rendezvous.
    assert cli_main(score_args(rows, tmp_path / "o.csv", nli_model=str(tmp_path / "no-model"))) == 1
    line = error_line(capsys)
    assert len(line) < 500 and not (tmp_path / "o.csv").exists()


def test_ranks_a_launcher_sets_are_accepted(monkeypatch):
    for name, value in {"RANK": "3", "WORLD_SIZE": "4", "LOCAL_RANK": "1", "LOCAL_WORLD_SIZE": "2"}.items():
        monkeypatch.setenv(name, value)
    assert Ranks.from_environment() == Ranks(3, 4, 1, 2)


def test_the_rendezvous_timeout_is_minutes_and_can_be_set(monkeypatch):
    monkeypatch.delenv(distributed.RENDEZVOUS_VARIABLE, raising=False)
    assert rendezvous_timeout() == timedelta(minutes=10)
    monkeypatch.setenv(distributed.RENDEZVOUS_VARIABLE, "2.5")
    assert rendezvous_timeout() == timedelta(seconds=2.5)
    for bad in ("0", "-3", "soon", "nan", "inf"):
        monkeypatch.setenv(distributed.RENDEZVOUS_VARIABLE, bad)
        with pytest.raises(ValueError, match=rf"{distributed.RENDEZVOUS_VARIABLE} must be a positive number"):
            rendezvous_timeout()


def free_port():
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_rank_whose_job_never_starts_stops_with_a_clear_message(monkeypatch):
    """Rank 1 of 2 with nobody at MASTER_ADDR:MASTER_PORT waited 48 h; now it stops once the
    rendezvous timeout (here 2 s) has passed, naming the address and what to check."""
    import torch.distributed as dist

    port = free_port()
    for name, value in {"RANK": "1", "WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port),
                        distributed.RENDEZVOUS_VARIABLE: "2"}.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(RendezvousTimeout, match=rf"rank 1 of 2 could not join the job at 127.0.0.1:{port} "
                                                r"\(waited up to 2 s;") as refused:
        join_job("gloo", Ranks.from_environment())
    assert "MASTER_ADDR, MASTER_PORT and WORLD_SIZE" in str(refused.value)
    assert isinstance(refused.value, OSError)  # the command prints it as one error line
    assert not dist.is_initialized()


def _set_rows(record, rows):
    """The manifest with its last chunk claiming ``rows`` rows (bytes and checksum unchanged)."""
    return {**record, "chunks": [*record["chunks"][:-1], {**record["chunks"][-1], "rows": rows}]}


@pytest.mark.parametrize("claimed, problem", [
    (N_ROWS + 1, "it records 7 rows of a 6-row job"),
    (N_ROWS - 1, "chunk 2 records 1 rows, but its bytes hold 2"),
])
def test_a_manifest_whose_row_counts_do_not_match_the_output_is_damaged(rows, random_nli_model, finished_job,
                                                                        tmp_path, capsys, claimed, problem):
    """Checksums match, but the rows were edited: trusting them would skip or double rows."""
    out = tmp_path / "out.csv"
    for suffix in ("", ".capjob.json"):
        (tmp_path / (out.name + suffix)).write_bytes(finished_job.with_name(out.name + suffix).read_bytes())
    _edit(manifest_path(out), lambda record: _set_rows(record, claimed))
    assert cli_main(score_args(rows, out, nli_model=random_nli_model)) == 1
    assert f"is damaged ({problem})" in error_line(capsys)


def test_a_file_saved_over_a_header_only_output_of_the_same_job_is_kept(tmp_path):
    out = tmp_path / "scored.csv"
    table = header_only_job(out, {"nli_model": "a"})
    out.write_bytes(b"someone else's,data\r\n1,2\r\n")
    with pytest.raises(JobMismatchError, match=r"was changed after it was written: the header \(line 1\)"):
        ResumableCsv.open(out, JobSpec.for_table(table, {"nli_model": "a"}), ["premise", "hypothesis", "cap"])
    assert out.read_bytes() == b"someone else's,data\r\n1,2\r\n"
    # A header cut short by a crash is this job's own: it is written again.
    out.write_bytes(b"premise,hypo")
    with ResumableCsv.open(out, JobSpec.for_table(table, {"nli_model": "a"}), ["premise", "hypothesis", "cap"]):
        pass
    assert out.read_bytes() == b"premise,hypothesis,cap\r\n"


# --- issue 35 items 4 and 5: one row's text never stops a job ------------------------------------

def test_rows_whose_question_is_only_a_label_are_scored_with_the_safe_form(random_nli_model, tmp_path):
    questions = ["Answer:", "Options: A) Paris B) Lyon C) Nice", "What are the ³ states of matter?",
                 "What is the capital of France?"]
    path = tmp_path / "labels.csv"
    pd.DataFrame({"question": questions, "gold_answer": ["Paris", "B", "solid, liquid and gas", "Paris"],
                  "answer": ["Lyon", "B", "solid, liquid, gas", "?"]}).to_csv(path, index=False)
    out = tmp_path / "scored.csv"
    assert cli_main(["score", str(path), "--out", str(out), "--nli-model", random_nli_model, "--device", "cpu",
                     "--statement-model", "rules"]) == 0
    scored = read_table(out)
    assert len(scored) == len(questions)
    assert list(scored["premises"][:2]) == ['The answer to "Answer:" is Paris.',
                                            'The answer to "Options: A) Paris B) Lyon C) Nice" is B.']
    assert all("gold:fallback_form" in issues.split() for issues in scored["statement_issues"][:2])
    assert scored["hypotheses"][3] == 'The answer to "What is the capital of France?" is "?"'
