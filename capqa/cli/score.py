"""``python -m capqa score``: CAP for every row of a CSV/JSONL file, resumable, on one or many processes.

The command line of ``capqa.score_file`` (which scores a table into a resumable CSV): it checks
every row before the first model call, scores on one process or on every rank of a distributed
launch, and prints the job's outcome on stderr.
"""

import argparse
import sys
import time
from pathlib import Path
from typing import List, Optional

import pandas as pd

from capqa.engine.devices import resolve_device
from capqa.jobs.fingerprint import JobSpec, option_settings
from capqa.jobs.output import ResumableCsv, read_manifest
from capqa.jobs.scoring import TableColumns, check_no_output_columns, output_header, score_into, split_golds
from capqa.metric_options import add_option_arguments, options_from_args
from capqa.score_file import job_settings
from capqa.tables import read_table, require_columns
from capqa.validation import check_positive_int, check_references, check_text_list
from capqa.verdicts.judge import resolve_verdict


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m capqa score", description=__doc__.splitlines()[0])
    parser.add_argument("input", type=Path, help="a .csv or .jsonl file")
    parser.add_argument("--out", type=Path, required=True, help="the scored CSV (appended to, resumable)")
    parser.add_argument("--question-column", default="question",
                        help="column of questions; '' when the texts already are statements")
    parser.add_argument("--gold-column", default="gold_answer")
    parser.add_argument("--answer-column", default="answer")
    parser.add_argument("--gold-separator", default=None,
                        help="split the gold cell on this string to give several gold answers")
    parser.add_argument("--chunk-size", type=int, default=1000)
    parser.add_argument("--no-escape-formulas", dest="escape_formulas", action="store_false",
                        help="write text cells starting with = + - @ tab CR as they are, without the leading ' "
                             "that keeps spreadsheets from running them (for machine consumers)")
    add_option_arguments(parser)  # --nli-model, --statement-model, --alpha, ...: one per metric option
    return parser


def _read_and_check(args: argparse.Namespace, columns: TableColumns) -> pd.DataFrame:
    """The input table, every row validated before the first model call: a bad row should not
    stop a job midway."""
    table = read_table(args.input)
    require_columns(table, [columns.question, columns.gold, columns.answer], f"`{args.input}`")
    for column in (columns.question, columns.answer):
        if column:
            check_text_list(list(table[column]), column)
    check_references(split_golds(table[columns.gold], columns.gold_separator), columns.gold)
    return table


def main(argv: Optional[List[str]] = None) -> int:
    from capqa.jobs.distributed import Ranks, rank_device, score_distributed

    args = build_parser().parse_args(argv)
    check_positive_int(args.chunk_size, "--chunk-size")
    columns = TableColumns(args.question_column or None, args.gold_column, args.answer_column, args.gold_separator)
    table = _read_and_check(args, columns)
    ranks = Ranks.from_environment()
    if ranks.distributed:
        args.device = rank_device(args.device, ranks)
    options = options_from_args(args)
    verdict = resolve_verdict(options.verdict, options.variant)
    check_no_output_columns(table.columns, options.variant, verdict)
    settings = {**option_settings(options, {"device_type": resolve_device(options.device).type}),
                **job_settings(columns, args.escape_formulas)}
    out_columns = output_header(table.columns, options.variant, verdict, args.escape_formulas)
    started = time.perf_counter()
    where = f"rank {ranks.rank} of {ranks.world_size}: " if ranks.distributed else ""
    try:
        if ranks.distributed:
            added = score_distributed(table, options.build_scorer, args.out, settings, out_columns, columns,
                                      args.chunk_size, args.escape_formulas, ranks)
        else:
            # The output is locked and checked before the models load: a wrong --out fails in seconds.
            with ResumableCsv.open(args.out, JobSpec.for_table(table, settings), out_columns) as output:
                added = (score_into(table, options.build_scorer(), output, columns, args.chunk_size,
                                    args.escape_formulas) if not output.complete else 0)
    except KeyboardInterrupt:
        # Committed chunks are safe and verified on resume: a traceback would only alarm.
        print(f"{where}interrupted: {_kept_rows(args.out, ranks.distributed)}; rerun the same command to resume",
              file=sys.stderr)
        return 130
    seconds = time.perf_counter() - started  # models loaded and rows scored (and merged), not imports
    print(f"{where}scored {added} new rows in {seconds:.1f} s; {args.out} has {len(table)} rows", file=sys.stderr)
    if options.verdict is not None and (not ranks.distributed or ranks.rank == 0):
        accuracy = pd.read_csv(args.out, usecols=["correct"])["correct"].astype(str).eq("True").mean()
        print(f"accuracy ({options.verdict}): {accuracy:.4f}", file=sys.stderr)
    return 0


def _kept_rows(out: Path, distributed: bool) -> str:
    """What an interrupted job keeps, in words."""
    if distributed:
        return f"each rank's committed rows are kept in {out}.parts/"
    manifest = read_manifest(out) if out.exists() else None
    rows = manifest["chunks"][-1]["rows"] if manifest else 0
    return f"rows 1-{rows} are kept in {out}" if rows else "no rows were committed yet"
