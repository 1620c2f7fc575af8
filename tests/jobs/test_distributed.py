"""Distributed scoring: evaluate's distributed mode, and ``torchrun -m capqa score`` with real ranks."""

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from capqa.common.tables import read_table
from capqa.compare.summary import read_summary
from capqa.jobs.distributed import Ranks, cuda_index, job_shards, process_group_backend, shard_rows
from capqa.jobs.output import read_manifest
from capqa.records.job import JobSettings

from support.data import REPO_ROOT, data_path
from support.lazy import lazy_module
from support.parallel_workers import add_batch_and_compute
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")

pytestmark = pytest.mark.slow

PREDICTIONS = ["Burgas is a city in Bulgaria.", "Water travels through the stem of a plant.",
               "Plastic is the best conductor of electricity.", "Water begins to boil at 212°F.",
               "The Berlin Wall fell in 1990.", "Sofia is the capital of Bulgaria."]
REFERENCES = [["Sofia is a city in Bulgaria."], ["Water and food travel through the stem of a plant."],
              ["Metal is the best conductor of electricity.", "Copper is the best conductor of electricity."],
              ["Water begins to boil at 100°C.", "Water begins to boil at 212 degrees Fahrenheit."],
              ["The Berlin Wall fell in 1989."], ["Sofia is the capital of Bulgaria."]]
# Process 0 adds the first examples, process 1 the rest; evaluate gathers them in process order.
SHARES = (slice(0, 4), slice(4, None))
# Generous: ranks start torch and transformers on a machine shared with other jobs.
PROCESS_WAIT_S = 900


def test_two_processes_give_the_single_process_result(random_nli_model, metric_path, tmp_path):
    options = {"nli_model": random_nli_model, "device": "cpu", "cache_dir": str(tmp_path / "evaluate")}
    context = multiprocessing.get_context("spawn")
    result_paths = [tmp_path / f"result-{process_id}.json" for process_id in range(2)]
    processes = [context.Process(target=add_batch_and_compute, args=(
        metric_path, options, process_id, 2,
        {"predictions": PREDICTIONS[share], "references": REFERENCES[share]}, result_paths[process_id]))
        for process_id, share in enumerate(SHARES)]
    for process in processes:
        process.start()
    # Wait for the results however long a loaded machine takes: a crashed worker still ends the
    # wait (with a non-zero exit code), so no wall-clock limit is needed.
    for process in processes:
        process.join()
    assert [process.exitcode for process in processes] == [0, 0]
    gathered, other = (json.loads(path.read_text()) for path in result_paths)

    single = evaluate.load(metric_path, nli_model=random_nli_model, device="cpu", cache_dir=str(tmp_path / "single"))
    expected = single.compute(predictions=PREDICTIONS, references=REFERENCES)
    assert other is None  # only process 0 computes
    # Different processes and batch compositions: equal up to float32 rounding (conftest.MODEL_ATOL).
    assert set(gathered) == set(expected)
    np.testing.assert_allclose(gathered["scores"], expected["scores"], atol=MODEL_ATOL, rtol=0)
    assert abs(gathered["cap"] - expected["cap"]) <= MODEL_ATOL
    assert len(gathered["scores"]) == len(PREDICTIONS)


# --- torchrun -m capqa score ---------------------------------------------------------------------

def test_shards_balance_characters_and_cover_every_row_once():
    costs = [500, 10, 10, 10, 300, 200, 10, 10]
    shards = shard_rows(costs, 2)
    assert sorted(np.concatenate(shards).tolist()) == list(range(len(costs)))
    assert all(list(shard) == sorted(shard) for shard in shards)
    assert [sum(costs[row] for row in shard) for shard in shards] == [530, 520]
    # More ranks than rows: the extra ranks get nothing, and the rows are still covered once.
    assert sorted(len(shard) for shard in shard_rows([5, 7], 4)) == [0, 0, 1, 1]


