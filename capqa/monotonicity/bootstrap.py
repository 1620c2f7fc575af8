"""Bootstrap confidence intervals for the monotonicity diagnostic, and the full diagnostic tables.

Resamples are drawn as row multiplicities (a weight per row) and evaluated in blocks through the
same weighted computation as the point estimate (``capqa.monotonicity.measures``), so a
10,000-resample table costs a few sorts and matrix products, not 10,000 passes over the pairs.
"""

from dataclasses import dataclass
from typing import Iterator, Mapping, Optional, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from capqa.common.validation import check_positive_int, check_same_length
from capqa.monotonicity.measures import (CONFIDENCE, CORRELATION_STATISTICS, ScoreOrder, check_hard_pairs,
                                         check_severity, class_means, class_pair_counts, class_pair_records,
                                         correlation_record, descriptive_records, monotonicity_record,
                                         overall_statistics, prepare_labels, prepare_scores, ratio, weighted_tables)

# Resamples handled together: a (block x rows) float64 matrix per class stays around 20 MB.
BOOTSTRAP_BLOCK = 300


def resample_weights(n_rows: int, n_resamples: int, seed: int, block: int = BOOTSTRAP_BLOCK,
                     clusters: Optional[np.ndarray] = None) -> Iterator[np.ndarray]:
    """Yields (B, n) multiplicities of each row in blocks of percentile-bootstrap resamples.

    One generator feeds every metric, so differences between metrics are paired. ``clusters``
    (cluster codes 0..C-1 per row, from ``cluster_codes``): whole clusters (e.g. the answers to
    one question) are drawn with replacement, and each row weighs as often as its cluster was
    drawn. With every row its own cluster the resamples are exactly the row bootstrap's.
    """
    rng = np.random.default_rng(seed)
    units = n_rows if clusters is None else int(clusters.max(initial=-1)) + 1
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        drawn = rng.integers(0, units, size=(size, units))
        offsets = np.arange(size)[:, None] * units
        counts = np.bincount((drawn + offsets).ravel(), minlength=size * units).reshape(size, units)
        yield counts if clusters is None else counts[:, clusters]


def cluster_codes(values: Sequence, name: str = "clusters") -> np.ndarray:
    """(n,) int codes of the cluster of each row, numbered by first appearance; an empty or
    missing value is an error naming ``name`` and the row."""
    series = pd.Series(list(values), dtype=object)
    missing = series.isna() | series.astype(str).str.strip().eq("")
    if missing.any():
        raise ValueError(f"`{name}` is empty at row {int(np.flatnonzero(missing.to_numpy())[0])}: every row "
                         "needs the cluster (e.g. the question) it belongs to")
    codes, _ = pd.factorize(series.astype(str), sort=False)
    return codes.astype(np.int64)


@dataclass
class BootstrapDistribution:
    """One metric's statistics over the resamples."""
    spearman: np.ndarray
    kendall: np.ndarray
    pairwise_accuracy: np.ndarray
    class_means: np.ndarray        # (R, C)
    pair_accuracy: np.ndarray      # (R, P)
    pair_auc: np.ndarray           # (R, P)


def _block_statistics(order, weights):
    tables = weighted_tables(order, weights)
    overall = overall_statistics(tables, order.rows)
    pairs = class_pair_counts(tables, order.rows)
    return {
        "spearman": overall["spearman"], "kendall": overall["kendall"],
        "pairwise_accuracy": overall["pairwise_accuracy"], "class_means": class_means(tables),
        "pair_accuracy": ratio(pairs["wins"], pairs["pairs"]),
        "pair_auc": ratio(pairs["wins"] + pairs["ties"] / 2, pairs["pairs"]),
    }


def bootstrap(orders: Mapping[str, ScoreOrder], n_resamples: int = 10_000, seed: int = 42,
              progress: bool = True, clusters: Optional[np.ndarray] = None) -> dict:
    """{metric: BootstrapDistribution} for {metric: ScoreOrder} sharing the same rows
    (``clusters``: resample whole clusters, see ``resample_weights``)."""
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    n_rows = next(iter(orders.values())).rows.n_rows
    blocks = {name: [] for name in orders}
    with tqdm(total=n_resamples, desc="bootstrap", unit="resample", disable=not progress) as bar:
        for weights in resample_weights(n_rows, n_resamples, seed, clusters=clusters):
            for name, order in orders.items():
                blocks[name].append(_block_statistics(order, weights))
            bar.update(weights.shape[0])
    return {name: BootstrapDistribution(**{key: np.concatenate([b[key] for b in parts])
                                           for key in parts[0]})
            for name, parts in blocks.items()}


