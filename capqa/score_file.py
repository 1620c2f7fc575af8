"""``python -m capqa score``: CAP for every row of a CSV/JSONL file, resumable.

Rows are scored in chunks and each finished chunk is appended to the output at once, so a job
that stops (crash, pre-emption, Ctrl-C) keeps what it finished; running the same command again
on the same, unchanged input skips the rows already in the output.
"""

import argparse
import sys
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from capqa.constants import ALPHA, NEUTRAL_WEIGHT
from capqa.engine.devices import PRECISIONS
from capqa.metric_options import MetricOptions
from capqa.tables import read_table, require_columns
from capqa.validation import check_positive_int, check_references, check_text_list
from capqa.verdicts.judge import parse_verdict_argument, verdict_column_names

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
    parser.add_argument("--precision", choices=("auto", *PRECISIONS), default="auto",
                        help="NLI dtype: 'auto' = bf16 on CUDA, float32 on CPU; 'bfloat16' is ~2x faster on AMX CPUs")
    parser.add_argument("--quantize", action="store_true", help="CPU dynamic int8 NLI model (faster, ~1e-3 off)")
    parser.add_argument("--max-tokens", type=int, default=None, help="token budget per NLI batch")
    parser.add_argument("--score-cache-dir", default=None, help="cache NLI probabilities in this folder")
    parser.add_argument("--variant", choices=("cap", "plus"), default="cap", help="'plus' adds CAP+")
    parser.add_argument("--verdict", type=parse_verdict_argument, default=None,
                        help="add a `correct` column: strict, lenient, graded, a threshold, or JSON {class: credit}")
    return parser


def score_table(table, scorer, out, question_column, gold_column, answer_column,
                gold_separator=None, chunk_size=1000):
    """Score ``table`` chunk by chunk into the CSV ``out``; returns the number of new rows."""
    chunk_size = check_positive_int(chunk_size, "chunk_size")
    columns = list(table.columns) + output_columns(scorer.variant) + verdict_column_names(scorer.verdict)
    check_no_output_columns(table.columns, scorer.variant)
    done = _rows_done(out, columns, len(table))
    remaining = range(done, len(table), chunk_size)
    for start in tqdm(remaining, desc="CAP", unit="chunk", disable=len(remaining) < 2):
        chunk = table.iloc[start:start + chunk_size]
        questions = list(chunk[question_column]) if question_column else None
        result = scorer.score(list(chunk[answer_column]), split_golds(chunk[gold_column], gold_separator),
                              questions, return_details=True)
        scored = chunk.assign(cap=result["scores"], **{key: result[key] for key in OUTPUT_COLUMNS[1:]},
                              **_calibration_columns(result))
        scored.to_csv(out, mode="a", header=done == 0 and start == 0, index=False)
    return len(table) - done


def output_columns(variant):
    """The columns scoring adds, in order."""
    return list(OUTPUT_COLUMNS) + (["cap_plus"] if variant == "plus" else []) + ["relation", "relation_probability"]


def check_no_output_columns(columns, variant):
    """Refuse input columns that scoring would overwrite (a file scored before, say)."""
    clashing = [column for column in output_columns(variant) if column in columns]
    if clashing:
        raise ValueError(f"the input already has column(s) {', '.join(map(repr, clashing))} that scoring "
                         f"writes; rename them (a file that was scored before cannot be scored again as is)")


def split_golds(cells, separator=None):
    """Each cell's gold answers: the cell split on ``separator``, or the cell itself."""
    return [cell.split(separator) if separator else [cell] for cell in cells]


def _rows_done(out, columns, n_rows):
    """Rows an earlier run of the same job already wrote to ``out`` (0 for a new or empty file)."""
    if not out.exists() or out.stat().st_size == 0:
        return 0
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    if list(written.columns) != columns:
        raise ValueError(f"`--out` {out} holds other columns than this job writes "
                         f"({list(written.columns)} vs {columns}): not the same job; choose another --out")
    if len(written) > n_rows:
        raise ValueError(f"`--out` {out} has {len(written)} rows but the input only {n_rows}: not the same job")
    return len(written)


def _calibration_columns(result):
    """CAP+ (with variant "plus") and the diagnosed relation, as flat columns."""
    columns = {"cap_plus": result["cap_plus"]} if "cap_plus" in result else {}
    columns["relation"] = [relation["label"] for relation in result["relation"]]
    columns["relation_probability"] = [relation["probability"] for relation in result["relation"]]
    columns.update({name: result[name] for name in ("correct", "credit") if name in result})
    return columns


def main(argv=None):
    args = build_parser().parse_args(argv)
    table = read_table(args.input)
    require_columns(table, [args.question_column, args.gold_column, args.answer_column], f"`{args.input}`")
    options = MetricOptions(nli_model=args.nli_model, nli_revision=args.nli_revision,
                            statement_model=args.statement_model, statement_revision=args.statement_revision,
                            alpha=args.alpha, neutral_weight=args.neutral_weight,
                            batch_size=args.batch_size, max_tokens=args.max_tokens, device=args.device,
                            precision=args.precision, quantize=args.quantize,
                            score_cache_dir=args.score_cache_dir, variant=args.variant, verdict=args.verdict)
    # Validate the whole file before the first model call: a bad row should not stop a job midway.
    for column in (args.question_column, args.answer_column):
        if column:
            check_text_list(list(table[column]), column)
    check_references(split_golds(table[args.gold_column], args.gold_separator), args.gold_column)
    check_positive_int(args.chunk_size, "--chunk-size")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    added = score_table(table, options.build_scorer(), args.out, args.question_column, args.gold_column,
                        args.answer_column, args.gold_separator, args.chunk_size)
    print(f"scored {added} new rows; {args.out} has {len(table)} rows", file=sys.stderr)
    if args.verdict is not None:
        print(f"accuracy ({args.verdict}): {pd.read_csv(args.out)['correct'].mean():.4f}", file=sys.stderr)
    return 0
