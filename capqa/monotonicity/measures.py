"""The paper's monotonicity diagnostic: does a metric's score respect the order of the classes?

Pure numpy/scipy. Every statistic comes from one weighted computation over the rows sorted by
score: with all weights 1 it gives the exact point estimate, with the multiplicity of each row in
a bootstrap resample it gives that resample's value. Counting pairs this way costs one sort per
metric and a cumulative sum per class (O(n log n)), never a loop over the n^2 pairs, and it runs
on a whole block of resamples at once.

Definitions (the paper's): two rows are comparable when their severities differ; a *win* means
the more correct row has the strictly higher score, a tie never wins. accuracy = wins / pairs,
AUC = (wins + ties / 2) / pairs. Scores are rounded to ``COMPARISON_DECIMALS`` first.
"""

import numbers
import warnings
from dataclasses import dataclass
from functools import cached_property
from typing import Mapping, Optional, Sequence, Tuple

import numpy as np
from scipy import stats

from capqa.common.constants import COMPARISON_DECIMALS, HARD_PAIRS, SEVERITY
from capqa.common.quoting import quote, quote_all
from capqa.common.validation import check_finite_scores, check_same_length

CORRELATION_STATISTICS = ("spearman", "kendall", "pairwise_accuracy")
CONFIDENCE = 0.95


# --- Inputs ----------------------------------------------------------------------------------

def check_severity(severity: Optional[Mapping[str, int]] = None) -> dict:
    """A {label: severity} mapping (the paper's when None); returns a new dict."""
    if severity is None:
        return dict(SEVERITY)
    if not isinstance(severity, dict) or not severity:
        raise TypeError(f"`severity` must be a non-empty dict {{label: number}}, got {quote(severity)}")
    checked = {}
    for label, value in severity.items():
        if not isinstance(label, str) or not label.strip():
            raise TypeError(f"`severity` keys must be label names (strings), got {quote(label)}")
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
            raise TypeError(f"`severity[{quote(label)}]` must be a finite number, got {quote(value)}")
        checked[label] = float(value)
    return checked


def check_hard_pairs(hard_pairs: Optional[Sequence[tuple]], severity: Mapping[str, int]) -> list:
    """(better, worse) label pairs; None means the paper's pairs whose labels ``severity`` has."""
    if hard_pairs is None:
        return tuple(pair for pair in HARD_PAIRS if all(label in severity for label in pair))
    if isinstance(hard_pairs, str) or not hasattr(hard_pairs, "__iter__"):
        raise TypeError(f"`hard_pairs` must be a list of (better, worse) pairs, got {hard_pairs!r}")
    pairs = tuple(tuple(pair) for pair in hard_pairs)
    for pair in pairs:
        if len(pair) != 2 or any(label not in severity for label in pair):
            raise ValueError(f"`hard_pairs` entries must be (better, worse) pairs of labels from "
                             f"{sorted(severity)}, got {pair!r}")
        better, worse = pair
        if severity[better] <= severity[worse]:
            raise ValueError(f"`hard_pairs` entries must be (better, worse) pairs, but {better!r} (severity "
                             f"{severity[better]:g}) is not above {worse!r} (severity {severity[worse]:g}) in {pair!r}")
    return pairs


@dataclass(frozen=True)
class LabelledRows:
    """The labels of the rows, as indices into ``classes`` (present classes, taxonomy order)."""
    classes: tuple
    class_index: np.ndarray
    class_severity: np.ndarray

    @property
    def n_rows(self) -> int:
        return self.class_index.size

    def class_pairs(self) -> list:
        """(better, worse) index pairs of classes with different severity, taxonomy order."""
        order = range(len(self.classes))
        return [(a, b) if self.class_severity[a] > self.class_severity[b] else (b, a)
                for a in order for b in order
                if a < b and self.class_severity[a] != self.class_severity[b]]


def prepare_labels(labels: Sequence[str], severity: Optional[Mapping[str, int]] = None,
                   name: str = "labels") -> "LabelledRows":
    """Checks labels against the severity map; absent classes are dropped."""
    severity = check_severity(severity)
    if isinstance(labels, str) or not hasattr(labels, "__len__"):
        raise TypeError(f"`{name}` must be a list of class names, got {type(labels).__name__}")
    labels = np.asarray(labels, dtype=object)
    if labels.ndim != 1 or labels.size == 0:
        raise ValueError(f"`{name}` must be a non-empty one-dimensional list of class names")
    unknown = sorted({str(label) for label in labels if label not in severity})
    if unknown:
        raise ValueError(f"`{name}` contains unknown classes [{quote_all(unknown, 5)}]; expected one of "
                         f"[{quote_all(severity)}] (pass `severity` to use other classes)")
    # Taxonomy order: most severe-correct first, ties kept in the severity map's order.
    ranked = sorted(severity, key=lambda label: -severity[label])
    classes = tuple(label for label in ranked if np.any(labels == label))
    lookup = {label: i for i, label in enumerate(classes)}
    class_index = np.fromiter((lookup[label] for label in labels), dtype=np.int64, count=labels.size)
    class_severity = np.array([severity[label] for label in classes], dtype=float)
    return LabelledRows(classes, class_index, class_severity)


