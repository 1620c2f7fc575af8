"""Relation diagnosis and CAP+ from the six NLI probabilities CAP computes, BLEU and ROUGE-L.

CAP keeps one weighted sum of the probabilities; the same six numbers (entailment, neutral,
contradiction in both directions) plus BLEU and ROUGE-L between the answers say much more. Two
small models use them, both applied here with plain numpy:

* **CAP+** (``cap_plus``, ``capqa/plus/params/cap_plus.json``): a proportional-odds ordinal model
  over the severity levels whose latent score can only rise with P(entail), BLEU and ROUGE-L and
  fall with P(contradiction), in each direction, with a bounded slope in each (``capqa.plus.monotone``). CAP+
  is the expected utility of the answer's level, utility = paper severity / 6 (exact ...
  alternative_correct 1, contradictory 0): in [0, 1], higher = more correct.
* **The relation classifier** (``relation_probabilities``, ``relation_classifier.json``): a
  multinomial logistic regression over the eight classes on the logits of the six probabilities
  (clipped to [EPSILON, 1 - EPSILON]), BLEU and ROUGE-L and all their pairwise products (8 + 36 =
  44 columns, standardised with the fitting rows' mean and standard deviation). It names *which*
  error an answer makes, so it may use any shape of the evidence.
* ``diagnose_relation``: the most likely class and group, restricted to the classes whose utility
  lies within ``EXPLANATION_BAND`` of the answer's CAP+, so the explanation never says "correct"
  of an answer CAP+ scores below one half, nor "contradictory" of one it scores above.

Fitting the parameters (``python -m capqa fit``) is ``capqa.plus.fitting``.
"""

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import logsumexp

from capqa.common.constants import CLASS_DEFINITIONS, LABELS, NLI_LABELS, RELATION_GROUPS
from capqa.common.validation import check_finite_scores, check_same_length
from capqa.plus.monotone import LEVEL_OF_CLASS, MonotoneModel
from capqa.records.identity import json_files_hash

if TYPE_CHECKING:
    import pandas as pd

PARAMS_DIR = Path(__file__).resolve().parent / "params"
RELATION_FILE = "relation_classifier.json"
CAP_PLUS_FILE = "cap_plus.json"

# Columns of paper_scores.csv: forward = gold statement -> predicted statement.
PROBABILITY_COLUMNS = ("pe_f", "pn_f", "pc_f", "pe_r", "pn_r", "pc_r")
OVERLAP_COLUMNS = ("bleu", "rouge_l")
# The relation classifier's logits clip probabilities here: the published probabilities never go
# below 2e-6, and a model surer than anything in the fitting data cannot push a logit out of range.
EPSILON = 1e-6
# How far a row of three probabilities may sum from 1: the published rows are within 2e-7, and
# rounding to 4 decimals moves a sum by at most 1.5e-4.
PROBABILITY_SUM_TOLERANCE = 1e-3

# The explanation names a class whose utility is at most this far from the answer's CAP+.
EXPLANATION_BAND = 0.5



# --- Features --------------------------------------------------------------------------------

def base_feature_names() -> List[str]:
    directions = (("f", "forward"), ("r", "reverse"))
    logits = [f"logit_p_{label}_{direction}" for _, direction in directions for label in NLI_LABELS]
    return logits + list(OVERLAP_COLUMNS)


def feature_names() -> List[str]:
    """Names of the 44 columns of ``feature_matrix``, as the JSON file lists them."""
    base = base_feature_names()
    first, second = np.triu_indices(len(base))
    return base + [f"{base[i]}*{base[j]}" for i, j in zip(first, second)]


def _check_probabilities(values, name):
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"`{name}` must be an (n, 3) array of probabilities: {error}") from None
    if array.ndim != 2 or array.shape[1] != len(NLI_LABELS):
        raise ValueError(f"`{name}` must have shape (n, 3) (entailment, neutral, contradiction), "
                         f"got shape {array.shape}")
    if not np.all(np.isfinite(array)) or array.min(initial=0) < 0 or array.max(initial=0) > 1:
        raise ValueError(f"`{name}` must hold probabilities in [0, 1]")
    # Each row is one softmax; rounded inputs (e.g. 4 decimals) are still well within this.
    deviation = np.abs(array.sum(axis=1) - 1.0)
    if deviation.size and deviation.max() > PROBABILITY_SUM_TOLERANCE:
        row = int(deviation.argmax())
        raise ValueError(f"`{name}` rows must sum to 1 (entailment + neutral + contradiction); "
                         f"row {row} sums to {array[row].sum():.6g}")
    return array


