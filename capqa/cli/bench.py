"""``python -m capqa bench``: the NLI engine against a straightforward scorer, side by side.

The command line of ``capqa.dev.bench``: it runs the benchmark, prints its report and writes the
figures (JSON) and the chart (PNG) where asked.
"""

import argparse
import json
from typing import List, Optional

import torch

from capqa.cli import ArgumentParser, HelpFormatter
from capqa.common.files import check_outputs, write_atomically
from capqa.common.validation import check_positive_int
from capqa.dev.bench import SAMPLE_CSV, benchmark, format_report, plot


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa bench", description=__doc__.split("\n\n")[0],
                                     formatter_class=HelpFormatter)
    parser.add_argument("--size", choices=("tiny", "small", "large"), default="small",
                        help="model config; 'large' = cross-encoder/nli-deberta-v3-large's shape")
    parser.add_argument("--rows", type=int, default=None, help="use this many sample rows (default: all 1,375)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per scorer; the median counts")
    parser.add_argument("--batch-size", type=int, default=32, help="pairs per NLI batch")
    parser.add_argument("--max-tokens", type=int, default=None, help="also time the engine under this token budget")
    parser.add_argument("--quantize", action="store_true", help="also time the engine with CPU dynamic int8")
    parser.add_argument("--bf16", action="store_true", help="also time the engine with precision='bfloat16'")
    parser.add_argument("--ablation", action="store_true",
                        help="also time the reference with de-duplication only and the engine with "
                             "transformers' own attention (what each step adds)")
    parser.add_argument("--threads", type=int, default=None, help="torch.set_num_threads (default: torch's)")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N or mps")
    parser.add_argument("--models-dir", default=None, help="where the random models are saved (reused)")
    parser.add_argument("--no-statements", action="store_true", help="skip statement-generation throughput")
    parser.add_argument("--data", default=str(SAMPLE_CSV), help="CSV of (question, gold, answer) rows to time")
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    parser.add_argument("--plot", default=None, help="write a bar chart (PNG) of pairs per second")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    check_outputs({"--json": args.json, "--plot": args.plot}, {"--data": args.data})
    if args.threads is not None:
        torch.set_num_threads(check_positive_int(args.threads, "--threads"))
    result = benchmark(size=args.size, rows=args.rows, runs=check_positive_int(args.runs, "--runs"),
                       batch_size=args.batch_size, max_tokens=args.max_tokens, quantize=args.quantize, bf16=args.bf16,
                       device=args.device, models_dir=args.models_dir, statements=not args.no_statements, ablation=args.ablation,
                       data=args.data)
    print(format_report(result))
    if args.json:
        write_atomically(args.json, json.dumps(result, indent=2))
    if args.plot:
        plot(result, args.plot)
    return 0
