"""Benchmark of the score cache: N synthetic entries written and read back, in the SQLite cache
(capqa.engine.cache) and in the file-per-pair layout of earlier versions, side by side.

For each layout: the time to write the entries batch by batch (as NLIScorer stores each finished
NLI batch), the time to read them all back with a fresh cache object (as a resumed job does, with
the operating system's file cache warm), the size on disk (allocated blocks, and bytes) and the
number of files. Every entry read back is compared bit for bit with what was written.

The file-per-pair layout is reproduced here (``FilePerPairCache``: the same files and the same
I/O as capqa up to commit 645260d) since the package no longer has it. It makes one file per
entry, so it is measured on fewer entries (``--old-entries``) and its figures are extrapolated
linearly to ``--entries``; the report says which figures are measured and which extrapolated.

    .venv/bin/python benchmarks/bench_cache.py [--entries 1000000] [--old-entries 20000] [--dir DIR]
"""

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from capqa.common.validation import check_positive_int  # noqa: E402
from capqa.engine.cache import ScoreCache  # noqa: E402

MODEL, REVISION = "cap-bench/nli-model", "0123456789abcdef0123456789abcdef01234567"
# NLIScorer's default batch size: it stores each finished batch in one call to put.
WRITE_BATCH = 32
# A resumed `score` job looks up one chunk of 1,000 rows (premise and hypothesis both ways) at once.
READ_BATCH = 2000


def synthetic_batch(start, stop):
    """Pairs start..stop-1 ({(premise, hypothesis): probabilities}); answer-sized texts and
    probabilities that differ per pair, the same on every call."""
    # A function of the index alone, so that write and read batches may split the range differently.
    index = np.arange(start, stop, dtype=np.float64)[:, None]
    raw = np.modf(index * np.array([0.6180339887, 0.4142135623, 0.7320508075]))[0] + 0.05
    probabilities = raw / raw.sum(axis=1, keepdims=True)
    return {(f"Answer {i}: the city of Plovdiv lies on the Maritsa river in southern Bulgaria.",
             f"Gold {i % 9973}: Plovdiv is a city in Bulgaria on the Maritsa."): row
            for i, row in zip(range(start, stop), probabilities)}


class FilePerPairCache:
    """The cache layout of capqa up to 645260d, for comparison: ``DIRECTORY/<16 hex>/<2 hex>/<sha256>.json``,
    one JSON file per pair, written to a temporary file and renamed into place, checked on read."""

    def __init__(self, directory, model, revision, precision="float32"):
        self.identity = [model, revision, precision]
        self.directory = Path(directory) / _sha256_hex(self.identity)[:16]
        self.directory.mkdir(parents=True, exist_ok=True)

    def path(self, pair):
        key = _sha256_hex(self.identity + list(pair))
        return self.directory / key[:2] / f"{key}.json"

    def put(self, scored):
        for (premise, hypothesis), probabilities in scored.items():
            path = self.path((premise, hypothesis))
            path.parent.mkdir(exist_ok=True)
            entry = {"model": self.identity[0], "revision": self.identity[1], "precision": self.identity[2],
                     "premise": premise, "hypothesis": hypothesis, "probabilities": [float(p) for p in probabilities]}
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump(entry, file, ensure_ascii=False)
            os.replace(temporary, path)

    def get(self, pairs):
        found = {}
        for pair in pairs:
            try:
                entry = json.loads(self.path(pair).read_text(encoding="utf-8"))
            except FileNotFoundError:
                continue
            if [entry["model"], entry["revision"], entry["precision"]] == self.identity and \
                    [entry["premise"], entry["hypothesis"]] == list(pair):
                found[pair] = np.asarray(entry["probabilities"], dtype=np.float64)
        return found

    def close(self):
        pass


def _sha256_hex(values):
    return hashlib.sha256(json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode("utf-8")).hexdigest()


def disk_usage(folder):
    """(allocated bytes, apparent bytes, files) under ``folder``."""
    allocated = apparent = files = 0
    for root, _, names in os.walk(folder):
        for name in names:
            stat = os.stat(os.path.join(root, name))
            allocated, apparent, files = allocated + stat.st_blocks * 512, apparent + stat.st_size, files + 1
    return allocated, apparent, files


