"""What produced a score: one frozen record, built from the loaded scorer, and its serialisations.

``ScorerIdentity`` holds, once, everything that decides a CAP result; ``CAPScorer.identity``
builds it from what actually loaded and ran, not from the options that were asked for:

- versions: ``cap-eval``, ``transformers``, ``torch``, as installed;
- the NLI model: ``nli_model`` and ``nli_revision``, a Hub id and the commit it loaded from, or a
  local folder's name and a content hash of its config, weight and tokenizer files (never its
  path); ``nli_dtype`` (as loaded), ``quantization`` ("int8-dynamic" or "none"),
  ``max_length`` and ``compact_attention`` (as installed, not as asked);
- ``statements``: "none" when the result was scored without questions, else the engine that
  made them, ``rules(version=...,parser=...)`` or ``model(name=...,revision=...,dtype=...)``;
- the formula: ``alpha``, ``neutral_weight`` (λ);
- ``variant`` and ``cap_plus_params``, a hash of the CAP+ / relation parameters (the relation is
  in every detailed result);
- ``verdict`` (policy, score, threshold) and ``verdict_thresholds``, a hash of its file.

Three serialisations, each keeping only the fields that change its values:

- ``hashcode()``: every field, one line ``name=value|...``; in every result (``result["hashcode"]``);
- ``job_settings()``: every field as a dict; the job fingerprint of a scored file adds the job's
  own settings (input digest, columns, escaping), so one file's rows share one hashcode;
- ``cache_key()``: the versions and the NLI fields only; what decides the NLI probabilities of a
  pair (the score cache needs no α, no statements, no verdict).
"""

import hashlib
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Optional, Tuple, Union

from capqa.constants import DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION

# The model files whose content decides what a local model computes: config, weights, tokenizer
# (the tokens decide the probabilities as much as the weights) and generation settings.
MODEL_FILE_PATTERNS = ("config.json", "generation_config.json", "*.safetensors", "*.safetensors.index.json",
                       "*.bin", "*.bin.index.json", "tokenizer*", "special_tokens_map.json", "added_tokens.json",
                       "vocab*", "merges.txt", "*.model", "*.tiktoken")
# Hex digits kept of a content hash: 64 bits, far from any chance collision between folders.
CONTENT_HASH_DIGITS = 16
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
_READ_BYTES = 8 << 20
# The model whose probabilities CAP+, the relation classifier and the verdict thresholds were
# fitted on (the paper's per-row probabilities, data/paper_scores.csv).
FITTED_NLI_MODEL = (DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION)
NONE = "none"


# --- The parts ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Versions:
    """The versions of the packages that compute a score."""

    cap_eval: str
    transformers: str
    torch: str

    def items(self) -> Tuple[Tuple[str, str], ...]:
        return (("cap-eval", self.cap_eval), ("transformers", self.transformers), ("torch", self.torch))


@lru_cache(maxsize=1)
def installed_versions() -> Versions:
    import torch
    import transformers

    from capqa import __version__

    return Versions(__version__, transformers.__version__, torch.__version__)


@dataclass(frozen=True)
class ModelSource:
    """Which model loaded: a Hub id and its commit, or a local folder's name and content hash."""

    name: str
    revision: str


def model_source(model: Union[str, os.PathLike], revision: Optional[str] = None) -> ModelSource:
    """The ``ModelSource`` of a model that loaded from ``model`` at ``revision``.

    A local folder is named by its last part and ``sha256:<hex>`` of its model files (name, size
    and bytes of each), so a folder rebuilt in place with other weights is another model, and
    the same files elsewhere are the same one. A Hub id gets the commit the Hugging Face cache
    resolved ``revision`` to; a revision that cannot be resolved is kept, marked "(unresolved)".
    """
    folder = Path(model).expanduser()
    if folder.is_dir():
        return ModelSource(folder.resolve().name, "sha256:" + folder_content_hash(folder))
    return ModelSource(str(model), hub_commit(str(model), revision))


def hub_commit(repo_id: str, revision: Optional[str] = None) -> str:
    """The commit of ``repo_id`` at ``revision`` (default "main"), from the Hugging Face cache's
    snapshot folder (public ``huggingface_hub`` API; no request is made)."""
    if revision is not None and _COMMIT.match(revision):
        return revision
    from huggingface_hub import try_to_load_from_cache

    try:
        cached = try_to_load_from_cache(repo_id, "config.json", revision=revision or "main")
    except (ValueError, OSError):  # not a valid repo id or revision for the cache
        cached = None
    if isinstance(cached, str):
        snapshot = Path(cached).parent.name  # .../models--org--name/snapshots/<commit>/config.json
        if _COMMIT.match(snapshot):
            return snapshot
    return f"{revision or 'main'}(unresolved)"


def folder_content_hash(folder: Union[str, os.PathLike]) -> str:
    """Hex digest of a model folder's model files (``MODEL_FILE_PATTERNS``): names, sizes, bytes."""
    folder = Path(folder).expanduser().resolve()
    files = sorted({path for pattern in MODEL_FILE_PATTERNS for path in folder.glob(pattern) if path.is_file()})
    # Keyed by each file's size, modification time and inode: a process hashes a folder once,
    # and any rewrite of a file changes its key.
    stamps = tuple((path.name, *_stamp(path)) for path in files)
    return _content_hash(str(folder), stamps)


def _stamp(path):
    status = path.stat()
    return status.st_size, status.st_mtime_ns, status.st_ino


