"""What a model folder must be before it scores anything, checked when it loads.

A broken or unsuitable folder fails here with the clear error of ``capqa.engine.loading`` (the
model, the cause, the ways forward), never mid-job inside torch or, worse, with scores that look
fine and mean nothing:

- ``check_nli_config``: the NLI model's config alone (cheap, at ``evaluate.load`` time): exactly
  the three NLI labels, and ``max_length`` within its position limit;
- ``load_model``: weights that fit the config (a config describing a far larger model than the
  weights hold is refused before anything is allocated), with no tensor missing or of another
  shape (a missing head would be random);
- ``check_loaded_nli``: a tokenizer with a pad token and a vocabulary the embeddings hold, that
  turns text into known tokens, and a first pair that gives finite probabilities.
"""

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Mapping, Optional

import numpy as np

from capqa.constants import NLI_LABELS
from capqa.engine.loading import UnusableModel, first_line, is_local_folder, load_pretrained, model_error
from capqa.validation import check_max_length_fits

if TYPE_CHECKING:
    from capqa.engine.nli import NLIScorer

logger = logging.getLogger(__name__)

# A checkpoint stores at least half a byte per parameter (4-bit; int8 one, float32 four): a config
# that needs more parameters than this many times the bytes of its weight files does not describe them.
_PARAMETERS_PER_WEIGHT_BYTE = 2
_WEIGHT_FILE_PATTERNS = ("*.safetensors", "pytorch_model*.bin")
# A first pair at load time: a model that fails or gives NaN fails here, not on the first batch.
_CHECK_PAIR = ("A man is playing a guitar on stage.", "A man is playing music.")
_CHECK_TEXT = "The capital of France is Paris."
_SHOWN_KEYS = 3
# Prefixes of the label spellings used by NLI models on the Hub ("ENTAILMENT", "entailed", ...).
_LABEL_PREFIXES = {"entail": "entailment", "neutral": "neutral", "contradict": "contradiction"}


def check_nli_config(name: str, revision: Optional[str], max_length: int) -> Any:
    """The NLI model's config, read alone (a small file): refuse, before the model loads, one that
    cannot serve as CAP's NLI model or whose position limit ``max_length`` exceeds."""
    from transformers import AutoConfig

    config = load_pretrained(AutoConfig, name, revision, "NLI model")
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
    from transformers.models.auto.modeling_auto import MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES

    model_type = getattr(config, "model_type", "")
    if model_type not in MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES:
        raise model_error(name, revision, "NLI model",
                          f"`nli_model` must be a sequence classifier; transformers has no sequence-classification "
                          f"model for its config.model_type {model_type!r}", UnusableModel)


# --- Weights that fit the config -------------------------------------------------------------

def load_model(loader: Any, name: str, revision: Optional[str], what: str, **kwargs: Any) -> Any:
    """``load_pretrained`` for a model class (``AutoModelFor...``), refusing weights that do not
    fit its config: far fewer bytes than the config's parameters (checked on the meta device,
    before anything is allocated), or tensors that are missing or of another shape."""
    if is_local_folder(name):
        _check_weights_cover_config(loader, name, revision, what)
    model, info = load_pretrained(loader, name, revision, what, output_loading_info=True,
                                  ignore_mismatched_sizes=True, **kwargs)
    problems = _loading_problems(info)
    if problems:
        raise model_error(name, revision, what, f"its weights do not fit its config.json: {problems}; "
                                                f"a model folder must hold the weights its config describes",
                          UnusableModel)
    return model


def _loading_problems(info: Mapping[str, Any]) -> str:
    problems = []
    missing = sorted(info.get("missing_keys") or ())
    if missing:
        shown = ", ".join(missing[:_SHOWN_KEYS]) + (", ..." if len(missing) > _SHOWN_KEYS else "")
        problems.append(f"{len(missing)} tensor(s) are missing ({shown}) and would be random")
    mismatched = sorted(info.get("mismatched_keys") or (), key=lambda entry: str(entry[0]))
    if mismatched:
        shown = ", ".join(f"{key} is {list(stored)} in the weights but {list(wanted)} in the config"
                          for key, stored, wanted in mismatched[:_SHOWN_KEYS])
        problems.append(f"{len(mismatched)} tensor(s) have another shape ({shown}"
                        f"{', ...' if len(mismatched) > _SHOWN_KEYS else ''})")
    return "; ".join(problems)


