"""The binary report of a verdict: how often thresholded scores agree with the labels.

Accuracy, balanced accuracy, F1 (correct = positive), Cohen's kappa against the labels' verdicts,
and the AUROC of the raw score (ties count one half). Every statistic is computed from row
weights, as the monotonicity diagnostic does: all ones for the point estimate, a bootstrap
resample's multiplicities (``capqa.monotonicity.bootstrap.resample_weights``, the same
generator, so metrics share their resamples; of rows, or of clusters such as questions) for the
intervals.
"""

from typing import Dict, List, Mapping, Optional

import numpy as np
from numpy.typing import ArrayLike
from tqdm.auto import tqdm

from capqa.common.constants import COMPARISON_DECIMALS, LABELS
from capqa.common.validation import check_finite_scores, check_same_length
from capqa.monotonicity.bootstrap import cluster_codes, percentile_interval, resample_weights
from capqa.monotonicity.measures import CONFIDENCE
from capqa.verdicts.policies import accepted_classes, binary_targets
from capqa.verdicts.thresholds import choose_threshold

BINARY_STATISTICS = ("accuracy", "balanced_accuracy", "f1", "kappa", "auroc")


class _ScoreRanks:
    """Rows grouped by distinct (rounded) score, for the AUROC of any row weights."""

    def __init__(self, scores: np.ndarray, targets: np.ndarray) -> None:
        rounded = np.round(scores, COMPARISON_DECIMALS)
        self.values, self.group = np.unique(rounded, return_inverse=True)
        self.targets = targets

    def auroc(self, weights: np.ndarray) -> np.ndarray:
        """(B,) P(score of a correct row > an incorrect one's) + half the ties, per weight row."""
        n_groups = len(self.values)
        offsets = np.arange(weights.shape[0])[:, None] * n_groups
        index = (self.group[None, :] + offsets).ravel()

        def per_group(mask: np.ndarray) -> np.ndarray:
            sums = np.bincount(index, (weights * mask).ravel(), weights.shape[0] * n_groups)
            return sums.reshape(weights.shape[0], n_groups)

        positive, negative = per_group(self.targets), per_group(~self.targets)
        negative_below = np.cumsum(negative, axis=1) - negative
        wins = (positive * (negative_below + negative / 2.0)).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return wins / (positive.sum(axis=1) * negative.sum(axis=1))


def confusion_statistics(accepted: np.ndarray, targets: np.ndarray, weights: np.ndarray) -> Dict[str, np.ndarray]:
    """{accuracy, balanced_accuracy, f1, kappa: (B,)} of verdicts ``accepted`` against ``targets``
    (bool, one per row) for (B, n) row weights; NaN where a statistic is undefined (Cohen's kappa
    when chance agreement is 1: every row in one class and every verdict the same)."""
    def total(mask: np.ndarray) -> np.ndarray:
        return weights @ mask.astype(float)

    tp, fp = total(accepted & targets), total(accepted & ~targets)
    fn, tn = total(~accepted & targets), total(~accepted & ~targets)
    n = tp + fp + fn + tn
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = (tp + tn) / n
        chance = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / n ** 2
        return {"accuracy": accuracy,
                "balanced_accuracy": (tp / (tp + fn) + tn / (tn + fp)) / 2.0,
                "f1": 2.0 * tp / (2.0 * tp + fp + fn),
                "kappa": (accuracy - chance) / (1.0 - chance)}


def weighted_statistics(accepted: np.ndarray, targets: np.ndarray, ranks: _ScoreRanks,
                        weights: np.ndarray) -> Dict[str, np.ndarray]:
    """{statistic: (B,)} for (B, n) row weights: ``confusion_statistics`` and the AUROC."""
    return {**confusion_statistics(accepted, targets, weights), "auroc": ranks.auroc(weights)}


def class_errors(accepted: np.ndarray, labels: np.ndarray, credits: Mapping[str, float]) -> List[dict]:
    """Per class: how many rows, how many accepted, and how often the verdict is wrong."""
    correct_classes = set(accepted_classes(credits))
    errors = accepted != np.isin(labels, list(correct_classes))
    records = []
    for label in LABELS:
        in_class = labels == label
        if not in_class.any():
            continue
        counts_as_correct = label in correct_classes
        records.append({
            "class": label, "counts_as_correct": counts_as_correct, "rows": int(in_class.sum()),
            "accepted": int(accepted[in_class].sum()),
            # Wrongly rejected rows of a correct class, wrongly accepted rows of an incorrect one.
            "error_rate": float(errors[in_class].mean()),
            "error": "wrongly rejected" if counts_as_correct else "wrongly accepted",
            "share_of_errors": float(errors[in_class].sum() / max(errors.sum(), 1)),
        })
    return records


