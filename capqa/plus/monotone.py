"""The monotone CAP+ model: a proportional-odds ordinal regression over the severity levels.

CAP+ must never fall when the NLI model grows surer that the answers entail each other, nor rise
when it grows surer that they contradict, nor fall when the answers share more words, and it must
move smoothly with every input. The model is built so that all of this holds by construction, for
any parameters the fit can return:

* **Variables** (``variable_names``), each in [0, 1], non-decreasing in how correct the answer
  looks, and at most ``slope`` = 1 per unit of its input (so none can jump): per direction
  (forward = gold -> predicted statement) P(entail) and 1 - P(contradiction) (``NLI_BASES``;
  P(neutral) enters only through them), then BLEU and ROUGE-L (``OVERLAP_VARIABLES``).
  Probabilities enter as they are, never through a logarithm, so P(entail) = 0.001 and 0 are
  0.001 apart, not fourteen logit units.
* **Terms** (``term_names``): every variable, and for every pair of variables their product
  ``a*b`` and their noisy-or ``a|b`` = 1 - (1 - a)(1 - b). Each is non-decreasing in every
  variable on [0, 1]; together they span every bilinear function of a pair that is
  non-decreasing in both (a + b - ab lets one variable count most when the other is low, ab when
  it is high).
* **Latent score** ``s = sum_t w_t * term_t`` with **every weight w_t >= 0**: s is non-decreasing in
  every variable, so in P(entail), BLEU and ROUGE-L, and non-increasing in P(contradiction).
* **Levels**: the distinct severities (contradictory 0, invalid 1, overinclusive_invalid 2,
  partial 4, overinclusive_valid 5, the three correct classes 6), with
  ``P(severity >= level_k) = expit(s - cutpoint_k)``, cut points increasing.
* **CAP+** = ``sum_k P(level_k) * utility(level_k)`` = ``u_0 + sum_k (u_k - u_{k-1}) *
  expit(s - cutpoint_k)``: with utilities non-decreasing in severity, a sum of non-decreasing
  functions of ``s``, in [0, 1]. Its slope in ``s`` is at most (u_top - u_0) / 4 = 1/4, so
  ``slope_bounds`` bounds how far CAP+ can move when any input moves (``capqa.plus.monotone``'s
  smoothness guarantee; there is no discontinuity anywhere, ROUGE-L = 1 included).

Two more guarantees are constraints of the fit (``capqa.plus.monotone_fit``), at every overlap
value: with P(entail) = 1 in both directions the top level has probability at least
``expit(margin)``, and with P(contradiction) = 1 in both directions the bottom level
(contradictory) has at least ``expit(margin)``. Since s rises with BLEU and ROUGE-L, the first
binds at BLEU = ROUGE-L = 0 and the second at BLEU = ROUGE-L = 1 (``EXTREME_OVERLAP``);
``extreme_margins`` measures both there.

The score is computed column by column with element-wise numpy operations (never a matrix
product whose summation order depends on the batch), so a row's CAP+ does not depend on the
other rows, and the monotonicity holds in floating point as well: each step is a monotone
rounding of a monotone function.
"""

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Sequence, Tuple

import numpy as np
from scipy.special import expit

from capqa.common.constants import LABELS, SEVERITY

DIRECTIONS = ("forward", "reverse")
LEVELS = tuple(sorted(set(SEVERITY.values())))   # (0, 1, 2, 4, 5, 6)
LEVEL_OF_CLASS = {label: LEVELS.index(SEVERITY[label]) for label in LABELS}


@dataclass(frozen=True)
class Basis:
    """One variable of a direction: ``function(p_entail, p_contradiction)`` in [0, 1],
    non-decreasing in p_entail, non-increasing in p_contradiction; it reads only ``reads``
    ("p_entailment" or "p_contradiction"), with a slope of at most ``slope`` in it."""
    function: Callable[[np.ndarray, np.ndarray], np.ndarray]
    reads: str
    slope: float


NLI_BASES: Dict[str, Basis] = {
    "p_entailment": Basis(lambda pe, pc: pe, "p_entailment", 1.0),
    "1-p_contradiction": Basis(lambda pe, pc: 1.0 - pc, "p_contradiction", 1.0),
}
DEFAULT_NLI_BASES = tuple(NLI_BASES)
OVERLAP_VARIABLES = ("bleu", "rouge_l")
# Where the extreme-input guarantees bind: s rises with the overlap, so certain entailment is
# lowest at no overlap and certain contradiction highest at full overlap.
EXTREME_OVERLAP = {"entailment": (0.0, 0.0), "contradiction": (1.0, 1.0)}


