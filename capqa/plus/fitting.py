"""Fitting CAP+ and the relation classifier: ``python -m capqa fit`` (its command line is
``capqa.cli.fit``).

``python -m capqa fit --scores paper_scores.csv --split validation --out my_params`` refits the
parameters that ``capqa.plus.calibration`` applies: rows outside ``--split`` are dropped before
anything is computed, the data must hold every class of the taxonomy with at least
``MIN_ROWS_PER_CLASS`` rows, and every choice is made by 5-fold cross-validation on the fitting
rows alone: the relation classifier's L2 strength by log-loss, the CAP+ model by
``capqa.plus.selection``.

Every fit runs to a stated optimum: L-BFGS stops only when the largest component of the
objective's gradient is at most ``GRADIENT_TOLERANCE`` (never on a small relative change of the
loss, which stops at a point that depends on BLAS rounding), and a fit that does not reach it is
an error; CAP+'s constrained fit ends at a certified KKT point (``capqa.plus.monotone_fit``).
Both objectives are strictly convex in everything that changes a prediction, so two machines
land on the same parameters up to that tolerance.
"""

import json
import os
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import logsumexp
from tqdm.auto import tqdm

from capqa.common.constants import LABELS, RELATION_GROUPS, SEVERITY
from capqa.common.files import write_atomically
from capqa.plus import monotone, monotone_fit, selection
from capqa.plus.calibration import (CAP_PLUS_FILE, EPSILON, OVERLAP_COLUMNS, PARAMS_DIR, PROBABILITY_COLUMNS,
                                    RELATION_FILE, StandardisedClassifier, checked_inputs, feature_matrix, frame_inputs,
                                    load_parameters, row_fingerprints)

L2_GRID = (3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1)
CV_FOLDS, CV_SEED = selection.CV_FOLDS, selection.CV_SEED
# Convergence: max |d objective / d parameter| at the returned point. The shipped fit reaches
# 1e-8 in ~470 L-BFGS iterations (0.2 s); float64 rounding of the gradient is ~1e-15.
GRADIENT_TOLERANCE = 1e-8
MAX_ITERATIONS = 20_000
# Each class needs rows in every cross-validation fold's training part; fewer leaves a class
# whose unpenalised intercept runs to -infinity, so the fit has no optimum.
MIN_ROWS_PER_CLASS = CV_FOLDS
# Where `fit` writes when --out is not given: the working directory, never the package.
DEFAULT_OUT = Path("cap_plus_params")


def objective(flat: np.ndarray, design: np.ndarray, onehot: np.ndarray, l2: float) -> tuple[float, np.ndarray]:
    """(mean cross-entropy + l2/2 * |weights|^2, its gradient) at ``flat`` = (weights; intercepts)
    raveled; ``design`` ends with a column of ones, whose row of parameters is not penalised."""
    n_rows, n_classes = onehot.shape
    parameters = flat.reshape(design.shape[1], n_classes)
    logits = design @ parameters
    log_norm = logsumexp(logits, axis=1)
    loss = (log_norm - (logits * onehot).sum(axis=1)).mean() + 0.5 * l2 * np.sum(parameters[:-1] ** 2)
    gradient = design.T @ (np.exp(logits - log_norm[:, None]) - onehot) / n_rows
    gradient[:-1] += l2 * parameters[:-1]
    return loss, gradient.ravel()


def design_matrix(features: np.ndarray) -> np.ndarray:
    return np.hstack([features, np.ones((features.shape[0], 1))])


def fit_multinomial(features: np.ndarray, targets: np.ndarray, n_classes: int,
                    l2: float) -> tuple[np.ndarray, np.ndarray]:
    """(weights (k, K), intercepts (K,)) minimising ``objective`` to ``GRADIENT_TOLERANCE``.

    Features must be standardised. L-BFGS from zeros, so the result is deterministic.
    """
    design, onehot = design_matrix(features), np.eye(n_classes)[targets]
    result = minimize(objective, np.zeros(design.shape[1] * n_classes), args=(design, onehot, l2),
                      jac=True, method="L-BFGS-B",
                      options={"gtol": GRADIENT_TOLERANCE, "ftol": 0.0, "maxiter": MAX_ITERATIONS,
                               "maxfun": 2 * MAX_ITERATIONS})
    largest = float(np.abs(objective(result.x, design, onehot, l2)[1]).max())
    if largest > GRADIENT_TOLERANCE:
        raise ValueError(f"the fit did not converge (l2 = {l2}): largest gradient component {largest:.3g} "
                         f"> {GRADIENT_TOLERANCE} after {result.nit} iterations ({result.message}); "
                         f"try a larger --l2")
    parameters = result.x.reshape(design.shape[1], n_classes)
    return parameters[:-1], parameters[-1]


