"""CAP+ scores to choose a verdict threshold on, without reusing the rows CAP+ was fitted on.

A threshold chosen on the rows a model was fitted on is chosen on scores the model fits better
than it will fit new rows: the shipped CAP+ was fitted on the paper's 1,000 validation rows, and a
threshold chosen on its scores of those same rows looks better there than on the test rows. So
when the rows to choose a threshold on are exactly the rows CAP+ was fitted on (their
``row_fingerprints`` match the parameter file's), each row gets its **cross-fitted** CAP+: the
score of the chosen specification refitted without the row's fold (the folds of the model
selection's cross-validation), which ``python -m capqa fit`` stores in the parameter file
(``cross_fitted``), so that no row's score comes from a model that saw it. Rows CAP+ never saw
are scored by the shipped CAP+ as they are; a mixture of both is refused, since neither score
would be right for all of it.
"""

import json
import os
from collections import Counter
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Union

import numpy as np
import pandas as pd

from capqa.plus.calibration import (CAP_PLUS_FILE, OVERLAP_COLUMNS, PARAMS_DIR, PROBABILITY_COLUMNS, cap_plus,
                                    frame_inputs, row_fingerprints)

CROSS_FITTED = "cross-fitted"
AS_SHIPPED = "as shipped"
AS_GIVEN = "as given"
# How close a file's own cap_plus column must be to the shipped CAP+ to count as it (the files
# round to 8 decimals or more).
SAME_SCORE_TOLERANCE = 1e-6
CAP_PLUS_INPUTS = (*PROBABILITY_COLUMNS, *OVERLAP_COLUMNS)


class ThresholdScores(NamedTuple):
    """The CAP+ of the rows a threshold is chosen on, and which CAP+ that is."""
    scores: np.ndarray
    source: str          # CROSS_FITTED, AS_SHIPPED or AS_GIVEN (the file's own CAP+ column)
    description: str     # what the scores are, a noun phrase for the thresholds file and the docs


def parameter_file(params_dir: Optional[Union[str, os.PathLike]] = None) -> dict:
    """The CAP+ parameter file (the shipped one when None), as a dict."""
    return json.loads(((Path(params_dir) if params_dir else PARAMS_DIR) / CAP_PLUS_FILE).read_text())


def threshold_scores(rows: pd.DataFrame, label_column: str = "label",
                     params_dir: Optional[Union[str, os.PathLike]] = None) -> ThresholdScores:
    """CAP+ for choosing a threshold on the labelled ``rows`` (their published inputs
    ``pe_f .. pc_r, bleu, rouge_l`` and labels): cross-fitted when they are CAP+'s own fitting
    rows, the shipped CAP+ when they share none of them. A ``cap_plus`` column of the rows that
    is not the shipped CAP+ of their inputs (a refitted model's, or rows without the inputs) is
    used as given."""
    given = rows["cap_plus"].to_numpy(float) if "cap_plus" in rows.columns else None
    has_inputs = all(column in rows.columns for column in CAP_PLUS_INPUTS)
    shipped = cap_plus(*frame_inputs(rows), params_dir=params_dir) if has_inputs else None
    if given is not None and (shipped is None or not np.allclose(given, shipped, rtol=0, atol=SAME_SCORE_TOLERANCE)):
        return ThresholdScores(given, AS_GIVEN, "the file's own cap_plus column")
    if shipped is None:
        raise ValueError(f"the rows have neither a cap_plus column nor CAP+'s inputs {list(CAP_PLUS_INPUTS)}")
    data = parameter_file(params_dir)
    fitted = data["fitted_on"]
    known = set(fitted.get("row_fingerprints", ()))
    fingerprints = row_fingerprints(rows, label_column)
    inside = np.array([value in known for value in fingerprints], dtype=bool)
    if not inside.any():
        return ThresholdScores(shipped, AS_SHIPPED,
                               "the shipped CAP+, which was fitted on none of these rows")
    if Counter(fingerprints) != Counter(fitted["row_fingerprints"]):
        raise ValueError(f"{int(inside.sum())} of the {len(rows):,} rows to choose a CAP+ threshold on are rows CAP+ "
                         f"was fitted on ({fitted['rows']:,} {fitted['split']!r} rows) and the others are not: choose "
                         "it on exactly those rows (then CAP+ is cross-fitted) or on rows CAP+ never saw")
    record = data.get("cross_fitted")
    if not record:
        raise ValueError("the CAP+ parameter file holds no cross-fitted scores of its fitting rows; refit it "
                         "with `python -m capqa fit`")
    return ThresholdScores(_matched(fingerprints, fitted["row_fingerprints"], record["scores"]), CROSS_FITTED,
                           f"CAP+ cross-fitted on the {fitted['rows']:,} {fitted['split']} rows CAP+ was fitted on "
                           f"(each row scored by the chosen specification refitted on the other "
                           f"{record['folds'] - 1} of {record['folds']} folds)")


def _matched(fingerprints: List[str], stored_fingerprints: List[str], stored_scores: List[float]) -> np.ndarray:
    """The stored score of each row, matched by fingerprint (repeated fingerprints, i.e. identical
    rows, in the order they appear)."""
    stored: Dict[str, List[float]] = {}
    for fingerprint, score in zip(stored_fingerprints, stored_scores):
        stored.setdefault(fingerprint, []).append(float(score))
    taken: Counter = Counter()
    scores = []
    for fingerprint in fingerprints:
        scores.append(stored[fingerprint][taken[fingerprint]])
        taken[fingerprint] += 1
    return np.array(scores)
