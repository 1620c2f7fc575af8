"""Fitting the monotone CAP+ model (``capqa.plus.monotone``) to a stated optimum.

The objective is the mean negative log-likelihood of the proportional-odds model over the
severity levels plus ``l2 / 2 * |weights|^2`` (cut points unpenalised). It is convex, and strictly
convex in everything that changes a prediction, so it has one minimiser. The feasible set:

* bounds: every term weight >= 0, every gap between consecutive cut points >= ``MIN_GAP``;
* linear constraints (``margin_constraints``), where each guarantee binds
  (``capqa.plus.monotone.EXTREME_OVERLAP``): with P(entail) = 1 both ways,
  ``s - top cut >= margin``; with P(contradiction) = 1 both ways, ``bottom cut - s >= margin``.

The solver is the method of multipliers (augmented Lagrangian) around L-BFGS-B, which keeps the
bounds, until the constraints roughly hold; then Newton's method on the KKT equations of the
constraints and bounds found active, with the exact Hessian, corrected one constraint or bound at
a time. The result is a certified KKT point: the projected gradient of the
Lagrangian is at most ``GRADIENT_TOLERANCE`` in every component, every constraint holds, every
multiplier is >= 0. Because the problem is convex that point is the optimum, the same on every
machine up to that tolerance; a fit that does not reach it is an error.
"""

from dataclasses import dataclass
from typing import Dict, Sequence, Tuple

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from capqa.plus.monotone import LEVELS, MonotoneModel, extreme_inputs, term_columns, variable_columns

GRADIENT_TOLERANCE = 1e-8
# A constraint counts as violated below this slack (logit units).
FEASIBILITY_TOLERANCE = 1e-9
MAX_ITERATIONS = 20_000
# The method of multipliers finds the active constraints (to ROUGH_FEASIBILITY); Newton's method
# on the KKT equations then solves them to NEWTON_TOLERANCE, far below GRADIENT_TOLERANCE.
PENALTY = 1.0
MAX_OUTER_STEPS = 50
ROUGH_FEASIBILITY = 1e-6
NEWTON_STEPS = 30
NEWTON_TOLERANCE = 1e-13
MAX_ACTIVE_SET_STEPS = 60
N_CUTS = len(LEVELS) - 1
# The smallest gap between cut points: a zero gap gives its level probability 0 and the
# likelihood -infinity, which a line search may step onto; the optimum's gaps are ~1.
MIN_GAP = 1e-6


@dataclass(frozen=True)
class Design:
    """The fitting columns: the latent score's terms, one column each (weights >= 0)."""
    terms: np.ndarray    # (n, len(term_names(nli_bases)))

    @property
    def n_terms(self) -> int:
        return self.terms.shape[1]

    @property
    def n_parameters(self) -> int:
        return self.n_terms + N_CUTS

    def rows(self, index: np.ndarray) -> "Design":
        return Design(self.terms[index])


def design(probabilities_forward: np.ndarray, probabilities_reverse: np.ndarray, bleu: np.ndarray,
           rouge_l: np.ndarray, nli_bases: Sequence[str]) -> Design:
    """The columns of checked inputs, in the order of ``MonotoneModel``'s weights."""
    variables = variable_columns(probabilities_forward, probabilities_reverse, bleu, rouge_l, nli_bases)
    return Design(np.column_stack(term_columns(variables)))


# Parameter vector: (term weights, lowest cut point, gaps between cuts).

def split_parameters(x: np.ndarray, columns: Design) -> Tuple[np.ndarray, np.ndarray]:
    """(term weights, cut points) of a parameter vector."""
    n = columns.n_terms
    return x[:n], x[n] + np.concatenate([[0.0], np.cumsum(x[n + 1:])])


def lower_bounds(columns: Design) -> np.ndarray:
    """0 for the weights, -inf for the lowest cut point, ``MIN_GAP`` for the gaps."""
    return np.concatenate([np.zeros(columns.n_terms), [-np.inf], np.full(N_CUTS - 1, MIN_GAP)])


def _log_difference(upper: np.ndarray, lower: np.ndarray) -> np.ndarray:
    """log(expit(upper) - expit(lower)) for upper > lower, without cancellation: on the side of 0
    where both sigmoids are near 1, it is computed as expit(-lower) - expit(-upper)."""
    flip = lower > 0
    high, low = np.where(flip, -lower, upper), np.where(flip, -upper, lower)
    log_high, log_low = log_expit(high), log_expit(low)
    with np.errstate(divide="ignore"):
        return log_high + np.log(-np.expm1(np.minimum(log_low - log_high, 0.0)))