def percentile_interval(values: np.ndarray, confidence: float = CONFIDENCE) -> tuple:
    """(low, high) percentile interval along the first axis, ignoring undefined resamples."""
    tail = 100.0 * (1.0 - confidence) / 2.0
    low, high = np.nanpercentile(values, [tail, 100.0 - tail], axis=0)
    return low, high


def paired_difference_records(distributions: Mapping, reference: str, confidence: float = CONFIDENCE) -> list:
    """Reference minus each other metric on the same resamples, with a one-sided p-value."""
    records = []
    for name, distribution in distributions.items():
        if name == reference:
            continue
        for statistic in CORRELATION_STATISTICS:
            difference = getattr(distributions[reference], statistic) - getattr(distribution, statistic)
            low, high = percentile_interval(difference, confidence)
            records.append({
                "reference": reference, "metric": name, "statistic": statistic,
                "mean_difference": float(np.nanmean(difference)),
                "ci_low": float(low), "ci_high": float(high),
                # Share of resamples where the reference is not better: P(difference <= 0).
                "p_reference_not_better": float(np.mean(difference <= 0)),
            })
    return records


# --- The full table --------------------------------------------------------------------------

def diagnostic_tables(score_columns: Mapping[str, Sequence[float]], labels: Sequence[str],
                      severity: Optional[Mapping[str, int]] = None, hard_pairs: Optional[Sequence[tuple]] = None,
                      n_resamples: int = 10_000, seed: int = 42, reference: Optional[str] = None,
                      progress: bool = True, clusters: Optional[Sequence] = None) -> dict:
    """Every table of the paper's diagnostic for several metrics scored on the same rows.

    ``score_columns``: {metric name: scores}. ``n_resamples=0`` skips the bootstrap.
    ``clusters``: one cluster id per row (e.g. the question): resample clusters, not rows.
    Returns {"correlations", "descriptives", "class_pairs", "monotonicity",
    "paired_differences"}: lists of records with the field names of the paper's results file.
    """
    if not isinstance(score_columns, dict) or not score_columns:
        raise TypeError("`score_columns` must be a non-empty dict {metric name: scores}")
    rows = prepare_labels(labels, severity)
    hard_pairs = check_hard_pairs(hard_pairs, check_severity(severity))
    orders = {name: ScoreOrder(prepare_scores(values, rows.n_rows, f"score_columns[{name!r}]"), rows)
              for name, values in score_columns.items()}
    if reference is not None and reference not in orders:
        raise ValueError(f"`reference` must be one of {list(orders)}, got {reference!r}")
    codes = None
    if clusters is not None:
        codes = cluster_codes(clusters, "clusters")
        check_same_length(codes, "clusters", range(rows.n_rows), "labels")
    distributions = bootstrap(orders, n_resamples, seed, progress, codes) if n_resamples else None
    tables = {"correlations": [], "descriptives": [], "class_pairs": [], "monotonicity": []}
    for name, order in orders.items():
        boot = distributions[name] if distributions else None
        correlation = correlation_record(order)
        pairs = class_pair_records(order, hard_pairs)
        tables["correlations"].append({"metric": name, **_with_intervals(correlation, boot)})
        tables["descriptives"] += [{"metric": name, **record}
                                   for record in _descriptives_with_intervals(order, boot)]
        tables["class_pairs"] += [{"metric": name, **record}
                                  for record in _pairs_with_intervals(pairs, boot)]
        tables["monotonicity"].append({"metric": name, **monotonicity_record(pairs, correlation)})
    tables["paired_differences"] = (paired_difference_records(distributions, reference)
                                    if distributions and reference else [])
    return tables


def _interval_fields(name, values):
    low, high = percentile_interval(values)
    return {f"{name}_ci_low": float(low), f"{name}_ci_high": float(high)}


def _with_intervals(correlation, boot):
    if boot is None:
        return correlation
    record = dict(correlation)
    for statistic in CORRELATION_STATISTICS:
        record.update(_interval_fields(statistic, getattr(boot, statistic)))
    return record


def _descriptives_with_intervals(order, boot):
    records = descriptive_records(order)
    if boot is not None:
        for c, record in enumerate(records):
            record.update(_interval_fields("mean", boot.class_means[:, c]))
    return records


def _pairs_with_intervals(pairs, boot):
    if boot is not None:
        for p, record in enumerate(pairs):
            record.update(_interval_fields("accuracy", boot.pair_accuracy[:, p]))
            record.update(_interval_fields("auc", boot.pair_auc[:, p]))
    return pairs
