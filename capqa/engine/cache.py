"""An on-disk cache of NLI probabilities, so that re-scoring the same pairs is nearly free and an
interrupted job resumes where it stopped (``NLIScorer(cache=...)``, metric option ``score_cache_dir``).

Layout: ``DIRECTORY/<model key>/<2 hex>/<sha256>.json``, one small JSON file per pair, where the
sha256 is that of ``[model, revision, precision, premise, hypothesis]`` (canonical JSON), so an
entry is found only for exactly the same model, weights, precision and texts.

Safe with several processes at once without any lock: an entry is written to a private temporary
file in its folder and moved into place with ``os.replace``, which is atomic, so a reader sees the
old file, the new one or none, never half of one; two writers of the same pair write the same
probabilities. Entries are never trusted blindly: one that is unreadable, for another pair or
model, of the wrong shape, not finite or not summing to 1 is treated as missing, recomputed and
overwritten (a crash can leave such files behind, since nothing is fsynced).
"""

import hashlib
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from capqa.constants import NLI_LABELS
from capqa.validation import check_folder

# Probabilities come from a softmax in float32: they sum to 1 within a few 1e-7.
_SUM_TOLERANCE = 1e-4
# Files whose size and modification time identify a local model's weights.
# The tokenizer decides the tokens as much as the weights decide the probabilities.
_LOCAL_MODEL_FILES = ("config.json", "*.safetensors", "*.bin", "tokenizer.json", "tokenizer_config.json",
                      "*.model", "vocab.*", "merges.txt")


@dataclass
class CacheStats:
    """What the cache did: entries found, missing, found but rejected, written."""

    hits: int = 0
    misses: int = 0
    rejected: int = 0
    writes: int = 0


class ScoreCache:
    """NLI probabilities on disk, for one model, revision and precision.

    directory: any folder (created if needed); one folder can hold several models' entries.
    model: Hub id or local folder. For a local folder the key also holds the size and
        modification time of its weight files, so rebuilt weights never meet stale scores.
    revision: the model's commit; give a commit hash, not a branch, for a Hub id (a branch moves).
    precision: how the model computes ("float32", "bfloat16", "int8-dynamic"), see
        ``NLIScorer.precision``: each gives slightly different probabilities.
    """

    def __init__(self, directory, model, revision=None, precision="float32"):
        check_folder(directory, "score_cache_dir")
        for name, value in (("model", model), ("precision", precision)):
            if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
                raise ValueError(f"`{name}` must be a non-empty string, got {value!r}")
        if revision is not None and not isinstance(revision, str):
            raise TypeError(f"`revision` must be a string or None, got {revision!r}")
        self.identity = [str(model), _revision_key(model, revision), str(precision)]
        model_key = _sha256(self.identity)[:16]
        self.directory = Path(directory) / model_key
        self.directory.mkdir(parents=True, exist_ok=True)
        self.stats = CacheStats()
        _write_atomically(self.directory / "model.json", {"model": self.identity[0], "revision": self.identity[1],
                                                          "precision": self.identity[2]})

    @classmethod
    def for_scorer(cls, directory, scorer):
        """The cache for an ``NLIScorer``'s model: the commit it was loaded from when the Hub
        said, else the revision it was asked for; its precision and truncation length."""
        revision = getattr(scorer.model.config, "_commit_hash", None) or scorer.revision
        # Truncation changes the probabilities of long pairs, so it is part of the key.
        return cls(directory, scorer.model_name, revision, f"{scorer.precision}|max_length={scorer.max_length}")

    def path(self, pair):
        key = _sha256(self.identity + list(pair))
        return self.directory / key[:2] / f"{key}.json"

    def get(self, pairs):
        """{pair: probabilities} for the pairs with a valid entry."""
        found = {}
        for pair in pairs:
            probabilities = self._read(pair)
            if probabilities is None:
                self.stats.misses += 1
            else:
                self.stats.hits += 1
                found[pair] = probabilities
        return found

    def put(self, scored):
        """Store {pair: probabilities}; each entry replaces any old one atomically."""
        for (premise, hypothesis), probabilities in scored.items():
            entry = {"model": self.identity[0], "revision": self.identity[1], "precision": self.identity[2],
                     "premise": premise, "hypothesis": hypothesis,
                     "probabilities": [float(p) for p in probabilities]}
            path = self.path((premise, hypothesis))
            path.parent.mkdir(exist_ok=True)
            _write_atomically(path, entry)
            self.stats.writes += 1

    def _read(self, pair):
        path = self.path(pair)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            self.stats.rejected += 1
            return None
        probabilities = _valid_probabilities(entry, self.identity, pair)
        if probabilities is None:
            self.stats.rejected += 1
        return probabilities


def _valid_probabilities(entry, identity, pair):
    """The entry's probabilities as a float64 array if it is a sound entry for this pair, else None."""
    if not isinstance(entry, dict):
        return None
    if [entry.get("model"), entry.get("revision"), entry.get("precision")] != identity:
        return None
    if [entry.get("premise"), entry.get("hypothesis")] != list(pair):
        return None
    values = entry.get("probabilities")
    if not isinstance(values, list) or len(values) != len(NLI_LABELS):
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v <= 1
               for v in values):
        return None
    if abs(sum(values) - 1.0) > _SUM_TOLERANCE:
        return None
    return np.asarray(values, dtype=np.float64)


def _write_atomically(path, entry):
    # A private temporary file in the same folder, then an atomic rename over the target.
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(entry, file, ensure_ascii=False)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _sha256(values):
    canonical = json.dumps(values, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _revision_key(model, revision):
    """The revision, plus a fingerprint of the weight files when ``model`` is a local folder."""
    folder = Path(model)
    if not folder.is_dir():
        return revision
    stats = sorted((path.name, path.stat().st_size, path.stat().st_mtime_ns)
                   for pattern in _LOCAL_MODEL_FILES for path in folder.glob(pattern))
    return f"{revision}|local:{_sha256(stats)[:16]}"
