"""``python -m capqa build-datasets``: the CAP-Correctness and CAP-Statements Hub repos.

The command line of ``capqa.hub.datasets``: it writes the repos asked for and prints each one's
rows per split and label, and the rows that were dropped, summarised by reason.
"""

import argparse
import sys
from pathlib import Path
from typing import List

from capqa.cli import ArgumentParser, HelpFormatter
from capqa.common.files import check_outputs
from capqa.common.paths import DATA_DIR
from capqa.hub.allowlist import BUILD_RECORD
from capqa.hub.datasets import (CARDS_ROOT, CORRECTNESS_NAME, DROPPED_ROWS_FILE, STATEMENTS_NAME, record_dropped,
                                write_correctness_repo, write_statements_repo)

# The samples of the upstream CSVs this repository carries (data/README.md): --samples builds them.
SAMPLES = {"correctness": DATA_DIR / "cap_correctness_sample.csv", "splits": DATA_DIR / "cap_correctness_splits.csv",
           "statements": DATA_DIR / "cap_statements_sample.csv"}
SAMPLE_NAMES = ", ".join(path.name for path in SAMPLES.values())


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="python -m capqa build-datasets",
        description="Validate the upstream CSVs and write the CAP-Correctness and CAP-Statements "
                    "Hub repos (card + one Parquet file per split) under --out.",
        formatter_class=HelpFormatter)
    parser.add_argument("--correctness", type=Path, help="upstream CAP-Correctness CSV "
                        "(row ids: its row_id column, else the 0-based row position)")
    parser.add_argument("--splits", type=Path, help="the paper's split file (row_id, split, dataset, label)")
    parser.add_argument("--statements", type=Path, help="upstream CAP-Statements CSV")
    parser.add_argument("--out", type=Path, required=True, help="folder to write the repos into")
    parser.add_argument("--cards", type=Path, default=CARDS_ROOT, help="folder of the card templates")
    parser.add_argument("--overwrite", action="store_true", help="replace an earlier build in --out")
    parser.add_argument("--samples", action="store_true",
                        help=f"build from the samples in data/ instead ({SAMPLE_NAMES}): a trial of the build, "
                             "not the published repos")
    return parser


def _check_outputs(args: argparse.Namespace) -> None:
    """No file the build writes may be one of its inputs (a card template, an upstream CSV)."""
    given = ((CORRECTNESS_NAME, args.correctness), (STATEMENTS_NAME, args.statements))
    repos = [name for name, source in given if source is not None]
    outputs = {f"--out/{repo}/{name}": args.out / repo / name for repo in repos for name in ("README.md", BUILD_RECORD)}
    if args.correctness is not None:
        outputs[f"--out/{DROPPED_ROWS_FILE}"] = args.out / DROPPED_ROWS_FILE
    inputs = {"--correctness": args.correctness, "--splits": args.splits, "--statements": args.statements,
              **{f"the {repo} card template": args.cards / repo / "README.md" for repo in repos}}
    check_outputs(outputs, inputs)


def main(argv: List[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.samples:
        if any(getattr(args, name) is not None for name in SAMPLES):
            parser.error("--samples builds from data/: give it without --correctness, --splits or --statements")
        if not all(path.is_file() for path in SAMPLES.values()):
            parser.error(f"the samples ({SAMPLE_NAMES}) come with a checkout of the repository, in its data/ "
                         "folder; this installation has none")
        for name, path in SAMPLES.items():
            setattr(args, name, path)
        print(f"building from the samples in {DATA_DIR} (a trial: the published repos need the upstream CSVs)")
    if (args.correctness is None) != (args.splits is None):
        parser.error("--correctness and --splits go together")
    if args.correctness is None and args.statements is None:
        parser.error("give --correctness and --splits, --statements, or all three (the upstream CSVs); "
                     f"to try the build on the samples in data/ ({SAMPLE_NAMES}), give --samples")
    _check_outputs(args)
    try:
        if args.correctness is not None:
            built = write_correctness_repo(args.correctness, args.splits, args.out, args.cards, args.overwrite)
            print(built.summary)
            print(record_dropped(built.dropped, args.out))
        if args.statements is not None:
            print(write_statements_repo(args.statements, args.out, args.cards, args.overwrite).summary)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0
