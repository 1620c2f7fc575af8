"""``python -m capqa score``: CAP for every row of a CSV/JSONL file, resumable.

Rows are scored in chunks and each finished chunk is appended to the output at once, so a job
that stops (crash, pre-emption, Ctrl-C) keeps what it finished; running the same command again
skips the rows already in the output.
"""

import argparse
import sys
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from capqa.constants import ALPHA, NEUTRAL_WEIGHT
from capqa.metric_options import MetricOptions
from capqa.tables import read_table, require_columns
from capqa.validation import check_text_list

OUTPUT_COLUMNS = ("cap", "forward", "reverse", "premises", "hypotheses", "best_reference")


def build_parser():
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
    parser.add_argument("--nli-model", default=None)
    parser.add_argument("--nli-revision", default=None)
    parser.add_argument("--statement-model", default=None, help="Hub id, local folder or 'rules'")
    parser.add_argument("--statement-revision", default=None)
    parser.add_argument("--alpha", type=float, default=ALPHA)
    parser.add_argument("--neutral-weight", type=float, default=NEUTRAL_WEIGHT)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--variant", choices=("cap", "plus"), default="cap", help="'plus' adds CAP+")
    return parser


def score_table(table, scorer, out, question_column, gold_column, answer_column,
                gold_separator=None, chunk_size=1000):
    """Score ``table`` chunk by chunk into the CSV ``out``; returns the number of new rows."""
    done = len(pd.read_csv(out, usecols=["cap"])) if out.exists() else 0
    if done > len(table):
        raise ValueError(f"`--out` {out} has {done} rows but the input only {len(table)}: not the same job")
    remaining = range(done, len(table), chunk_size)
    for start in tqdm(remaining, desc="CAP", unit="chunk", disable=len(remaining) < 2):
        chunk = table.iloc[start:start + chunk_size]
        golds = [cell.split(gold_separator) if gold_separator else [cell] for cell in chunk[gold_column]]
        questions = list(chunk[question_column]) if question_column else None
        result = scorer.score(list(chunk[answer_column]), golds, questions, return_details=True)
        scored = chunk.assign(cap=result["scores"], **{key: result[key] for key in OUTPUT_COLUMNS[1:]},
                              **_calibration_columns(result))
        scored.to_csv(out, mode="a", header=start == 0, index=False)
    return len(table) - done


def _calibration_columns(result):
    """CAP+ (with variant "plus") and the diagnosed relation, as flat columns."""
    columns = {"cap_plus": result["cap_plus"]} if "cap_plus" in result else {}
    columns["relation"] = [relation["label"] for relation in result["relation"]]
    columns["relation_probability"] = [relation["probability"] for relation in result["relation"]]
    return columns


def main(argv=None):
    args = build_parser().parse_args(argv)
    table = read_table(args.input)
    require_columns(table, [args.question_column, args.gold_column, args.answer_column], f"`{args.input}`")
    options = MetricOptions(nli_model=args.nli_model, nli_revision=args.nli_revision,
                            statement_model=args.statement_model, statement_revision=args.statement_revision,
                            alpha=args.alpha, neutral_weight=args.neutral_weight,
                            batch_size=args.batch_size, device=args.device, variant=args.variant)
    # Validate the whole file before the first model call: a bad row should not stop a job midway.
    for column in (args.question_column, args.gold_column, args.answer_column):
        if column:
            check_text_list(list(table[column]), column)
    added = score_table(table, options.build_scorer(), args.out, args.question_column, args.gold_column,
                        args.answer_column, args.gold_separator, args.chunk_size)
    print(f"scored {added} new rows; {args.out} has {len(table)} rows", file=sys.stderr)
    return 0
