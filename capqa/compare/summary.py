"""The summary of a scored table: rows, mean CAP (and CAP+, accuracy, mean credit) with 95 %
bootstrap intervals, blank predictions, the identity of the job that scored it, and which
statements the calibration (the paper's figures, CAP+, the verdict thresholds) assumed.

``python -m capqa score`` (``capqa.jobs.scoring.score_table``) writes it beside its output as
``OUT.summary.json`` and prints it; ``python -m capqa compare`` reads it to check, field by field
of the identity record, that systems were scored alike; the Space shows it for a scored file.

The file holds the job's identity as a record (``capqa.records.job.JobIdentity``, its fields
nested as they are) and, for people, its hashcode. ``ScoreSummary.from_json`` is the file's
schema: the writer checks its own output with it, and the reader refuses anything else, a field
of the wrong type, a count that is no count, an unknown metric, saying "is not a summary that
`score` wrote: ..." (``SummaryError``).
"""

import json
import logging
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Union

import numpy as np
import pandas as pd

from capqa.common.constants import CALIBRATION_STATEMENTS
from capqa.common.files import write_atomically
from capqa.common.json_text import loads_json
from capqa.common.validation import outside_unit_interval
from capqa.compare.significance import DEFAULT_RESAMPLES, DEFAULT_SEED, Estimate, bootstrap_means, estimate
from capqa.monotonicity.measures import CONFIDENCE
from capqa.records.job import JobIdentity
from capqa.records.json_records import RecordError, from_json, kind

logger = logging.getLogger(__name__)

SUMMARY_SUFFIX = ".summary.json"
# 2: the job's identity as a record (format 1 kept only its hashcode, a string).
SUMMARY_FORMAT = 2
INTERVAL = "percentile bootstrap"
# metric -> (the scored table's column, how the metric is called in tables). Present columns only.
METRIC_COLUMNS = {"cap": "cap", "cap_plus": "cap_plus", "accuracy": "correct", "credit": "credit"}
METRIC_NAMES = {"cap": "CAP", "cap_plus": "CAP+", "accuracy": "accuracy", "credit": "mean credit"}
# True and False are also the keys 1 and 0 (equal hashes).
_TRUTH = {"True": 1.0, "False": 0.0, "true": 1.0, "false": 0.0, True: 1.0, False: 0.0}
# The largest count a summary may hold: more rows than any file could have, exact in a float.
MAX_COUNT = 2 ** 53


class SummaryError(ValueError):
    """A file that is not a summary ``score`` wrote; the message names the file and the field."""


def summary_path(out: Union[str, os.PathLike]) -> Path:
    """Where the summary of the scored file ``out`` lives: ``OUT.summary.json`` beside it."""
    out = Path(out)
    return out.with_name(out.name + SUMMARY_SUFFIX)


def metric_values(table: pd.DataFrame, metric: str, source: str = "the table") -> np.ndarray:
    """A metric's per-row values (``correct`` becomes 0/1) as floats; refuses a cell that is not
    a number in [0, 1] (where every metric of CAP lies), naming its row."""
    column = table[METRIC_COLUMNS[metric]]
    if metric == "accuracy":
        values = column.map(lambda cell: _TRUTH.get(cell, np.nan)).to_numpy(dtype=np.float64)
        expected = "True or False"
    else:
        values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64)
        expected = "a number in [0, 1]"
    bad = np.flatnonzero(outside_unit_interval(values))
    if bad.size:
        raise ValueError(f"{source}: column {column.name!r} row {bad[0] + 1} holds {column.iloc[bad[0]]!r}, "
                         f"expected {expected} ({bad.size:,} such row(s))")
    return values


def present_metrics(columns: Sequence[str]) -> list:
    """The metrics whose column a scored table has, in METRIC_COLUMNS order."""
    return [metric for metric, column in METRIC_COLUMNS.items() if column in columns]


