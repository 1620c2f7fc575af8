"""The monotone CAP+ model: a proportional-odds ordinal regression over the severity levels.

CAP+ must never fall when the NLI model grows surer that the answers entail each other, nor rise
when it grows surer that they contradict, whatever BLEU and ROUGE-L are. The model is built so
that this holds by construction, for any parameters the fit can return:

* **NLI bases** (``NLI_BASES``), per direction (forward = gold -> predicted statement): P(entail),
  1 - P(contradiction), and both on a logit scale mapped to [0, 1]
  (``(logit(clip(p)) + L) / 2L``, ``L = logit(1 - EPSILON)``). Each is non-decreasing in
  P(entail) and non-increasing in P(contradiction); none uses P(neutral) but through those two.
* **Overlap bases** (``OVERLAP_BASES``): 1, BLEU, 1 - BLEU, ROUGE-L, 1 - ROUGE-L, [ROUGE-L = 1],
  all non-negative.
* **Latent score** ``s = sum_o v_o * o + sum_{j, o} w_{j,o} * nli_j * o`` with every product
  weight ``w >= 0``: the overlap may move ``s`` freely, but the NLI evidence only ever pushes it
  one way. The overlap-only terms (``FREE_OVERLAP_BASES``) have free signs.
* **Levels**: the distinct severities (contradictory 0, invalid 1, overinclusive_invalid 2,
  partial 4, overinclusive_valid 5, the three correct classes 6), with
  ``P(severity >= level_k) = expit(s - cutpoint_k)``, cut points increasing.
* **CAP+** = ``sum_k P(level_k) * utility(level_k)`` = ``u_0 + sum_k (u_k - u_{k-1}) *
  expit(s - cutpoint_k)``: with utilities non-decreasing in severity, a sum of non-decreasing
  functions of ``s``, in [0, 1].

Two more guarantees are constraints of the fit (``capqa.plus.monotone_fit``), at every overlap
value: with P(entail) = 1 in both directions the top level has probability at least
``expit(margin)``, and with P(contradiction) = 1 in both directions the bottom level
(contradictory) has at least ``expit(margin)``. The latent score is affine in BLEU and in
ROUGE-L below 1, so its extremes over all overlap values lie at the ``overlap_corners``;
``extreme_margins`` measures both there.

The score is computed column by column with element-wise numpy operations (never a matrix
product whose summation order depends on the batch), so a row's CAP+ does not depend on the
other rows, and the monotonicity holds in floating point as well: each step is a monotone
rounding of a monotone function.
"""

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Sequence, Tuple

import numpy as np
from scipy.special import expit

from capqa.constants import LABELS, SEVERITY

# The published probabilities never go below 2e-6; clipping there keeps a model that is surer
# than anything in the fitting data from pushing logit terms out of range (both models use it).
EPSILON = 1e-6
_LOGIT_RANGE = float(np.log((1.0 - EPSILON) / EPSILON))
DIRECTIONS = ("forward", "reverse")
LEVELS = tuple(sorted(set(SEVERITY.values())))   # (0, 1, 2, 4, 5, 6)
LEVEL_OF_CLASS = {label: LEVELS.index(SEVERITY[label]) for label in LABELS}


def scaled_logit(p: np.ndarray) -> np.ndarray:
    """logit(p) mapped from [logit(EPSILON), logit(1 - EPSILON)] to [0, 1]; p clipped first."""
    p = np.clip(p, EPSILON, 1.0 - EPSILON)
    return (np.log(p / (1.0 - p)) + _LOGIT_RANGE) / (2.0 * _LOGIT_RANGE)


# name -> f(p_entail, p_contradiction) of one direction, each in [0, 1], non-decreasing in
# p_entail and non-increasing in p_contradiction.
NLI_BASES: Dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "p_entailment": lambda pe, pc: pe,
    "1-p_contradiction": lambda pe, pc: 1.0 - pc,
    "logit_p_entailment": lambda pe, pc: scaled_logit(pe),
    "logit_1-p_contradiction": lambda pe, pc: scaled_logit(1.0 - pc),
}
# name -> f(bleu, rouge_l), each in [0, 1].
OVERLAP_BASES: Dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "1": lambda bleu, rouge: np.ones_like(bleu),
    "bleu": lambda bleu, rouge: bleu,
    "1-bleu": lambda bleu, rouge: 1.0 - bleu,
    "rouge_l": lambda bleu, rouge: rouge,
    "1-rouge_l": lambda bleu, rouge: 1.0 - rouge,
    "rouge_l=1": lambda bleu, rouge: (rouge >= 1.0).astype(float),
}
# The overlap terms on their own (free sign): "1" is the cut points' job, and 1 - x = 1 - x.
FREE_OVERLAP_BASES = ("bleu", "rouge_l", "rouge_l=1")


