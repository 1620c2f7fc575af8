"""Thresholds that turn a score into a verdict, chosen on labelled rows of one split only.

Objective: Youden's J = true-positive rate - false-positive rate (equivalently balanced accuracy,
(TPR + TNR) / 2 = (J + 1) / 2), so the threshold does not chase the majority class. An answer is
accepted when its score is at least the threshold. The threshold is the midpoint between the two
neighbouring distinct scores where J is highest, so it does not sit on any fitting row's score.
J is compared on integer counts, and of equally good cuts the lowest wins; the file reports
their plateau (lowest, highest, how many).

The package ships ``params/thresholds.json`` (fitted on the paper's 1,000 validation rows, CAP+'s
scores of them cross-fitted, since CAP+ was fitted on the same rows: ``fitting_scores``);
``python -m capqa fit-verdicts`` (``capqa.cli.fit_verdicts``) refits it on the user's own labelled scores. The file also keeps
the fitting rows' labels and scores, so that a user's own {class: credit} mapping gets its threshold
from the same rows at load time.

Where no validation split exists (the human-judged answers of ``capqa.agreement``),
``cross_validated_verdicts`` judges each row by the threshold chosen on the other folds
(``cluster_folds``: whole questions per fold), and ``check_not_fitted_on`` refuses a thresholds
file whose fitting rows are the rows it would judge.
"""

import json
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from capqa.common.constants import COMPARISON_DECIMALS, LABELS
from capqa.common.validation import check_finite_scores, check_same_length
from capqa.plus.cross_fit import threshold_scores
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
    rows, sources = fitting_scores(rows, scores, label_column)
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
        "scored_by": sources,
        "fitted_on": {"split": split, "rows": int(len(rows)),
                      "class_counts": {label: int((labels == label).sum()) for label in LABELS}},
        "policies": fitted,
        "fitting_rows": {"label": labels.tolist(),
                         **{column: np.round(rows[column].to_numpy(float), STORED_DECIMALS).tolist()
                            for column in scores}},
    }


def fitting_scores(rows: pd.DataFrame, scores: Iterable[str],
                   label_column: str = "label") -> Tuple[pd.DataFrame, Dict[str, str]]:
    """(rows, {score: which rows and model its values come from}) for choosing thresholds: CAP+
    cross-fitted when the rows are the ones CAP+ was fitted on (``capqa.plus.cross_fit``), every
    other score as the file gives it."""
    sources = {}
    for column in scores:
        if column == "cap_plus":
            found = threshold_scores(rows, label_column)
            rows = rows.assign(cap_plus=found.scores)
            sources[column] = found.description
        else:
            sources[column] = f"the {column} column of these rows"
    return rows, sources


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


# --- Thresholds never chosen on the rows they judge -----------------------------------------------

def cluster_folds(clusters: ArrayLike, n_folds: int, seed: int = 42) -> np.ndarray:
    """The fold (0 .. n_folds - 1) of each row for cross-validation: every row of a cluster (the
    answers to one question) goes to the cluster's fold, and the clusters are dealt to the folds
    in a seeded random order, so the folds differ in size by at most one cluster."""
    codes = np.asarray(clusters)
    if codes.ndim != 1 or not np.issubdtype(codes.dtype, np.integer) or (codes.size and codes.min() < 0):
        raise TypeError("`clusters` must be one cluster code (an integer from 0) per row, e.g. from "
                        "capqa.monotonicity.bootstrap.cluster_codes")
    n_clusters = int(codes.max(initial=-1)) + 1
    if isinstance(n_folds, bool) or not isinstance(n_folds, (int, np.integer)) or not 2 <= n_folds <= n_clusters:
        raise ValueError(f"`n_folds` must be an integer from 2 to the number of clusters ({n_clusters}), "
                         f"got {n_folds!r}")
    fold_of_cluster = np.empty(n_clusters, dtype=np.int64)
    fold_of_cluster[np.random.default_rng(seed).permutation(n_clusters)] = np.arange(n_clusters) % n_folds
    return fold_of_cluster[codes]


def cross_validated_verdicts(scores: ArrayLike, targets: ArrayLike, folds: ArrayLike) -> Tuple[np.ndarray, List[dict]]:
    """(accepted, cuts): each row judged by the threshold ``choose_threshold`` picks on the rows
    of the other folds only, and each fold's cut ({"fold", "rows", "threshold", "youden_j", ...})."""
    scores = np.round(check_finite_scores(scores, "scores"), COMPARISON_DECIMALS)
    targets = np.asarray(targets, dtype=bool)
    folds = np.asarray(folds, dtype=np.int64)
    check_same_length(scores, "scores", targets, "targets")
    check_same_length(scores, "scores", folds, "folds")
    accepted = np.zeros(len(scores), dtype=bool)
    cuts = []
    n_folds = int(folds.max(initial=-1)) + 1
    for fold in range(n_folds):
        held_out = folds == fold
        try:
            cut = choose_threshold(scores[~held_out], targets[~held_out])
        except ValueError as error:
            raise ValueError(f"fold {fold + 1} of {n_folds}: the other folds' rows cannot choose a threshold: "
                             f"{error}") from None
        accepted[held_out] = scores[held_out] >= cut["threshold"]
        cuts.append({"fold": fold, "rows": int(held_out.sum()), **cut})
    return accepted, cuts


# A thresholds file counts as fitted on the judged rows when this share of them (or more, and at
# least two rows) have a score its fitting rows hold: scores from an NLI model's probabilities
# repeat to 8 decimals only for the same pair, so chance gives next to none.
FITTED_ON_SHARE = 0.01


def check_not_fitted_on(scores: ArrayLike, score: str = "cap", path: Optional[str] = None) -> None:
    """Refuse a thresholds file (the package's when ``path`` is None) whose fitting rows hold the
    rows that its thresholds would judge: a threshold chosen on the rows it is measured on
    overstates how well the verdicts agree with the labels."""
    fitting = load_thresholds(path).get("fitting_rows", {}).get(score)
    where = f"the thresholds file {path or THRESHOLDS_FILE}"
    if fitting is None:
        raise ValueError(f"{where} keeps no fitting rows of `{score}`, so it cannot be shown not to be fitted on "
                         "the rows it would judge; refit it with `python -m capqa fit-verdicts`")
    measured = np.round(check_finite_scores(scores, "scores"), STORED_DECIMALS)
    shared = int(np.isin(measured, np.round(np.asarray(fitting, dtype=float), STORED_DECIMALS)).sum())
    if shared >= max(2.0, FITTED_ON_SHARE * len(measured)):
        raise ValueError(f"{where} was fitted on the rows it would judge: {shared:,} of these {len(measured):,} rows "
                         f"have a `{score}` score (to {STORED_DECIMALS} decimals) that its fitting rows hold. A threshold "
                         "chosen on the rows it is measured on overstates agreement: use thresholds fitted on other "
                         "rows (the shipped ones), or cross-validation folds")
