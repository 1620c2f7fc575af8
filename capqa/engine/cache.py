"""An on-disk cache of NLI probabilities, so that re-scoring the same pairs is nearly free and an
interrupted job resumes where it stopped (``NLIScorer(cache=...)``, metric option ``score_cache_dir``).

Layout: one SQLite database, ``DIRECTORY/cap-scores.sqlite3`` (``capqa.engine.cache_database``),
for every model cached in that folder. An entry's key is the sha256 of ``[model, revision,
precision, premise, hypothesis]`` (canonical JSON), where the revision holds a fingerprint of
the weight and tokenizer files of a local model and the precision holds the truncation length:
an entry is found only for exactly the same model, weights, tokenizer, precision, truncation and
texts. Its value is the three probabilities (float64, stored bit for bit) and a checksum over
key and value.

Entries are never trusted blindly: one whose checksum does not match (a hand edit, a value moved
to another key, damage on disk), of the wrong size, not finite or not summing to 1 is treated as
missing, recomputed and overwritten. A cache that cannot be used at all (see cache_database)
never fails the job: the scores are computed instead, with one warning.

The per-pair JSON files of earlier versions (``DIRECTORY/<16 hex>/<2 hex>/<sha256>.json``) are
not read; docs/cache.md says how to remove them.
"""

import hashlib
import json
import logging
import math
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from capqa.constants import NLI_LABELS
from capqa.engine.cache_database import ScoreDatabase
from capqa.validation import check_folder

if TYPE_CHECKING:
    from capqa.engine.nli import NLIScorer

logger = logging.getLogger(__name__)

Pair = Tuple[str, str]
# Probabilities come from a softmax in float32: they sum to 1 within a few 1e-7.
_SUM_TOLERANCE = 1e-4
# Probabilities are stored as little-endian float64: exactly what was computed.
_VALUE_DTYPE = np.dtype("<f8")
_VALUE_BYTES = _VALUE_DTYPE.itemsize * len(NLI_LABELS)
# The same layout for reading: unpacking to Python floats is several times faster per entry than
# a numpy array, and a resumed job reads every entry it has.
_VALUE_STRUCT = struct.Struct(f"<{len(NLI_LABELS)}d")
_CHECKSUM_BYTES = 8
# Files whose size and modification time identify a local model's weights.
# The tokenizer decides the tokens as much as the weights decide the probabilities.
_LOCAL_MODEL_FILES = ("config.json", "*.safetensors", "*.bin", "tokenizer.json", "tokenizer_config.json",
                      "*.model", "vocab.*", "merges.txt")


@dataclass
class CacheStats:
    """What the cache did: entries found, missing, found but rejected, written, and operations
    (lookups or writes) that could not use the cache at all."""

    hits: int = 0
    misses: int = 0
    rejected: int = 0
    writes: int = 0
    failures: int = 0


def check_cache_dir(value: Union[str, os.PathLike], name: str = "score_cache_dir") -> Union[str, os.PathLike]:
    """A folder path for a score cache: it may not exist yet, but neither it nor any folder above
    it may be a file (caught at load time rather than when the first scores are stored)."""
    check_folder(value, name)
    path = Path(value).expanduser()
    for ancestor in (path, *path.parents):
        if ancestor.exists():
            if not ancestor.is_dir():
                where = "is a file" if ancestor == path else f"is inside {str(ancestor)!r}, which is a file"
                raise ValueError(f"`{name}` must be a folder, but {str(value)!r} {where}")
            break
    return value