def _check_weights_cover_config(loader, name, revision, what):
    """Refuse a config that needs far more parameters than the folder's weight files hold (a
    hidden size of 10**8 would otherwise allocate until the machine runs out of memory)."""
    import torch
    from transformers import AutoConfig

    folder = Path(name).expanduser()
    weight_bytes = sum(path.stat().st_size for pattern in _WEIGHT_FILE_PATTERNS for path in folder.glob(pattern)
                       if path.is_file())
    if not weight_bytes:
        return  # from_pretrained says which file is missing
    config = load_pretrained(AutoConfig, name, revision, what)
    # First a bound from the config alone: building 10**5 layers even on the meta device takes
    # minutes and gigabytes of Python objects. Each layer holds at least hidden_size**2 weights
    # (attention alone has four such matrices), so this never exceeds a real model's count.
    _refuse_oversized(name, revision, what, _config_int(config, "num_hidden_layers")
                      * _config_int(config, "hidden_size") ** 2, weight_bytes)
    try:
        with torch.device("meta"):
            skeleton = loader.from_config(config)
    except Exception:  # noqa: BLE001 (from_pretrained then fails with its own error, a ModelLoadError)
        logger.debug("%s %r: no meta-device build to count parameters", what, name, exc_info=True)
        return
    _refuse_oversized(name, revision, what, sum(parameter.numel() for parameter in skeleton.parameters()),
                      weight_bytes)


def _refuse_oversized(name, revision, what, parameters, weight_bytes):
    if parameters > _PARAMETERS_PER_WEIGHT_BYTE * weight_bytes:
        raise model_error(name, revision, what,
                          f"its config.json describes a model of at least {parameters:,} parameters, but its weight "
                          f"files hold only {weight_bytes:,} bytes; the config does not belong to these weights",
                          UnusableModel)


def _config_int(config, key):
    """A positive integer of the config (through its attribute map: d_model, n_layer, ...), else 0."""
    try:
        value = getattr(config, key, 0)
    except Exception:  # noqa: BLE001 (a config property that fails to compute counts as absent)
        return 0
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


# --- A loaded NLI model ----------------------------------------------------------------------

def check_loaded_nli(scorer: "NLIScorer") -> None:
    """Refuse, right after loading, an NLI model that would fail or mislead on the first batch
    (and make its tokenizer pad on the right, ``pad_on_the_right``)."""
    what = "NLI tokenizer"
    tokenizer, name, revision = scorer.tokenizer, scorer.model_name, scorer.revision
    check_pad_token(tokenizer, name, revision, what, "nli_model")
    pad_on_the_right(tokenizer, name)
    check_known_tokens(tokenizer, name, revision, what)
    embeddings = scorer.model.get_input_embeddings()
    rows = getattr(embeddings, "num_embeddings", None)
    if isinstance(rows, int) and len(tokenizer) > rows:
        raise model_error(name, revision, what,
                          f"the tokenizer of `nli_model` has {len(tokenizer):,} tokens but the model's embeddings "
                          f"hold {rows:,}; text with the tokens beyond would fail mid-job", UnusableModel)
    features, _ = scorer.plan([_CHECK_PAIR])
    try:
        scorer._forward(features)
    except ValueError as error:  # non-finite probabilities (check_probabilities)
        raise model_error(name, revision, "NLI model", str(error), UnusableModel) from None
    except Exception as error:  # noqa: BLE001 (any failure on a first pair is the model's)
        raise model_error(name, revision, "NLI model", f"it fails on a first test pair "
                                                       f"({type(error).__name__}: {first_line(error)})",
                          UnusableModel) from error


def check_pad_token(tokenizer: Any, name: str, revision: Optional[str], what: str, option: str) -> None:
    """Batches are padded: a tokenizer without a pad token fails on the first batch of two texts.
    Refused rather than given a stand-in (such as the end-of-sequence token): a classifier that
    reads its answer at the last token that is not padding would read the wrong token."""
    if getattr(tokenizer, "pad_token_id", None) is None:
        raise model_error(name, revision, what,
                          f"the tokenizer of `{option}` has no pad token, which batching needs; set one that the "
                          f"model was trained with (tokenizer.pad_token = ...) and save the folder again",
                          UnusableModel)


def pad_on_the_right(tokenizer: Any, name: str) -> None:
    """Pad batches on the right, whatever the tokenizer's config says: with ``padding_side="left"``
    an encoder with absolute positions (DeBERTa's position_biased_input, BERT, BART) sees the real
    tokens of a short pair at other positions whenever a longer pair shares its batch, so its
    scores changed with the batch (by up to 0.99 on the tiny test model). Right padding leaves
    every real token where it is alone."""
    if getattr(tokenizer, "padding_side", "right") != "right":
        logger.info("%s: padding on the right (its tokenizer config says %r), so that a pair's scores do not "
                    "depend on the pairs batched with it", name, tokenizer.padding_side)
        tokenizer.padding_side = "right"


def check_known_tokens(tokenizer: Any, name: str, revision: Optional[str], what: str) -> None:
    """A tokenizer that turns ordinary text into unknown tokens only (a folder without its
    tokenizer files gets an empty stand-in vocabulary) would give every pair the same scores."""
    unknown = getattr(tokenizer, "unk_token_id", None)
    if unknown is None:
        return
    special = set(getattr(tokenizer, "all_special_ids", ()) or ())
    ids = [token for token in tokenizer(_CHECK_TEXT)["input_ids"] if token not in special or token == unknown]
    if ids and all(token == unknown for token in ids):
        raise model_error(name, revision, what,
                          f"its tokenizer turns ordinary text into unknown tokens only (a vocabulary of "
                          f"{len(tokenizer):,} tokens: its tokenizer files are missing or wrong)", UnusableModel)


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
