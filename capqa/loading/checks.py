"""What a model folder must be before it computes anything, checked when it loads (any model:
the NLI cross-encoder and the statement model alike).

A broken or unsuitable folder fails here with the clear error of ``capqa.loading.pretrained`` (the
model, the cause, the ways forward), never mid-job inside torch:

- ``load_model``: weights that fit the config (a config describing a far larger model than the
  weights hold is refused before anything is allocated), with no tensor missing or of another
  shape (a missing head would be random);
- ``check_pad_token``, ``pad_on_the_right``, ``check_known_tokens``: a tokenizer that can pad a
  batch on the right and turns text into known tokens.
"""

import logging
from pathlib import Path
from typing import Any, Mapping, Optional

from capqa.loading.pretrained import UnusableModel, is_local_folder, load_pretrained, model_error

logger = logging.getLogger(__name__)

# A checkpoint stores at least half a byte per parameter (4-bit; int8 one, float32 four): a config
# that needs more parameters than this many times the bytes of its weight files does not describe them.
_PARAMETERS_PER_WEIGHT_BYTE = 2
_WEIGHT_FILE_PATTERNS = ("*.safetensors", "pytorch_model*.bin")
_CHECK_TEXT = "The capital of France is Paris."
_SHOWN_KEYS = 3


def load_model(loader: Any, name: str, revision: Optional[str], what: str, **kwargs: Any) -> Any:
    """``load_pretrained`` for a model class (``AutoModelFor...``), refusing weights that do not
    fit its config: far fewer bytes than the config's parameters (checked on the meta device,
    before anything is allocated), or tensors that are missing or of another shape."""
    if is_local_folder(name):
        _check_weights_cover_config(loader, name, revision, what, kwargs.get("trust_remote_code", False))
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


def _check_weights_cover_config(loader, name, revision, what, trust_remote_code):
    """Refuse a config that needs far more parameters than the folder's weight files hold (a
    hidden size of 10**8 would otherwise allocate until the machine runs out of memory)."""
    # Deferred: torch is heavy, imported on first use.
    import torch
    # Deferred: transformers is heavy, imported on first use.
    from transformers import AutoConfig

    folder = Path(name).expanduser()
    weight_bytes = sum(path.stat().st_size for pattern in _WEIGHT_FILE_PATTERNS for path in folder.glob(pattern)
                       if path.is_file())
    if not weight_bytes:
        return  # from_pretrained says which file is missing
    config = load_pretrained(AutoConfig, name, revision, what, trust_remote_code=trust_remote_code)
    # First a bound from the config alone: building 10**5 layers even on the meta device takes
    # minutes and gigabytes of Python objects. Each layer holds at least hidden_size**2 weights
    # (attention alone has four such matrices), so this never exceeds a real model's count.
    _refuse_oversized(name, revision, what, _config_int(config, "num_hidden_layers")
                      * _config_int(config, "hidden_size") ** 2, weight_bytes)
    try:
        with torch.device("meta"):
            skeleton = loader.from_config(config, trust_remote_code=trust_remote_code)
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