@dataclass(frozen=True)
class ScoreSummary:
    """What a scored table says in a few lines; ``to_json``/``from_json`` for OUT.summary.json."""

    rows: int
    metrics: Dict[str, Estimate]          # "cap", and "cap_plus", "accuracy", "credit" when present
    identity: Optional[JobIdentity]        # None: not known (a table scored elsewhere)
    blank_predictions: Optional[int] = None  # None: not counted (no answers to count them in)
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    # What the statement engine spent in this run ({"calls", "cached", "prompt_tokens", ...}:
    # an endpoint's requests and tokens); None for an engine that costs nothing.
    statement_usage: Optional[Dict[str, int]] = None

    @property
    def cap(self) -> Estimate:
        return self.metrics["cap"]

    @property
    def hashcode(self) -> Optional[str]:
        """The job's hashcode (``JobIdentity.hashcode``), or None when the identity is not known."""
        return None if self.identity is None else self.identity.hashcode()

    def to_json(self) -> dict:
        return {"format": SUMMARY_FORMAT, "hashcode": self.hashcode,
                "identity": None if self.identity is None else self.identity.to_json(),
                "rows": self.rows, "blank_predictions": self.blank_predictions,
                "confidence": CONFIDENCE, "interval": INTERVAL, "n_resamples": self.n_resamples, "seed": self.seed,
                "metrics": {metric: value.to_json() for metric, value in self.metrics.items()},
                "calibration_statements": CALIBRATION_STATEMENTS, "statement_usage": self.statement_usage}

    @classmethod
    def from_json(cls, record: Any) -> "ScoreSummary":
        """The summary of a parsed OUT.summary.json, every field checked as ``to_json`` writes it;
        raises ``RecordError`` naming the first field that is not."""
        if not isinstance(record, dict):
            raise RecordError(f"the file must hold a JSON object, got {kind(record)}")
        if "format" not in record:
            raise RecordError("it has no field 'format'")
        if record["format"] != SUMMARY_FORMAT:
            earlier = (" (written by an earlier version, before summaries held the identity record)"
                       if record["format"] == 1 else "")
            raise RecordError(f"its format is {record['format']!r}, not {SUMMARY_FORMAT}{earlier}")
        expected = list(cls(0, {}, None).to_json())  # the writer's fields, in its order
        # statement_usage came later: a summary without it is read as one of a free engine.
        missing = [name for name in expected if name not in record and name != "statement_usage"]
        unknown = [name for name in record if name not in expected]
        if unknown or missing:
            raise RecordError(f"it has no field {missing[0]!r}" if missing else
                              f"it has an unknown field {unknown[0]!r}")
        identity = None if record["identity"] is None else from_json(JobIdentity, record["identity"], "identity")
        hashcode = None if identity is None else identity.hashcode()
        if record["hashcode"] != hashcode:
            raise RecordError("its hashcode is not the one of its identity record (was it edited?)")
        rows = _count(record["rows"], "rows")
        blank = record["blank_predictions"]
        blank = None if blank is None else _count(blank, "blank_predictions")
        if blank is not None and blank > rows:
            raise RecordError(f"blank_predictions ({blank:,}) is more than rows ({rows:,})")
        if (record["confidence"], record["interval"]) != (CONFIDENCE, INTERVAL):
            raise RecordError(f"its intervals must be {CONFIDENCE:.0%} {INTERVAL} intervals, got "
                              f"{record['confidence']!r} {record['interval']!r}")
        n_resamples = _count(record["n_resamples"], "n_resamples")
        if n_resamples < 1:
            raise RecordError("n_resamples must be at least 1")
        usage = record.get("statement_usage")
        if usage is not None and not (isinstance(usage, dict) and all(isinstance(key, str) for key in usage)):
            raise RecordError(f"statement_usage must be an object {{count: number}} or null, got {kind(usage)}")
        usage = None if usage is None else {key: _count(value, f"statement_usage.{key}") for key, value in usage.items()}
        return cls(rows=rows, metrics=_metrics(record["metrics"], rows), identity=identity, blank_predictions=blank,
                   n_resamples=n_resamples, seed=_count(record["seed"], "seed"), statement_usage=usage)

    def lines(self) -> list:
        """(label, value) pairs, the same for the text and the Markdown forms."""
        blank = "" if self.blank_predictions is None else f" ({self.blank_predictions:,} blank predictions)"
        lines = [("rows", f"{self.rows:,}{blank}")]
        for metric, value in self.metrics.items():
            shown = (f"{value.mean:.4f}  {value.interval_text()}" if self.rows else
                     "none (no rows to score: the input holds only its header)")
            lines.append((METRIC_NAMES[metric], shown))
        if self.statement_usage:
            lines.append(("statements", usage_text(self.statement_usage)))
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
        # A header that names the columns: an empty one is an empty row on the page.
        return "\n".join(["| figure | value (95 % CI) |", "|---|---|", *rows,
                          "", f"CIs: percentile bootstrap, {self.n_resamples:,} resamples, seed {self.seed}.",
                          "", "The hashcode (what produced these scores; quote it with them):", "",
                          "```", self.hashcode or "unknown", "```"])