def nli_basis_names(nli_bases: Sequence[str]) -> List[str]:
    return [f"{basis}_{direction}" for direction in DIRECTIONS for basis in nli_bases]


def product_names(nli_bases: Sequence[str]) -> List[str]:
    """Names of the monotone columns, ``nli_basis_direction*overlap_basis``."""
    return [f"{nli}*{overlap}" for nli in nli_basis_names(nli_bases) for overlap in OVERLAP_BASES]


def nli_columns(probabilities_forward: np.ndarray, probabilities_reverse: np.ndarray,
                nli_bases: Sequence[str]) -> List[np.ndarray]:
    """The NLI bases of checked (n, 3) probability arrays, ``nli_basis_names`` order."""
    columns = []
    for probabilities in (probabilities_forward, probabilities_reverse):
        pe, pc = probabilities[:, 0], probabilities[:, 2]
        columns += [NLI_BASES[name](pe, pc) for name in nli_bases]
    return columns


def overlap_columns(bleu: np.ndarray, rouge_l: np.ndarray) -> Dict[str, np.ndarray]:
    return {name: function(bleu, rouge_l) for name, function in OVERLAP_BASES.items()}


def overlap_corners() -> List[Tuple[float, float]]:
    """(bleu, rouge_l) points where the latent score's extremes over all overlap values lie:
    BLEU 0 or 1, ROUGE-L 0, just below 1 (the indicator off) or 1. Just below 1 is written
    as (rouge_l=1 - 1e-12); the score is continuous there apart from the indicator."""
    return [(bleu, rouge) for bleu in (0.0, 1.0) for rouge in (0.0, 1.0 - 1e-12, 1.0)]


@dataclass(frozen=True)
class MonotoneModel:
    """Parameters of the ordinal model (see the module docstring)."""
    nli_bases: Tuple[str, ...]
    product_weights: np.ndarray       # (len(nli_bases) * 2 * len(OVERLAP_BASES),) >= 0
    overlap_weights: np.ndarray       # (len(FREE_OVERLAP_BASES),)
    cutpoints: np.ndarray             # (len(LEVELS) - 1,) increasing
    level_utility: np.ndarray         # (len(LEVELS),) non-decreasing, in [0, 1]

    def latent(self, probabilities_forward: np.ndarray, probabilities_reverse: np.ndarray,
               bleu: np.ndarray, rouge_l: np.ndarray) -> np.ndarray:
        """The latent score s per row of checked inputs (column by column: batch-independent)."""
        overlap = overlap_columns(bleu, rouge_l)
        score = np.zeros(len(bleu))
        for name, weight in zip(FREE_OVERLAP_BASES, self.overlap_weights):
            score = score + weight * overlap[name]
        weights = iter(self.product_weights)
        for nli in nli_columns(probabilities_forward, probabilities_reverse, self.nli_bases):
            for name in OVERLAP_BASES:
                weight = next(weights)
                if weight:
                    score = score + weight * (nli * overlap[name])
        return score

    def at_least(self, latent: np.ndarray) -> np.ndarray:
        """(n, levels - 1): P(severity >= level k) for k = 1 .. top."""
        return np.column_stack([expit(latent - cut) for cut in self.cutpoints])

    def level_probabilities(self, latent: np.ndarray) -> np.ndarray:
        """(n, levels): P(severity = level k), ``LEVELS`` order."""
        ones = np.ones((len(latent), 1))
        cumulative = np.hstack([ones, self.at_least(latent), 0.0 * ones])
        return np.clip(cumulative[:, :-1] - cumulative[:, 1:], 0.0, 1.0)

    def expected_utility(self, latent: np.ndarray) -> np.ndarray:
        """CAP+ from the latent score: u_0 + sum_k (u_k - u_{k-1}) P(severity >= level k)."""
        steps = np.diff(self.level_utility)
        value = np.full(len(latent), float(self.level_utility[0]))
        for step, cut in zip(steps, self.cutpoints):
            value = value + step * expit(latent - cut)
        return np.clip(value, 0.0, 1.0)

    # --- JSON --------------------------------------------------------------------------------

    def weights_json(self) -> Dict[str, Any]:
        return {"product_weights": dict(zip(product_names(self.nli_bases), self.product_weights.tolist())),
                "overlap_weights": dict(zip(FREE_OVERLAP_BASES, self.overlap_weights.tolist())),
                "cutpoints": {f"severity>={level}": float(cut)
                              for level, cut in zip(LEVELS[1:], self.cutpoints)}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "cap_plus.json") -> "MonotoneModel":
        """The model of a parameter file, checked: what makes CAP+ monotone must hold."""
        try:
            nli_bases = tuple(data["nli_bases"])
            unknown = [name for name in nli_bases if name not in NLI_BASES]
            if unknown or list(data["overlap_bases"]) != list(OVERLAP_BASES):
                raise ValueError(f"unknown bases {unknown or data['overlap_bases']}")
            products = data["product_weights"]
            weights = np.array([products[name] for name in product_names(nli_bases)], dtype=float)
            overlap = np.array([data["overlap_weights"][name] for name in FREE_OVERLAP_BASES], dtype=float)
            cutpoints = np.array([data["cutpoints"][f"severity>={level}"] for level in LEVELS[1:]], dtype=float)
            utility = class_utility_levels(data["class_utility"], source)
        except (KeyError, TypeError) as error:
            raise ValueError(f"{source}: not a monotone CAP+ parameter file ({error!r} missing or "
                             "malformed); refit with `python -m capqa fit`") from None
        if not (np.all(np.isfinite(weights)) and np.all(np.isfinite(overlap)) and np.all(np.isfinite(cutpoints))):
            raise ValueError(f"{source}: weights and cut points must be finite numbers")
        if weights.min(initial=0.0) < 0:
            raise ValueError(f"{source}: `product_weights` must be >= 0 (a negative one would let more "
                             "entailment lower CAP+)")
        if np.any(np.diff(cutpoints) < 0):
            raise ValueError(f"{source}: `cutpoints` must be non-decreasing in severity")
        return cls(nli_bases, weights, overlap, cutpoints, utility)


