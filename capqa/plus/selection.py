"""Choosing the CAP+ model by 5-fold cross-validation on the fitting rows alone (never the test rows).

Candidates (``SELECTION_GRID``): the L2 strength and the two margins of the extreme-input
guarantees (``capqa.plus.monotone``); the variables are fixed (``DEFAULT_NLI_BASES``, BLEU and
ROUGE-L). For each, five models are fitted on four
folds each and applied to the fifth, which gives one out-of-fold CAP+ per fitting row. A
candidate is **eligible** when every fold's model scores P(entail) = 1 both ways, at every
overlap value, nearer to the correct classes' utility than to any other class's (at least the
midpoint between the top two utilities, 11/12), and P(contradiction) = 1 both ways nearer to
contradictory's than to any other's (at most the midpoint of the bottom two, 1/12): the class a
score stands for is then right at both ends. Of the eligible ones, the lowest cross-validated
log-loss (the ordinal likelihood of the held-out levels) wins. The out-of-fold pairwise accuracy
and mean violations are reported beside it.

(The first monotone CAP+ asked for the 85th and the 5th percentile of the out-of-fold CAP+
instead. A smooth CAP+ gives the many answers of near-certain entailment or contradiction
nearly the score of certainty itself, so where certainty falls among them is decided by
differences of 0.001 and says nothing; the utilities do not move with the scores.)
"""

import hashlib
import itertools
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np
from tqdm.auto import tqdm

from capqa import __version__
from capqa.common.files import write_atomically
from capqa.common.json_text import loads_json
from capqa.plus.monotone import DEFAULT_NLI_BASES, MonotoneModel, extreme_margins
from capqa.plus.monotone_fit import Design, fit_monotone

logger = logging.getLogger(__name__)

CV_FOLDS = 5
CV_SEED = 0
SELECTION_GRID = {
    "nli_bases": (DEFAULT_NLI_BASES,),
    "l2": (1e-4, 3e-4, 1e-3, 3e-3),
    "entailment_margin": (1.5, 2.0, 2.5),
    "contradiction_margin": (1.0, 1.5, 2.0),
}


def extreme_bounds(level_utility: np.ndarray) -> Tuple[float, float]:
    """(the least CAP+ certain entailment must get, the most certain contradiction may get): the
    midpoints between the top two and the bottom two level utilities."""
    return (float(level_utility[-1] + level_utility[-2]) / 2.0, float(level_utility[0] + level_utility[1]) / 2.0)


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


@dataclass(frozen=True)
class OutOfFold:
    """A candidate's cross-fitted figures: each row's CAP+ from the model fitted without its fold,
    the summed log-loss of the held-out levels, and each fold model's ``extreme_scores``."""
    scores: np.ndarray
    log_loss: float
    extremes: Tuple[Tuple[float, float], ...]


def out_of_fold(inputs: Sequence[np.ndarray], columns: Design, levels: np.ndarray, candidate: Candidate,
                level_utility: np.ndarray, folds: int = CV_FOLDS, seed: int = CV_SEED,
                fold_done: Callable[[], None] = lambda: None) -> OutOfFold:
    """Fit ``candidate`` on all folds but one, score the one left out, for every fold (the folds of
    ``fold_assignment``). inputs: the checked (forward, reverse, bleu, rouge_l) arrays."""
    fold = fold_assignment(len(levels), folds, seed)
    scores, log_loss, extremes = np.zeros(len(levels)), 0.0, []
    for k in range(folds):
        held_out = fold == k
        model, _ = fit_monotone(columns.rows(~held_out), levels[~held_out], candidate.nli_bases, candidate.l2,
                                candidate.margins, level_utility)
        latent = model.latent(*(values[held_out] for values in inputs))
        scores[held_out] = model.expected_utility(latent)
        chosen = model.level_probabilities(latent)[np.arange(held_out.sum()), levels[held_out]]
        log_loss -= float(np.log(np.maximum(chosen, 1e-300)).sum())
        extremes.append(extreme_scores(model))
        fold_done()
    return OutOfFold(scores, log_loss, tuple(extremes))


