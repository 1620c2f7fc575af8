"""Choosing the CAP+ model by 5-fold cross-validation on the fitting rows alone (never the test rows).

Candidates (``SELECTION_GRID``): the NLI bases, the L2 strength and the two margins of the
extreme-input guarantees (``capqa.plus.monotone``). For each, five models are fitted on four
folds each and applied to the fifth, which gives one out-of-fold CAP+ per fitting row. A
candidate is **eligible** when every fold's model scores P(entail) = 1 both ways at or above the
85th percentile of the out-of-fold CAP+ and P(contradiction) = 1 both ways at or below the 5th,
at every overlap value; of the eligible ones, the lowest cross-validated log-loss (the ordinal
likelihood of the held-out levels) wins. The out-of-fold pairwise accuracy and mean violations
are reported beside it.
"""

import itertools
from dataclasses import dataclass
from typing import Dict, Iterable, List, Sequence, Tuple

import numpy as np
from tqdm.auto import tqdm

from capqa.plus.monotone import MonotoneModel, extreme_margins
from capqa.plus.monotone_fit import Design, fit_monotone

CV_FOLDS = 5
CV_SEED = 0
# The percentiles of out-of-fold CAP+ that certain entailment / contradiction must reach.
ENTAILMENT_PERCENTILE, CONTRADICTION_PERCENTILE = 85.0, 5.0
ALL_NLI_BASES = ("p_entailment", "1-p_contradiction", "logit_p_entailment", "logit_1-p_contradiction")
LOGIT_NLI_BASES = ("logit_p_entailment", "logit_1-p_contradiction")
SELECTION_GRID = {
    "nli_bases": (ALL_NLI_BASES, LOGIT_NLI_BASES),
    "l2": (1e-4, 3e-4, 1e-3),
    "entailment_margin": (1.0, 1.5, 2.0),
    "contradiction_margin": (0.0, 0.5, 1.0),
}


@dataclass(frozen=True)
class Candidate:
    """One model specification of the grid."""
    nli_bases: Tuple[str, ...]
    l2: float
    entailment_margin: float
    contradiction_margin: float

    @property
    def margins(self) -> Tuple[float, float]:
        return (self.entailment_margin, self.contradiction_margin)

    def as_dict(self) -> dict:
        return {"nli_bases": list(self.nli_bases), "l2": self.l2, "entailment_margin": self.entailment_margin,
                "contradiction_margin": self.contradiction_margin}


def candidates(grid: Dict[str, Sequence] = SELECTION_GRID) -> List[Candidate]:
    return [Candidate(tuple(bases), float(l2), float(entail), float(contra))
            for bases, l2, entail, contra in itertools.product(grid["nli_bases"], grid["l2"],
                                                               grid["entailment_margin"],
                                                               grid["contradiction_margin"])]


def fold_assignment(n_rows: int, folds: int = CV_FOLDS, seed: int = CV_SEED) -> np.ndarray:
    """The fold of each row: a fixed random permutation, modulo ``folds``."""
    return np.random.default_rng(seed).permutation(n_rows) % folds


def extreme_scores(model: MonotoneModel) -> Tuple[float, float]:
    """(lowest CAP+ with P(entail) = 1 both ways, highest with P(contradiction) = 1 both ways),
    over every overlap value."""
    margins = extreme_margins(model)
    entail = model.expected_utility(np.array([model.cutpoints[-1] + margins["entailment"]]))[0]
    contra = model.expected_utility(np.array([model.cutpoints[0] - margins["contradiction"]]))[0]
    return float(entail), float(contra)


def cross_validate(inputs: Sequence[np.ndarray], columns_of, levels: np.ndarray, labels: np.ndarray,
                   candidate: Candidate, level_utility: np.ndarray, folds: int = CV_FOLDS,
                   seed: int = CV_SEED) -> dict:
    """The record of one candidate: CV log-loss, out-of-fold pairwise accuracy and violations,
    the extreme inputs' CAP+ against the out-of-fold percentiles, and whether it is eligible.

    inputs: the checked (forward, reverse, bleu, rouge_l) arrays; columns_of(bases) -> Design.
    """
    from capqa.diagnostics.monotonicity import monotonicity_report

    columns: Design = columns_of(candidate.nli_bases)
    fold = fold_assignment(len(levels), folds, seed)
    out_of_fold, log_loss, extremes = np.zeros(len(levels)), 0.0, []
    for k in range(folds):
        held_out = fold == k
        model, _ = fit_monotone(columns.rows(~held_out), levels[~held_out], candidate.nli_bases, candidate.l2,
                                candidate.margins, level_utility)
        latent = model.latent(*(values[held_out] for values in inputs))
        out_of_fold[held_out] = model.expected_utility(latent)
        chosen = model.level_probabilities(latent)[np.arange(held_out.sum()), levels[held_out]]
        log_loss -= np.log(np.maximum(chosen, 1e-300)).sum()
        extremes.append(extreme_scores(model))
    high, low = np.percentile(out_of_fold, [ENTAILMENT_PERCENTILE, CONTRADICTION_PERCENTILE])
    entail, contra = min(e for e, _ in extremes), max(c for _, c in extremes)
    report = monotonicity_report(out_of_fold, labels)
    return {**candidate.as_dict(), "cv_log_loss": float(log_loss / len(levels)),
            "cv_pairwise_accuracy": float(report["pairwise_accuracy"]),
            "cv_mean_violations": int(report["mean_violations"]),
            "certain_entailment_cap_plus": entail, "cv_percentile_85": float(high),
            "certain_contradiction_cap_plus": contra, "cv_percentile_5": float(low),
            "eligible": bool(entail >= high and contra <= low)}


def select(inputs: Sequence[np.ndarray], columns_of, levels: np.ndarray, labels: np.ndarray,
           level_utility: np.ndarray, grid: Iterable[Candidate], progress: bool = True) -> Tuple[Candidate, List[dict]]:
    """(the chosen candidate, one record per candidate): the eligible one of lowest CV log-loss."""
    grid = list(grid)
    records = [cross_validate(inputs, columns_of, levels, labels, candidate, level_utility)
               for candidate in tqdm(grid, desc="cross-validating CAP+", disable=not progress)]
    eligible = [index for index, record in enumerate(records) if record["eligible"]]
    if not eligible:
        raise ValueError("no CAP+ candidate puts certain entailment and contradiction beyond the "
                         f"{ENTAILMENT_PERCENTILE:g}th / {CONTRADICTION_PERCENTILE:g}th percentile of the "
                         "cross-validated scores; try larger margins")
    best = min(eligible, key=lambda index: records[index]["cv_log_loss"])
    return grid[best], records

