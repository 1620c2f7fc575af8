"""An on-disk cache of NLI probabilities, so that re-scoring the same pairs is nearly free and an
interrupted job resumes where it stopped (``NLIScorer(score_cache_dir=...)``, metric option
``score_cache_dir``).

Layout: one SQLite database, ``DIRECTORY/cap-scores.sqlite3`` (``capqa.engine.cache_database``),
for every model cached in that folder. An entry's key is the sha256 of the cache's identity and
the exact pair (canonical JSON). The identity is ``capqa.records.identity.cache_key`` of the NLI scorer's
identity: the versions of cap-eval, transformers and torch, the model and its commit (or a
content hash of a local folder's config, weight and tokenizer files), the dtype, quantisation,
truncation length and attention as installed. An entry is found only for exactly the same
model, weights, tokenizer, computation and texts. Its value is the three probabilities
(float64, stored bit for bit) and a checksum over key and value.

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
from typing import Any, Dict, Iterable, Mapping, Sequence, Tuple, Union

import numpy as np

from capqa.common.constants import NLI_LABELS
from capqa.common.validation import check_folder
from capqa.engine.cache_database import ScoreDatabase

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
    """NLI probabilities on disk, for one NLI identity.

    directory: any folder (created when the first entry is stored); one folder can hold several
        models' entries, and several processes on one machine can share it.
    identity: {field: value} naming what computes the probabilities: ``capqa.records.identity.cache_key``
        of an ``NLIScorer.identity`` (``NLIScorer(score_cache_dir=...)`` builds it so). Values are
        strings, numbers or booleans; give a Hub model's commit, not a branch (a branch moves).
    """

    def __init__(self, directory: Union[str, os.PathLike], identity: Mapping[str, Any]):
        check_cache_dir(directory)
        self.identity = _checked_identity(identity)
        self.directory = Path(directory).expanduser()
        self.database = ScoreDatabase(self.directory)
        self.stats = CacheStats()
        self._identity_key = [[name, value] for name, value in sorted(self.identity.items())]
        _note_old_entries(self.directory)

    def key(self, pair: Pair) -> bytes:
        """The entry's key: sha256 of the model identity and the exact pair."""
        return _sha256(self._identity_key + list(pair))

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
            rows.append((key, values.tobytes(), row_checksum(key, values.tobytes())))
        if not rows:
            return
        if self.database.store(self._identity_key, rows):
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
    if not isinstance(checksum, bytes) or checksum != row_checksum(key, values):
        return None
    probabilities = _VALUE_STRUCT.unpack(values)
    # NaN fails both comparisons, and infinities one of them.
    if not all(0 <= p <= 1 for p in probabilities):
        return None
    if abs(math.fsum(probabilities) - 1.0) > _SUM_TOLERANCE:
        return None
    return np.array(probabilities, dtype=np.float64)


def row_checksum(key, values):
    return hashlib.blake2b(key + values, digest_size=_CHECKSUM_BYTES).digest()


def _sha256(values):
    canonical = json.dumps(values, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).digest()


def _checked_identity(identity):
    if not isinstance(identity, Mapping) or not identity:
        raise TypeError(f"`identity` must be a non-empty mapping {{field: value}} (capqa.records.identity.cache_key), "
                        f"got {type(identity).__name__} {identity!r}")
    for name, value in identity.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"`identity` field names must be non-empty strings, got {name!r}")
        if not isinstance(value, (str, int, float, bool)) or (isinstance(value, float) and not math.isfinite(value)):
            raise TypeError(f"`identity[{name!r}]` must be a string, number or boolean, got {value!r}")
    return dict(identity)


def _note_old_entries(directory):
    """Say once that per-pair JSON entries of earlier versions are ignored."""
    try:
        old = next(directory.glob("*/model.json"), None)
    except OSError:
        return
    if old is not None:
        logger.info("The score cache %s holds per-pair JSON entries of an earlier capqa (e.g. %s/); they are "
                    "not read, and their folders can be deleted (see docs/cache.md).", directory, old.parent.name)