def prepare_scores(scores: Sequence[float], n_rows: int, name: str = "scores",
                   labels_name: str = "labels") -> np.ndarray:
    """Finite 1-d floats of the right length, rounded the way the paper compares them."""
    array = check_finite_scores(scores, name)
    check_same_length(array, name, range(n_rows), labels_name)
    return np.round(array.astype(np.float64), COMPARISON_DECIMALS)


# --- The weighted computation ----------------------------------------------------------------

class ScoreOrder:
    """One metric's rows, grouped by class and sorted by score inside each class.

    For every pair of classes (a, c) it precomputes, for each class-a row, how many class-c rows
    score strictly lower (``below[a][c]``) and lower or equal (``upto[a][c]``). A block of
    resamples then needs, per class, one cumulative sum of its weights and one gather per pair.
    """

    def __init__(self, scores, rows):
        self.scores = scores
        self.rows = rows
        n_classes = len(rows.classes)
        # Row indices of each class in increasing score order, and their sorted scores.
        self.class_rows = []
        for c in range(n_classes):
            members = np.flatnonzero(rows.class_index == c)
            self.class_rows.append(members[np.argsort(scores[members], kind="stable")])
        self.class_scores = [scores[members] for members in self.class_rows]
        self.below = [[np.searchsorted(other, mine, side="left") for other in self.class_scores]
                      for mine in self.class_scores]
        self.upto = [[np.searchsorted(other, mine, side="right") for other in self.class_scores]
                     for mine in self.class_scores]
        sorted_scores = np.sort(scores)
        self.has_ties = bool(np.any(sorted_scores[1:] == sorted_scores[:-1]))

    @cached_property
    def point_tables(self) -> dict:
        """The tables with every row counted once: the exact point estimates."""
        return weighted_tables(self, np.ones((1, self.rows.n_rows)))


@dataclass
class WeightedTables:
    """Sufficient statistics of one metric for a block of resamples (leading axis)."""
    class_weight: np.ndarray   # (B, C) rows per class
    class_sum: np.ndarray      # (B, C) sum of scores per class
    pair_wins: np.ndarray      # (B, C, C) [a, c]: pairs where the class-a row scores higher
    pair_ties: np.ndarray      # (B, C, C) [a, c]: pairs with equal scores
    spearman: np.ndarray       # (B,)
    tied_score_pairs: np.ndarray  # (B,) pairs (any classes) with equal scores, for Kendall tau-b


def _row_dot(left, right):
    return np.einsum("ij,ij->i", left, right)


def weighted_tables(order: "ScoreOrder", weights: np.ndarray) -> dict:
    """All counts for row weights (B, n); exact integers in float64 while counts < 2**53."""
    weights = np.asarray(weights, dtype=np.float64)
    per_class = [np.take(weights, members, axis=1) for members in order.class_rows]
    cumulative = [np.concatenate([np.zeros((weights.shape[0], 1)), np.cumsum(w, axis=1)], axis=1)
                  for w in per_class]
    n_blocks, n_classes = weights.shape[0], len(per_class)
    pair_wins = np.zeros((n_blocks, n_classes, n_classes))
    pair_ties = np.zeros_like(pair_wins)
    score_rank_sums = np.zeros((3, n_blocks, n_classes))   # sum w, sum w*x, sum w*x^2 per class
    tied_weight = np.zeros(n_blocks)
    for a, w in enumerate(per_class):
        below_total = np.zeros_like(w)
        # Without ties every row is its own tie group.
        group_weight = np.zeros_like(w) if order.has_ties else w
        for c, cum in enumerate(cumulative):
            below = np.take(cum, order.below[a][c], axis=1)
            pair_wins[:, a, c] = _row_dot(w, below)
            below_total += below
            if order.has_ties:
                equal = np.take(cum, order.upto[a][c], axis=1) - below
                pair_ties[:, a, c] = _row_dot(w, equal)
                group_weight += equal
        # Average rank of each row's score among the resampled rows (ties share their mean).
        score_rank = below_total + (group_weight + 1.0) / 2.0
        weighted_rank = w * score_rank
        score_rank_sums[:, :, a] = w.sum(axis=1), weighted_rank.sum(axis=1), _row_dot(weighted_rank, score_rank)
        tied_weight += _row_dot(w, group_weight)
    class_weight = score_rank_sums[0]
    class_sum = np.stack([w @ s for w, s in zip(per_class, order.class_scores)], axis=1)
    spearman = _spearman(score_rank_sums, order.rows.class_severity)
    # Each tie group g adds W_g^2 = sum over its rows of w * W_g; a pair is W_g (W_g - 1) / 2.
    tied_score_pairs = (tied_weight - class_weight.sum(axis=1)) / 2.0
    return WeightedTables(class_weight, class_sum, pair_wins, pair_ties, spearman, tied_score_pairs)