def _check_overlap(values, name, n_rows):
    array = check_finite_scores(values, name)
    check_same_length(array, name, range(n_rows), "probabilities_forward")
    if array.size and (array.min() < 0 or array.max() > 1):
        raise ValueError(f"`{name}` must be in [0, 1], got values from {array.min()} to {array.max()}")
    return array


def checked_inputs(probabilities_forward: ArrayLike, probabilities_reverse: ArrayLike, bleu: ArrayLike,
                   rouge_l: ArrayLike) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The four inputs as float arrays, checked: (n, 3) probabilities, (n,) overlaps in [0, 1]."""
    forward = _check_probabilities(probabilities_forward, "probabilities_forward")
    reverse = _check_probabilities(probabilities_reverse, "probabilities_reverse")
    check_same_length(forward, "probabilities_forward", reverse, "probabilities_reverse")
    n_rows = forward.shape[0]
    return forward, reverse, _check_overlap(bleu, "bleu", n_rows), _check_overlap(rouge_l, "rouge_l", n_rows)


def base_features(probabilities_forward: ArrayLike, probabilities_reverse: ArrayLike, bleu: ArrayLike,
                  rouge_l: ArrayLike) -> np.ndarray:
    """(n, 8): logits of the six clipped probabilities, then BLEU and ROUGE-L."""
    forward, reverse, bleu, rouge_l = checked_inputs(probabilities_forward, probabilities_reverse, bleu, rouge_l)
    probabilities = np.clip(np.hstack([forward, reverse]), EPSILON, 1.0 - EPSILON)
    return np.column_stack([np.log(probabilities / (1.0 - probabilities)), bleu, rouge_l])


def feature_matrix(probabilities_forward: ArrayLike, probabilities_reverse: ArrayLike, bleu: ArrayLike,
                   rouge_l: ArrayLike) -> np.ndarray:
    """(n, 44): the base features and all their pairwise products (``feature_names`` order)."""
    base = base_features(probabilities_forward, probabilities_reverse, bleu, rouge_l)
    first, second = np.triu_indices(base.shape[1])
    return np.hstack([base, base[:, first] * base[:, second]])


def frame_inputs(frame: "pd.DataFrame") -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(probabilities_forward, probabilities_reverse, bleu, rouge_l) from a paper_scores-style
    DataFrame's published columns: the arguments of ``cap_plus`` and ``diagnose_relation``."""
    columns = list(PROBABILITY_COLUMNS)
    return (frame[columns[:3]].to_numpy(), frame[columns[3:]].to_numpy(),
            frame["bleu"].to_numpy(), frame["rouge_l"].to_numpy())


# Significant digits of each input a row fingerprint keeps: the published files have at most 10,
# and any two float parsers of those digits agree far below the 10th.
FINGERPRINT_DIGITS = 10


def row_fingerprints(frame: "pd.DataFrame", label_column: str = "label") -> List[str]:
    """One short hash per row of its label and CAP+'s eight inputs (to ``FINGERPRINT_DIGITS``
    significant digits): what says that two files hold the same labelled rows, e.g. the rows a
    model was fitted on, without storing them."""
    inputs = np.column_stack([frame[column].to_numpy(float) for column in (*PROBABILITY_COLUMNS, *OVERLAP_COLUMNS)])
    labels = frame[label_column].astype(str).tolist()
    return [hashlib.sha256(f"{label}|{','.join(f'{value:.{FINGERPRINT_DIGITS}g}' for value in row)}".encode())
            .hexdigest()[:16] for label, row in zip(labels, inputs)]


# --- The classifier --------------------------------------------------------------------------

def _softmax(logits):
    return np.exp(logits - logsumexp(logits, axis=1, keepdims=True))