def fit_classifier(features: np.ndarray, targets: np.ndarray, classes: Sequence[str],
                   l2: float) -> StandardisedClassifier:
    """A ``StandardisedClassifier`` fitted on ``features`` (standardised with their own moments)."""
    mean, scale = features.mean(axis=0), features.std(axis=0)
    scale[scale == 0] = 1.0   # a constant column carries no information; keep it at 0
    weights, intercepts = fit_multinomial((features - mean) / scale, targets, len(classes), l2)
    return StandardisedClassifier(classes, mean, scale, weights, intercepts)


def gradient_norm(classifier: StandardisedClassifier, features: np.ndarray, targets: np.ndarray,
                  l2: float) -> float:
    """Largest |gradient| component of the fitting objective at ``classifier``'s parameters,
    on the rows it was fitted on: below ``GRADIENT_TOLERANCE`` at a converged fit."""
    standardised = (features - classifier.mean) / classifier.scale
    flat = np.vstack([classifier.weights, classifier.intercepts]).ravel()
    onehot = np.eye(len(classifier.classes))[targets]
    return float(np.abs(objective(flat, design_matrix(standardised), onehot, l2)[1]).max())


def select_split(frame: pd.DataFrame, split: str) -> pd.DataFrame:
    """The rows of ``split`` only, checked; every later step sees nothing else."""
    if "split" not in frame.columns:
        raise ValueError("`scores` must have a `split` column")
    selected = frame[frame["split"] == split]
    if selected.empty:
        raise ValueError(f"`split` {split!r} has no rows; the file has {sorted(frame['split'].unique())}")
    missing = [c for c in ("label", *PROBABILITY_COLUMNS, *OVERLAP_COLUMNS) if c not in frame.columns]
    if missing:
        raise ValueError(f"`scores` lacks columns {missing}")
    unknown = sorted(set(selected["label"]) - set(LABELS))
    if unknown:
        raise ValueError(f"`scores` has labels outside the taxonomy: {unknown}")
    check_class_counts(selected["label"], split)
    return selected


def check_class_counts(labels: pd.Series, split: str) -> None:
    """Refuse data a classifier over the eight classes cannot be fitted on."""
    counts = labels.value_counts()
    if len(counts) < 2:
        raise ValueError(f"`scores` split {split!r} has fewer than two classes ({dict(counts)}); "
                         f"the relation classifier needs rows of every class in {list(LABELS)}")
    too_few = {label: int(counts.get(label, 0)) for label in LABELS
               if counts.get(label, 0) < MIN_ROWS_PER_CLASS}
    if too_few:
        raise ValueError(f"`scores` split {split!r} has too few rows per class: {too_few} "
                         f"(each of the {len(LABELS)} classes needs at least {MIN_ROWS_PER_CLASS})")


def cross_validated_log_loss(features: np.ndarray, targets: np.ndarray, l2: float,
                             folds: int = CV_FOLDS, seed: int = CV_SEED) -> float:
    """Mean held-out cross-entropy over ``folds`` random folds of the rows."""
    fold = selection.fold_assignment(len(targets), folds, seed)
    total = 0.0
    for k in range(folds):
        held_out = fold == k
        model = fit_classifier(features[~held_out], targets[~held_out], LABELS, l2)
        probabilities = model.predict_proba(features[held_out])
        total -= np.log(probabilities[np.arange(held_out.sum()), targets[held_out]]).sum()
    return total / len(targets)


def split_features(frame: pd.DataFrame, split: str) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """(rows, features, targets) of ``split``: what ``fit`` fits on."""
    rows = select_split(frame, split)
    return rows, feature_matrix(*frame_inputs(rows)), rows["label"].map(LABELS.index).to_numpy()