def _spearman(score_rank_sums, class_severity):
    """Pearson correlation of score ranks with severity ranks, both averaged over ties.

    All rows of a class share one severity rank, so only per-class sums of the score ranks
    are needed.
    """
    class_weight, rank_sum, rank_square_sum = score_rank_sums
    lower = (class_severity[None, :] < class_severity[:, None]).astype(float)   # [c, d]: d below c
    same = (class_severity[None, :] == class_severity[:, None]).astype(float)
    severity_rank = class_weight @ lower.T + (class_weight @ same.T + 1.0) / 2.0
    total = class_weight.sum(axis=1)
    sum_x, sum_y = rank_sum.sum(axis=1), (class_weight * severity_rank).sum(axis=1)
    covariance = (rank_sum * severity_rank).sum(axis=1) - sum_x * sum_y / total
    variance_x = rank_square_sum.sum(axis=1) - sum_x ** 2 / total
    variance_y = (class_weight * severity_rank ** 2).sum(axis=1) - sum_y ** 2 / total
    with np.errstate(invalid="ignore", divide="ignore"):
        return covariance / np.sqrt(variance_x * variance_y)


# --- Statistics from the tables --------------------------------------------------------------

def ratio(numerator, denominator):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def class_pair_counts(tables: dict, rows: "LabelledRows") -> dict:
    """{"pairs", "wins", "ties", "losses"}: (B, P) arrays over ``rows.class_pairs()``."""
    pairs = np.array(rows.class_pairs(), dtype=int).reshape(-1, 2)
    better, worse = pairs[:, 0], pairs[:, 1]
    wins = tables.pair_wins[:, better, worse]
    ties = tables.pair_ties[:, better, worse]
    losses = tables.pair_wins[:, worse, better]
    pairs = tables.class_weight[:, better] * tables.class_weight[:, worse]
    return {"pairs": pairs, "wins": wins, "ties": ties, "losses": losses}


def overall_statistics(tables: dict, rows: "LabelledRows") -> dict:
    """Pair counts over all comparable pairs, pairwise accuracy, Spearman and Kendall tau-b."""
    counts = {key: value.sum(axis=1) for key, value in class_pair_counts(tables, rows).items()}
    total = tables.class_weight.sum(axis=1)
    all_pairs = total * (total - 1.0) / 2.0
    # tau-b: (concordant - discordant) / sqrt((pairs untied in score) * (pairs untied in
    # severity)); the comparable pairs are exactly the pairs untied in severity.
    untied_score = all_pairs - tables.tied_score_pairs
    with np.errstate(invalid="ignore", divide="ignore"):
        kendall = (counts["wins"] - counts["losses"]) / np.sqrt(untied_score * counts["pairs"])
    return {**counts, "pairwise_accuracy": ratio(counts["wins"], counts["pairs"]),
            "spearman": tables.spearman, "kendall": kendall}


def class_means(tables: dict) -> np.ndarray:
    return ratio(tables.class_sum, tables.class_weight)


# --- Point estimates -------------------------------------------------------------------------

def class_pair_records(order: "ScoreOrder", hard_pairs: Optional[Sequence[tuple]] = None) -> list:
    """One dict per class pair: counts, accuracy, AUC, means and whether the means violate."""
    rows, tables = order.rows, order.point_tables
    counts = {key: value[0] for key, value in class_pair_counts(tables, rows).items()}
    means = class_means(tables)[0]
    hard = set(map(tuple, hard_pairs))
    records = []
    for p, (a, b) in enumerate(rows.class_pairs()):
        pairs, wins, ties = counts["pairs"][p], counts["wins"][p], counts["ties"][p]
        records.append({
            "better": rows.classes[a], "worse": rows.classes[b],
            "hard_pair": (rows.classes[a], rows.classes[b]) in hard,
            "n_better": int(tables.class_weight[0, a]), "n_worse": int(tables.class_weight[0, b]),
            "pairs": int(pairs), "wins": int(wins), "ties": int(ties),
            "losses": int(counts["losses"][p]),
            "accuracy": float(wins / pairs), "auc": float((wins + ties / 2) / pairs),
            "violation_rate": float(counts["losses"][p] / pairs),
            "mean_better": float(means[a]), "mean_worse": float(means[b]),
            "mean_violation": bool(means[b] > means[a]),
        })
    return records


