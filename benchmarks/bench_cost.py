"""Answers per hour of the whole metric (rule statements + both NLI directions) with
cross-encoder/nli-deberta-v3-large's architecture: measured on this CPU in float32 and int8,
projected from FLOPs for GPUs (``capqa.doctools.cost``). Prints the cost table of docs/scale.md;
``--write`` saves the figures to docs/cost_figures.json, which the table is generated from
(generated name ``cost-table``).

    .venv/bin/python benchmarks/bench_cost.py --rows 120 --runs 3 --write     # ~15 min on 2 cores
    .venv/bin/python benchmarks/bench_cost.py --size small --rows 40 --runs 1  # a quick check
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from capqa.doctools.cost import COST_FIGURES  # noqa: E402
from capqa.doctools.cost import cost_table_markdown, measure_cost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=120, help="sample rows, evenly spread over the file")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per precision; the median counts")
    parser.add_argument("--size", choices=("tiny", "small", "large"), default="large")
    parser.add_argument("--models-dir", default=None, help="where the random model is saved (reused)")
    parser.add_argument("--write", action="store_true", help=f"save the figures to {COST_FIGURES}")
    args = parser.parse_args()
    record = measure_cost(rows=args.rows, runs=args.runs, size=args.size, models_dir=args.models_dir)
    path = COST_FIGURES if args.write else Path(tempfile.mkdtemp()) / "cost_figures.json"
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(record, indent=2))
    print(cost_table_markdown(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