def binary_report(scores: ArrayLike, labels: ArrayLike, credits: Mapping[str, float], threshold: float,
                  n_resamples: int = 0, seed: int = 42, clusters: Optional[ArrayLike] = None) -> dict:
    """Point estimates (and percentile intervals when resampling) of one score under one policy.

    ``n_resamples`` 0: no intervals. ``verdict_table`` bootstraps many metrics on shared resamples.
    ``clusters``: one cluster id per row (e.g. the question); the bootstrap then draws clusters.
    """
    scores = check_finite_scores(scores, "scores")
    labels = np.asarray(labels, dtype=object)
    check_same_length(scores, "scores", labels, "labels")
    targets = binary_targets(labels, credits)
    accepted = np.round(scores, COMPARISON_DECIMALS) >= threshold
    ranks = _ScoreRanks(scores, targets)
    point = weighted_statistics(accepted, targets, ranks, np.ones((1, len(scores))))
    report = {"threshold": float(threshold), "rows": int(len(scores)), "correct_rows": int(targets.sum()),
              "accepted_rows": int(accepted.sum()),
              **{name: float(value[0]) for name, value in point.items()}}
    if n_resamples:
        codes = None if clusters is None else _cluster_codes(clusters, len(scores))
        draws = [weighted_statistics(accepted, targets, ranks, block)
                 for block in resample_weights(len(scores), n_resamples, seed, clusters=codes)]
        for name in BINARY_STATISTICS:
            low, high = percentile_interval(np.concatenate([draw[name] for draw in draws]), CONFIDENCE)
            report[f"{name}_ci_low"], report[f"{name}_ci_high"] = float(low), float(high)
    report["classes"] = class_errors(accepted, labels, credits)
    return report


def verdict_table(fit_scores: Mapping[str, np.ndarray], fit_labels: ArrayLike,
                  eval_scores: Mapping[str, np.ndarray], eval_labels: ArrayLike, policies: Mapping[str, Mapping[str, float]], n_resamples: int = 0,
                  seed: int = 42, progress: bool = True, eval_clusters: Optional[ArrayLike] = None) -> List[dict]:
    """One record per (policy, metric): the threshold chosen on the fitting rows, then the binary
    report on the evaluation rows, all metrics and policies on the same bootstrap resamples
    (of ``eval_clusters``, one id per evaluation row, when given; else of rows)."""
    eval_labels = np.asarray(eval_labels, dtype=object)
    records, judged = [], []
    for policy, credits in policies.items():
        for metric in eval_scores:
            cut = choose_threshold(fit_scores[metric], binary_targets(fit_labels, credits))
            report = binary_report(eval_scores[metric], eval_labels, credits, cut["threshold"])
            records.append({"policy": policy, "metric": metric, **report})
            scores = np.asarray(eval_scores[metric], dtype=float)
            targets = binary_targets(eval_labels, credits)
            judged.append((np.round(scores, COMPARISON_DECIMALS) >= cut["threshold"], targets,
                           _ScoreRanks(scores, targets)))
    if n_resamples:
        # Blocks outside, metrics inside: one block of weights in memory, shared by every metric.
        draws = [{name: [] for name in BINARY_STATISTICS} for _ in judged]
        with tqdm(total=n_resamples, desc="verdict bootstrap", unit="resample", disable=not progress) as bar:
            codes = None if eval_clusters is None else _cluster_codes(eval_clusters, len(eval_labels))
            for block in resample_weights(len(eval_labels), n_resamples, seed, clusters=codes):
                for (accepted, targets, ranks), drawn in zip(judged, draws):
                    for name, values in weighted_statistics(accepted, targets, ranks, block).items():
                        drawn[name].append(values)
                bar.update(block.shape[0])
        for record, drawn in zip(records, draws):
            for name in BINARY_STATISTICS:
                low, high = percentile_interval(np.concatenate(drawn[name]), CONFIDENCE)
                record[f"{name}_ci_low"], record[f"{name}_ci_high"] = float(low), float(high)
    return records


def _cluster_codes(clusters: ArrayLike, n_rows: int) -> np.ndarray:
    codes = cluster_codes(clusters, "clusters")
    check_same_length(codes, "clusters", range(n_rows), "scores")
    return codes


def most_wrongly_accepted(report: dict) -> Optional[dict]:
    """The incorrect class accepted most often (by rate), or None when none is ever accepted."""
    wrong = [record for record in report["classes"] if not record["counts_as_correct"] and record["error_rate"] > 0]
    return max(wrong, key=lambda record: record["error_rate"]) if wrong else None


def most_wrongly_rejected(report: dict) -> Optional[dict]:
    """The correct class rejected most often (by rate), or None when none is ever rejected."""
    right = [record for record in report["classes"] if record["counts_as_correct"] and record["error_rate"] > 0]
    return max(right, key=lambda record: record["error_rate"]) if right else None