class ScoreCache:
    """NLI probabilities on disk, for one model, revision and precision.

    directory: any folder (created when the first entry is stored); one folder can hold several
        models' entries, and several processes on one machine can share it.
    model: Hub id or local folder. For a local folder the key also holds the size and
        modification time of its weight and tokenizer files, so rebuilt weights never meet
        stale scores.
    revision: the model's commit; give a commit hash, not a branch, for a Hub id (a branch moves).
    precision: how the model computes ("float32", "bfloat16", "int8-dynamic"), see
        ``NLIScorer.precision``: each gives slightly different probabilities.
    """

    def __init__(self, directory: Union[str, os.PathLike], model: Union[str, os.PathLike],
                 revision: Optional[str] = None, precision: str = "float32"):
        check_cache_dir(directory)
        for name, value in (("model", model), ("precision", precision)):
            if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
                raise ValueError(f"`{name}` must be a non-empty string, got {value!r}")
        if revision is not None and not isinstance(revision, str):
            raise TypeError(f"`revision` must be a string or None, got {revision!r}")
        self.identity = [str(model), _revision_key(model, revision), str(precision)]
        self.directory = Path(directory).expanduser()
        self.database = ScoreDatabase(self.directory)
        self.stats = CacheStats()
        _note_old_entries(self.directory)

    @classmethod
    def for_scorer(cls, directory: Union[str, os.PathLike], scorer: "NLIScorer") -> "ScoreCache":
        """The cache for an ``NLIScorer``'s model: the commit it was loaded from when the Hub
        said, else the revision it was asked for; its precision and truncation length."""
        revision = getattr(scorer.model.config, "_commit_hash", None) or scorer.revision
        # Truncation changes the probabilities of long pairs, so it is part of the key.
        return cls(directory, scorer.model_name, revision, f"{scorer.precision}|max_length={scorer.max_length}")

    def key(self, pair: Pair) -> bytes:
        """The entry's key: sha256 of the model identity and the exact pair."""
        return _sha256(self.identity + list(pair))

    def get(self, pairs: Iterable[Pair]) -> Dict[Pair, np.ndarray]:
        """{pair: probabilities} for the pairs with a sound entry."""
        keys = {self.key(pair): pair for pair in dict.fromkeys(pairs)}
        stored = self.database.lookup(list(keys))
        if stored is None:
            self.stats.failures += 1
            stored = {}
        found = {}
        for key, pair in keys.items():
            probabilities = _decode(key, *stored[key]) if key in stored else None
            if probabilities is None:
                self.stats.misses += 1
                # Stored but unsound: recomputed by the caller, and overwritten by its put.
                self.stats.rejected += key in stored
            else:
                self.stats.hits += 1
                found[pair] = probabilities
        return found

    def put(self, scored: Mapping[Pair, Sequence[float]]) -> None:
        """Store {pair: probabilities} in one transaction; each entry replaces any old one.
        Nothing is raised when the cache cannot be written (the caller has the scores)."""
        rows = []
        for pair, probabilities in scored.items():
            key, values = self.key(pair), np.asarray(probabilities, dtype=_VALUE_DTYPE)
            if values.shape != (len(NLI_LABELS),):
                raise ValueError(f"`scored` must map each pair to {len(NLI_LABELS)} probabilities, "
                                 f"got shape {values.shape} for {pair!r}")
            rows.append((key, values.tobytes(), _checksum(key, values.tobytes())))
        if not rows:
            return
        if self.database.store(self.identity, rows):
            self.stats.writes += len(rows)
        else:
            self.stats.failures += 1

    def close(self) -> None:
        """Close the database now (it is also closed when the cache is garbage-collected)."""
        self.database.close()


def _decode(key, values, checksum):
    """The stored probabilities as a float64 array if the entry is sound, else None."""
    if not isinstance(values, bytes) or len(values) != _VALUE_BYTES:
        return None
    if not isinstance(checksum, bytes) or checksum != _checksum(key, values):
        return None
    probabilities = _VALUE_STRUCT.unpack(values)
    # NaN fails both comparisons, and infinities one of them.
    if not all(0 <= p <= 1 for p in probabilities):
        return None
    if abs(math.fsum(probabilities) - 1.0) > _SUM_TOLERANCE:
        return None
    return np.array(probabilities, dtype=np.float64)


def _checksum(key, values):
    return hashlib.blake2b(key + values, digest_size=_CHECKSUM_BYTES).digest()


def _sha256(values):
    canonical = json.dumps(values, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).digest()


def _revision_key(model, revision):
    """The revision, plus a fingerprint of the weight files when ``model`` is a local folder."""
    folder = Path(model)
    if not folder.is_dir():
        return revision
    stats = sorted((path.name, path.stat().st_size, path.stat().st_mtime_ns)
                   for pattern in _LOCAL_MODEL_FILES for path in folder.glob(pattern))
    return f"{revision}|local:{_sha256(stats).hex()[:16]}"


def _note_old_entries(directory):
    """Say once that per-pair JSON entries of earlier versions are ignored."""
    try:
        old = next(directory.glob("*/model.json"), None)
    except OSError:
        return
    if old is not None:
        logger.info("The score cache %s holds per-pair JSON entries of an earlier capqa (e.g. %s/); they are "
                    "not read, and their folders can be deleted (see docs/cache.md).", directory, old.parent.name)