class StandardisedClassifier:
    """Standardisation plus a multinomial logistic regression; fitted or read from JSON."""

    def __init__(self, classes: Sequence[str], mean: ArrayLike, scale: ArrayLike, weights: ArrayLike,
                 intercepts: ArrayLike) -> None:
        self.classes = tuple(classes)
        self.mean, self.scale = np.asarray(mean, float), np.asarray(scale, float)
        self.weights, self.intercepts = np.asarray(weights, float), np.asarray(intercepts, float)

    def predict_proba(self, features: np.ndarray) -> np.ndarray:
        return _softmax(((features - self.mean) / self.scale) @ self.weights + self.intercepts)

    def to_json(self) -> Dict[str, Any]:
        """Readable: per class its intercept and one weight per named feature."""
        names = feature_names()
        return {
            "feature_names": names,
            "standardisation": {"mean": dict(zip(names, self.mean.tolist())),
                                "scale": dict(zip(names, self.scale.tolist()))},
            "classes": {label: {"intercept": float(self.intercepts[k]),
                                "weights": dict(zip(names, self.weights[:, k].tolist()))}
                        for k, label in enumerate(self.classes)},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "StandardisedClassifier":
        names = data["feature_names"]
        if names != feature_names():
            raise ValueError("the parameter file's `feature_names` do not match this version's "
                             "features; refit with `python -m capqa fit`")
        classes = list(data["classes"])
        column = lambda mapping: [mapping[name] for name in names]   # noqa: E731
        return cls(classes, column(data["standardisation"]["mean"]),
                   column(data["standardisation"]["scale"]),
                   np.array([column(data["classes"][label]["weights"]) for label in classes]).T,
                   [data["classes"][label]["intercept"] for label in classes])


# --- Loading and applying the shipped parameters -----------------------------------------------

class Parameters(NamedTuple):
    """The shipped (or refitted) models: the relation classifier and CAP+."""
    relation: StandardisedClassifier
    cap_plus: MonotoneModel

    @property
    def class_utility(self) -> np.ndarray:
        """(8,) utility of each class, ``LABELS`` order."""
        return np.array([self.cap_plus.level_utility[LEVEL_OF_CLASS[label]] for label in LABELS])


@lru_cache(maxsize=4)
def load_parameters(directory: Optional[Union[str, os.PathLike]] = None) -> Parameters:
    """The ``Parameters`` of ``directory`` (the package's params when None)."""
    directory = Path(directory) if directory is not None else PARAMS_DIR
    relation = json.loads((directory / RELATION_FILE).read_text())
    cap_plus_data = json.loads((directory / CAP_PLUS_FILE).read_text())
    return Parameters(StandardisedClassifier.from_json(relation),
                      MonotoneModel.from_json(cap_plus_data, str(directory / CAP_PLUS_FILE)))


def relation_probabilities(probabilities_forward: ArrayLike, probabilities_reverse: ArrayLike, bleu: ArrayLike,
                           rouge_l: ArrayLike, params_dir: Optional[Union[str, os.PathLike]] = None) -> np.ndarray:
    """(n, 8) class probabilities of the relation classifier, ``LABELS`` order."""
    classifier = load_parameters(params_dir).relation
    features = feature_matrix(probabilities_forward, probabilities_reverse, bleu, rouge_l)
    probabilities = classifier.predict_proba(features)
    return probabilities[:, [classifier.classes.index(label) for label in LABELS]]


def group_probabilities(class_probabilities: np.ndarray) -> np.ndarray:
    """(n, 5) group probabilities in ``RELATION_GROUPS`` order from (n, 8) class ones."""
    return np.column_stack([class_probabilities[:, [LABELS.index(label) for label in members]]
                            .sum(axis=1) for members in RELATION_GROUPS.values()])


def _cap_plus_latent(probabilities_forward, probabilities_reverse, bleu, rouge_l, params_dir):
    model = load_parameters(params_dir).cap_plus
    return model, model.latent(*checked_inputs(probabilities_forward, probabilities_reverse, bleu, rouge_l))


def cap_plus(probabilities_forward: ArrayLike, probabilities_reverse: ArrayLike, bleu: ArrayLike,
             rouge_l: ArrayLike, params_dir: Optional[Union[str, os.PathLike]] = None) -> np.ndarray:
    """CAP+ per example, in [0, 1] (higher = more correct).

    probabilities_forward, probabilities_reverse: (n, 3) arrays of (entailment, neutral,
    contradiction) for gold -> predicted and predicted -> gold, as CAP uses them.
    bleu, rouge_l: (n,) arrays from ``capqa.plus.features.answer_overlap(golds, predictions)``.
    Returns the expected utility of the severity level under the ordinal model of
    ``cap_plus.json``: never lower for more P(entail), never higher for more P(contradiction).
    """
    model, latent = _cap_plus_latent(probabilities_forward, probabilities_reverse, bleu, rouge_l, params_dir)
    return model.expected_utility(latent)


def level_probabilities(probabilities_forward: ArrayLike, probabilities_reverse: ArrayLike, bleu: ArrayLike,
                        rouge_l: ArrayLike, params_dir: Optional[Union[str, os.PathLike]] = None) -> np.ndarray:
    """(n, 6) CAP+'s probabilities of the severity levels (``capqa.plus.monotone.LEVELS``)."""
    model, latent = _cap_plus_latent(probabilities_forward, probabilities_reverse, bleu, rouge_l, params_dir)
    return model.level_probabilities(latent)


def credit_probabilities(probabilities_forward: ArrayLike, probabilities_reverse: ArrayLike, bleu: ArrayLike,
                         rouge_l: ArrayLike, params_dir: Optional[Union[str, os.PathLike]] = None) -> np.ndarray:
    """(n, 8) class probabilities consistent with CAP+: each severity level's CAP+ probability,
    shared among the level's classes as the relation classifier shares it (only the top level
    has several). The expected credit under them of severity / 6 is CAP+ itself."""
    levels = level_probabilities(probabilities_forward, probabilities_reverse, bleu, rouge_l, params_dir)
    classes = relation_probabilities(probabilities_forward, probabilities_reverse, bleu, rouge_l, params_dir)
    level_index = np.array([LEVEL_OF_CLASS[label] for label in LABELS])
    within = np.zeros_like(classes)
    for level in set(level_index.tolist()):
        members = level_index == level
        within[:, members] = classes[:, members] / classes[:, members].sum(axis=1, keepdims=True)
    return levels[:, level_index] * within


def consistent_classes(scores: np.ndarray, params_dir: Optional[Union[str, os.PathLike]] = None) -> np.ndarray:
    """(n, 8) bool: the classes an explanation may name at these CAP+ scores (utility within
    ``EXPLANATION_BAND``). Never empty: some class utility lies within 1/2 of any score in [0, 1]."""
    utility = load_parameters(params_dir).class_utility
    return np.abs(utility[None, :] - np.asarray(scores, float)[:, None]) <= EXPLANATION_BAND + 1e-12


def diagnose_relation(probabilities_forward: ArrayLike, probabilities_reverse: ArrayLike, bleu: ArrayLike,
                      rouge_l: ArrayLike, params_dir: Optional[Union[str, os.PathLike]] = None) -> List[Dict[str, Any]]:
    """Per example a dict: the most likely class and group consistent with CAP+, and all their
    probabilities.

    Arguments as for ``cap_plus``. Each dict: ``label`` (one of ``LABELS``: the relation
    classifier's most likely class among those whose utility lies within ``EXPLANATION_BAND`` of
    the example's CAP+), ``probability`` (its probability), ``probabilities`` ({class: p}, 8
    classes), ``group`` (likewise, among the groups of those classes), ``group_probability``,
    ``group_probabilities`` ({group: p}, the 5 ``RELATION_GROUPS``), ``explanation`` (one
    sentence for a person, from ``explain_relation``).
    """
    classes = relation_probabilities(probabilities_forward, probabilities_reverse, bleu, rouge_l,
                                     params_dir)
    groups = group_probabilities(classes)
    allowed = consistent_classes(cap_plus(probabilities_forward, probabilities_reverse, bleu, rouge_l,
                                          params_dir), params_dir)
    allowed_groups = group_probabilities(allowed.astype(float)) > 0
    group_names = list(RELATION_GROUPS)
    diagnoses = []
    for class_row, group_row, class_ok, group_ok in zip(classes, groups, allowed, allowed_groups):
        best_class = int(np.argmax(np.where(class_ok, class_row, -1.0)))
        best_group = int(np.argmax(np.where(group_ok, group_row, -1.0)))
        diagnosis = {
            "label": LABELS[best_class], "probability": float(class_row[best_class]),
            "probabilities": dict(zip(LABELS, map(float, class_row))),
            "group": group_names[best_group], "group_probability": float(group_row[best_group]),
            "group_probabilities": dict(zip(group_names, map(float, group_row))),
        }
        diagnosis["explanation"] = explain_relation(diagnosis)
        diagnoses.append(diagnosis)
    return diagnoses


def explain_relation(diagnosis: Mapping[str, Any]) -> str:
    """One sentence from a ``diagnose_relation`` dict, e.g. '... : likely partial, p = 0.61'."""
    label = diagnosis["label"]
    return f"{relation_sentence(label)}: likely {label}, p = {diagnosis['probability']:.2f}"


def relation_sentence(label: str) -> str:
    """'the answer is only part of the gold answer': the class's definition, as a sentence."""
    return f"the answer is {CLASS_DEFINITIONS[label]}"


def add_cap_plus(frame: "pd.DataFrame") -> "pd.DataFrame":
    """``frame`` with a ``cap_plus`` column from its six NLI probabilities and BLEU/ROUGE-L (as in
    the published per-row scores); unchanged when it has one already or lacks those columns."""
    if "cap_plus" in frame.columns:
        return frame
    if not all(column in frame.columns for column in (*PROBABILITY_COLUMNS, "bleu", "rouge_l")):
        return frame
    return frame.assign(cap_plus=cap_plus(*frame_inputs(frame)))


@lru_cache(maxsize=1)
def params_hash() -> str:
    """A hash of the shipped CAP+ and relation parameters (their JSON content): the identity's
    ``cap_plus_params``."""
    return json_files_hash(PARAMS_DIR / RELATION_FILE, PARAMS_DIR / CAP_PLUS_FILE)
