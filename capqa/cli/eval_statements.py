"""``python -m capqa eval-statements``: generated statements scored against gold statements.

The command line of ``capqa.statements.evaluation.evaluate_statements``: it prints the scores'
table and writes them (and the generated statements) where asked.
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

import pandas as pd

from capqa.cli import ArgumentParser, HelpFormatter
from capqa.common.constants import STATEMENT_NUM_BEAMS, statements_dataset_id
from capqa.common.escaping import to_safe_csv
from capqa.common.files import check_outputs, write_atomically
from capqa.statements.data import add_data_arguments, rows_from_arguments
from capqa.statements.evaluation import evaluate_statements, format_scores


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa eval-statements",
                                     description="Generate statements and score them against gold statements.",
                                     formatter_class=HelpFormatter)
    parser.add_argument("--model", default=None, help='"rules", a Hub id or a model folder '
                                                      "(default: the published statement model)")
    parser.add_argument("--revision", default=None, help="model commit, tag or branch")
    parser.add_argument("--batch-size", type=int, default=32, help="examples per generation batch")
    parser.add_argument("--num-beams", type=int, default=STATEMENT_NUM_BEAMS, help="beam search width of the model")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N or mps")
    parser.add_argument("--output-json", type=Path, default=None,
                        help="write the scores here (MODEL/eval_statements.json: the figures of its card "
                             "for `publish model`)")
    parser.add_argument("--predictions-csv", type=Path, default=None, help="write rows with generated statements")
    add_data_arguments(parser, "test")
    return parser


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    check_outputs({"--output-json": args.output_json, "--predictions-csv": args.predictions_csv},
                  {"--csv": args.csv_path})
    rows = rows_from_arguments(parser, args)
    try:
        scores, predictions = evaluate_statements(args.model, rows, args.revision, args.batch_size,
                                                  args.num_beams, device=args.device, show_progress=True)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(format_scores(scores))
    if args.output_json:
        # What was measured, for a card made from these figures (capqa.hub.model_card); names, not paths.
        data = (f"`{args.csv_path.name}`" if args.csv_path else
                f"the `{args.split}` split of {args.dataset or statements_dataset_id()}")
        write_atomically(args.output_json, json.dumps({**scores, "evaluated_on": f"{data} ({scores['rows']:,} rows, "
                                                      f"{args.num_beams} beams)"}, indent=2) + "\n")
    if args.predictions_csv:
        to_safe_csv(pd.DataFrame(rows).assign(generated=predictions), args.predictions_csv)
    return 0