def variable_names(nli_bases: Sequence[str]) -> List[str]:
    """``basis_direction`` for every NLI basis and direction, then the overlap variables."""
    return [f"{basis}_{direction}" for direction in DIRECTIONS for basis in nli_bases] + list(OVERLAP_VARIABLES)


def variable_pairs(nli_bases: Sequence[str]) -> List[Tuple[int, int]]:
    """Index pairs (i < j) of ``variable_names``: the pairs that get a product and a noisy-or."""
    return list(itertools.combinations(range(len(variable_names(nli_bases))), 2))


def term_names(nli_bases: Sequence[str]) -> List[str]:
    """The latent score's terms, in weight order: each variable, then ``a*b`` and ``a|b`` per pair."""
    names = variable_names(nli_bases)
    return names + [name for i, j in variable_pairs(nli_bases)
                    for name in (f"{names[i]}*{names[j]}", f"{names[i]}|{names[j]}")]


def variable_columns(probabilities_forward: np.ndarray, probabilities_reverse: np.ndarray, bleu: np.ndarray,
                     rouge_l: np.ndarray, nli_bases: Sequence[str]) -> List[np.ndarray]:
    """The variables of checked inputs ((n, 3) probabilities, (n,) overlaps), ``variable_names`` order."""
    columns = []
    for probabilities in (probabilities_forward, probabilities_reverse):
        pe, pc = probabilities[:, 0], probabilities[:, 2]
        columns += [np.clip(NLI_BASES[name].function(pe, pc), 0.0, 1.0) for name in nli_bases]
    return columns + [np.asarray(bleu, float), np.asarray(rouge_l, float)]


def term_columns(variables: Sequence[np.ndarray]) -> List[np.ndarray]:
    """The terms of the variables, ``term_names`` order. 1 - (1 - a)(1 - b) rather than a + b - ab:
    every step is then a monotone rounding, so the computed noisy-or never falls as a rises."""
    columns = list(variables)
    for i, j in itertools.combinations(range(len(variables)), 2):
        a, b = variables[i], variables[j]
        columns += [a * b, 1.0 - (1.0 - a) * (1.0 - b)]
    return columns


def certain_probabilities(label: str, n_rows: int) -> np.ndarray:
    """(n, 3) rows of P = 1 for one NLI label ("entailment", "neutral" or "contradiction")."""
    rows = np.zeros((n_rows, 3))
    rows[:, {"entailment": 0, "neutral": 1, "contradiction": 2}[label]] = 1.0
    return rows


