"""What produced a score: one frozen record, built from the loaded scorer, and its serialisations.

``ScorerIdentity`` holds, once, everything that decides a CAP result; ``CAPScorer.identity``
builds it from what actually loaded and ran, not from the options that were asked for. What each
of its fields says is ``FIELD_MEANINGS`` (at the end of this module): the one description from
which docs/architecture.md's table, the README and the metric's docstring are generated.

Its serialisations, each derived from the record:

- ``items()``: every field, flat, in the hashcode's order; ``compared()``: the same without the
  provenance fields (``commit``), as a dict: what two runs must share to give the same scores;
- ``hashcode()``: every field, one line ``name=value|...``; in every result (``result["hashcode"]``);
- ``to_json()`` / ``from_json``: the record itself, nested, checked field by field on reading
  (the summary beside a scored file keeps it; ``capqa.records.json_records``);
- ``cache_key()``: ``transformers``, ``torch`` and the NLI fields only: what decides the NLI
  probabilities of a pair (the score cache needs no α, no statements, no verdict, no code but
  the engine's).

A scoring job's identity adds the job's own settings and the input digest (``capqa.records.job``).
"""

import hashlib
import json
import os
import re
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Optional, Tuple, Union

from capqa import __version__
from capqa.common.constants import DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION
from capqa.records.code import NO_CHECKOUT, checkout_commit, code_digest
from capqa.records.json_records import RecordError, fields_to_json, kind, typed

# The model files whose content decides what a local model computes: config, weights, tokenizer
# (the tokens decide the probabilities as much as the weights), generation settings and the
# model's own code (what runs with trust_remote_code).
MODEL_FILE_PATTERNS = ("config.json", "generation_config.json", "*.safetensors", "*.safetensors.index.json",
                       "*.bin", "*.bin.index.json", "tokenizer*", "special_tokens_map.json", "added_tokens.json",
                       "vocab*", "merges.txt", "*.model", "*.tiktoken", "*.py")
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
    """The code that computes a score: this package (its version and a digest of its sources),
    the packages it runs on, and the checkout's commit (provenance, not compared)."""

    cap_eval: str
    code: str
    transformers: str
    torch: str
    commit: str = field(default=NO_CHECKOUT, compare=False)

    def items(self) -> Tuple[Tuple[str, str], ...]:
        return (("cap-eval", self.cap_eval), ("commit", self.commit), ("code", self.code),
                ("transformers", self.transformers), ("torch", self.torch))

    def libraries(self) -> Tuple[Tuple[str, str], ...]:
        """The packages the NLI engine computes with (the score cache's part of the versions)."""
        return (("transformers", self.transformers), ("torch", self.torch))


# Fields shown in the hashcode for people but never compared: the same sources at two commits
# (a change of docs or tests between them) compute the same scores.
PROVENANCE = tuple(spec.name for spec in fields(Versions) if not spec.compare)


@lru_cache(maxsize=1)
def installed_versions() -> Versions:
    # Deferred: torch is heavy, imported on first use.
    import torch
    # Deferred: transformers is heavy, imported on first use.
    import transformers

    return Versions(__version__, code_digest(), transformers.__version__, torch.__version__, checkout_commit())


@dataclass(frozen=True)
class ModelSource:
    """Which model loaded: a Hub id and its commit, or a local folder's name and content hash."""

    name: str
    revision: str


def model_source(model: Union[str, os.PathLike], revision: Optional[str] = None,
                 cache_dir: Optional[str] = None) -> ModelSource:
    """The ``ModelSource`` of a model that loaded from ``model`` at ``revision``.

    A local folder is named by its last part and ``sha256:<hex>`` of its model files (name, size
    and bytes of each), so a folder rebuilt in place with other weights is another model, and
    the same files elsewhere are the same one. A Hub id gets the commit the Hugging Face cache
    (``cache_dir``, default HF_HUB_CACHE) resolved ``revision`` to; a revision that cannot be
    resolved is kept, marked "(unresolved)".
    """
    folder = Path(model).expanduser()
    if folder.is_dir():
        return ModelSource(folder.resolve().name, "sha256:" + folder_content_hash(folder))
    return ModelSource(str(model), hub_commit(str(model), revision, cache_dir))


def hub_commit(repo_id: str, revision: Optional[str] = None, cache_dir: Optional[str] = None) -> str:
    """The commit of ``repo_id`` at ``revision`` (default "main"), from the Hugging Face cache's
    snapshot folder (public ``huggingface_hub`` API; no request is made)."""
    if revision is not None and _COMMIT.match(revision):
        return revision
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import try_to_load_from_cache

    try:
        cached = try_to_load_from_cache(repo_id, "config.json", cache_dir=cache_dir, revision=revision or "main")
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
    code: str  # capqa.records.code.engine_code_digest(): the code that turns texts into probabilities
    # The model's own code having run (trust_remote_code) and the keyword arguments it and its
    # tokenizer were loaded with (``capqa.loading.pretrained.LoadArguments.identity``).
    load: str = NONE

    def items(self) -> Tuple[Tuple[str, Any], ...]:
        return (("nli_model", self.model), ("nli_revision", self.revision), ("nli_dtype", self.dtype),
                ("quantization", self.quantization), ("max_length", self.max_length),
                ("compact_attention", self.compact_attention), ("nli_code", self.code),
                ("nli_load", self.load))

    @property
    def is_fitted_model(self) -> bool:
        """Whether this is the model CAP+, the relation and the verdict thresholds were fitted on."""
        return (self.model, self.revision) == FITTED_NLI_MODEL