def _density_ratio(z: np.ndarray, log_p: np.ndarray) -> np.ndarray:
    """expit(z) * expit(-z) / exp(log_p), 0 where z is infinite."""
    with np.errstate(invalid="ignore"):
        ratio = np.exp(log_expit(z) + log_expit(-z) - log_p)
    return np.where(np.isinf(z), 0.0, ratio)


def objective(x: np.ndarray, columns: Design, levels: np.ndarray, l2: float) -> Tuple[float, np.ndarray]:
    """(mean NLL + l2/2 |weights|^2, its gradient); ``levels`` are indices into ``LEVELS``."""
    n_rows = len(levels)
    weights, cuts = split_parameters(x, columns)
    latent = columns.terms @ weights
    bounds = np.concatenate([[-np.inf], cuts, [np.inf]])
    upper, lower = bounds[levels + 1] - latent, bounds[levels] - latent   # P = F(upper) - F(lower)
    log_p = _log_difference(upper, lower)
    top, bottom = np.isposinf(upper), np.isneginf(lower)
    loss = -log_p.mean() + 0.5 * l2 * (weights @ weights)
    # density(z) / P with density(z) = expit(z) * expit(-z), in logs: P may underflow.
    d_upper = _density_ratio(upper, log_p) / n_rows
    d_lower = _density_ratio(lower, log_p) / n_rows
    d_latent = d_upper - d_lower
    d_cuts = np.zeros(N_CUTS)
    np.add.at(d_cuts, np.minimum(levels, N_CUTS - 1), np.where(top, 0.0, -d_upper))
    np.add.at(d_cuts, np.maximum(levels - 1, 0), np.where(bottom, 0.0, d_lower))
    gradient = np.concatenate([columns.terms.T @ d_latent + l2 * weights,
                               [d_cuts.sum()], np.cumsum(d_cuts[::-1])[::-1][1:]])
    return float(loss), gradient


def margin_constraints(nli_bases: Sequence[str], margins: Tuple[float, float]) -> Tuple[np.ndarray, np.ndarray]:
    """(G, h) with the constraints G x >= h: ``s - top cut >= margins[0]`` with P(entail) = 1 both
    ways, ``bottom cut - s >= margins[1]`` with P(contradiction) = 1 both ways, each where it binds."""
    rows, bounds = [], []
    for (label, sign), margin in zip((("entailment", 1.0), ("contradiction", -1.0)), margins):
        corner = design(*extreme_inputs(label), nli_bases)
        # entailment: s - top cut >= m (top cut = lowest + every gap); contradiction: lowest cut - s >= m.
        cut_row = np.zeros((1, N_CUTS))
        cut_row[:, 0] = -sign
        if sign > 0:
            cut_row[:, 1:] = -1.0
        rows.append(np.hstack([sign * corner.terms, cut_row]))
        bounds.append(np.full(1, float(margin)))
    return np.vstack(rows), np.concatenate(bounds)


def _start(columns: Design) -> np.ndarray:
    """A fixed start: small equal weights, cut points a unit apart."""
    return np.concatenate([np.full(columns.n_terms, 0.1), [0.0], np.ones(N_CUTS - 1)])


def _minimise_lagrangian(columns, levels, l2, constraints, targets, multipliers, penalty, start):
    """One inner step of the augmented Lagrangian: bounds only, L-BFGS-B to the tolerance."""
    def lagrangian(x):
        loss, gradient = objective(x, columns, levels, l2)
        shifted = np.maximum(0.0, multipliers - penalty * (constraints @ x - targets))
        loss += (shifted @ shifted - multipliers @ multipliers) / (2.0 * penalty)
        return loss, gradient - constraints.T @ shifted

    bounds = [(None if np.isneginf(b) else b, None) for b in lower_bounds(columns)]
    return minimize(lagrangian, start, jac=True, method="L-BFGS-B", bounds=bounds,
                    options={"gtol": GRADIENT_TOLERANCE / 10, "ftol": 0.0, "maxiter": MAX_ITERATIONS,
                             "maxfun": 2 * MAX_ITERATIONS})