def measure(make_cache, folder, entries, label):
    """Write ``entries`` pairs in batches, read them back with a new cache object, check them."""
    cache = make_cache(folder)
    start, start_cpu = time.perf_counter(), time.process_time()
    for batch_start in tqdm(range(0, entries, WRITE_BATCH), desc=f"{label}: write", unit="batch", mininterval=2):
        cache.put(synthetic_batch(batch_start, min(batch_start + WRITE_BATCH, entries)))
    cache.close()  # SQLite folds its write-ahead log into the database here: part of writing
    write_s, write_cpu_s = time.perf_counter() - start, time.process_time() - start_cpu

    reader = make_cache(folder)
    found = wrong = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for batch_start in tqdm(range(0, entries, READ_BATCH), desc=f"{label}: read", unit="batch", mininterval=2):
        expected = synthetic_batch(batch_start, min(batch_start + READ_BATCH, entries))
        stored = reader.get(list(expected))
        found += len(stored)
        wrong += sum(not np.array_equal(stored[pair], expected[pair]) for pair in stored)
    read_s, read_cpu_s = time.perf_counter() - start, time.process_time() - start_cpu
    reader.close()
    allocated, apparent, files = disk_usage(folder)
    return {"entries": entries, "write_s": write_s, "read_s": read_s, "write_cpu_s": write_cpu_s,
            "read_cpu_s": read_cpu_s, "found": found, "wrong": wrong,
            "allocated_bytes": allocated, "apparent_bytes": apparent, "files": files}


def extrapolated(result, entries):
    """``result`` scaled linearly to ``entries`` (per-entry time, size and files are constant)."""
    factor = entries / result["entries"]
    scaled = {key: value * factor for key, value in result.items()
              if key not in ("entries", "found", "wrong")}
    return {**scaled, "entries": entries}


def report(rows):
    lines = ["| cache | entries | write: wall (CPU) s | read: wall (CPU) s | entries/s write / read (wall) "
             "| on disk (allocated) | bytes in files | files |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, result in rows:
        lines.append(
            f"| {label} | {result['entries']:,.0f} | {result['write_s']:.1f} ({result['write_cpu_s']:.1f}) "
            f"| {result['read_s']:.1f} ({result['read_cpu_s']:.1f}) "
            f"| {result['entries'] / result['write_s']:,.0f} / {result['entries'] / result['read_s']:,.0f} "
            f"| {result['allocated_bytes'] / 2**20:,.1f} MiB | {result['apparent_bytes'] / 2**20:,.1f} MiB "
            f"| {result['files']:,.0f} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1_000_000, help="entries for the SQLite cache")
    parser.add_argument("--old-entries", type=int, default=20_000,
                        help="entries for the file-per-pair cache (extrapolated to --entries)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where to write (default: a temporary folder, removed afterwards)")
    args = parser.parse_args(argv)
    check_positive_int(args.entries, "--entries")
    check_positive_int(args.old_entries, "--old-entries")
    base = Path(tempfile.mkdtemp(prefix="cap-bench-cache-", dir=args.dir))
    try:
        identity = {"nli_model": MODEL, "nli_revision": REVISION, "nli_dtype": "float32"}
        sqlite = measure(lambda folder: ScoreCache(folder, identity), base / "sqlite", args.entries, "sqlite")
        files = measure(lambda folder: FilePerPairCache(folder, MODEL, REVISION), base / "files",
                        args.old_entries, "file per pair")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    for label, result in (("sqlite", sqlite), ("file per pair", files)):
        if result["found"] != result["entries"] or result["wrong"]:
            print(f"error: the {label} cache returned {result['found']} of {result['entries']} entries, "
                  f"{result['wrong']} wrong", file=sys.stderr)
            return 1
    rows = [("SQLite (measured)", sqlite), ("file per pair (measured)", files)]
    if args.old_entries != args.entries:
        rows.append(("file per pair (extrapolated)", extrapolated(files, args.entries)))
    print(report(rows))
    print(f"\nEvery entry read back was bit-identical to what was written; write batches of {WRITE_BATCH}, "
          f"read batches of {READ_BATCH}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
