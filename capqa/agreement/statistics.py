"""Accuracy and Cohen's kappa of verdicts against the human judgement, with bootstrap CIs that
resample questions, not rows.

A question's answers share its difficulty and its gold answers, so its rows are drawn together:
a resample draws questions with replacement and every row weighs as often as its question was
drawn (``capqa.monotonicity.bootstrap.resample_weights``, the generator of every bootstrap of the
package), and the statistics are computed from those weights (``capqa.verdicts.report.
confusion_statistics``). Every method of a group is measured on the same resamples.
"""

from dataclasses import dataclass
from typing import Dict, Mapping

import numpy as np

from capqa.compare.significance import Estimate
from capqa.monotonicity.bootstrap import percentile_interval, resample_weights
from capqa.monotonicity.measures import CONFIDENCE
from capqa.verdicts.report import confusion_statistics

STATISTICS = ("accuracy", "kappa")


@dataclass(frozen=True)
class Agreement:
    """One method's agreement with the human judgement on one group of rows."""

    accuracy: Estimate
    kappa: Estimate

    def to_json(self) -> dict:
        return {"accuracy": self.accuracy.to_json(), "kappa": self.kappa.to_json()}


def agreement(verdicts: Mapping[str, np.ndarray], human: np.ndarray, clusters: np.ndarray, n_resamples: int = 1000,
              seed: int = 42, confidence: float = CONFIDENCE) -> Dict[str, Agreement]:
    """{method: Agreement} of each method's verdicts (bool per row) against ``human`` (bool per
    row), with percentile intervals of ``n_resamples`` resamples of the ``clusters`` (one code per
    row; 0 resamples, or a single cluster, leave the intervals undefined, NaN)."""
    human = np.asarray(human, dtype=bool)
    _, codes = np.unique(np.asarray(clusters), return_inverse=True)
    verdicts = {method: np.asarray(values, dtype=bool) for method, values in verdicts.items()}
    point = {method: confusion_statistics(values, human, np.ones((1, len(human))))
             for method, values in verdicts.items()}
    draws = {method: {name: [] for name in STATISTICS} for method in verdicts}
    if n_resamples and codes.max(initial=0) > 0:
        for weights in resample_weights(len(human), n_resamples, seed, clusters=codes):
            for method, values in verdicts.items():
                drawn = confusion_statistics(values, human, weights)
                for name in STATISTICS:
                    draws[method][name].append(drawn[name])
    return {method: Agreement(*(_estimate(point[method][name][0], draws[method][name], confidence)
                                for name in STATISTICS))
            for method in verdicts}


def _estimate(value: float, drawn: list, confidence: float) -> Estimate:
    if not drawn:
        return Estimate(float(value), float("nan"), float("nan"))
    resampled = np.concatenate(drawn)
    if np.isnan(resampled).all():   # kappa of a group with one class only: undefined in every resample
        return Estimate(float(value), float("nan"), float("nan"))
    low, high = percentile_interval(resampled, confidence)
    return Estimate(float(value), float(low), float(high))
