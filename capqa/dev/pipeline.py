"""How fast statements keep up with an NLI model: the whole scoring job (``score_table``: its
chunk loop, the statements sent ahead to ``statement_workers`` processes, CAP, the resumable
file) with the real rule statements and a stand-in NLI stage of fixed throughput, for 0, 1, 2
and more workers (``benchmarks/bench_rules.py --pipeline``).

The stand-in is a busy loop (never a sleep: it holds a core as a model's host thread does),
``len(pairs) / pairs_per_second`` seconds per call over the distinct pairs the real engine would
score, and uniform probabilities: the scores are meaningless, the timing is the pipeline's. With
no workers a job takes the statements' time plus the NLI's; with the workers running ahead it
takes about the larger of the two (``speedup``: over the same job without workers).
"""

import datetime
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd
import torch

from capqa.common.constants import RULES
from capqa.common.paths import REPO_ROOT
from capqa.dev.measure import cpu_model, machine_description
from capqa.jobs.scoring import score_table
from capqa.metric.scorer import CAPScorer
from capqa.records.identity import NLIIdentity
from capqa.records.job import JobSettings
from capqa.statements.check import statements_issues
from capqa.statements.generator import StatementGenerator
from capqa.statements.rules import rule_statements
from capqa.statements.rules.queries import clear_parses

ANSWERS = JobSettings("question", "gold", "answer")
# Where ``benchmarks/bench_rules.py --pipeline --write`` saves its figures (docs/scale.md's cost table reads them).
PIPELINE_FIGURES = REPO_ROOT / "docs" / "pipeline_figures.json"


class StandInNLI:
    """An NLI stage of fixed throughput: a busy loop per call, uniform probabilities."""

    def __init__(self, pairs_per_second: float) -> None:
        self.pairs_per_second = pairs_per_second
        self.identity = NLIIdentity(f"stand-in-{pairs_per_second:g}-pairs-per-second", "none", "float32", "none", 512,
                                    False, "none")
        self.busy_seconds = 0.0

    def __repr__(self) -> str:
        return f"StandInNLI({self.pairs_per_second:g} pairs/s)"

    def predict(self, premises: Sequence[str], hypotheses: Sequence[str], check_input: bool = True) -> np.ndarray:
        seconds = len(set(zip(premises, hypotheses))) / self.pairs_per_second
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            pass
        self.busy_seconds += seconds
        return np.full((len(premises), 3), 1 / 3)


def job_pairs(table: pd.DataFrame, settings: JobSettings = ANSWERS) -> List[Tuple[str, str]]:
    """The distinct (question, text) pairs a job on ``table`` makes statements of: its golds and answers."""
    questions = table[settings.question_column]
    return sorted(set(zip(questions, table[settings.gold_column])) | set(zip(questions, table[settings.answer_column])))


def statement_seconds(pairs: Sequence[Tuple[str, str]]) -> Dict[str, float]:
    """CPU seconds of what ``score`` does for each of ``pairs`` in one process, parses dropped
    first (cold): the rule statement, then its ``statement_issues`` check."""
    questions, answers = [question for question, _ in pairs], [answer for _, answer in pairs]
    clear_parses()
    started = time.process_time()
    statements = rule_statements(questions, answers)
    made = time.process_time()
    statements_issues(questions, answers, statements)
    return {"pairs": len(pairs), "statements": made - started, "issues": time.process_time() - made}


def pipeline_seconds(table: pd.DataFrame, workers: int, pairs_per_second: float, chunk_size: int) -> Dict[str, float]:
    """Wall seconds of scoring ``table`` into a fresh file with ``workers`` statement workers and
    the stand-in NLI stage (the parses dropped first), and the stand-in's own busy seconds."""
    clear_parses()
    nli = StandInNLI(pairs_per_second)
    statements = StatementGenerator(RULES, settings={"statement_workers": workers})
    scorer = CAPScorer(nli, statements)
    if workers:  # the workers' start (a process and a parser each) is paid once per job, not per row
        statements.make(["Who wrote Hamlet?"], ["Shakespeare"])
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        score_table(table, scorer, Path(folder) / "scored.csv", ANSWERS, chunk_size=chunk_size,
                    description=f"{workers} workers")
        seconds = time.perf_counter() - started
    statements.close()
    return {"seconds": seconds, "nli_seconds": nli.busy_seconds}


def measure_pipeline(table: pd.DataFrame, workers: Sequence[int], pairs_per_second: float,
                     chunk_size: int = 500) -> Dict[str, Any]:
    """The job's rows per second for each number of ``workers`` (0 first, the baseline) against a
    stand-in NLI stage of ``pairs_per_second``, beside the statements alone (one process, CPU
    time). A JSON-able record."""
    counts = sorted(set(workers) | {0})
    alone = statement_seconds(job_pairs(table))
    runs: List[Dict[str, float]] = []
    for count in counts:
        run = pipeline_seconds(table, count, pairs_per_second, chunk_size)
        runs.append({"workers": count, "seconds": run["seconds"], "rows_per_second": len(table) / run["seconds"],
                     "nli_seconds": run["nli_seconds"], "speedup": runs[0]["seconds"] / run["seconds"] if runs else 1.0})
    return {"measured": datetime.date.today().isoformat(),
            "machine": {**machine_description(torch.device("cpu")), "cpu": cpu_model()}, "rows": len(table),
            "chunk_size": chunk_size, "nli_pairs_per_second": pairs_per_second,
            "statements_alone": {**alone, "pairs_per_cpu_second": alone["pairs"] / alone["statements"],
                                 "checked_pairs_per_cpu_second":
                                     alone["pairs"] / (alone["statements"] + alone["issues"])},
            "runs": runs, "load_average": list(os.getloadavg())}
