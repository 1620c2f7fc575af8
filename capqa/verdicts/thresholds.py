"""Thresholds that turn a score into a verdict, chosen on labelled rows of one split only.

Objective: Youden's J = true-positive rate - false-positive rate (equivalently balanced accuracy,
(TPR + TNR) / 2 = (J + 1) / 2), so the threshold does not chase the majority class. An answer is
accepted when its score is at least the threshold. The threshold is the midpoint between the two
neighbouring distinct scores where J is highest, so it does not sit on any fitting row's score.
J is compared on integer counts, and of equally good cuts the lowest wins; the file reports
their plateau (lowest, highest, how many).

The package ships ``params/thresholds.json`` (fitted on the paper's 1,000 validation rows);
``python -m capqa fit-verdicts`` (``capqa.cli.fit_verdicts``) refits it on the user's own labelled scores. The file also keeps
the fitting rows' labels and scores, so that a user's own {class: credit} mapping gets its threshold
from the same rows at load time.
"""

import json
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, Optional

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from capqa.constants import COMPARISON_DECIMALS, LABELS
from capqa.validation import check_finite_scores, check_same_length
from capqa.verdicts.policies import POLICIES, Policy, accepted_classes, binary_targets, policy_credits, policy_name

PARAMS_DIR = Path(__file__).resolve().parent / "params"
THRESHOLDS_FILE = PARAMS_DIR / "thresholds.json"
OBJECTIVE = "youden_j"
# The scores a shipped thresholds file covers: CAP and CAP+ (computed from the NLI probabilities).
SHIPPED_SCORES = ("cap", "cap_plus")
# Decimals kept for the fitting rows' scores in the JSON file.
STORED_DECIMALS = 8


def choose_threshold(scores: ArrayLike, targets: ArrayLike) -> Dict[str, float]:
    """The cut with the highest Youden's J, and the plateau of cuts that reach the same J.

    Returns {"threshold", "youden_j", "balanced_accuracy", "plateau_low", "plateau_high",
    "plateau_cuts"}. Cuts are compared on integer counts, J * P * N = TP * N - FP * P (P, N: the
    correct and incorrect rows), so equally good cuts are equal exactly and the lowest one wins;
    floats would let rounding noise of 1e-16 pick among them. The plateau is the lowest and the
    highest of those equally good cuts and how many there are: its width says how firmly the
    fitting rows pin the threshold.
    """
    scores = np.round(check_finite_scores(scores, "scores"), COMPARISON_DECIMALS)
    targets = np.asarray(targets, dtype=bool)
    check_same_length(scores, "scores", targets, "targets")
    positives, negatives = int(targets.sum()), int((~targets).sum())
    if positives == 0 or negatives == 0:
        raise ValueError("choosing a threshold needs both correct and incorrect rows; "
                         f"got {positives} correct and {negatives} incorrect")
    values, group = np.unique(scores, return_inverse=True)
    # Rows at or above each distinct value: accepted when the threshold is that value.
    pos_at_or_above = np.cumsum(np.bincount(group[targets], minlength=len(values))[::-1])[::-1]
    neg_at_or_above = np.cumsum(np.bincount(group[~targets], minlength=len(values))[::-1])[::-1]
    # int64 holds TP * N exactly for up to 3e9 rows.
    scaled_j = pos_at_or_above.astype(np.int64) * negatives - neg_at_or_above.astype(np.int64) * positives
    best = np.flatnonzero(scaled_j == scaled_j.max())
    youden = int(scaled_j[best[0]]) / (positives * negatives)
    return {"threshold": _cut(values, int(best[0])), "youden_j": float(youden),
            "balanced_accuracy": float((youden + 1.0) / 2.0),
            "plateau_low": _cut(values, int(best[0])), "plateau_high": _cut(values, int(best[-1])),
            "plateau_cuts": int(len(best))}


