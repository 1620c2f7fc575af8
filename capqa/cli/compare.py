"""``python -m capqa compare A.csv B.csv [C.csv ...]``: systems side by side, with CIs and paired significance.

The command line of ``capqa.compare.systems`` (the figures) and
``capqa.compare.report`` (the tables and the plot). Inputs are files that ``score``
wrote, or unscored files with the same columns: those are scored first by ``score`` itself, with
the metric options and column flags given here (into ``--scored-dir``, resumable).
"""

import argparse
import contextlib
import sys
from pathlib import Path
from typing import List, Optional, Tuple

import pandas as pd

from capqa.cli import EXIT_INTERRUPTED, ArgumentParser, HelpFormatter
from capqa.common.files import check_outputs, same_file, save_figure
from capqa.common.tables import read_table
from capqa.common.validation import check_positive_int, check_seed
from capqa.compare.report import FORMATS, forest_plot, format_comparison
from capqa.compare.significance import DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES, DEFAULT_SEED
from capqa.compare.summary import read_summary
from capqa.compare.systems import DETECT_CLUSTERS, HOLM_FAMILIES, Alignment, ScoredSystem, compare_systems

EPILOG = ("Unscored inputs are scored first exactly as `python -m capqa score` scores them: its column flags "
          "(--question-column, --gold-column, --answer-column, --gold-separator, --chunk-size) and metric options "
          "(--nli-model, --statement-model, --variant, --verdict, ...; see `python -m capqa score --help`) are "
          "accepted here. --question-column and --gold-column also say how rows are matched without --id-column.")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa compare", description=__doc__.splitlines()[0],
                                     epilog=EPILOG, formatter_class=HelpFormatter)
    parser.add_argument("inputs", type=Path, nargs="+", help="two or more .csv/.jsonl files, one per system")
    parser.add_argument("--names", nargs="+", default=None, help="the systems' names (default: the file names)")
    parser.add_argument("--id-column", default=None, help="match rows by this column (default: question + gold)")
    parser.add_argument("--by", action="append", default=[], metavar="COLUMN",
                        help="also break mean CAP down by this column (repeatable)")
    clustering = parser.add_mutually_exclusive_group()
    clustering.add_argument("--cluster", default=DETECT_CLUSTERS, metavar="COLUMN",
                            help="resample and permute the rows of each value of COLUMN together (default: the "
                                 "question column, when some question has several rows)")
    clustering.add_argument("--no-cluster", dest="cluster", action="store_const", const=None,
                            help="resample and permute rows independently, even when questions repeat")
    parser.add_argument("--holm-family", choices=tuple(HOLM_FAMILIES), default="metric",
                        help="the p-values Holm adjusts together: the pairs of each metric (metric), or every "
                             "pair of every metric (all)")
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


_NO_OUT = "OUT"  # what stands for score's --out while compare parses score's options


def _score_arguments(rest: List[str], compare_flags: List[str]) -> argparse.Namespace:
    """``score``'s column flags and metric options among the arguments compare does not know."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.cli.score import build_parser as score_parser

    parser = score_parser()
    parser.prog = "python -m capqa compare"
    parser.outer_flags = compare_flags  # a misspelt flag may be one of compare's own
    parsed = parser.parse_args(["INPUT", "--out", _NO_OUT, *rest])
    if str(parsed.out) != _NO_OUT:  # score would write there, and compare would look for NAME.cap.csv
        raise ValueError("--out is an option of `score`, not of `compare`: compare scores each unscored input "
                         "into --scored-dir (default: beside it) as NAME.cap.csv; give --scored-dir instead")
    return parsed


def scored_path(path: Path, scored_dir: Optional[Path]) -> Path:
    """Where an unscored input is scored to: ``NAME.cap.csv`` in ``scored_dir`` (default: beside it)."""
    return (scored_dir or path.parent) / f"{path.stem}.cap.csv"


def _plan(inputs: List[Path], scored_dir: Optional[Path], plot: Optional[Path]) -> Tuple[List[pd.DataFrame], dict]:
    """(every input's table, {unscored input: the file it is scored to}); refuses, before any
    scoring, two inputs that would be scored to one file and an output that is an input."""
    tables = [read_table(path, numbers=True) for path in inputs]  # a scored JSONL file may hold numbers
    unscored = {path: scored_path(path, scored_dir) for path, table in zip(inputs, tables)
                if "cap" not in table.columns}
    writers: dict = {}
    for path, out in unscored.items():
        earlier = next((other for other, written in writers.items() if same_file(written, out)), None)
        if earlier is not None:
            raise ValueError(f"two inputs would be scored into the same file {out}: {earlier} and {path} (the same "
                             "name); rename one, or score them apart and compare the scored files")
        writers[path] = out
    named_inputs = {f"input {number}": path for number, path in enumerate(inputs, start=1)}
    outputs = {f"the scored file of {path}": out for path, out in unscored.items()}
    check_outputs({**outputs, "--plot": plot}, named_inputs)
    return tables, unscored


def _scored_system(path: Path, table: pd.DataFrame, name: str, rest: List[str],
                   out: Optional[Path]) -> Tuple[Optional[ScoredSystem], bool]:
    """(the system of ``path``, whether it was scored now): the file itself when it is scored
    (``out`` None), else the file ``out`` that ``score`` writes for it; None when that scoring
    was interrupted."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.cli.score import main as score

    if out is None:
        return system_of(path, table, name), False
    print(f"{path} is not scored yet: scoring it into {out}", file=sys.stderr)
    with contextlib.redirect_stdout(sys.stderr):  # stdout is for the comparison alone
        status = score([str(path), "--out", str(out), *rest])
    return (system_of(out, read_table(out, numbers=True), name) if status == 0 else None), True


def _names(paths: List[Path], names: Optional[List[str]]) -> List[str]:
    if names is None:
        stems = [path.stem for path in paths]
        return stems if len(set(stems)) == len(stems) else [str(path) for path in paths]
    if len(names) != len(paths):
        raise ValueError(f"--names gives {len(names)} names for {len(paths)} inputs: give one per input")
    return names


def system_of(path: Path, table: pd.DataFrame, name: str) -> ScoredSystem:
    """A scored file's table with the identity record of its summary (OUT.summary.json); refuses a
    stale summary."""
    summary = read_summary(path)
    if summary is not None and summary.rows != len(table):
        raise ValueError(f"`{path}` has {len(table):,} rows but its summary says {summary.rows:,}: the file changed "
                         f"after scoring; score it again")
    if summary is None:
        return ScoredSystem(name, table)
    return ScoredSystem(name, table, summary.identity, tuple(summary.metrics))


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    score_args = _score_arguments(rest, parser.flags())
    if len(args.inputs) < 2:
        raise ValueError(f"compare needs at least two input files, got {len(args.inputs)}")
    check_positive_int(args.resamples, "--resamples")
    check_positive_int(args.permutations, "--permutations")
    check_seed(args.seed, "--seed")
    names = _names(args.inputs, args.names)
    tables, unscored = _plan(args.inputs, args.scored_dir, args.plot)
    systems, scored_now = [], False
    for path, table, name in zip(args.inputs, tables, names):
        system, scored = _scored_system(path, table, name, rest, unscored.get(path))
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
                             allow_mixed_settings=args.allow_mixed_settings, holm_family=args.holm_family)
    print(format_comparison(result, args.format))
    if args.plot:
        save_figure(forest_plot(result), args.plot, dpi=150)
        print(f"forest plot written to {args.plot}", file=sys.stderr)
    return 0
