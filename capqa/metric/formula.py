"""The CAP formula on arrays of NLI probabilities: pure numpy, no model."""

import numpy as np
from numpy.typing import ArrayLike

from capqa.common.constants import ALPHA, NEUTRAL_WEIGHT


def directional_score(p_entailment: ArrayLike, p_neutral: ArrayLike,
                      neutral_weight: float = NEUTRAL_WEIGHT) -> np.ndarray:
    """D(a -> b) = P_entail(a -> b) + lambda * P_neutral(a -> b)."""
    return np.asarray(p_entailment, dtype=float) + neutral_weight * np.asarray(p_neutral, dtype=float)


def cap_score(forward: ArrayLike, reverse: ArrayLike, alpha: float = ALPHA) -> np.ndarray:
    """CAP = alpha * D(gold -> pred) + (1 - alpha) * D(pred -> gold).

    The forward direction (gold statement as premise) weighs more: a prediction must be
    implied by the gold answer to be correct; implying the gold only helps.
    """
    return alpha * np.asarray(forward, dtype=float) + (1.0 - alpha) * np.asarray(reverse, dtype=float)


def cap_from_probabilities(forward_probs: ArrayLike, reverse_probs: ArrayLike, alpha: float = ALPHA,
                           neutral_weight: float = NEUTRAL_WEIGHT) -> tuple:
    """CAP from (..., 3) arrays of (entailment, neutral, contradiction) probabilities."""
    forward_probs = np.asarray(forward_probs, dtype=float)
    reverse_probs = np.asarray(reverse_probs, dtype=float)
    forward = directional_score(forward_probs[..., 0], forward_probs[..., 1], neutral_weight)
    reverse = directional_score(reverse_probs[..., 0], reverse_probs[..., 1], neutral_weight)
    return cap_score(forward, reverse, alpha), forward, reverse
