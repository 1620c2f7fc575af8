"""``python -m capqa diagnose``: the paper's monotonicity diagnostic of metric scores in a file.

The command line of ``capqa.diagnose.report``: its arguments, its errors as usage errors, and
the line that says what was written.
"""

import argparse
import sys
from pathlib import Path
from typing import Callable, List, Optional

from capqa.cli import ArgumentParser, HelpFormatter, error_line
from capqa.diagnose import report

# Each resample keeps about 60 statistics per metric: a million take ~0.5 GB per metric, and past
# 100,000 the Monte-Carlo error of a 95% bound is far below the sampling error it measures. A
# larger count (10**12, say) would run for days while memory grows.
MAX_BOOTSTRAP = 1_000_000


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="python -m capqa diagnose",
        description="Does each metric's score respect the ordering of the correctness classes? "
                    "Pair counts, correlations, class pairs and paired bootstrap tests.",
        formatter_class=HelpFormatter)
    parser.add_argument("scores", type=Path, help="CSV (or .jsonl) file: one row per example")
    parser.add_argument("--label-column", default="label", help="column with the class names")
    parser.add_argument("--metrics", required=True,
                        help="comma-separated score columns, e.g. cap,bleu,rouge_l")
    parser.add_argument("--split-column", help="column that holds the split of each row")
    parser.add_argument("--split", help="keep only rows of this split (needs --split-column)")
    parser.add_argument("--reference", help="metric the others are compared to (default: the first)")
    parser.add_argument("--severity", help="JSON object {class: severity}, or a path to one "
                                           "(default: the paper's eight classes)")
    parser.add_argument("--bootstrap", type=int, default=10_000,
                        help=f"bootstrap resamples (0: no intervals or paired tests; at most {MAX_BOOTSTRAP:,})")
    parser.add_argument("--seed", type=int, default=42, help="bootstrap seed")
    parser.add_argument("--cluster", help="column of the cluster each row belongs to (e.g. the question): the "
                                          "bootstrap then resamples whole clusters, not rows")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--no-plots", action="store_true", help="write tables and summary only")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--verdict", help="add the binary report: policies (e.g. strict,lenient,graded) or a "
                                          "JSON {class: credit}; thresholds fitted on --fit-split")
    parser.add_argument("--fit-split", default="validation", help="split the --verdict thresholds are fitted on")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 0 <= args.bootstrap <= MAX_BOOTSTRAP:
        parser.error(f"--bootstrap must be from 0 to {MAX_BOOTSTRAP:,}, got {args.bootstrap:,}")
    try:
        report.run(args, _verdict_section(args))
    except (ValueError, TypeError, OSError) as error:
        parser.error(error_line(error))
    print(f"wrote {args.out / 'summary.md'} and the tables" + ("" if args.no_plots else " and plots"),
          file=sys.stderr)
    return 0


def _verdict_section(args: argparse.Namespace) -> Optional[Callable[[List[str]], str]]:
    """With ``--verdict``: the binary report, added to ``summary.md`` after the diagnostic (a bad
    policy is refused now, before the long diagnostic)."""
    if not args.verdict:
        return None
    # Deferred: scipy is heavy, imported on first use.
    from capqa.verdicts.benchmark import parse_policies, write_diagnose_report

    parse_policies(args.verdict)
    return lambda metrics: write_diagnose_report(args, metrics)