@lru_cache(maxsize=64)
def _content_hash(folder, stamps):
    digest = hashlib.sha256()
    for name, size, _, _ in stamps:
        digest.update(json.dumps([name, size]).encode("utf-8"))
        with open(Path(folder) / name, "rb") as handle:
            for block in iter(lambda: handle.read(_READ_BYTES), b""):
                digest.update(block)
    return digest.hexdigest()[:CONTENT_HASH_DIGITS]


@dataclass(frozen=True)
class NLIIdentity:
    """The NLI model as loaded, and how it computes (``NLIScorer.identity``)."""

    model: str
    revision: str
    dtype: str
    quantization: str
    max_length: int
    compact_attention: bool

    def items(self) -> Tuple[Tuple[str, Any], ...]:
        return (("nli_model", self.model), ("nli_revision", self.revision), ("nli_dtype", self.dtype),
                ("quantization", self.quantization), ("max_length", self.max_length),
                ("compact_attention", self.compact_attention))

    @property
    def is_fitted_model(self) -> bool:
        """Whether this is the model CAP+, the relation and the verdict thresholds were fitted on."""
        return (self.model, self.revision) == FITTED_NLI_MODEL


@dataclass(frozen=True)
class StatementIdentity:
    """The engine that made a result's statements: "none", "rules" or "model", with its details."""

    engine: str
    details: Tuple[Tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if not self.details:
            return self.engine
        return f"{self.engine}({','.join(f'{key}={value}' for key, value in self.details)})"


NO_STATEMENTS = StatementIdentity(NONE)


def rules_identity() -> StatementIdentity:
    """The rule converter's identity (``capqa.statements.rules.version``)."""
    from capqa.statements.rules.version import engine_identity

    return StatementIdentity("rules", tuple(engine_identity().items()))


def model_statements_identity(source: ModelSource, dtype: str) -> StatementIdentity:
    return StatementIdentity("model", (("name", source.name), ("revision", source.revision), ("dtype", dtype)))


# --- The record and its serialisations -----------------------------------------------------------

@dataclass(frozen=True)
class ScorerIdentity:
    """Everything that decides a CAP result (see the module's table)."""

    versions: Versions
    nli: NLIIdentity
    statements: StatementIdentity
    alpha: float
    neutral_weight: float
    variant: str
    cap_plus_params: str
    verdict: str
    verdict_thresholds: str

    def items(self) -> Tuple[Tuple[str, Any], ...]:
        """Every field, flat, in the hashcode's order."""
        return (*self.versions.items(), *self.nli.items(), ("statements", str(self.statements)),
                ("alpha", self.alpha), ("neutral_weight", self.neutral_weight), ("variant", self.variant),
                ("cap_plus_params", self.cap_plus_params), ("verdict", self.verdict),
                ("verdict_thresholds", self.verdict_thresholds))

    def hashcode(self) -> str:
        """One line that says exactly what produced a result (as bertscore's hashcode)."""
        return "|".join(f"{name}={value}" for name, value in self.items())

    def job_settings(self) -> Dict[str, Any]:
        """The job fingerprint's part from the scorer: every field, so one file has one hashcode."""
        return dict(self.items())

    def cache_key(self) -> Dict[str, Any]:
        """What decides the NLI probabilities of a pair: the score cache's key (``cache_key``)."""
        return cache_key(self.nli, self.versions)


def cache_key(nli: NLIIdentity, versions: Optional[Versions] = None) -> Dict[str, Any]:
    """The versions and the NLI fields of an identity: the key the score cache stores under."""
    return dict((*(versions or installed_versions()).items(), *nli.items()))


def scorer_identity(nli: NLIIdentity, statements: StatementIdentity, alpha: float, neutral_weight: float,
                    variant: str, verdict: Optional[Any]) -> ScorerIdentity:
    """The record of a scorer's parts (``CAPScorer.identity`` calls it with its loaded parts).

    verdict: a ``capqa.verdicts.judge.Verdict`` or None."""
    return ScorerIdentity(installed_versions(), nli, statements, alpha, neutral_weight, variant,
                          cap_plus_params_hash(), *verdict_fields(verdict))


@lru_cache(maxsize=1)
def cap_plus_params_hash() -> str:
    """A hash of the shipped CAP+ and relation parameters (their JSON content)."""
    from capqa.plus.calibration import CAP_PLUS_FILE, PARAMS_DIR, RELATION_FILE

    return _json_files_hash(PARAMS_DIR / RELATION_FILE, PARAMS_DIR / CAP_PLUS_FILE)


def verdict_fields(verdict: Optional[Any]) -> Tuple[str, str]:
    """(verdict, verdict_thresholds) of a resolved ``Verdict``: its policy, score and threshold,
    and a hash of the thresholds file the threshold came from ("none" for a bare threshold)."""
    if verdict is None:
        return NONE, NONE
    name = verdict.policy or "threshold"
    credits = "" if verdict.credits is None or verdict.policy != "custom" else (
        f",credits={_canonical_hash(dict(verdict.credits))}")
    described = f"{name}(score={verdict.score},threshold={verdict.threshold!r}{credits})"
    return described, (NONE if verdict.source is None else _json_files_hash(verdict.source))


@lru_cache(maxsize=8)
def _json_files_hash(*paths: Union[str, Path]) -> str:
    return _canonical_hash([json.loads(Path(path).read_text()) for path in paths])


def _canonical_hash(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:CONTENT_HASH_DIGITS]

