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

from capqa.cli import HelpFormatter
from capqa.engine.devices import resolve_device
from capqa.jobs.fingerprint import scoring_job
from capqa.jobs.output import ResumableCsv, check_out_path, read_manifest
from capqa.jobs.scoring import (TableColumns, check_no_output_columns, output_columns, output_header, score_into,
                                split_golds)
from capqa.metric_options import add_option_arguments, options_from_args
from capqa.score_file import job_settings
from capqa.tables import read_table, require_columns
from capqa.validation import check_positive_int, check_references, check_text_list
from capqa.verdicts.judge import resolve_verdict


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m capqa score", description=__doc__.splitlines()[0],
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


def _read_and_check(args: argparse.Namespace, columns: TableColumns) -> pd.DataFrame:
    """The input table, every row validated before the first model call: a bad row should not
    stop a job midway."""
    table = read_table(args.input)
    require_columns(table, [columns.question, columns.gold, columns.answer], f"`{args.input}`")
    for column in (columns.question, columns.answer):
        if column:
            # A blank answer is an answer that states nothing (it scores 0); a blank question is an error.
            check_text_list(list(table[column]), column, allow_blank=column == columns.answer)
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
    own_settings = {**job_settings(columns, args.escape_formulas), "device_type": resolve_device(options.device).type}
    out_columns = output_header(table.columns, options.variant, verdict, args.escape_formulas)
    check_out_path(args.out)  # a wrong --out fails in seconds, before the models load
    started = time.perf_counter()
    where = f"rank {ranks.rank} of {ranks.world_size}: " if ranks.distributed else ""
    try:
        # The job is what the loaded scorer is (capqa.identity), not what the options asked for.
        scorer = options.build_scorer()
        identity = scorer.identity_for(columns.question is not None)  # its hashcode is the scored file's
        job = scoring_job(table, identity, own_settings)
        if ranks.distributed:
            added = score_distributed(table, scorer, args.out, job, out_columns, columns,
                                      args.chunk_size, args.escape_formulas, ranks)
        else:
            with ResumableCsv.open(args.out, job, out_columns) as output:
                added = (score_into(table, scorer, output, columns, args.chunk_size, args.escape_formulas)
                         if not output.complete else 0)
    except KeyboardInterrupt:
        # Committed chunks are safe and verified on resume: a traceback would only alarm.
        print(f"{where}interrupted: {_kept_rows(args.out, ranks.distributed)}; rerun the same command to resume",
              file=sys.stderr)
        return 130
    seconds = time.perf_counter() - started  # models loaded and rows scored (and merged), not imports
    print(f"{where}scored {added} new rows in {seconds:.1f} s; {args.out} has {len(table)} rows", file=sys.stderr)
    if not ranks.distributed or ranks.rank == 0:
        _print_summary(args, identity.hashcode(), output_columns(options.variant, verdict))
        if verdict is not None:
            print(f"correct ({options.verdict}): {verdict.describe()['meaning']}", file=sys.stderr)
    return 0


def _print_summary(args: argparse.Namespace, hashcode: str, scored_columns: List[str]) -> None:
    """The whole output's summary (mean CAP with its CI, ..., the hashcode of the loaded scorer)
    on stdout, and as OUT.summary.json beside it for `compare`."""
    from capqa.diagnostics.summary import summarise_scored_file, write_summary

    summary = summarise_scored_file(args.out, hashcode, args.answer_column, scored_columns)
    print(f"summary written to {write_summary(summary, args.out)}", file=sys.stderr)
    print(summary.to_text())


def _kept_rows(out: Path, distributed: bool) -> str:
    """What an interrupted job keeps, in words."""
    if distributed:
        return f"each rank's committed rows are kept in {out}.parts/"
    manifest = read_manifest(out) if out.exists() else None
    rows = manifest["chunks"][-1]["rows"] if manifest else 0
    return f"rows 1-{rows} are kept in {out}" if rows else "no rows were committed yet"