def class_utility_levels(class_utility: Mapping[str, float], source: str = "cap_plus.json") -> np.ndarray:
    """(levels,) utilities from {class: utility}: one per severity level, non-decreasing, in [0, 1]."""
    missing = [label for label in LABELS if label not in class_utility]
    if missing:
        raise ValueError(f"{source}: `class_utility` lacks classes {missing}")
    utility = np.zeros(len(LEVELS))
    for k, level in enumerate(LEVELS):
        values = {float(class_utility[label]) for label in LABELS if SEVERITY[label] == level}
        if len(values) != 1:
            raise ValueError(f"{source}: classes of severity {level} must share one utility, got {sorted(values)}")
        utility[k] = values.pop()
    if not (np.all(np.isfinite(utility)) and utility.min() >= 0 and utility.max() <= 1):
        raise ValueError(f"{source}: `class_utility` values must be in [0, 1]")
    if np.any(np.diff(utility) < 0):
        raise ValueError(f"{source}: `class_utility` must not decrease with severity (CAP+ would then "
                         "fall as the evidence of entailment grows)")
    return utility


def certain_probabilities(label: str, n_rows: int) -> np.ndarray:
    """(n, 3) rows of P = 1 for one NLI label ("entailment" or "contradiction")."""
    rows = np.zeros((n_rows, 3))
    rows[:, {"entailment": 0, "neutral": 1, "contradiction": 2}[label]] = 1.0
    return rows


def extreme_margins(model: MonotoneModel) -> Dict[str, float]:
    """Over every overlap value: the smallest ``s - top cut`` with P(entail) = 1 both ways, and
    the smallest ``bottom cut - s`` with P(contradiction) = 1 both ways (logit units; the top
    and the bottom level then have probability at least expit of these)."""
    bleu, rouge = (np.array(values) for values in zip(*overlap_corners()))
    n = len(bleu)
    entail = model.latent(certain_probabilities("entailment", n), certain_probabilities("entailment", n),
                          bleu, rouge)
    contra = model.latent(certain_probabilities("contradiction", n),
                          certain_probabilities("contradiction", n), bleu, rouge)
    return {"entailment": float(entail.min() - model.cutpoints[-1]),
            "contradiction": float(model.cutpoints[0] - contra.max())}
