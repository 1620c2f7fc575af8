"""Reading a file of per-row scores for the analysis commands (diagnose, fit, fit-verdicts).

The file is read by the strict reader of ``score`` (``capqa.common.tables.read_score_table``: duplicate
columns, extra fields and bad JSONL lines refused with their line), the score columns and CAP+'s
inputs become numbers, and CAP+'s inputs (the six NLI probabilities, BLEU and ROUGE-L) are
checked by column and line: a message names ``pe_f`` in line 12 of the user's file, not an array
inside the fit.
"""

import os
from pathlib import Path
from typing import Optional, Sequence, Union

import numpy as np
import pandas as pd

from capqa.common.quoting import quote
from capqa.common.tables import TableError, read_score_table
from capqa.common.validation import outside_unit_interval
from capqa.plus.calibration import OVERLAP_COLUMNS, PROBABILITY_COLUMNS, PROBABILITY_SUM_TOLERANCE

CAP_PLUS_INPUTS = (*PROBABILITY_COLUMNS, *OVERLAP_COLUMNS)


def read_scores(path: Union[str, os.PathLike], metrics: Sequence[str] = ()) -> pd.DataFrame:
    """The rows of a scores file, the ``metrics`` columns as floats (and CAP+'s inputs, when
    ``metrics`` asks for ``cap_plus``); its index holds the line each row starts on (for messages:
    ``check_cap_plus_inputs``). A ``cap_plus`` that the file lacks is computed from its inputs,
    which are then checked on every row. Columns not asked for stay text, whatever they hold."""
    wants_cap_plus = "cap_plus" in metrics
    frame = read_score_table(path, [*metrics, *(CAP_PLUS_INPUTS if wants_cap_plus else ())])
    if wants_cap_plus and "cap_plus" not in frame.columns:
        check_cap_plus_inputs(frame, path)
    return frame


def check_finite_columns(rows: pd.DataFrame, columns: Sequence[str], path: Union[str, os.PathLike],
                         unit_interval: bool = False) -> None:
    """Refuse an empty, NaN or infinite score in ``columns`` of the rows to be used (with
    ``unit_interval``, also one outside [0, 1], where CAP's scores lie), naming its line (the index
    ``read_scores`` gave) and column."""
    for column in columns:
        values = rows[column].to_numpy(dtype=float)
        bad = outside_unit_interval(values) if unit_interval else ~np.isfinite(values)
        if bad.any():
            row = int(bad.argmax())
            value = "an empty cell" if np.isnan(values[row]) else quote(float(values[row]))
            expected = "a finite score" if not np.isfinite(values[row]) else "a score in [0, 1]"
            raise TableError(f"`{Path(path).name}` line {rows.index[row]}, column {quote(column)}: expected "
                             f"{expected}, got {value} ({int(bad.sum()):,} such row(s))")


def check_cap_plus_inputs(rows: pd.DataFrame, path: Union[str, os.PathLike], lines: Optional[Sequence[int]] = None
                          ) -> None:
    """Refuse rows whose CAP+ inputs are not probabilities (each in [0, 1], each direction's three
    summing to 1) or whose BLEU/ROUGE-L is outside [0, 1], naming the line and column. ``lines``:
    the line of each row (default: the index ``read_scores`` gave). A table without all of the
    inputs is left to the caller (CAP+ is then not computed from them)."""
    if not all(column in rows.columns for column in CAP_PLUS_INPUTS):
        return
    name = Path(path).name
    lines = list(rows.index if lines is None else lines)
    for column in CAP_PLUS_INPUTS:
        values = rows[column].to_numpy(dtype=float)
        bad = ~(np.isfinite(values) & (values >= 0) & (values <= 1))
        if bad.any():
            row = int(bad.argmax())
            value = "an empty cell" if np.isnan(values[row]) else quote(float(values[row]))
            raise TableError(f"`{name}` line {lines[row]}, column {quote(column)}: expected a "
                             f"{'probability' if column in PROBABILITY_COLUMNS else 'score'} in [0, 1], got "
                             f"{value} ({int(bad.sum()):,} such row(s))")
    for direction in (PROBABILITY_COLUMNS[:3], PROBABILITY_COLUMNS[3:]):
        sums = rows[list(direction)].to_numpy(dtype=float).sum(axis=1)
        bad = np.abs(sums - 1.0) > PROBABILITY_SUM_TOLERANCE
        if bad.any():
            row = int(bad.argmax())
            raise TableError(f"`{name}` line {lines[row]}: {' + '.join(direction)} = {sums[row]:.6g}; the "
                             f"three probabilities of one direction must sum to 1 (within "
                             f"{PROBABILITY_SUM_TOLERANCE:g}; {int(bad.sum()):,} such row(s))")
