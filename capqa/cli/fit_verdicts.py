"""``python -m capqa fit-verdicts``: refit the verdict thresholds on your own labelled scores.

The command line of ``capqa.verdicts.thresholds``: it fits the thresholds on one split, writes
them as JSON and prints each policy's cuts.
"""

import argparse
import json
from pathlib import Path
from typing import List, Optional

from capqa.cli import ArgumentParser, HelpFormatter, error_line
from capqa.common.files import check_outputs, write_atomically
from capqa.plus.calibration import add_cap_plus
from capqa.plus.score_files import check_finite_columns, read_scores
from capqa.verdicts.thresholds import SHIPPED_SCORES, fit_thresholds, plateau_note


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa fit-verdicts",
                                     description="Refit the verdict thresholds on your own labelled scores.",
                                     formatter_class=HelpFormatter)
    parser.add_argument("--scores", type=Path, required=True,
                        help="CSV with a label column, a split column and score columns (cap, or the six "
                             "NLI probabilities pe_f..pc_r plus bleu and rouge_l for cap_plus)")
    parser.add_argument("--out", type=Path, required=True,
                        help="the JSON file to write (never inside the package unless you say so)")
    parser.add_argument("--split", default="validation",
                        help="the rows to fit on (default validation); '' for all rows")
    parser.add_argument("--split-column", default="split", help="column that holds each row's split")
    parser.add_argument("--label-column", default="label", help="column with the class names")
    parser.add_argument("--metrics", default=",".join(SHIPPED_SCORES),
                        help="comma-separated score columns (default cap,cap_plus)")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if not args.scores.is_file():
            raise ValueError(f"--scores file not found: {args.scores}")
        check_outputs({"--out": args.out}, {"--scores": args.scores})
        metrics = [name.strip() for name in args.metrics.split(",") if name.strip()]
        if not metrics:
            raise ValueError(f"--metrics names no score column, got {args.metrics!r}; e.g. --metrics cap,cap_plus")
        frame = read_scores(args.scores, metrics)
        fitted_rows = frame
        if args.split and args.split_column in frame.columns:
            fitted_rows = frame[frame[args.split_column] == args.split]
        # The thresholds are CAP's verdict's: its scores lie in [0, 1].
        check_finite_columns(fitted_rows, [metric for metric in metrics if metric in frame.columns], args.scores,
                             unit_interval=True)
        frame = add_cap_plus(frame.reset_index(drop=True))
        data = fit_thresholds(frame, args.split or None, args.split_column, args.label_column, metrics)
    except (ValueError, TypeError) as error:
        parser.error(error_line(error))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, json.dumps(data, indent=1) + "\n")
    for name, policy in data["policies"].items():
        cuts = ", ".join(f"{score} >= {cut['threshold']:.4f} (J {cut['youden_j']:.3f}{plateau_note(cut)})"
                         for score, cut in policy["thresholds"].items())
        print(f"{name}: {cuts}")
    print(f"wrote {args.out} ({data['fitted_on']['rows']} rows of split {args.split or 'all'})")
    return 0
