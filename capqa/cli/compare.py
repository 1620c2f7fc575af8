"""``python -m capqa compare A.csv B.csv [C.csv ...]``: systems side by side, with CIs and paired significance.

The command line of ``capqa.diagnostics.compare`` (the figures) and
``capqa.diagnostics.compare_report`` (the tables and the plot). Inputs are files that ``score``
wrote, or unscored files with the same columns: those are scored first by ``score`` itself, with
the metric options and column flags given here (into ``--scored-dir``, resumable).
"""

import argparse
import contextlib
import sys
from pathlib import Path
from typing import List, Optional, Tuple

import pandas as pd

from capqa.cli import EXIT_INTERRUPTED, HelpFormatter
from capqa.diagnostics.compare import Alignment, ScoredSystem, compare_systems
from capqa.diagnostics.compare_report import FORMATS, format_comparison, forest_plot
from capqa.diagnostics.significance import DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES, DEFAULT_SEED
from capqa.diagnostics.summary import read_summary
from capqa.tables import read_table

EPILOG = ("Unscored inputs are scored first exactly as `python -m capqa score` scores them: its column flags "
          "(--question-column, --gold-column, --answer-column, --gold-separator, --chunk-size) and metric options "
          "(--nli-model, --statement-model, --variant, --verdict, ...; see `python -m capqa score --help`) are "
          "accepted here. --question-column and --gold-column also say how rows are matched without --id-column.")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m capqa compare", description=__doc__.splitlines()[0],
                                     epilog=EPILOG, formatter_class=HelpFormatter)
    parser.add_argument("inputs", type=Path, nargs="+", help="two or more .csv/.jsonl files, one per system")
    parser.add_argument("--names", nargs="+", default=None, help="the systems' names (default: the file names)")
    parser.add_argument("--id-column", default=None, help="match rows by this column (default: question + gold)")
    parser.add_argument("--by", action="append", default=[], metavar="COLUMN",
                        help="also break mean CAP down by this column (repeatable)")
    parser.add_argument("--cluster", default=None, metavar="COLUMN",
                        help="resample and permute the rows of each value of COLUMN together (e.g. question)")
    parser.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, help="bootstrap resamples")
    parser.add_argument("--permutations", type=int, default=DEFAULT_PERMUTATIONS,
                        help="approximate-randomisation trials")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help="seed of the resamples and of the random swaps (the same seed, the same table)")
    parser.add_argument("--allow-mixed-settings", action="store_true",
                        help="compare files scored under different or unknown hashcodes (the table says so)")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="the tables as text, Markdown, LaTeX or JSON (the hashcode in the note)")
    parser.add_argument("--plot", type=Path, default=None, help="write a forest plot of the differences (.png, .pdf)")
    parser.add_argument("--scored-dir", type=Path, default=None,
                        help="where unscored inputs are scored to, as NAME.cap.csv (default: beside each input)")
    return parser


def _score_arguments(rest: List[str]) -> argparse.Namespace:
    """``score``'s column flags and metric options among the arguments compare does not know."""
    from capqa.cli.score import build_parser as score_parser

    parser = score_parser()
    parser.prog = "python -m capqa compare"
    return parser.parse_args(["INPUT", "--out", "OUT", *rest])


def _scored_system(path: Path, name: str, rest: List[str],
                   scored_dir: Optional[Path]) -> Tuple[Optional[ScoredSystem], bool]:
    """(the system of ``path``, whether it was scored now): the file itself when it is scored,
    else the file ``score`` writes for it; None when that scoring was interrupted."""
    from capqa.cli.score import main as score

    table = read_table(path)
    if "cap" in table.columns:
        return system_of(path, table, name), False
    out = (scored_dir or path.parent) / f"{path.stem}.cap.csv"
    print(f"{path} is not scored yet: scoring it into {out}", file=sys.stderr)
    with contextlib.redirect_stdout(sys.stderr):  # stdout is for the comparison alone
        status = score([str(path), "--out", str(out), *rest])
    return (system_of(out, read_table(out), name) if status == 0 else None), True


def _names(paths: List[Path], names: Optional[List[str]]) -> List[str]:
    if names is None:
        stems = [path.stem for path in paths]
        return stems if len(set(stems)) == len(stems) else [str(path) for path in paths]
    if len(names) != len(paths):
        raise ValueError(f"--names gives {len(names)} names for {len(paths)} inputs: give one per input")
    return names


def system_of(path: Path, table: pd.DataFrame, name: str) -> ScoredSystem:
    """A scored file's table with the hashcode of its summary (OUT.summary.json); refuses a stale summary."""
    summary = read_summary(path)
    if summary is not None and summary.rows != len(table):
        raise ValueError(f"`{path}` has {len(table):,} rows but its summary says {summary.rows:,}: the file changed "
                         f"after scoring; score it again")
    if summary is None:
        return ScoredSystem(name, table)
    return ScoredSystem(name, table, summary.hashcode, tuple(summary.metrics))


def main(argv: Optional[List[str]] = None) -> int:
    args, rest = build_parser().parse_known_args(argv)
    score_args = _score_arguments(rest)
    if len(args.inputs) < 2:
        raise ValueError(f"compare needs at least two input files, got {len(args.inputs)}")
    names = _names(args.inputs, args.names)
    systems, scored_now = [], False
    for path, name in zip(args.inputs, names):
        system, scored = _scored_system(path, name, rest, args.scored_dir)
        if system is None:
            return EXIT_INTERRUPTED
        systems.append(system)
        scored_now = scored_now or scored
    if rest and not scored_now:
        print("note: every input was scored already; the metric options given are used only to score unscored "
              "inputs, so they changed nothing here (each file's hashcode says what scored it)", file=sys.stderr)
    alignment = Alignment(args.id_column, score_args.question_column or None, score_args.gold_column)
    result = compare_systems(systems, alignment, by=args.by, cluster=args.cluster, n_resamples=args.resamples,
                             n_permutations=args.permutations, seed=args.seed,
                             allow_mixed_settings=args.allow_mixed_settings)
    print(format_comparison(result, args.format))
    if args.plot:
        forest_plot(result).savefig(args.plot, dpi=150)
        print(f"forest plot written to {args.plot}", file=sys.stderr)
    return 0
