"""False positives of ``compare`` on a clustered null: two systems that are equally good, scored on
questions with several answers each.

Each simulated data set has ``--questions`` questions with ``--answers`` answers each. A question
has a difficulty shared by its answers and, for each system, an effect shared by that system's
answers to it (the systems do better on some questions than on others, but neither is better on
average); every answer adds its own noise; CAP-like scores are clipped to [0, 1]. Under this null
a test at level 0.05 should reject about 5 % of the time. The benchmark runs ``compare_systems``
on every data set twice: as ``compare`` did before clustering was the default (rows resampled
and swapped independently, now ``cluster=None`` / ``--no-cluster``) and with its default now
(repeated questions detected, whole questions resampled and swapped). It prints both rejection
rates with their binomial standard errors, and how often the 95 % CI of the difference holds 0.

    .venv/bin/python benchmarks/bench_compare_null.py [--datasets 1000] [--questions 200] [--answers 5] [--write]

``--write`` saves the figures to docs/compare_null_figures.json, from which docs/scale.md's
sentence is generated (``capqa.doctools.scale_example.compare_null_line``).
"""

import argparse
import datetime
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from capqa.compare.significance import DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES
from capqa.compare.systems import DETECT_CLUSTERS, ScoredSystem, compare_systems

LEVEL = 0.05
HASHCODE = "bench-compare-null"
FIGURES = Path(__file__).resolve().parents[1] / "docs" / "compare_null_figures.json"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=int, default=1000, help="simulated data sets")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--answers", type=int, default=5, help="answers per question")
    parser.add_argument("--question-effect", type=float, default=0.10,
                        help="s.d. of each system's effect per question (shared by its answers)")
    parser.add_argument("--noise", type=float, default=0.10, help="s.d. of each answer's own noise")
    parser.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES)
    parser.add_argument("--permutations", type=int, default=DEFAULT_PERMUTATIONS)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--write", action="store_true", help=f"save the figures to {FIGURES}")
    return parser.parse_args()


def null_systems(rng: np.random.Generator, args: argparse.Namespace) -> list:
    """Two systems, equally good in expectation, on the same clustered examples."""
    questions = np.repeat(np.arange(args.questions), args.answers)
    difficulty = rng.uniform(0.2, 0.8, args.questions)[questions]
    tables = []
    for _ in range(2):
        effect = rng.normal(0.0, args.question_effect, args.questions)[questions]
        cap = np.clip(difficulty + effect + rng.normal(0.0, args.noise, len(questions)), 0.0, 1.0)
        tables.append(pd.DataFrame({"question": [f"q{q}" for q in questions], "gold_answer": "gold", "cap": cap}))
    return [ScoredSystem(name, table, HASHCODE) for name, table in zip(("A", "B"), tables)]


def main() -> None:
    args = parse_args()
    rng = np.random.default_rng(args.seed)
    ways = {"rows (before: no clustering)": None, "default (questions detected)": DETECT_CLUSTERS}
    rejected = {name: 0 for name in ways}
    covered = {name: 0 for name in ways}
    start = time.perf_counter()
    for dataset in range(args.datasets):
        systems = null_systems(rng, args)
        for name, cluster in ways.items():
            result = compare_systems(systems, cluster=cluster, n_resamples=args.resamples,
                                     n_permutations=args.permutations, seed=args.seed + dataset)
            pair = result.pair("A", "B")
            rejected[name] += pair.p_adjusted < LEVEL
            covered[name] += pair.difference.low <= 0.0 <= pair.difference.high
    elapsed = time.perf_counter() - start
    print(f"clustered null: {args.datasets} data sets of {args.questions} questions x {args.answers} answers "
          f"(question effect s.d. {args.question_effect}, answer noise s.d. {args.noise}); {args.resamples} "
          f"resamples, {args.permutations} trials each; {elapsed:.0f} s")
    figures = {}
    for name, key in zip(ways, ("rows", "clustered")):
        rate = rejected[name] / args.datasets
        error = math.sqrt(rate * (1 - rate) / args.datasets)
        figures[key] = {"false_positive_rate": rate, "standard_error": error,
                        "coverage": covered[name] / args.datasets}
        print(f"  {name:32s} false-positive rate at {LEVEL}: {rate:.3f} (± {error:.3f}); "
              f"95% CI holds 0 in {covered[name] / args.datasets:.3f} of the data sets")
    if args.write:
        record = {"measured": datetime.date.today().isoformat(), "level": LEVEL,
                  "command": " ".join(["python benchmarks/bench_compare_null.py", *sys.argv[1:]]),
                  "settings": {name: getattr(args, name) for name in ("datasets", "questions", "answers",
                                                                       "question_effect", "noise", "resamples",
                                                                       "permutations", "seed")},
                  **figures}
        FIGURES.write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote {FIGURES}")


if __name__ == "__main__":
    main()
