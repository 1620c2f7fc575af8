"""The summary of a scored table: rows, mean CAP (and CAP+, accuracy, mean credit) with 95 %
bootstrap intervals, blank predictions, and the hashcode of what scored it.

``python -m capqa score`` prints it at the end and writes it beside its output as
``OUT.summary.json``; ``python -m capqa compare`` reads that file to check that systems were
scored under the same settings; the Space shows it for a scored file.
"""

import json
import math
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Union

import numpy as np
import pandas as pd

from capqa.diagnostics.monotonicity import CONFIDENCE
from capqa.diagnostics.significance import DEFAULT_RESAMPLES, DEFAULT_SEED, Estimate, bootstrap_means, estimate
from capqa.validation import is_blank

logger = logging.getLogger(__name__)

SUMMARY_SUFFIX = ".summary.json"
SUMMARY_FORMAT = 1
# metric -> (the scored table's column, how the metric is called in tables). Present columns only.
METRIC_COLUMNS = {"cap": "cap", "cap_plus": "cap_plus", "accuracy": "correct", "credit": "credit"}
METRIC_NAMES = {"cap": "CAP", "cap_plus": "CAP+", "accuracy": "accuracy", "credit": "mean credit"}
_TRUTH = {"True": 1.0, "False": 0.0, "true": 1.0, "false": 0.0, True: 1.0, False: 0.0, 1: 1.0, 0: 0.0}


def summary_path(out: Union[str, os.PathLike]) -> Path:
    """Where the summary of the scored file ``out`` lives: ``OUT.summary.json`` beside it."""
    out = Path(out)
    return out.with_name(out.name + SUMMARY_SUFFIX)


def metric_values(table: pd.DataFrame, metric: str, source: str = "the table") -> np.ndarray:
    """A metric's per-row values (``correct`` becomes 0/1) as floats; refuses a cell that is not
    a finite number, naming its row."""
    column = table[METRIC_COLUMNS[metric]]
    if metric == "accuracy":
        values = column.map(lambda cell: _TRUTH.get(cell, np.nan)).to_numpy(dtype=np.float64)
        expected = "True or False"
    else:
        values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64)
        expected = "a number"
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        raise ValueError(f"{source}: column {column.name!r} row {bad[0] + 1} holds {column.iloc[bad[0]]!r}, "
                         f"expected {expected} ({bad.size:,} such row(s))")
    return values


def present_metrics(columns: Sequence[str]) -> list:
    """The metrics whose column a scored table has, in METRIC_COLUMNS order."""
    return [metric for metric, column in METRIC_COLUMNS.items() if column in columns]


def count_blank(texts: Sequence[str]) -> int:
    """Texts that state nothing: empty, whitespace, or only invisible characters."""
    return sum(1 for text in texts if is_blank(str(text)))


@dataclass(frozen=True)
class ScoreSummary:
    """What a scored table says in a few lines; ``to_json``/``from_json`` for OUT.summary.json."""

    rows: int
    metrics: Dict[str, Estimate]          # "cap", and "cap_plus", "accuracy", "credit" when present
    hashcode: Optional[str]
    blank_predictions: Optional[int] = None  # None: the table has no answer column to count them in
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED

    @property
    def cap(self) -> Estimate:
        return self.metrics["cap"]

    def to_json(self) -> dict:
        return {"format": SUMMARY_FORMAT, "hashcode": self.hashcode, "rows": self.rows,
                "blank_predictions": self.blank_predictions,
                "confidence": CONFIDENCE, "interval": "percentile bootstrap",
                "n_resamples": self.n_resamples, "seed": self.seed,
                "metrics": {metric: value.to_json() for metric, value in self.metrics.items()}}

    @classmethod
    def from_json(cls, record: dict) -> "ScoreSummary":
        return cls(rows=int(record["rows"]), hashcode=record.get("hashcode"),
                   metrics={metric: Estimate.from_json(value) for metric, value in record["metrics"].items()},
                   blank_predictions=record.get("blank_predictions"),
                   n_resamples=int(record.get("n_resamples", DEFAULT_RESAMPLES)),
                   seed=int(record.get("seed", DEFAULT_SEED)))

    def lines(self) -> list:
        """(label, value) pairs, the same for the text and the Markdown forms."""
        blank = "" if self.blank_predictions is None else f" ({self.blank_predictions:,} blank predictions)"
        lines = [("rows", f"{self.rows:,}{blank}")]
        for metric, value in self.metrics.items():
            lines.append((METRIC_NAMES[metric], f"{value.mean:.4f}  {value.interval_text()}"))
        lines.append(("hashcode", self.hashcode or "unknown"))
        return lines

    def to_text(self) -> str:
        width = max(len(label) for label, _ in self.lines()) + 1
        note = (f"(CIs: percentile bootstrap, {self.n_resamples:,} resamples, seed {self.seed})")
        return "\n".join([f"{label + ':':<{width}} {value}" for label, value in self.lines()] + [note])

    def to_markdown(self) -> str:
        """The figures as a table, then the hashcode as a code block: one unbroken line to copy
        (in a table cell it could only wrap inside itself)."""
        rows = [f"| {label} | {value} |" for label, value in self.lines() if label != "hashcode"]
        return "\n".join(["| | |", "|---|---|", *rows,
                          "", f"CIs: percentile bootstrap, {self.n_resamples:,} resamples, seed {self.seed}.",
                          "", "The hashcode (what produced these scores; quote it with them):", "",
                          "```", self.hashcode or "unknown", "```"])