def extreme_inputs(label: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The one input where certain entailment (contradiction) is weakest: P = 1 both ways at the
    ``EXTREME_OVERLAP`` of that label."""
    certain = certain_probabilities(label, 1)
    bleu, rouge = EXTREME_OVERLAP[label]
    return certain, certain, np.array([bleu]), np.array([rouge])


@dataclass(frozen=True)
class MonotoneModel:
    """Parameters of the ordinal model (see the module docstring)."""
    nli_bases: Tuple[str, ...]
    weights: np.ndarray               # (len(term_names(nli_bases)),) >= 0
    cutpoints: np.ndarray             # (len(LEVELS) - 1,) increasing
    level_utility: np.ndarray         # (len(LEVELS),) non-decreasing, in [0, 1]

    def latent(self, probabilities_forward: np.ndarray, probabilities_reverse: np.ndarray,
               bleu: np.ndarray, rouge_l: np.ndarray) -> np.ndarray:
        """The latent score s per row of checked inputs (column by column: batch-independent)."""
        variables = variable_columns(probabilities_forward, probabilities_reverse, bleu, rouge_l, self.nli_bases)
        score = np.zeros(len(bleu))
        for weight, term in zip(self.weights, term_columns(variables)):
            if weight:
                score = score + weight * term
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
        return {"weights": dict(zip(term_names(self.nli_bases), self.weights.tolist())),
                "cutpoints": {f"severity>={level}": float(cut)
                              for level, cut in zip(LEVELS[1:], self.cutpoints)}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "cap_plus.json") -> "MonotoneModel":
        """The model of a parameter file, checked: what makes CAP+ monotone must hold."""
        try:
            nli_bases = tuple(data["nli_bases"])
            overlap = list(data["overlap_variables"])
            if any(name not in NLI_BASES for name in nli_bases) or overlap != list(OVERLAP_VARIABLES):
                raise KeyError(f"variables {list(nli_bases)} + {overlap}")
            weights = np.array([data["weights"][name] for name in term_names(nli_bases)], dtype=float)
            cutpoints = np.array([data["cutpoints"][f"severity>={level}"] for level in LEVELS[1:]], dtype=float)
            class_utility = data["class_utility"]
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{source}: not a monotone CAP+ parameter file ({error!r} missing or "
                             "malformed); refit with `python -m capqa fit`") from None
        utility = class_utility_levels(class_utility, source)
        if not (np.all(np.isfinite(weights)) and np.all(np.isfinite(cutpoints))):
            raise ValueError(f"{source}: weights and cut points must be finite numbers")
        if weights.min(initial=0.0) < 0:
            raise ValueError(f"{source}: `weights` must be >= 0 (a negative one would let more entailment "
                             "or more overlap lower CAP+)")
        if np.any(np.diff(cutpoints) < 0):
            raise ValueError(f"{source}: `cutpoints` must be non-decreasing in severity")
        return cls(nli_bases, weights, cutpoints, utility)


def class_utility_levels(class_utility: Mapping[str, float], source: str = "cap_plus.json") -> np.ndarray:
    """(levels,) utilities from {class: utility}: one per severity level, non-decreasing, in [0, 1]."""
    missing = [label for label in LABELS if label not in class_utility]
    if missing:
        raise ValueError(f"{source}: `class_utility` lacks classes {missing}")
    utility = np.zeros(len(LEVELS))
    for k, level in enumerate(LEVELS):
        values = {float(class_utility[label]) for label in LABELS if SEVERITY[label] == level}
        if len(values) != 1:
            raise ValueError(f"{source}: `class_utility` classes of severity {level} must share one utility, "
                             f"got {sorted(values)}")
        utility[k] = values.pop()
    if not (np.all(np.isfinite(utility)) and utility.min() >= 0 and utility.max() <= 1):
        raise ValueError(f"{source}: `class_utility` values must be in [0, 1]")
    if np.any(np.diff(utility) < 0):
        raise ValueError(f"{source}: `class_utility` must not decrease with severity (CAP+ would then "
                         "fall as the evidence of entailment grows)")
    return utility


def extreme_margins(model: MonotoneModel) -> Dict[str, float]:
    """Over every overlap value: the smallest ``s - top cut`` with P(entail) = 1 both ways, and
    the smallest ``bottom cut - s`` with P(contradiction) = 1 both ways (logit units; the top
    and the bottom level then have probability at least expit of these)."""
    entail = model.latent(*extreme_inputs("entailment"))[0]
    contra = model.latent(*extreme_inputs("contradiction"))[0]
    return {"entailment": float(entail - model.cutpoints[-1]), "contradiction": float(model.cutpoints[0] - contra)}


def latent_slope_bounds(model: MonotoneModel) -> Dict[str, float]:
    """{variable: the largest d s / d variable anywhere on [0, 1]^k}: its own weight plus, per
    pair, the larger of the product's weight (slope = the other variable) and the noisy-or's
    (slope = 1 - the other variable)."""
    names = variable_names(model.nli_bases)
    weights = dict(zip(term_names(model.nli_bases), model.weights))
    bounds = {name: float(weights[name]) for name in names}
    for i, j in variable_pairs(model.nli_bases):
        product, noisy_or = weights[f"{names[i]}*{names[j]}"], weights[f"{names[i]}|{names[j]}"]
        for name in (names[i], names[j]):
            bounds[name] += float(max(product, noisy_or))
    return bounds


def slope_bounds(model: MonotoneModel) -> Dict[str, float]:
    """{input: how much CAP+ can change, at most, per unit change of that input alone}, for the
    inputs ``p_entailment_forward``, ``p_contradiction_forward``, ..., ``bleu``, ``rouge_l``.

    CAP+'s slope in s is at most (u_top - u_0) / 4 (the largest slope of a sum of steps
    (u_k - u_{k-1}) * expit(s - c_k)); each variable moves at most ``slope`` per unit of its
    input. Moving mass m between two labels of one direction moves CAP+ by at most
    m * (its P(entail) bound + its P(contradiction) bound)."""
    scale = float(model.level_utility[-1] - model.level_utility[0]) / 4.0
    latent = latent_slope_bounds(model)
    bounds = {}
    for direction in DIRECTIONS:
        for probability in ("p_entailment", "p_contradiction"):
            bounds[f"{probability}_{direction}"] = scale * sum(
                NLI_BASES[basis].slope * latent[f"{basis}_{direction}"] for basis in model.nli_bases
                if NLI_BASES[basis].reads == probability)
    for name in OVERLAP_VARIABLES:
        bounds[name] = scale * latent[name]
    return bounds

