"""``python -m capqa score``: CAP for every row of a CSV/JSONL file, resumable, on one or many processes.

The command line of ``capqa.jobs.scoring`` (which scores a table into a resumable CSV): it checks
every row before the first model call, scores on one process or on every rank of a distributed
launch, and prints the job's outcome on stderr.
"""

import argparse
import sys
import time
from pathlib import Path
from typing import List, Optional

import pandas as pd

from capqa.cli import ArgumentParser, HelpFormatter
from capqa.common.tables import read_table_lines
from capqa.common.validation import check_positive_int
from capqa.jobs.distributed import Ranks, process_group_backend, rank_device
from capqa.jobs.output import check_out_path, read_manifest
from capqa.jobs.scoring import check_no_output_columns, check_rows, output_header, score_table
from capqa.metric.options import add_option_arguments, options_from_args
from capqa.records.job import JobSettings
from capqa.verdicts.judge import resolve_verdict


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa score", description=__doc__.splitlines()[0],
                                     formatter_class=HelpFormatter)
    parser.add_argument("input", type=Path, help="a .csv or .jsonl file")
    parser.add_argument("--out", type=Path, required=True, help="the scored CSV (appended to, resumable)")
    parser.add_argument("--question-column", default="question",
                        help="column of questions; '' when the texts already are statements")
    parser.add_argument("--gold-column", default="gold_answer", help="column of gold answers")
    parser.add_argument("--answer-column", default="answer", help="column of the predicted answers to score")
    parser.add_argument("--gold-separator", default=None,
                        help="split the gold cell on this string to give several gold answers")
    parser.add_argument("--chunk-size", type=int, default=1000,
                        help="rows scored and committed to --out at a time: what an interrupted job keeps")
    parser.add_argument("--no-escape-formulas", dest="escape_formulas", action="store_false",
                        help="write text cells starting with = + - @ tab CR as they are, without the leading ' "
                             "that keeps spreadsheets from running them (for machine consumers)")
    add_option_arguments(parser)  # --nli-model, --statement-model, --alpha, ...: one per metric option
    return parser


def _read_and_check(args: argparse.Namespace, settings: JobSettings) -> pd.DataFrame:
    """The input table, every row validated before the models load (``check_rows``: a bad row
    should not stop a job midway, nor wait for a model to load before it is refused)."""
    table, lines = read_table_lines(args.input)
    if table.empty:
        raise ValueError(f"`{args.input}` has no rows to score: it holds only its header line")
    check_rows(table, settings, f"`{args.input}`", lines)
    return table


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    check_positive_int(args.chunk_size, "--chunk-size")
    settings = JobSettings(args.question_column or None, args.gold_column, args.answer_column, args.gold_separator,
                           args.escape_formulas)
    table = _read_and_check(args, settings)
    ranks = Ranks.from_environment()
    if ranks.distributed:
        args.device = rank_device(args.device, ranks)
    options = options_from_args(args)
    verdict = resolve_verdict(options.verdict, options.variant)
    check_no_output_columns(table.columns, options.variant, verdict)
    output_header(table.columns, options.variant, verdict, args.escape_formulas)  # clashing names fail now
    check_out_path(args.out, {"input": args.input})  # a wrong --out fails in seconds, before the models load
    started = time.perf_counter()
    where = f"rank {ranks.rank} of {ranks.world_size}: " if ranks.distributed else ""
    try:
        # The job is what the loaded scorer is (capqa.records.identity), not what the options asked for.
        scored = score_table(table, options.build_scorer(), args.out, settings, args.chunk_size, ranks,
                             process_group_backend(args.device, ranks), source=f"`{args.input}`")
    except KeyboardInterrupt:
        # Committed chunks are safe and verified on resume: a traceback would only alarm.
        print(f"{where}interrupted: {_kept_rows(args.out, ranks.distributed)}; rerun the same command to resume",
              file=sys.stderr)
        return 130
    seconds = time.perf_counter() - started  # models loaded and rows scored (and merged), not imports
    print(f"{where}scored {scored.added} new rows in {seconds:.1f} s; {args.out} has {len(table)} rows",
          file=sys.stderr)
    if scored.summary is not None:  # the process that holds the output
        print(f"summary written to {scored.summary_file}", file=sys.stderr)
        print(scored.summary.to_text())
        if verdict is not None:
            print(f"correct ({options.verdict}): {verdict.describe()['meaning']}", file=sys.stderr)
    return 0


def _kept_rows(out: Path, distributed: bool) -> str:
    """What an interrupted job keeps, in words."""
    if distributed:
        return f"each rank's committed rows are kept in {out}.parts/"
    manifest = read_manifest(out) if out.exists() else None
    rows = manifest["chunks"][-1]["rows"] if manifest else 0
    return f"rows 1-{rows} are kept in {out}" if rows else "no rows were committed yet"