def correlation_record(order: "ScoreOrder") -> dict:
    """Spearman, Kendall tau-b (scipy, with p-values) and the exact pair counts."""
    severity = order.rows.class_severity[order.rows.class_index]
    with warnings.catch_warnings():
        # scipy's own warning does not say which input; ours below does.
        warnings.simplefilter("ignore", stats.ConstantInputWarning)
        spearman = stats.spearmanr(order.scores, severity)
        kendall = stats.kendalltau(order.scores, severity)
    if np.ptp(order.scores) == 0:
        warnings.warn("`scores` are all equal (after rounding to 10 decimals): Spearman and Kendall "
                      "are undefined and reported as NaN; pair counts count every pair as a tie",
                      RuntimeWarning, stacklevel=2)
    overall = overall_statistics(order.point_tables, order.rows)
    return {
        "n": order.rows.n_rows,
        "spearman": float(spearman.statistic), "spearman_p": float(spearman.pvalue),
        "kendall": float(kendall.statistic), "kendall_p": float(kendall.pvalue),
        "pairwise_accuracy": float(overall["pairwise_accuracy"][0]),
        "comparable_pairs": int(overall["pairs"][0]), "pair_wins": int(overall["wins"][0]),
        "pair_ties": int(overall["ties"][0]), "pair_losses": int(overall["losses"][0]),
    }


def descriptive_records(order: "ScoreOrder") -> list:
    records = []
    for c, label in enumerate(order.rows.classes):
        values = order.scores[order.rows.class_index == c]
        p05, median, p95 = np.percentile(values, [5, 50, 95])
        records.append({
            "label": label, "severity": order.rows.class_severity[c], "n": int(values.size),
            "mean": float(values.mean()),
            "std": float(values.std(ddof=1)) if values.size > 1 else float("nan"),
            "min": float(values.min()), "p05": float(p05), "median": float(median),
            "p95": float(p95), "max": float(values.max()),
        })
    return records


def monotonicity_record(pair_records: list, correlation: dict) -> dict:
    violations = sum(record["mean_violation"] for record in pair_records)
    return {
        "class_pairs": len(pair_records), "mean_violations": violations,
        "mean_violation_rate": violations / len(pair_records) if pair_records else float("nan"),
        "row_level_violation_rate": float(ratio(correlation["pair_losses"],
                                                 correlation["comparable_pairs"])),
    }


def check_inputs(scores: Sequence[float], labels: Sequence[str], severity: Optional[Mapping[str, int]] = None,
                 hard_pairs: Optional[Sequence[tuple]] = None, scores_name: str = "scores",
                 labels_name: str = "labels") -> Tuple["ScoreOrder", Sequence[tuple]]:
    """Validated (ScoreOrder, hard_pairs); errors name the argument and what was expected."""
    rows = prepare_labels(labels, severity, labels_name)
    if len(set(rows.class_severity)) < 2:
        # Nothing is comparable: every statistic would be NaN.
        raise ValueError(f"`{labels_name}` must hold classes of at least two different severities; "
                         f"it holds only {', '.join(rows.classes)}")
    hard_pairs = check_hard_pairs(hard_pairs, check_severity(severity))
    return ScoreOrder(prepare_scores(scores, rows.n_rows, scores_name, labels_name), rows), hard_pairs


def monotonicity_report(scores: Sequence[float], labels: Sequence[str],
                        severity: Optional[Mapping[str, int]] = None,
                        hard_pairs: Optional[Sequence[tuple]] = None) -> dict:
    """The diagnostic of one metric, as the ``monotonicity`` evaluate module returns it."""
    order, hard_pairs = check_inputs(scores, labels, severity, hard_pairs)
    pairs = class_pair_records(order, hard_pairs)
    correlation = correlation_record(order)
    means = {record["label"]: record["mean"] for record in descriptive_records(order)}
    return {
        "pairwise_accuracy": correlation["pairwise_accuracy"],
        "wins": correlation["pair_wins"], "ties": correlation["pair_ties"],
        "losses": correlation["pair_losses"], "comparable_pairs": correlation["comparable_pairs"],
        "spearman": correlation["spearman"], "kendall": correlation["kendall"],
        **monotonicity_record(pairs, correlation),
        "class_means": means,
        "pairs": pairs,
    }
