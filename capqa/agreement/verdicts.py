"""Verdicts from thresholds never chosen on the rows they judge.

A threshold fitted on the rows it is then measured on overstates agreement, so a score becomes a
verdict in one of two ways, and the card says which:

- ``shipped``: the threshold of a verdict policy (``strict`` unless the user names another), read
  from the package's thresholds file, fitted on the paper's 1,000 validation rows, or from a
  file of the user's; a file whose fitting rows hold the judged rows is refused
  (``capqa.verdicts.thresholds.check_not_fitted_on``), and so is a bare number, whose origin
  nothing records;
- ``folds``: K cross-validation folds split by question: each row is judged by the threshold
  chosen (Youden's J, as the shipped ones) on the other folds' rows.

Token F1 is always judged the second way, on the same folds.
"""

from dataclasses import dataclass, field
from typing import List, Optional

import numpy as np

from capqa.common.constants import COMPARISON_DECIMALS
from capqa.verdicts.judge import Verdict, VerdictOption, resolve_verdict
from capqa.verdicts.thresholds import check_not_fitted_on, cross_validated_verdicts

THRESHOLD_SOURCES = ("shipped", "folds")
DEFAULT_POLICY = "strict"
DEFAULT_FOLDS = 5
SCORE_LABELS = {"cap": "CAP", "cap_plus": "CAP+"}


@dataclass(frozen=True)
class Judged:
    """A score's verdicts on the judged rows, and how its threshold was chosen: ``cuts`` holds the
    one shipped threshold, or each fold's."""

    accepted: np.ndarray = field(repr=False)
    how: str
    cuts: List[dict]

    def thresholds_text(self) -> str:
        values = [cut["threshold"] for cut in self.cuts]
        if len(values) == 1:
            return f"{values[0]:.4f}"
        return f"{min(values):.4f}–{max(values):.4f} over {len(values)} folds"

    def to_json(self) -> dict:
        return {"how": self.how, "cuts": self.cuts}


def resolve_threshold(threshold: str, verdict: VerdictOption, variant: str,
                      thresholds_path: Optional[str] = None) -> Optional[Verdict]:
    """The ``Verdict`` whose shipped threshold judges CAP (None under ``folds``), checked before
    any model loads."""
    if threshold not in THRESHOLD_SOURCES:
        raise ValueError(f"`threshold` must be one of {', '.join(THRESHOLD_SOURCES)}, got {threshold!r}")
    if threshold == "folds":
        if thresholds_path is not None:
            raise ValueError("`thresholds` (a thresholds file) is for threshold='shipped'; under 'folds' every "
                             "threshold is chosen on the other folds' rows")
        return None
    if isinstance(verdict, (int, float)) and not isinstance(verdict, bool):
        raise ValueError(f"`verdict` {verdict!r} is a bare threshold, and nothing records which rows it was chosen on: "
                         f"give a policy ({DEFAULT_POLICY!r}, 'lenient', 'graded' or {{class: credit}}), whose threshold "
                         "was fitted on other rows, or threshold='folds'")
    return resolve_verdict(DEFAULT_POLICY if verdict is None else verdict, variant, thresholds_path)


def shipped_verdicts(scores: np.ndarray, verdict: Verdict, thresholds_path: Optional[str] = None) -> Judged:
    """Each row judged by ``verdict``'s threshold, once its thresholds file is shown not to be
    fitted on these rows."""
    check_not_fitted_on(scores, verdict.score, thresholds_path)
    accepted = np.round(np.asarray(scores, dtype=float), COMPARISON_DECIMALS) >= verdict.threshold
    where = ("the package's thresholds file (the paper's 1,000 validation rows)" if thresholds_path is None
             else f"the thresholds file {thresholds_path}")
    how = (f"{SCORE_LABELS.get(verdict.score, verdict.score)} >= {verdict.threshold:.4f}, the `{verdict.policy}` "
           f"threshold of {where}")
    return Judged(accepted, how, [{"threshold": float(verdict.threshold), "policy": verdict.policy,
                                   "source": verdict.source}])


def fold_verdicts(scores: np.ndarray, human: np.ndarray, folds: np.ndarray, label: str) -> Judged:
    """Each row judged by the threshold chosen on the other folds' rows."""
    accepted, cuts = cross_validated_verdicts(scores, human, folds)
    how = (f"{label} >= each fold's threshold, chosen (Youden's J) on the other {len(cuts) - 1} of {len(cuts)} "
           "folds split by question")
    return Judged(accepted, how, cuts)

