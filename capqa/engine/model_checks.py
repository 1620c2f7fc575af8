"""What an NLI model must be before it scores anything, checked when it loads.

- ``check_nli_config``: the NLI model's config alone (cheap, at ``evaluate.load`` time): exactly
  the three NLI labels, and ``max_length`` within its position limit;
- ``checked_label_indices``: where entailment, neutral and contradiction are in its output;
- ``check_probabilities``: finite probabilities, or an error that names the model.

The generic checks of any model folder (weights that fit the config, a tokenizer that pads and
knows its tokens) are ``capqa.loading.checks``; ``NLIScorer`` runs a first pair at load time.
"""

import logging
from typing import Any, List, Mapping, Optional

import numpy as np

from capqa.common.constants import NLI_LABELS
from capqa.common.validation import check_max_length_fits
from capqa.loading.pretrained import DEFAULT_LOAD, LoadArguments, UnusableModel, load_pretrained, model_error

logger = logging.getLogger(__name__)

# Prefixes of the label spellings used by NLI models on the Hub ("ENTAILMENT", "entailed", ...).
_LABEL_PREFIXES = {"entail": "entailment", "neutral": "neutral", "contradict": "contradiction"}


def check_nli_config(name: str, revision: Optional[str], max_length: int, load: LoadArguments = DEFAULT_LOAD) -> Any:
    """The NLI model's config, read alone (a small file): refuse, before the model loads, one that
    cannot serve as CAP's NLI model or whose position limit ``max_length`` exceeds."""
    # Deferred: transformers is heavy, imported on first use.
    from transformers import AutoConfig

    config = load_pretrained(AutoConfig, name, revision, "NLI model", **load.hub())
    checked_label_indices(name, revision, config)
    _check_classifier_type(name, revision, config)
    check_max_length_fits(max_length, name, config, None)
    return config


def nli_label_indices(id2label: Mapping[int, str]) -> List[int]:
    """Indices of (entailment, neutral, contradiction) in the model's output, from id2label.

    Exactly these three labels, once each, at outputs 0, 1, 2: a fourth label (e.g. "other") is
    refused rather than renormalised away, since CAP's D(a -> b) and the CAP+ and relation
    models are defined on a three-way NLI distribution, and what a fourth class takes from
    the other three has no meaning there (docs/architecture.md)."""
    found, twice, others = {}, [], []
    for index, name in id2label.items():
        normalised = str(name).strip().lower()
        label = next((label for prefix, label in _LABEL_PREFIXES.items() if normalised.startswith(prefix)), None)
        if label is None:
            others.append(repr(name))
        elif label in found:
            twice.append(label)
        else:
            found[label] = index
    missing = [label for label in NLI_LABELS if label not in found]
    problems = [f"{what}: {', '.join(names)}" for what, names in
                (("missing", missing), ("labelled twice", twice), ("not NLI labels", others)) if names]
    if not problems and sorted(str(index) for index in id2label) != ["0", "1", "2"]:
        problems.append("its outputs must be numbered 0, 1, 2")
    if problems:
        raise ValueError(
            f"`nli_model` must be an NLI classifier with exactly the labels entailment, neutral and contradiction; "
            f"its config.id2label is {dict(id2label)} ({'; '.join(problems)})")
    return [int(found[label]) for label in NLI_LABELS]


def checked_label_indices(name: str, revision: Optional[str], config: Any) -> List[int]:
    """``nli_label_indices`` of the config, or an ``UnusableModel`` that names ``nli_model``."""
    if getattr(config, "problem_type", None) == "multi_label_classification":
        raise model_error(name, revision, "NLI model",
                          "`nli_model` must be a single-label NLI classifier (one distribution over entailment, "
                          "neutral and contradiction); its config.problem_type is multi_label_classification",
                          UnusableModel)
    try:
        return nli_label_indices(getattr(config, "id2label", None) or {})
    except ValueError as error:
        raise model_error(name, revision, "NLI model", str(error), UnusableModel) from None


def _check_classifier_type(name, revision, config):
    # Deferred: transformers is heavy, imported on first use.
    from transformers.models.auto.modeling_auto import MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES

    model_type = getattr(config, "model_type", "")
    if model_type not in MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES:
        raise model_error(name, revision, "NLI model",
                          f"`nli_model` must be a sequence classifier; transformers has no sequence-classification "
                          f"model for its config.model_type {model_type!r}", UnusableModel)


def check_probabilities(probabilities: np.ndarray, name: str, precision: str) -> np.ndarray:
    """``probabilities`` when every one is finite; else a ``ValueError`` that names the model, so
    that neither a result nor the score cache ever holds NaN."""
    finite = np.isfinite(probabilities).all(axis=1)
    if not finite.all():
        overflow = "" if precision == "float32" else f", or {precision} overflows (try precision=\"float32\")"
        raise ValueError(f"`nli_model` {name!r} gave non-finite probabilities (NaN or inf) for "
                         f"{int((~finite).sum())} of {len(finite)} pairs in {precision}: its weights or config "
                         f"values (e.g. a negative layer_norm_eps) make NaN or inf{overflow}")
    return probabilities
