"""Confidence intervals and paired significance tests for mean scores (sacrebleu's ``--paired-bs``
and ``--paired-ar``, for CAP).

- ``bootstrap_means``: percentile-bootstrap resamples of the mean of several systems' scores on
  the same rows, every system on the same resamples (so differences of resampled means are the
  paired bootstrap). Rows are drawn as multiplicities (``capqa.monotonicity.bootstrap``).
- ``approximate_randomisation``: the paired approximate-randomisation (sign-flip permutation)
  test of a mean difference.
- ``holm``: Holm's step-down adjustment of several p-values.

``clusters`` (one label per row) resamples and permutes whole clusters, e.g. all rows of one
question, when the rows of a cluster are not independent.
"""

import math
from dataclasses import dataclass
from typing import Iterator, Optional, Sequence

import numpy as np

from capqa.common.validation import check_positive_int
from capqa.monotonicity.bootstrap import BOOTSTRAP_BLOCK, percentile_interval, resample_weights
from capqa.monotonicity.measures import CONFIDENCE

DEFAULT_RESAMPLES = 1_000
DEFAULT_PERMUTATIONS = 10_000
DEFAULT_SEED = 12345
# Random draws held at once (a block of resamples x rows): ~32 MB of int64.
MAX_BLOCK_DRAWS = 4_000_000
# Permuted differences within this relative distance of the observed one count as "as large".
_TIE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Estimate:
    """A mean and its confidence interval."""

    mean: float
    low: float
    high: float

    @property
    def has_interval(self) -> bool:
        return math.isfinite(self.low) and math.isfinite(self.high)

    def interval_text(self, digits: int = 4) -> str:
        """"95% CI [low, high]", or why there is none."""
        if not self.has_interval:
            return "(no CI: one row)"
        return f"{round(100 * CONFIDENCE)}% CI [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def to_json(self) -> dict:
        """JSON-able; what does not exist (a mean of no rows, an interval of one) is null."""
        def plain(value):
            return value if math.isfinite(value) else None
        return {"mean": plain(self.mean), "ci_low": plain(self.low), "ci_high": plain(self.high)}


def cluster_indices(clusters: Optional[Sequence], n_rows: int) -> Optional[np.ndarray]:
    """Each row's cluster as 0..k-1 (in order of first appearance), or None without clusters."""
    if clusters is None:
        return None
    labels = list(clusters)
    if len(labels) != n_rows:
        raise ValueError(f"`clusters` has {len(labels)} labels for {n_rows} rows: give one per row")
    first_seen = {}
    return np.array([first_seen.setdefault(label, len(first_seen)) for label in labels], dtype=np.int64)


def _units(n_rows: int, clusters: Optional[np.ndarray]) -> int:
    """How many independent units are resampled: rows, or clusters."""
    units = n_rows if clusters is None else int(clusters.max()) + 1
    if units < 2:
        what = "rows" if clusters is None else "clusters"
        raise ValueError(f"a confidence interval or a test needs at least 2 {what}, got {units}: "
                         "one example says nothing about the spread of a mean")
    return units


def _row_weights(n_rows: int, n_resamples: int, seed: int, clusters: Optional[np.ndarray]) -> Iterator[np.ndarray]:
    """(B, n_rows) multiplicities of each row, block by block; clusters are drawn whole."""
    units = _units(n_rows, clusters)
    block = int(np.clip(MAX_BLOCK_DRAWS // units, 1, BOOTSTRAP_BLOCK))
    for weights in resample_weights(units, n_resamples, seed, block):
        yield weights if clusters is None else weights[:, clusters]


def bootstrap_means(values: np.ndarray, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                    clusters: Optional[Sequence] = None) -> np.ndarray:
    """(systems, resamples) means of ``values`` (systems x rows) over the same bootstrap resamples.

    With clusters, a resample draws clusters with replacement and its mean is the mean of the
    rows it holds (a ratio estimator: clusters of different sizes weigh by their rows).
    """
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    indices = cluster_indices(clusters, values.shape[1])
    blocks = []
    for weights in _row_weights(values.shape[1], n_resamples, seed, indices):
        totals = weights.sum(axis=1).astype(np.float64)
        blocks.append((weights @ values.T / totals[:, None]).T)
    return np.concatenate(blocks, axis=1)


def estimate(values: np.ndarray, resampled_means: np.ndarray, confidence: float = CONFIDENCE) -> Estimate:
    """The mean of ``values`` with the percentile interval of its resampled means."""
    low, high = percentile_interval(resampled_means, confidence)
    return Estimate(float(np.mean(values)), float(low), float(high))


def approximate_randomisation(first: Sequence[float], second: Sequence[float],
                              n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = DEFAULT_SEED,
                              clusters: Optional[Sequence] = None) -> float:
    """Two-sided p-value of mean(second) - mean(first) under paired approximate randomisation.

    Each trial swaps the two systems' scores of every row (or of every cluster, all its rows
    together) with probability 1/2; p = (1 + trials whose |mean difference| is at least the
    observed one) / (1 + trials), so p is never 0, and identical systems give p = 1.
    """
    differences = np.asarray(second, dtype=np.float64) - np.asarray(first, dtype=np.float64)
    return float(randomisation_p_values(differences[None], n_permutations, seed, clusters)[0])


def randomisation_p_values(differences: np.ndarray, n_permutations: int = DEFAULT_PERMUTATIONS,
                           seed: int = DEFAULT_SEED, clusters: Optional[Sequence] = None) -> np.ndarray:
    """``approximate_randomisation`` of each row of ``differences`` (tests x rows: second minus
    first), all tests on the same random swaps (drawn once, however many pairs and metrics)."""
    differences = np.atleast_2d(np.asarray(differences, dtype=np.float64))
    n_permutations = check_positive_int(n_permutations, "n_permutations")
    indices = cluster_indices(clusters, differences.shape[1])
    units = _units(differences.shape[1], indices)
    # A swap flips the sign of a unit's summed difference: work on one sum per unit and test.
    unit_sums = differences if indices is None else np.stack(
        [np.bincount(indices, weights=row, minlength=units) for row in differences])
    observed = np.abs(unit_sums.sum(axis=1))
    tolerance = _TIE_TOLERANCE * np.maximum(np.abs(unit_sums).sum(axis=1), 1e-300)
    rng = np.random.default_rng(seed)
    block = int(np.clip(MAX_BLOCK_DRAWS // units, 1, BOOTSTRAP_BLOCK))
    as_large = np.zeros(len(differences), dtype=np.int64)
    for start in range(0, n_permutations, block):
        signs = rng.integers(0, 2, size=(min(block, n_permutations - start), units), dtype=np.int8) * 2 - 1
        as_large += np.count_nonzero(np.abs(signs @ unit_sums.T) >= observed - tolerance, axis=0)
    return (1 + as_large) / (1 + n_permutations)


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control), in the input's order."""
    p = np.asarray(p_values, dtype=np.float64)
    if p.size == 0:
        return p
    order = np.argsort(p, kind="stable")
    scaled = p[order] * (p.size - np.arange(p.size))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(np.maximum.accumulate(scaled), 1.0)
    return adjusted