def test_a_questions_rows_go_to_one_rank():
    table = pd.DataFrame({"question": ["q1", "q2", "q1", "q3", "q2", "q1", "q4"],
                          "gold": ["a"] * 7, "answer": ["bb", "b", "bbbb", "bbbbbbbbbbbbbbbbbbbbbbbb", "b", "b", "bb"]})
    shards = job_shards(table, JobSettings("question", "gold", "answer"), 2)
    assert sorted(np.concatenate(shards).tolist()) == list(range(7))
    rank_of_question = {}
    for rank, shard in enumerate(shards):
        for row in shard:
            assert rank_of_question.setdefault(table["question"][row], rank) == rank
    # Without questions every row is a group of its own.
    assert shard_rows([3, 3, 3, 3], 2, groups=[0, 0, 0, 1])[0].tolist() == [0, 1, 2]
    assert shard_rows([3, 3, 3, 3], 2)[0].tolist() == [0, 2]


@pytest.fixture(scope="module")
def id_rows(tmp_path_factory):
    """60 real statement pairs with their row id, to check that every row comes back once."""
    sample = read_table(data_path("cap_correctness_sample.csv")).head(60)
    path = tmp_path_factory.mktemp("distributed") / "rows.csv"
    sample[["row_id", "premise", "hypothesis"]].to_csv(path, index=False)
    return path


TORCHRUN = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node"]
# accelerate's multi-process launcher (torch.distributed.run underneath); on a CPU-only machine
# the ranks talk over gloo. The other flags only silence its warnings about defaults.
ACCELERATE = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_machines", "1",
              "--mixed_precision", "no", "--dynamo_backend", "no", "--num_processes"]


# The command each rank runs: `python -m capqa`, or the same command paused after its first commit.
CAPQA = ["-m", "capqa"]
PAUSED_CAPQA = [str(REPO_ROOT / "tests" / "support" / "paused_score.py")]


def score_command(input_path, out, nli_model, ranks=None, chunk_size=5, launcher=TORCHRUN, program=CAPQA):
    launcher = [*launcher, str(ranks)] if ranks else [sys.executable]
    return [*launcher, *program, "score", str(input_path), "--out", str(out), "--question-column", "",
            "--gold-column", "premise", "--answer-column", "hypothesis", "--nli-model", nli_model,
            "--device", "cpu", "--chunk-size", str(chunk_size)]


def start(command, **variables):
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1", **variables}
    return subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)


def run(command):
    process = start(command)
    output, _ = process.communicate(timeout=PROCESS_WAIT_S)
    assert process.returncode == 0, output
    return output


def run_here(command):
    """A single-process ``score_command`` in this process: the same command, no interpreter to start."""
    from capqa.cli import main as cli_main

    assert command[1:3] == ["-m", "capqa"]
    assert cli_main(command[3:]) == 0


@pytest.fixture(scope="module")
def single_process_output(id_rows, random_nli_model, tmp_path_factory):
    out = tmp_path_factory.mktemp("single") / "scored.csv"
    run_here(score_command(id_rows, out, random_nli_model))
    return out


def assert_same_scored_file(path, expected_path):
    scored, expected = (pd.read_csv(p, dtype=str, keep_default_na=False) for p in (path, expected_path))
    assert list(scored.columns) == list(expected.columns)
    numeric = ["cap", "forward", "reverse", "relation_probability"]
    for column in scored.columns:
        if column in numeric:
            np.testing.assert_allclose(scored[column].astype(float), expected[column].astype(float),
                                       rtol=0, atol=MODEL_ATOL)
        else:
            assert list(scored[column]) == list(expected[column]), column


