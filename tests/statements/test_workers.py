"""Issue 33: rule statements made in worker processes ahead of the NLI model, and kept on disk:
the same statements and issue codes whatever the number of workers, the pieces or the order; a
worker that dies costs time, not the job; a second job pays nothing for what the first made."""

import logging
import os
import signal
import subprocess
import sys

import pandas as pd
import pytest

from capqa.statements.check import statements_issues
from capqa.statements.rules_engine import RuleEngine
from capqa.statements.workers import MAX_AUTO_WORKERS, default_statement_workers, pieces

from support.data import REPO_ROOT, TEST_DATA_DIR


@pytest.fixture(scope="module")
def pairs():
    """(question, answer) pairs of real systems' answers, several per question, and their golds."""
    frame = pd.read_csv(TEST_DATA_DIR / "real_qa_answers.csv", dtype=str, keep_default_na=False).head(240)
    return sorted(set(zip(frame.question, frame.answer)) | set(zip(frame.question, frame.gold)))


@pytest.fixture(scope="module")
def made_here(pairs):
    """The statements made in this process, and their issue codes checked here."""
    statements = RuleEngine(0).write(pairs)
    return statements, statements_issues([q for q, _ in pairs], [a for _, a in pairs], statements)


@pytest.fixture(scope="module")
def two_workers():
    engine = RuleEngine(2)
    yield engine
    engine.close()


def test_workers_make_the_same_statements_and_issues_in_any_order(pairs, made_here, two_workers):
    statements, issues = made_here
    # Half sent ahead (as the chunk loop does), then all asked for, in reverse order.
    two_workers.prefetch(pairs[::2], with_issues=True)
    reverse, reverse_issues = two_workers.write_checked(pairs[::-1], with_issues=True)
    assert reverse == statements[::-1]
    assert [list(codes) for codes in reverse_issues] == issues[::-1]
    assert two_workers.in_flight == 0  # everything sent was collected


def test_a_pair_two_chunks_want_stays_ahead_for_the_second(pairs, made_here, two_workers):
    # A question's gold rows can fall in two chunks: both are sent ahead before the first is
    # collected, and the second must still find the shared pairs ahead (not send them again,
    # behind everything queued).
    two_workers.prefetch(pairs[:10])
    two_workers.prefetch(pairs[5:15])
    assert two_workers.write_checked(pairs[:10])[0] == made_here[0][:10]
    assert two_workers.in_flight == 10
    assert two_workers.write_checked(pairs[5:15])[0] == made_here[0][5:15]
    assert two_workers.in_flight == 0


def test_one_worker_and_statements_without_issues(pairs, made_here):
    engine = RuleEngine(1)
    try:
        statements, issues = engine.write_checked(pairs[:40] + pairs[:3])  # a pair asked for twice too
        assert statements == made_here[0][:40] + made_here[0][:3] and issues is None
    finally:
        engine.close()


def test_pairs_sent_without_issues_are_checked_by_the_caller(pairs, two_workers):
    two_workers.prefetch(pairs[:10], with_issues=False)
    statements, issues = two_workers.write_checked(pairs[:20], with_issues=True)
    assert len(statements) == 20 and issues is None


def test_a_worker_that_dies_costs_time_not_the_job(pairs, made_here, caplog):
    engine = RuleEngine(2)
    try:
        assert engine.write(pairs[:4]) == made_here[0][:4]  # the pool is up
        for pid in engine.workers.pids():
            os.kill(pid, signal.SIGKILL)
        with caplog.at_level(logging.WARNING, logger="capqa.statements.workers"):
            statements, issues = engine.write_checked(pairs, with_issues=True)
            again = engine.write(pairs[:30])
        assert statements == made_here[0] and [list(codes) for codes in issues] == made_here[1]
        assert again == made_here[0][:30]
        stopped = [record for record in caplog.records if "statement workers stopped" in record.getMessage()]
        assert len(stopped) == 1
    finally:
        engine.close()


def test_a_second_engine_reads_what_the_first_kept(pairs, made_here, tmp_path):
    first = RuleEngine(0, cache_dir=str(tmp_path))
    assert first.write(pairs) == made_here[0]
    assert first.cache.writes == len(pairs) and first.cache.hits == 0
    first.close()
    second = RuleEngine(0, cache_dir=str(tmp_path))
    assert second.write(pairs) == made_here[0]
    assert second.cache.hits == len(pairs) and second.cache.writes == 0
    second.close()


def test_workers_check_what_the_cache_had_and_keep_only_what_they_made(pairs, made_here, tmp_path):
    RuleEngine(0, cache_dir=str(tmp_path)).write(pairs[:50])
    engine = RuleEngine(2, cache_dir=str(tmp_path))
    try:
        statements, issues = engine.write_checked(pairs, with_issues=True)
        assert statements == made_here[0] and [list(codes) for codes in issues] == made_here[1]
        assert engine.cache.hits == 50 and engine.cache.writes == len(pairs) - 50
    finally:
        engine.close()


def test_pieces_are_cut_between_questions_only():
    pairs = sorted((f"q{question}", f"a{answer}") for question in range(7) for answer in range(question + 1))
    cut = pieces(pairs, 3)
    assert [pair for piece in cut for pair in piece] == pairs
    assert len(cut) <= 3
    questions = [{question for question, _ in piece} for piece in cut]
    assert all(not (a & b) for i, a in enumerate(questions) for b in questions[i + 1:])
    assert pieces([], 4) == [] and pieces(pairs, 1) == [pairs]


@pytest.mark.parametrize("on_gpu, cores, processes, expected", [
    (False, 64, 1, 0),                   # the NLI model on the CPU needs the cores itself
    (True, 2, 1, 1),
    (True, 16, 1, MAX_AUTO_WORKERS),
    (True, 16, 4, 3),                    # four ranks of a node share its 16 cores
    (True, 4, 8, 0),
])
def test_the_default_number_of_workers(on_gpu, cores, processes, expected):
    assert default_statement_workers(on_gpu, cores, processes) == expected


# A user's script with no ``if __name__ == "__main__":`` guard: it notes each run of its top level.
UNGUARDED_SCRIPT = """
import os, sys
with open(sys.argv[1], "a") as runs:
    runs.write(f"{os.getpid()}\\n")
from capqa.statements.rules_engine import RuleEngine
engine = RuleEngine(2)
made = engine.write([("Who wrote Faust?", "Goethe"), ("Who painted the Mona Lisa?", "Leonardo da Vinci")])
assert made == ["Goethe wrote Faust.", "Leonardo da Vinci painted the Mona Lisa."], made
assert engine.workers.pids() and not engine.workers.broken, "the workers did not make the statements"
engine.close()
"""


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_a_script_without_a_main_guard_runs_once_and_gets_its_workers(tmp_path, how):
    """Spawned workers do not re-run the user's script (its models, its files), and a script that
    cannot be re-imported (read from stdin) still gets workers."""
    script, runs = tmp_path / "unguarded.py", tmp_path / "runs.txt"
    script.write_text(UNGUARDED_SCRIPT, encoding="utf-8")
    command = [sys.executable, str(script) if how == "file" else "-", str(runs)]
    done = subprocess.run(command, input=None if how == "file" else UNGUARDED_SCRIPT, capture_output=True, text=True,
                          timeout=300, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr
    assert len(runs.read_text(encoding="utf-8").split()) == 1