def summarise_scores(table: pd.DataFrame, hashcode: Optional[str], answer_column: Optional[str] = None,
                     n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                     metrics: Optional[Sequence[str]] = None) -> ScoreSummary:
    """The summary of a scored table (the columns ``score`` writes: ``cap``, and ``cap_plus``,
    ``correct``, ``credit`` when present). Blank predictions are counted in ``answer_column``.

    metrics: the METRIC_COLUMNS that scoring wrote (default: every one the table has; a user's own
    ``correct`` column, say, is not a verdict: ``score`` says which it wrote).
    """
    if "cap" not in table.columns:
        raise ValueError(f"the table has no 'cap' column: is it a scored file? Its columns are "
                         f"{', '.join(map(repr, table.columns))}")
    metrics = present_metrics(table.columns) if metrics is None else list(metrics)
    values = np.stack([metric_values(table, metric) for metric in metrics])
    if len(table) < 2:  # one row has no spread to bootstrap: no interval
        estimates = {metric: Estimate(float(row.mean()), math.nan, math.nan) for metric, row in zip(metrics, values)}
    else:
        resampled = bootstrap_means(values, n_resamples, seed)
        estimates = {metric: estimate(row, draws) for metric, row, draws in zip(metrics, values, resampled)}
    blank = count_blank(table[answer_column]) if answer_column and answer_column in table.columns else None
    return ScoreSummary(rows=len(table), metrics=estimates, hashcode=hashcode, blank_predictions=blank,
                        n_resamples=n_resamples, seed=seed)


def write_summary(summary: ScoreSummary, out: Union[str, os.PathLike]) -> Path:
    """Write ``OUT.summary.json`` beside the scored file ``out`` (atomically); returns its path."""
    path = summary_path(out)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(summary.to_json(), indent=2) + "\n", encoding="utf-8")
    os.replace(partial, path)
    logger.info("summary written to %s", path)
    return path


def read_summary(out: Union[str, os.PathLike]) -> Optional[ScoreSummary]:
    """The summary beside the scored file ``out``, or None when there is none."""
    path = summary_path(out)
    if not path.is_file():
        return None
    try:
        return ScoreSummary.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"`{path}` is not a summary that `score` wrote ({error}); delete it or score again") from None


def summarise_scored_file(out: Union[str, os.PathLike], hashcode: Optional[str], answer_column: Optional[str] = None,
                          scored_columns: Optional[Sequence[str]] = None, n_resamples: int = DEFAULT_RESAMPLES,
                          seed: int = DEFAULT_SEED) -> ScoreSummary:
    """``summarise_scores`` of a CSV that ``score`` wrote, reading only the columns it needs.

    scored_columns: the columns scoring wrote (``capqa.jobs.scoring.output_columns``); default: all.
    """
    header = pd.read_csv(out, nrows=0).columns
    metrics = present_metrics(scored_columns if scored_columns is not None else header)
    wanted = [METRIC_COLUMNS[metric] for metric in metrics] + ([answer_column] if answer_column in header else [])
    table = pd.read_csv(out, usecols=list(dict.fromkeys(wanted)), dtype=str, keep_default_na=False)
    return summarise_scores(table, hashcode, answer_column, n_resamples, seed, metrics)