def test_two_torchrun_ranks_write_the_single_process_file(id_rows, random_nli_model, single_process_output,
                                                         tmp_path, capsys):
    out = tmp_path / "scored.csv"
    log = run(score_command(id_rows, out, random_nli_model, ranks=2))
    assert "rank 0 of 2: scored" in log and "rank 1 of 2: scored" in log
    assert_same_scored_file(out, single_process_output)
    assert not (tmp_path / "scored.csv.parts").exists()  # merged, then cleaned up
    # Rank 0 summarises the merged output, once: every row, the single process's hashcode.
    summary, single = read_summary(out), read_summary(single_process_output)
    assert summary.rows == len(pd.read_csv(out)) and summary.hashcode == single.hashcode
    assert summary.cap.mean == pytest.approx(single.cap.mean, abs=MODEL_ATOL)
    # The distributed output is the same job as a single-process one: a rerun has nothing to do.
    capsys.readouterr()
    run_here(score_command(id_rows, out, random_nli_model))
    assert "scored 0 new rows" in capsys.readouterr().err


def test_two_accelerate_ranks_write_the_single_process_file(id_rows, random_nli_model, single_process_output,
                                                            tmp_path):
    pytest.importorskip("accelerate")
    out = tmp_path / "scored.csv"
    log = run(score_command(id_rows, out, random_nli_model, ranks=2, launcher=ACCELERATE))
    assert "rank 0 of 2: scored" in log and "rank 1 of 2: scored" in log
    assert_same_scored_file(out, single_process_output)


def committed_rows(out):
    manifest = read_manifest(out)
    return manifest["chunks"][-1]["rows"] if manifest else 0


def test_a_killed_rank_resumes_with_every_row_once(id_rows, random_nli_model, single_process_output, tmp_path):
    """Rank 1 is killed after its first committed chunk: it pauses there (tests/support/paused_score.py),
    so it cannot finish its shard before the signal arrives."""
    out, paused = tmp_path / "scored.csv", tmp_path / "paused"
    part = tmp_path / "scored.csv.parts" / "part-00001-of-00002.csv"
    command = score_command(id_rows, out, random_nli_model, ranks=2, chunk_size=2, program=PAUSED_CAPQA)
    launcher = start(command, CAPQA_TEST_PAUSED=str(paused), CAPQA_TEST_PAUSE_RANK="1")
    deadline = time.monotonic() + PROCESS_WAIT_S  # only a hang ends here: a failed launch exits
    while not paused.exists():
        assert launcher.poll() is None, launcher.communicate()[0]
        assert time.monotonic() < deadline, "rank 1 did not commit its first chunk"
        time.sleep(0.05)
    os.kill(int(paused.read_text()), signal.SIGKILL)
    output, _ = launcher.communicate(timeout=PROCESS_WAIT_S)
    assert launcher.returncode != 0, output
    kept = committed_rows(part)
    shard = job_shards(read_table(id_rows), JobSettings(None, "premise", "hypothesis"), 2)[1]
    assert kept == 2 < len(shard), "the rank was to be killed after its first chunk of 2 rows"
    assert not out.exists() or committed_rows(out) == 0

    log = run(score_command(id_rows, out, random_nli_model, ranks=2, chunk_size=2))
    assert f"rank 1 of 2: scored {len(shard) - kept} new rows" in log  # only what was missing
    scored = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(scored["row_id"]) == list(read_table(id_rows)["row_id"])  # each row once, in order
    assert_same_scored_file(out, single_process_output)


def test_ranks_share_the_gpus_when_there_are_more_ranks_than_gpus():
    """Issue 33: eight ranks on a node of one GPU all use it (each making its own statements),
    and wait for each other over Gloo, since NCCL refuses two ranks on one device."""
    assert [cuda_index(rank, 1) for rank in range(4)] == [0, 0, 0, 0]
    assert [cuda_index(rank, 2) for rank in range(4)] == [0, 1, 0, 1]
    assert [cuda_index(rank, 8) for rank in range(4)] == [0, 1, 2, 3]
    assert process_group_backend("cpu", Ranks(0, 8, 0, 8)) == "gloo"