def fit_count(n_l2: int, select_cap_plus: bool) -> dict:
    """How many fits ``fit`` runs: {what: count}, for a person to know what is coming."""
    counts = {"relation classifier cross-validation": n_l2 * CV_FOLDS if n_l2 > 1 else 0,
              "CAP+ cross-validation": len(selection.candidates()) * CV_FOLDS if select_cap_plus else 0,
              "final": 2}
    return {what: count for what, count in counts.items() if count}


def fit(frame: pd.DataFrame, split: str = "validation", l2_grid: Iterable[float] = L2_GRID,
        progress: bool = True, cap_plus_candidate: Optional[selection.Candidate] = None,
        progress_file: Optional[Union[str, os.PathLike]] = None) -> tuple[dict, dict]:
    """(relation JSON dict, cap_plus JSON dict) fitted on the ``split`` rows of ``frame``.

    With one value in ``l2_grid`` the relation classifier's cross-validation is skipped; with a
    ``cap_plus_candidate`` CAP+'s model selection is (that candidate is fitted). progress_file:
    where CAP+'s selection keeps each candidate's record as it is done, so that an interrupted
    fit resumes it (``capqa.plus.selection.SelectionProgress``).
    """
    rows, features, targets = split_features(frame, split)
    l2_grid = tuple(float(value) for value in l2_grid)
    cv_loss = {}
    if len(l2_grid) > 1:
        for l2 in tqdm(l2_grid, desc="cross-validating l2", disable=not progress):
            cv_loss[l2] = float(cross_validated_log_loss(features, targets, l2))
    l2 = min(cv_loss, key=cv_loss.get) if cv_loss else l2_grid[0]
    classifier = fit_classifier(features, targets, LABELS, l2)
    fitted_on = {"split": split, "rows": int(len(rows)),
                 "class_counts": {label: int((targets == k).sum()) for k, label in enumerate(LABELS)},
                 "row_fingerprints": row_fingerprints(rows)}
    relation = {
        "description": "Multinomial logistic regression over the 8 correctness classes. "
                       "p = softmax(((x - mean) / scale) . weights + intercept), x = the features "
                       f"named below; logit_* are logits of probabilities clipped to [{EPSILON}, "
                       f"1 - {EPSILON}], forward = gold -> predicted statement.",
        "epsilon": EPSILON, "l2": l2,
        "convergence": {"criterion": "max |gradient component| of the objective",
                        "gradient_tolerance": GRADIENT_TOLERANCE,
                        "gradient_at_fit": gradient_norm(classifier, features, targets, l2)},
        "cross_validated_log_loss": {str(key): value for key, value in cv_loss.items()},
        "fitted_on": fitted_on,
        "groups": {name: list(members) for name, members in RELATION_GROUPS.items()},
        **classifier.to_json(),
    }
    return relation, fit_cap_plus(rows, fitted_on, cap_plus_candidate, progress, progress_file)


def cap_plus_inputs(rows: pd.DataFrame) -> tuple:
    """(checked inputs, level index per row) of labelled rows."""
    inputs = checked_inputs(*frame_inputs(rows))
    return inputs, rows["label"].map(monotone.LEVEL_OF_CLASS).to_numpy()