def _row_derivatives(x: np.ndarray, columns: Design, levels: np.ndarray):
    """Per row: d upper / d x and d lower / d x (n, p), and the two arguments of the likelihood."""
    weights, cuts = split_parameters(x, columns)
    latent = columns.terms @ weights
    # d cut_k / d (lowest cut, gaps): cut_k = lowest + sum of the first k gaps.
    cut_jacobian = np.hstack([np.ones((N_CUTS, 1)), np.tri(N_CUTS, N_CUTS - 1, -1)])
    padded = np.vstack([np.zeros(N_CUTS), cut_jacobian, np.zeros(N_CUTS)])   # -inf, cuts, +inf
    weights_part = -columns.terms
    d_upper = np.hstack([weights_part, padded[levels + 1]])
    d_lower = np.hstack([weights_part, padded[levels]])
    bounds = np.concatenate([[-np.inf], cuts, [np.inf]])
    return d_upper, d_lower, bounds[levels + 1] - latent, bounds[levels] - latent


def hessian(x: np.ndarray, columns: Design, levels: np.ndarray, l2: float) -> np.ndarray:
    """The exact Hessian of ``objective``."""
    n_rows = len(levels)
    d_upper, d_lower, upper, lower = _row_derivatives(x, columns, levels)
    log_p = _log_difference(upper, lower)
    ratio_u, ratio_l = _density_ratio(upper, log_p), _density_ratio(lower, log_p)   # density / P
    # loss = -log(F(u) - F(l)): second derivatives in (u, l), per row; density' = density (1 - 2F).
    h_uu = (-ratio_u * (1.0 - 2.0 * expit(upper)) + ratio_u ** 2) / n_rows
    h_ll = (ratio_l * (1.0 - 2.0 * expit(lower)) + ratio_l ** 2) / n_rows
    h_ul = -ratio_u * ratio_l / n_rows
    result = (d_upper.T @ (h_uu[:, None] * d_upper) + d_lower.T @ (h_ll[:, None] * d_lower)
              + d_upper.T @ (h_ul[:, None] * d_lower) + d_lower.T @ (h_ul[:, None] * d_upper))
    n_weights = columns.n_terms
    result[np.arange(n_weights), np.arange(n_weights)] += l2
    return result


def _newton_kkt(x, active, fixed, columns, levels, l2, constraints, targets):
    """Newton's method on the KKT equations with ``active`` constraints as equalities and the
    ``fixed`` variables at their bounds: (x, multipliers of ``active``)."""
    x = x.copy()
    x[fixed] = lower_bounds(columns)[fixed]
    free = np.setdiff1d(np.arange(len(x)), fixed)
    block = constraints[active][:, free]
    gradient = objective(x, columns, levels, l2)[1]
    multipliers = np.linalg.lstsq(block.T, gradient[free], rcond=None)[0] if active else np.zeros(0)
    for _ in range(NEWTON_STEPS):
        gradient = objective(x, columns, levels, l2)[1]
        residual = np.concatenate([gradient[free] - block.T @ multipliers,
                                   constraints[active] @ x - targets[active]])
        if np.abs(residual).max() <= NEWTON_TOLERANCE:
            break
        curvature = hessian(x, columns, levels, l2)[np.ix_(free, free)]
        system = np.block([[curvature, -block.T], [block, np.zeros((len(active), len(active)))]])
        step = np.linalg.lstsq(system, -residual, rcond=None)[0]
        x[free] += step[: len(free)]
        multipliers = multipliers + step[len(free):]
    return x, multipliers


def _polish(x, multipliers, columns, levels, l2, constraints, targets):
    """From the augmented Lagrangian's point to the exact optimum: Newton on the KKT equations of
    a guessed active set, corrected one constraint or bound at a time until every condition holds."""
    lower = lower_bounds(columns)
    bounded = np.isfinite(lower)
    active = [int(i) for i in np.flatnonzero(multipliers > 0)]
    fixed = [int(i) for i in np.flatnonzero(bounded & (x <= lower))]
    for _ in range(MAX_ACTIVE_SET_STEPS):
        candidate, lam = _newton_kkt(x, active, fixed, columns, levels, l2, constraints, targets)
        gradient = objective(candidate, columns, levels, l2)[1]
        bound_multipliers = (gradient - constraints[active].T @ lam)[fixed]
        negative = np.where(bounded & ~np.isin(np.arange(len(x)), fixed), candidate - lower, np.inf)
        slack = constraints @ candidate - targets
        slack[active] = np.inf
        if negative.min() < 0:
            fixed.append(int(np.argmin(negative)))
        elif slack.min() < -FEASIBILITY_TOLERANCE:
            active.append(int(np.argmin(slack)))
        elif lam.size and lam.min() < 0:
            active.pop(int(np.argmin(lam)))
        elif bound_multipliers.size and bound_multipliers.min() < 0:
            fixed.pop(int(np.argmin(bound_multipliers)))
        else:
            return candidate
        x = np.maximum(candidate, lower)
    raise ValueError("the CAP+ fit did not converge: no set of active constraints and bounds satisfies "
                     "the optimality conditions; try a larger --l2")