def cross_validate(inputs: Sequence[np.ndarray], columns_of, levels: np.ndarray, labels: np.ndarray,
                   candidate: Candidate, level_utility: np.ndarray, folds: int = CV_FOLDS,
                   seed: int = CV_SEED, fold_done: Callable[[], None] = lambda: None) -> dict:
    """The record of one candidate: CV log-loss, out-of-fold pairwise accuracy and violations,
    the extreme inputs' CAP+ against the out-of-fold percentiles, and whether it is eligible.

    inputs: the checked (forward, reverse, bleu, rouge_l) arrays; columns_of(bases) -> Design;
    fold_done: called after each fold's fit (progress).
    """
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.measures import monotonicity_report

    found = out_of_fold(inputs, columns_of(candidate.nli_bases), levels, candidate, level_utility, folds, seed,
                        fold_done)
    high, low = extreme_bounds(level_utility)
    entail, contra = min(e for e, _ in found.extremes), max(c for _, c in found.extremes)
    report = monotonicity_report(found.scores, labels)
    return {**candidate.as_dict(), "cv_log_loss": found.log_loss / len(levels),
            "cv_pairwise_accuracy": float(report["pairwise_accuracy"]),
            "cv_mean_violations": int(report["mean_violations"]),
            "certain_entailment_cap_plus": entail, "certain_entailment_floor": high,
            "certain_contradiction_cap_plus": contra, "certain_contradiction_ceiling": low,
            "eligible": bool(entail >= high and contra <= low)}


class SelectionProgress:
    """The records of the candidates cross-validated so far on one set of fitting rows, in a JSON
    file written (atomically) after each candidate. A file of other rows, folds, percentiles or
    capqa version holds nothing for this selection and is started again."""

    FORMAT = 1

    def __init__(self, path: Optional[Path], fingerprint: str) -> None:
        self.path, self.fingerprint = (None if path is None else Path(path)), fingerprint
        self.records: Dict[str, dict] = self._load()

    @staticmethod
    def key(candidate: Candidate) -> str:
        return json.dumps(candidate.as_dict(), sort_keys=True)

    def _load(self) -> Dict[str, dict]:
        if self.path is None or not self.path.is_file():
            return {}
        try:
            saved = loads_json(self.path.read_text(encoding="utf-8"))
            if saved["format"] == self.FORMAT and saved["fingerprint"] == self.fingerprint:
                return {key: dict(record) for key, record in saved["records"].items()}
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
        logger.warning("%s holds no progress of this CAP+ selection (other rows, settings or version); it is "
                       "started again", self.path)
        return {}

    def get(self, candidate: Candidate) -> Optional[dict]:
        return self.records.get(self.key(candidate))

    def add(self, candidate: Candidate, record: dict) -> None:
        self.records[self.key(candidate)] = record
        if self.path is not None:
            write_atomically(self.path, json.dumps({"format": self.FORMAT, "fingerprint": self.fingerprint,
                                                    "records": self.records}, indent=1) + "\n")

    def finish(self) -> None:
        """The selection is done: its progress file is no longer needed."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def selection_fingerprint(inputs: Sequence[np.ndarray], levels: np.ndarray, level_utility: np.ndarray) -> str:
    """What a candidate's record depends on besides the candidate: the rows, the folds, the
    classes' utilities (which bound the extreme inputs' scores) and the code (its version)."""
    digest = hashlib.sha256(json.dumps([__version__, CV_FOLDS, CV_SEED]).encode("utf-8"))
    for values in (*inputs, levels, level_utility):
        digest.update(np.ascontiguousarray(values, dtype=np.float64).tobytes())
    return digest.hexdigest()


def select(inputs: Sequence[np.ndarray], columns_of, levels: np.ndarray, labels: np.ndarray,
           level_utility: np.ndarray, grid: Iterable[Candidate], progress: bool = True,
           progress_file: Optional[Path] = None) -> Tuple[Candidate, List[dict]]:
    """(the chosen candidate, one record per candidate): the eligible one of lowest CV log-loss.

    progress_file: where each candidate's record is kept as it is done (``SelectionProgress``), so
    that an interrupted selection resumes; removed when the selection is done."""
    grid = list(grid)
    kept = SelectionProgress(progress_file, selection_fingerprint(inputs, levels, level_utility))
    done = sum(kept.get(candidate) is not None for candidate in grid)
    if done:
        logger.info("resuming the CAP+ selection: %d of %d candidates were cross-validated before (%s)", done,
                    len(grid), progress_file)
    records = []
    with tqdm(total=len(grid) * CV_FOLDS, initial=done * CV_FOLDS, desc="cross-validating CAP+", unit="fit",
              disable=not progress) as bar:
        for candidate in grid:
            record = kept.get(candidate)
            if record is None:
                record = cross_validate(inputs, columns_of, levels, labels, candidate, level_utility,
                                        fold_done=lambda: bar.update(1))
                kept.add(candidate, record)
            records.append(record)
    kept.finish()
    eligible = [index for index, record in enumerate(records) if record["eligible"]]
    if not eligible:
        raise ValueError("no CAP+ candidate scores certain entailment nearest the correct classes and certain "
                         "contradiction nearest contradictory in every fold; try larger margins")
    best = min(eligible, key=lambda index: records[index]["cv_log_loss"])
    return grid[best], records