@dataclass(frozen=True)
class StatementIdentity:
    """The engine that made a result's statements ("none", or what the engine says it is: "rules",
    "model", "openai", ...), with the details that decide its output."""

    engine: str
    details: Tuple[Tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if not self.details:
            return self.engine
        return f"{self.engine}({','.join(f'{key}={value}' for key, value in self.details)})"

    def to_json(self) -> Dict[str, Any]:
        return {"engine": self.engine, "details": dict(self.details)}

    @classmethod
    def from_json(cls, value: Any, where: str) -> "StatementIdentity":
        if not isinstance(value, dict) or set(value) != {"engine", "details"}:
            raise RecordError(f"{where} must be an object with the fields 'engine' and 'details', got {kind(value)}")
        details = value["details"]
        if not isinstance(details, dict):
            raise RecordError(f"{where}.details must be an object, got {kind(details)}")
        return cls(typed(str, value["engine"], f"{where}.engine"),
                   tuple((key, typed(str, item, f"{where}.details.{key}")) for key, item in details.items()))


NO_STATEMENTS = StatementIdentity(NONE)


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

    def compared(self) -> Dict[str, Any]:
        """Every field but the provenance (``PROVENANCE``): what two runs must share to give the same
        results; the job fingerprint and compare read it."""
        return {name: value for name, value in self.items() if name not in PROVENANCE}

    def __repr__(self) -> str:
        return f"ScorerIdentity({self.hashcode()!r})"

    def hashcode(self) -> str:
        """One line that says exactly what produced a result (as bertscore's hashcode)."""
        return hashcode_of(self.items())

    def to_json(self) -> Dict[str, Any]:
        """The record as JSON, nested as it is (read back with ``json_records.from_json``)."""
        return fields_to_json(self)

    def cache_key(self) -> Dict[str, Any]:
        """What decides the NLI probabilities of a pair: the score cache's key (``cache_key``)."""
        return cache_key(self.nli, self.versions)


def hashcode_of(items: Tuple[Tuple[str, Any], ...]) -> str:
    """``name=value`` pairs joined by ``|``: the hashcode's one line."""
    return "|".join(f"{name}={value}" for name, value in items)


def cache_key(nli: NLIIdentity, versions: Optional[Versions] = None) -> Dict[str, Any]:
    """The libraries and the NLI fields of an identity (the engine's code digest among them): the key the
    score cache stores under. This package's version and its other code are not in it: they cannot
    change the probabilities of a pair (docs/cache.md)."""
    return dict((*(versions or installed_versions()).libraries(), *nli.items()))


def json_files_hash(*paths: Union[str, Path]) -> str:
    """A content hash of JSON files (parameters that change scores): their parsed content, so a
    reformatted file keeps its hash."""
    return _json_files_hash(*map(str, paths))


@lru_cache(maxsize=8)
def _json_files_hash(*paths: str) -> str:
    return canonical_hash([json.loads(Path(path).read_text()) for path in paths])


def canonical_hash(value: Any) -> str:
    """A short hash of a JSON-serialisable value, independent of key order."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:CONTENT_HASH_DIGITS]


# What each field of the hashcode says, in its order: the one description of the record, from which
# the docs are generated (``capqa.doctools.schema_tables``). A new field gets its line here.
FIELD_MEANINGS = {
    "cap-eval": "the version of cap-eval, as installed",
    "commit": "the checkout's commit, `+dirty` when the package differs from it, or `none`: shown for people, "
              "never compared (the sources' digest decides)",
    "code": "a digest of the package's sources (``capqa.records.code``): two checkouts with other code differ",
    "transformers": "the version of transformers, as installed",
    "torch": "the version of torch, as installed",
    "nli_model": "the NLI model: its Hub id, or a local folder's name (never its path)",
    "nli_revision": "the commit it loaded from (read from the Hugging Face cache), or `sha256:` and a content "
                    "hash of a local folder's config, weight, tokenizer and code files",
    "nli_dtype": "the dtype it loaded in",
    "quantization": "`int8-dynamic` or `none`",
    "max_length": "the NLI model's input tokens per pair",
    "compact_attention": "whether the compact DeBERTa attention was installed (as installed, not as asked)",
    "nli_code": "a digest of the NLI engine's own code (``capqa.records.code``): what turns texts into probabilities",
    "nli_load": "`remote_code` when the model's own code ran, and the `model_kwargs` / `tokenizer_kwargs` it "
                "loaded with, or `none`",
    "statements": "what made this result's statements: `none` without questions, else the engine and what "
                  "decides its output (``capqa.statements.registry``): `rules(version=...,parser=...)`, "
                  "`model(name=...,revision=...,dtype=...,load=...)` or `openai(model=...,prompt=VERSION:HASH,...)`, "
                  "then `check=...` (the statement check's version: the issue codes, and what a guard refuses) "
                  "and, for an engine other than the rules, `fallback=rules:VERSION` (the converter that stands "
                  "in for a refused statement)",
    "alpha": "α, the forward direction's weight",
    "neutral_weight": "λ, the weight of P(neutral)",
    "variant": "`cap` or `plus`",
    "cap_plus_params": "a hash of the CAP+ and relation parameters (the relation is in every detailed result)",
    "verdict": "the verdict's policy, score and threshold, or `none`",
    "verdict_thresholds": "a hash of the thresholds file it came from, or `none`",
}