def usage_text(usage: Dict[str, int]) -> str:
    """A statement engine's spending in words: "12 calls (3 cached), 4,210 prompt + 310 completion tokens"."""
    text = f"{usage.get('calls', 0):,} calls ({usage.get('cached', 0):,} answered from the cache)"
    if "prompt_tokens" in usage:
        text += f", {usage['prompt_tokens']:,} prompt + {usage.get('completion_tokens', 0):,} completion tokens"
    return text


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise RecordError(f"{name} must be a whole number from 0 to {MAX_COUNT:,}, got {kind(value)}")
    return value


def _metrics(value: Any, rows: int) -> Dict[str, Estimate]:
    if not isinstance(value, dict):
        raise RecordError(f"metrics must be an object {{metric: estimate}}, got {kind(value)}")
    unknown = [metric for metric in value if metric not in METRIC_COLUMNS]
    if unknown:
        raise RecordError(f"metrics has an unknown metric {unknown[0]!r} (`score` writes "
                          f"{', '.join(METRIC_COLUMNS)})")
    if "cap" not in value:
        raise RecordError("metrics has no 'cap' (every scored file has CAP)")
    return {metric: _estimate(item, f"metrics.{metric}", rows) for metric, item in value.items()}


def _estimate(value: Any, where: str, rows: int) -> Estimate:
    if not isinstance(value, dict) or set(value) != {"mean", "ci_low", "ci_high"}:
        raise RecordError(f"{where} must be an object with the fields mean, ci_low and ci_high, got {kind(value)}")
    numbers = {}
    for name in ("mean", "ci_low", "ci_high"):
        number = value[name]
        # No rows: no mean; fewer than two: no interval.
        absent = number is None and (rows == 0 or name != "mean")
        if not absent and (isinstance(number, bool) or not isinstance(number, (int, float))
                           or not 0 <= number <= 1):
            raise RecordError(f"{where}.{name} must be a number from 0 to 1"
                              + (" or null" if name != "mean" or rows == 0 else "") + f", got {kind(number)}")
        numbers[name] = math.nan if number is None else float(number)
    if rows == 0 and not math.isnan(numbers["mean"]):
        raise RecordError(f"{where}.mean must be null: the summary has no rows")
    if numbers["ci_low"] > numbers["ci_high"]:
        raise RecordError(f"{where}: ci_low is above ci_high")
    return Estimate(numbers["mean"], numbers["ci_low"], numbers["ci_high"])


