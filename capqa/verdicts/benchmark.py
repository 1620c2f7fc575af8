"""The verdict benchmark: every metric thresholded per policy, the threshold chosen on one split
(validation) and judged on another (test), as tables for ``diagnose --verdict``, docs and the Space.

Reproduce the table in docs/verdicts.md:

    python -m capqa diagnose data/paper_scores.csv --metrics cap,cap_plus,bleu,rouge_l,meteor,bertscore \\
        --split-column split --split test --verdict strict,lenient,graded --bootstrap 1000 --out verdicts
"""

import argparse
import json
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pandas as pd

from capqa.common.escaping import to_safe_csv
from capqa.common.files import write_atomically
from capqa.common.json_text import json_option_text, loads_json, names_file
from capqa.common.paths import DATA_DIR
from capqa.plus.calibration import add_cap_plus
from capqa.verdicts.policies import POLICIES, policy_credits
from capqa.verdicts.report import BINARY_STATISTICS, most_wrongly_accepted, most_wrongly_rejected, verdict_table
from capqa.verdicts.thresholds import fitting_scores, select_rows

BENCHMARK_METRICS = ("cap", "cap_plus", "bleu", "rouge_l", "meteor", "bertscore")
FIT_SPLIT, EVAL_SPLIT = "validation", "test"
# The Space computes its table on first view: 1,000 resamples take seconds, not minutes.
SPACE_RESAMPLES = 1000
STATISTIC_HEADERS = {"accuracy": "Accuracy", "balanced_accuracy": "Balanced acc.", "f1": "F1",
                     "kappa": "Cohen's κ", "auroc": "AUROC"}


def parse_policies(text: str) -> Dict[str, Dict[str, float]]:
    """``--verdict``: comma-separated policy names, or a JSON {class: credit} (inline or a file)."""
    text = text.strip()
    if text.startswith("{") or names_file(text):
        source = json_option_text(text, "--verdict")
        try:
            mapping = loads_json(source)
        except json.JSONDecodeError as error:
            raise ValueError(f"--verdict is neither policy names nor a JSON {{class: credit}}: {error}") from None
        return {"custom": policy_credits(mapping, "--verdict")}
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise ValueError(f"--verdict names no policy; expected some of {', '.join(POLICIES)}")
    return {name: policy_credits(name, "--verdict") for name in names}


def verdict_records(frame: pd.DataFrame, metrics: Sequence[str], policies: Dict[str, Dict[str, float]],
                    split_column: str = "split", label_column: str = "label", fit_split: str = FIT_SPLIT,
                    eval_split: Optional[str] = EVAL_SPLIT, n_resamples: int = 1000, seed: int = 42,
                    progress: bool = True, cluster_column: Optional[str] = None) -> List[dict]:
    """Thresholds fitted on the ``fit_split`` rows, reports on the ``eval_split`` rows (None: all
    rows not in ``fit_split``); ``cluster_column``: bootstrap whole clusters (e.g. questions)."""
    if eval_split == fit_split:
        raise ValueError(f"the thresholds are fitted on split {fit_split!r}: judge them on another split")
    frame = add_cap_plus(frame) if "cap_plus" in metrics else frame
    missing = [metric for metric in [*metrics, *([cluster_column] if cluster_column else [])]
               if metric not in frame.columns]
    if missing:
        raise ValueError(f"the scores have no column(s) {missing}; they have {list(frame.columns)}")
    fit_rows, sources = fitting_scores(select_rows(frame, fit_split, split_column, label_column), metrics,
                                       label_column)
    if eval_split is None:
        eval_rows = select_rows(frame[frame[split_column].astype(str) != fit_split], None, split_column, label_column)
    else:
        eval_rows = select_rows(frame, eval_split, split_column, label_column)
    records = verdict_table({m: fit_rows[m].to_numpy(float) for m in metrics}, fit_rows[label_column].astype(str),
                            {m: eval_rows[m].to_numpy(float) for m in metrics}, eval_rows[label_column].astype(str),
                            policies, n_resamples=n_resamples, seed=seed, progress=progress,
                            eval_clusters=eval_rows[cluster_column].tolist() if cluster_column else None)
    return [{**record, "threshold_scored_by": sources[record["metric"]]} for record in records]


def cross_fit_note(records: List[dict]) -> str:
    """'' or one sentence: which metric's threshold was chosen on cross-fitted scores."""
    notes = {r["metric"]: r["threshold_scored_by"] for r in records
             if r.get("threshold_scored_by", "").startswith("CAP+ cross-fitted")}
    return "".join(f" The {metric} thresholds were chosen on {source}." for metric, source in notes.items())


def _cell(record: dict, statistic: str) -> str:
    value = f"{record[statistic]:.3f}"
    low = record.get(f"{statistic}_ci_low")
    return value if low is None else f"{value} [{low:.3f}, {record[f'{statistic}_ci_high']:.3f}]"