def kkt_residual(x: np.ndarray, columns: Design, levels: np.ndarray, l2: float, constraints: np.ndarray,
                 targets: np.ndarray) -> Dict[str, float]:
    """How far ``x`` is from the optimum: {"gradient": the largest component of the Lagrangian's
    gradient left when non-negative multipliers of the constraints that hold with equality and of
    the bounds that are active are fitted to it (non-negative least squares), "slack": the worst
    constraint slack, "active_constraints": how many hold with equality}."""
    # Deferred: scipy is heavy, imported on first use.
    from scipy.optimize import nnls

    _, gradient = objective(x, columns, levels, l2)
    lower = lower_bounds(columns)
    slack = constraints @ x - targets
    active = np.flatnonzero(slack <= 1e-7)
    at_bound = np.flatnonzero(x <= lower)
    basis = np.hstack([constraints[active].T, np.eye(len(x))[:, at_bound]])
    multipliers, _ = nnls(basis, gradient, maxiter=100 * basis.shape[1] + 100) if basis.size else (np.zeros(0), 0)
    residual = gradient - basis @ multipliers if basis.size else gradient
    return {"gradient": float(np.abs(residual).max()), "slack": float(slack.min()),
            "active_constraints": int(len(active))}


def fit_monotone(columns: Design, levels: np.ndarray, nli_bases: Sequence[str], l2: float,
                 margins: Tuple[float, float], level_utility: np.ndarray) -> Tuple[MonotoneModel, Dict[str, float]]:
    """(model, certificate) at the constrained optimum; ``levels`` index ``LEVELS``.

    The method of multipliers (each step minimises the augmented Lagrangian under the bounds, from
    the previous step's point, then moves the multipliers) until every constraint holds to
    ``ROUGH_FEASIBILITY``; then ``_polish`` solves the KKT equations of the active set exactly, and
    the result must pass ``kkt_residual``.
    """
    levels = np.asarray(levels, dtype=int)
    constraints, targets = margin_constraints(nli_bases, margins)
    multipliers, x, iterations = np.zeros(len(targets)), _start(columns), 0
    for step in range(MAX_OUTER_STEPS):
        result = _minimise_lagrangian(columns, levels, l2, constraints, targets, multipliers, PENALTY, x)
        x, iterations = result.x, iterations + int(result.nit)
        multipliers = np.maximum(0.0, multipliers - PENALTY * (constraints @ x - targets))
        if (constraints @ x - targets).min() >= -ROUGH_FEASIBILITY:
            break
    x = _polish(x, multipliers, columns, levels, l2, constraints, targets)
    certificate = kkt_residual(x, columns, levels, l2, constraints, targets)
    certificate.update(iterations=iterations, multiplier_steps=step + 1)
    if certificate["gradient"] > GRADIENT_TOLERANCE or certificate["slack"] < -FEASIBILITY_TOLERANCE:
        raise ValueError(f"the CAP+ fit did not converge (l2 = {l2}, margins = {margins}): largest projected "
                         f"gradient component {certificate['gradient']:.3g} (tolerance {GRADIENT_TOLERANCE}), "
                         f"worst constraint slack {certificate['slack']:.3g} after {iterations} iterations "
                         f"({result.message}); try a larger --l2")
    weights, cuts = split_parameters(x, columns)
    return MonotoneModel(tuple(nli_bases), weights, cuts, np.asarray(level_utility, float)), certificate


def model_parameters(model: MonotoneModel) -> np.ndarray:
    """The parameter vector of a model (inverse of ``split_parameters``)."""
    return np.concatenate([model.weights, [model.cutpoints[0]], np.diff(model.cutpoints)])
