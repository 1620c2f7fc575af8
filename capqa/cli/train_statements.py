"""``python -m capqa train-statements``: fine-tune the statement model on CAP-Statements.

The command line of ``capqa.statements.training.train_statement_model``: its arguments, and the
line that says what was trained and where it was saved.
"""

import argparse
import sys
from pathlib import Path
from typing import Sequence

from capqa.cli import ArgumentParser, HelpFormatter
from capqa.common.constants import STATEMENT_BASE_MODEL, STATEMENT_BASE_REVISION, STATEMENT_TRAIN_MAX_LENGTH
from capqa.common.files import check_outputs
from capqa.statements.data import add_data_arguments, load_statement_rows, rows_from_arguments
from capqa.statements.training import (DEFAULT_BATCH_SIZE, DEFAULT_EPOCHS, DEFAULT_LEARNING_RATE, DEFAULT_SEED,
                                       LOSS_PLOT, TRAINING_SUMMARY, train_statement_model)


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa train-statements",
                                     description="Fine-tune the statement model on CAP-Statements.",
                                     formatter_class=HelpFormatter)
    parser.add_argument("--output-dir", type=Path, required=True, help="folder for the trained model")
    parser.add_argument("--base-model", default=STATEMENT_BASE_MODEL, help="Hub id or folder of a seq2seq model")
    parser.add_argument("--base-revision", default=STATEMENT_BASE_REVISION, help="commit of the base model")
    parser.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS, help="passes over the training split")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE, help="examples per optimiser step")
    parser.add_argument("--learning-rate", type=float, default=DEFAULT_LEARNING_RATE, help="the optimiser's step size")
    parser.add_argument("--max-length", type=int, default=STATEMENT_TRAIN_MAX_LENGTH, help="training length in tokens")
    parser.add_argument("--max-steps", type=int, default=None, help="stop after this many optimiser steps")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the shuffling and the initialisation")
    parser.add_argument("--device", default="auto", choices=("auto", "cpu"),
                        help="auto: a GPU if there is one (pick it with CUDA_VISIBLE_DEVICES); cpu")
    parser.add_argument("--save-steps", type=int, default=None, help="checkpoint every N steps (default: each epoch)")
    parser.add_argument("--resume", action="store_true", help="continue from the newest checkpoint in --output-dir")
    parser.add_argument("--eval-csv", type=Path, default=None, help="CSV of rows to evaluate the loss on while training")
    add_data_arguments(parser, "train")
    return parser


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    check_outputs({f"--output-dir/{name}": args.output_dir / name for name in (TRAINING_SUMMARY, LOSS_PLOT)},
                  {"--csv": args.csv_path, "--eval-csv": args.eval_csv})
    rows = rows_from_arguments(parser, args)
    try:
        eval_rows = load_statement_rows(args.eval_csv) if args.eval_csv else None
        summary = train_statement_model(rows, args.output_dir, args.base_model, args.base_revision, args.epochs,
                                        args.batch_size, args.learning_rate, args.max_length, args.seed,
                                        args.max_steps, args.device, eval_rows=eval_rows,
                                        save_steps=args.save_steps, resume=args.resume)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"trained {summary['steps']} steps on {summary['rows']} rows: loss {summary['loss_before']:.4f} -> "
          f"{summary['loss_after']:.4f}; model saved to {args.output_dir} (see {TRAINING_SUMMARY}, {LOSS_PLOT})")
    return 0