def plateau_note(cut: Dict[str, float]) -> str:
    """'' for a cut that is the only best one, else '; N equally good cuts up to X'."""
    if cut.get("plateau_cuts", 1) <= 1:
        return ""
    return f"; {cut['plateau_cuts']} equally good cuts up to {cut['plateau_high']:.4f}"


def _cut(values: np.ndarray, index: int) -> float:
    """Accept the rows from ``values[index]`` up: midway below it (not on any row's score)."""
    return float(values[0] if index == 0 else (values[index - 1] + values[index]) / 2.0)


def fit_thresholds(frame: pd.DataFrame, split: Optional[str] = "validation", split_column: str = "split",
                   label_column: str = "label", scores: Iterable[str] = SHIPPED_SCORES,
                   policies: Iterable[Policy] = tuple(POLICIES)) -> dict:
    """The thresholds JSON: per policy and score, the cut chosen on the ``split`` rows only."""
    scores = [column for column in scores]
    if not scores:
        raise ValueError("no score column to fit thresholds for: name at least one (e.g. cap, cap_plus)")
    rows = select_rows(frame, split, split_column, label_column)
    missing = [column for column in scores if column not in rows.columns]
    if missing:
        raise ValueError(f"the scores have no column(s) {missing}; they have {list(rows.columns)}")
    labels = rows[label_column].astype(str).to_numpy()
    fitted = {}
    for policy in policies:
        credits = policy_credits(policy)
        targets = binary_targets(labels, credits, label_column)
        fitted[policy_name(policy)] = {
            "accepted_classes": list(accepted_classes(credits)), "credits": credits,
            "thresholds": {column: choose_threshold(rows[column].to_numpy(float), targets)
                           for column in scores}}
    return {
        "description": "Accept an answer when its score >= threshold. Each threshold maximises "
                       "Youden's J (TPR - FPR, = 2 * balanced accuracy - 1) on the fitting rows; a class "
                       "is correct when its credit >= 0.5.",
        "objective": OBJECTIVE,
        "fitted_on": {"split": split, "rows": int(len(rows)),
                      "class_counts": {label: int((labels == label).sum()) for label in LABELS}},
        "policies": fitted,
        "fitting_rows": {"label": labels.tolist(),
                         **{column: np.round(rows[column].to_numpy(float), STORED_DECIMALS).tolist()
                            for column in scores}},
    }


def select_rows(frame: pd.DataFrame, split: Optional[str], split_column: str = "split",
                label_column: str = "label") -> pd.DataFrame:
    """The labelled rows of ``split`` (all rows when ``split`` is None), checked."""
    if label_column not in frame.columns:
        raise ValueError(f"the scores have no label column {label_column!r}")
    if split is not None:
        if split_column not in frame.columns:
            raise ValueError(f"the scores have no split column {split_column!r}")
        frame = frame[frame[split_column].astype(str) == split]
        if frame.empty:
            raise ValueError(f"no rows with {split_column} == {split!r}")
    unknown = sorted(set(frame[label_column].astype(str)) - set(LABELS))
    if unknown:
        raise ValueError(f"the labels hold classes outside the taxonomy: {unknown}")
    return frame.reset_index(drop=True)


@lru_cache(maxsize=4)
def load_thresholds(path: Optional[str] = None) -> dict:
    """The thresholds JSON (the package's when ``path`` is None)."""
    return json.loads(Path(path or THRESHOLDS_FILE).read_text())


def threshold_for(policy: Policy, score: str = "cap", path: Optional[str] = None) -> float:
    """The threshold of ``policy`` on ``score``; a user mapping is fitted on the stored rows."""
    data = load_thresholds(path)
    if isinstance(policy, str):
        policy_credits(policy)
        return float(data["policies"][policy]["thresholds"][score]["threshold"])
    rows = data["fitting_rows"]
    targets = binary_targets(rows["label"], policy_credits(policy, "verdict"), "fitting rows")
    return choose_threshold(rows[score], targets)["threshold"]