def _table(header: List[str], rows: List[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


def statistics_markdown(records: List[dict]) -> str:
    """One table per policy: threshold, accepted rows and the five statistics with their intervals."""
    sections = []
    for policy in dict.fromkeys(record["policy"] for record in records):
        rows = [[r["metric"], f"{r['threshold']:.4f}", f"{r['accepted_rows']:,} / {r['rows']:,}",
                 *[_cell(r, name) for name in BINARY_STATISTICS]]
                for r in records if r["policy"] == policy]
        first = next(r for r in records if r["policy"] == policy)
        correct = ", ".join(c["class"] for c in first["classes"] if c["counts_as_correct"])
        sections.append(f"### `{policy}` (correct: {correct}; {first['correct_rows']:,} of "
                        f"{first['rows']:,} rows)\n\n"
                        + _table(["Metric", "Threshold", "Accepted", *STATISTIC_HEADERS.values()], rows))
    return "\n\n".join(sections)


def class_errors_markdown(records: List[dict]) -> str:
    """Per policy and metric: how often each class's rows get the wrong verdict, and the worst ones."""
    sections = []
    for policy in dict.fromkeys(record["policy"] for record in records):
        chosen = [r for r in records if r["policy"] == policy]
        classes = [c["class"] for c in chosen[0]["classes"]]
        marks = {c["class"]: "✓" if c["counts_as_correct"] else "✗" for c in chosen[0]["classes"]}
        rows = []
        for r in chosen:
            rates = {c["class"]: c["error_rate"] for c in r["classes"]}
            accepted, rejected = most_wrongly_accepted(r), most_wrongly_rejected(r)
            rows.append([r["metric"], *[f"{rates[label]:.3f}" for label in classes],
                         f"{accepted['class']} ({accepted['error_rate']:.3f})" if accepted else "–",
                         f"{rejected['class']} ({rejected['error_rate']:.3f})" if rejected else "–"])
        header = ["Metric", *[f"{label} {marks[label]}" for label in classes],
                  "Most wrongly accepted", "Most wrongly rejected"]
        sections.append(f"### `{policy}`: share of each class's rows with the wrong verdict\n\n"
                        "✓ classes count as correct (an error is a rejection), ✗ classes as incorrect "
                        "(an error is an acceptance).\n\n" + _table(header, rows))
    return "\n\n".join(sections)


def verdict_markdown(records: List[dict], context: str) -> str:
    """The whole binary report: ``context`` says which rows and resamples."""
    return ("## Verdicts: thresholded scores against the labels\n\n" + context + "\n\n"
            + statistics_markdown(records) + "\n\n## Where the verdicts go wrong, by class\n\n"
            + class_errors_markdown(records) + "\n")


def records_frame(records: List[dict]) -> pd.DataFrame:
    """The records as a flat table (per-class errors as ``error_rate_CLASS`` columns)."""
    return pd.DataFrame([{**{k: v for k, v in r.items() if k != "classes"},
                          **{f"error_rate_{c['class']}": c["error_rate"] for c in r["classes"]}}
                         for r in records])


def write_diagnose_report(args: argparse.Namespace, metrics: Sequence[str]) -> str:
    """``diagnose --verdict``: writes verdicts.csv and verdicts.md into ``args.out``; returns the
    markdown to append to the summary."""
    if not args.split_column:
        raise ValueError("--verdict needs --split-column: thresholds are fitted on the "
                         f"--fit-split ({args.fit_split!r}) rows and judged on the others")
    # Deferred: scipy is heavy, imported on first use.
    from capqa.plus.score_files import read_scores

    policies = parse_policies(args.verdict)
    frame = read_scores(args.scores, metrics).reset_index(drop=True)
    if args.split_column not in frame.columns:
        raise ValueError(f"{args.scores} has no split column {args.split_column!r}")
    cluster = getattr(args, "cluster", None)
    records = verdict_records(frame, metrics, policies, args.split_column, args.label_column, args.fit_split,
                              args.split, n_resamples=args.bootstrap, seed=args.seed, progress=not args.quiet,
                              cluster_column=cluster)
    to_safe_csv(records_frame(records), args.out / "verdicts.csv")
    judged = f"split `{args.split}`" if args.split else f"every split but `{args.fit_split}`"
    units = f"`{cluster}` clusters" if cluster else "rows"
    intervals = (f"{args.bootstrap:,} bootstrap resamples over {units} (seed {args.seed}), 95% percentile "
                 "intervals" if args.bootstrap else "no bootstrap")
    text = verdict_markdown(records, (
        f"Each metric accepts an answer when its score is at least its own threshold, chosen to maximise "
        f"Youden's J on the `{args.fit_split}` rows; judged on {judged} ({records[0]['rows']:,} rows); "
        f"{intervals}. AUROC is of the raw score.{cross_fit_note(records)}"))
    write_atomically(args.out / "verdicts.md", text)
    return text


@lru_cache(maxsize=2)
def benchmark_verdict_markdown(path: Optional[str] = None, n_resamples: int = SPACE_RESAMPLES) -> str:
    """The test-split verdict table of the six metrics under strict, lenient and graded, for the
    Space's Benchmark tab (cached: the published scores do not change while the app runs)."""
    path = Path(path) if path else DATA_DIR / "paper_scores.csv"
    records = verdict_records(pd.read_csv(path), BENCHMARK_METRICS, {name: policy_credits(name) for name in POLICIES},
                              n_resamples=n_resamples, progress=False)
    return verdict_markdown(records, (
        f"Each metric's threshold maximises Youden's J on the {FIT_SPLIT} rows; judged on the "
        f"{records[0]['rows']:,} {EVAL_SPLIT} rows, {n_resamples:,} bootstrap resamples, 95% intervals."
        f"{cross_fit_note(records)}"))