def summarise_scores(table: pd.DataFrame, identity: Optional[JobIdentity], blank_predictions: Optional[int] = None,
                     n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                     metrics: Optional[Sequence[str]] = None) -> ScoreSummary:
    """The summary of a scored table (the columns ``score`` writes: ``cap``, and ``cap_plus``,
    ``correct``, ``credit`` when present). ``blank_predictions``: counted in the inputs (a written
    file escapes an answer "\\t" as "'\\t", which no longer looks blank).

    metrics: the METRIC_COLUMNS that scoring wrote (default: every one the table has; a user's own
    ``correct`` column, say, is not a verdict: ``score`` says which it wrote).
    """
    if "cap" not in table.columns:
        raise ValueError(f"the table has no 'cap' column: is it a scored file? Its columns are "
                         f"{', '.join(map(repr, table.columns))}")
    metrics = present_metrics(table.columns) if metrics is None else list(metrics)
    if table.empty:  # nothing to average: no mean, no interval (null in the file)
        estimates = {metric: Estimate(math.nan, math.nan, math.nan) for metric in metrics}
    else:
        estimates = _estimates(np.stack([metric_values(table, metric) for metric in metrics]), metrics,
                               n_resamples, seed)
    return ScoreSummary(rows=len(table), metrics=estimates, identity=identity, blank_predictions=blank_predictions,
                        n_resamples=n_resamples, seed=seed)


def _estimates(values: np.ndarray, metrics: Sequence[str], n_resamples: int, seed: int) -> Dict[str, Estimate]:
    if values.shape[1] < 2:  # one row has no spread to bootstrap: no interval
        return {metric: Estimate(float(row.mean()), math.nan, math.nan) for metric, row in zip(metrics, values)}
    resampled = bootstrap_means(values, n_resamples, seed)
    return {metric: estimate(row, draws) for metric, row, draws in zip(metrics, values, resampled)}


def write_summary(summary: ScoreSummary, out: Union[str, os.PathLike]) -> Path:
    """Write ``OUT.summary.json`` beside the scored file ``out`` (atomically); returns its path.
    The record is checked as a reader will check it, and written as strict JSON (no NaN)."""
    record = summary.to_json()
    ScoreSummary.from_json(record)
    path = write_atomically(summary_path(out), json.dumps(record, indent=2, allow_nan=False) + "\n")
    logger.info("summary written to %s", path)
    return path


def load_summary(path: Union[str, os.PathLike], name: Optional[str] = None) -> ScoreSummary:
    """The summary in the file ``path`` (``name``: how messages call it, default its path);
    raises ``SummaryError`` for a file that is not one ``score`` wrote."""
    name = name or str(path)
    try:
        record = loads_json(Path(path).read_text(encoding="utf-8"))
        return ScoreSummary.from_json(record)
    except UnicodeDecodeError as error:
        problem = f"not UTF-8 text (byte {error.start}: {error.reason})"
    except json.JSONDecodeError as error:
        problem = f"not JSON ({error.msg}, line {error.lineno})"
    except RecordError as error:
        problem = str(error)
    raise SummaryError(f"`{name}` is not a summary that `score` wrote: {problem}; delete it or score the file "
                       "again") from None


def read_summary(out: Union[str, os.PathLike]) -> Optional[ScoreSummary]:
    """The summary beside the scored file ``out``, or None when there is none."""
    path = summary_path(out)
    return load_summary(path) if path.is_file() else None


def summarise_scored_file(out: Union[str, os.PathLike], identity: Optional[JobIdentity],
                          blank_predictions: Optional[int] = None, scored_columns: Optional[Sequence[str]] = None,
                          n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> ScoreSummary:
    """``summarise_scores`` of a CSV that ``score`` wrote, reading only the columns it needs.

    scored_columns: the columns scoring wrote (``capqa.records.results.output_columns``); default: all.
    """
    header = pd.read_csv(out, nrows=0).columns
    metrics = present_metrics(scored_columns if scored_columns is not None else header)
    wanted = [METRIC_COLUMNS[metric] for metric in metrics]
    table = pd.read_csv(out, usecols=wanted, dtype=str, keep_default_na=False)
    return summarise_scores(table, identity, blank_predictions, n_resamples, seed, metrics)