def fit_cap_plus(rows: pd.DataFrame, fitted_on: dict, candidate: Optional[selection.Candidate] = None,
                 progress: bool = True, progress_file: Optional[Union[str, os.PathLike]] = None) -> dict:
    """The cap_plus JSON dict: the candidate chosen by ``capqa.plus.selection`` (or the one
    given), fitted on all ``rows``."""
    inputs, levels = cap_plus_inputs(rows)
    utility = np.array([SEVERITY_UTILITY[label] for label in LABELS])
    level_utility = monotone.class_utility_levels(dict(zip(LABELS, utility)))
    records = []
    if candidate is None:
        if progress_file is not None:
            Path(progress_file).parent.mkdir(parents=True, exist_ok=True)
        candidate, records = selection.select(inputs, lambda bases: monotone_fit.design(*inputs, bases), levels,
                                              rows["label"].to_numpy(), level_utility,
                                              selection.candidates(), progress, progress_file)
    columns = monotone_fit.design(*inputs, candidate.nli_bases)
    model, certificate = monotone_fit.fit_monotone(columns, levels, candidate.nli_bases, candidate.l2,
                                                   candidate.margins, level_utility)
    # Each fitting row's CAP+ from the model fitted without its fold: what a threshold chosen on
    # these rows must be chosen on (capqa.plus.cross_fit).
    held_out = selection.out_of_fold(inputs, columns, levels, candidate, level_utility)
    top = max(SEVERITY.values())
    return {
        "description": "CAP+ = sum over severity levels of P(level) * utility; P from a proportional-odds "
                       "model, P(severity >= level) = expit(s - cutpoint), whose latent score s = sum of "
                       "weights (all >= 0) * terms; the terms are the variables (P(entail) and "
                       "1 - P(contradiction) per direction, BLEU, ROUGE-L, each in [0, 1]) and, per pair of "
                       "variables, their product a*b and noisy-or a|b = 1 - (1 - a)(1 - b), so CAP+ never falls "
                       "with P(entail), BLEU or ROUGE-L nor rises with P(contradiction), and moves at most "
                       f"slope_bounds per unit of an input. utility = paper severity / {top}; see "
                       "capqa/plus/monotone.py.",
        "class_utility": {label: float(value) for label, value in zip(LABELS, utility)},
        "nli_bases": list(candidate.nli_bases), "overlap_variables": list(monotone.OVERLAP_VARIABLES),
        "l2": candidate.l2,
        "margins": {"entailment": candidate.entailment_margin, "contradiction": candidate.contradiction_margin,
                    "meaning": "at every overlap value, with P(entail) = 1 both ways P(top level) >= "
                               "expit(entailment); with P(contradiction) = 1 both ways P(contradictory) "
                               ">= expit(contradiction)"},
        "slope_bounds": {"meaning": "the most CAP+ can change per unit change of one input alone",
                         **monotone.slope_bounds(model)},
        "convergence": {"criterion": "max |projected gradient component of the Lagrangian| at a "
                                     "feasible point with multipliers >= 0 (a KKT point)",
                        "gradient_tolerance": monotone_fit.GRADIENT_TOLERANCE,
                        "gradient_at_fit": certificate["gradient"],
                        "worst_constraint_slack": certificate["slack"]},
        "model_selection": {"folds": selection.CV_FOLDS, "seed": selection.CV_SEED,
                            "rule": "eligible candidates score certain entailment (contradiction), at every "
                                    "overlap value and in every fold, at least (at most) the midpoint of the "
                                    "top (bottom) two level utilities; the lowest CV log-loss wins",
                            "chosen": candidate.as_dict(), "candidates": records},
        "fitted_on": fitted_on,
        "cross_fitted": {"meaning": "each fitting row's CAP+ (row_fingerprints order) from the chosen "
                                    "specification refitted without the row's fold",
                         "folds": selection.CV_FOLDS, "seed": selection.CV_SEED,
                         "scores": held_out.scores.tolist()},
        **model.weights_json(),
    }


# The taxonomy's utility of each class: paper severity / the top severity.
SEVERITY_UTILITY = {label: SEVERITY[label] / max(SEVERITY.values()) for label in LABELS}


def shipped_candidate(directory: Optional[Union[str, os.PathLike]] = None) -> selection.Candidate:
    """The CAP+ candidate of a parameter folder (the shipped one when None): refit it directly."""
    path = (Path(directory) if directory else PARAMS_DIR) / CAP_PLUS_FILE
    if not path.is_file():
        raise ValueError(f"no CAP+ parameter file {path}")
    try:
        data = json.loads(path.read_text())
        return selection.Candidate(tuple(data["nli_bases"]), float(data["l2"]),
                                   float(data["margins"]["entailment"]), float(data["margins"]["contradiction"]))
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path} holds no CAP+ model specification ({error!r}); refit with "
                         "`python -m capqa fit`") from None


def write_parameters(relation: dict, cap_plus_params: dict, directory: Union[str, os.PathLike]) -> None:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in ((RELATION_FILE, relation), (CAP_PLUS_FILE, cap_plus_params)):
        write_atomically(directory / name, json.dumps(data, indent=1) + "\n")
    load_parameters.cache_clear()
