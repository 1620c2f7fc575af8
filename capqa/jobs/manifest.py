"""The manifest of a resumable output, ``OUT.capjob.json``: read only when every field has the
shape this code wrote, written atomically.

A manifest is a person's file too: it can be edited, cut, or replaced by something else. One that
does not hold what a manifest holds (a missing key, text for a number, a list for an object, a
chunk that ends before the one before it) cannot say which rows of ``OUT`` were committed, so
the job stops with a message that says the manifest is damaged and what to do, never a
traceback from deep inside the resume.
"""

import json
import re
from pathlib import Path
from typing import Any, Dict, List

from capqa.common.files import write_atomically
from capqa.common.json_text import loads_json
from capqa.common.quoting import bounded_message, quote

MANIFEST_SUFFIX = ".capjob.json"
MANIFEST_FORMAT = 1
CHUNK_FIELDS = ("rows", "bytes", "lines", "sha256")
_SHA256 = re.compile(r"[0-9a-f]{64}")


class JobMismatchError(ValueError):
    """The output holds rows of another job (other input or options) or was changed after writing."""


class DamagedManifestError(JobMismatchError):
    """The manifest is not one this code wrote: it cannot say which rows were committed."""


def manifest_path(out: Path) -> Path:
    return out.with_name(out.name + MANIFEST_SUFFIX)


def read_manifest_file(path: Path) -> Dict[str, Any]:
    """The manifest at ``path``, every field checked; ``DamagedManifestError`` names what is wrong."""
    try:
        record = loads_json(path.read_bytes().decode("utf-8"))
        _check(record)
    except (ValueError, _Damage) as error:  # JSONDecodeError and UnicodeDecodeError too
        problem = str(error) if isinstance(error, _Damage) else f"not valid JSON: {bounded_message(str(error), 200)}"
        raise damaged(path, problem) from None
    return record


def damaged(path: Path, problem: str) -> DamagedManifestError:
    """The error for the manifest at ``path``, damaged as ``problem`` says, and what to do."""
    out = path.with_name(path.name[:-len(MANIFEST_SUFFIX)]) if path.name.endswith(MANIFEST_SUFFIX) else None
    return DamagedManifestError(
        f"the job manifest {path} is damaged ({problem}), so it cannot say which rows of "
        f"{out or 'the output'} were committed. Restore the manifest if you have a copy; otherwise move "
        "the output and its manifest aside (or remove them) and run again to score from the start")


def write_manifest_file(path: Path, record: Dict[str, Any]) -> None:
    """Replace ``path`` with ``record`` in one step (``capqa.common.files``: a temporary file
    created exclusively, so never through a link planted there, fsync, rename)."""
    write_atomically(path, json.dumps(record))


class _Damage(Exception):
    """What is wrong with a manifest, in words."""


def _check(record: Any) -> None:
    _require(isinstance(record, dict), f"a JSON {type(record).__name__} instead of an object")
    missing = [key for key in ("format", "job", "columns", "chunks") if key not in record]
    _require(not missing, f"no {', '.join(map(repr, missing))}")
    _require(_is_count(record["format"]) and record["format"] == MANIFEST_FORMAT,
             f"'format' is {quote(record['format'])}, this capqa reads format {MANIFEST_FORMAT}")
    job = record["job"]
    _require(isinstance(job, dict), "'job' is not an object")
    _require(isinstance(job.get("input_sha256"), str), "'job.input_sha256' is not a string")
    _require(_is_count(job.get("input_rows")), "'job.input_rows' is not a whole number")
    _require(isinstance(job.get("settings"), dict), "'job.settings' is not an object")
    columns = record["columns"]
    _require(isinstance(columns, list) and all(isinstance(column, str) for column in columns),
             "'columns' is not a list of names")
    _check_chunks(record["chunks"])


def _check_chunks(chunks: Any) -> None:
    _require(isinstance(chunks, list) and chunks, "'chunks' is not a non-empty list")
    before: List[int] = [0, 0, 0]
    for number, chunk in enumerate(chunks):
        where = f"chunk {number}"
        _require(isinstance(chunk, dict) and set(chunk) == set(CHUNK_FIELDS),
                 f"{where} is not an object of {', '.join(CHUNK_FIELDS)}")
        for field in CHUNK_FIELDS[:3]:
            _require(_is_count(chunk[field]), f"{where}: {field!r} is {quote(chunk[field])}, not a whole number")
        _require(isinstance(chunk["sha256"], str) and _SHA256.fullmatch(chunk["sha256"]) is not None,
                 f"{where}: 'sha256' is not a checksum")
        ends = [chunk[field] for field in CHUNK_FIELDS[:3]]
        if number == 0:
            _require(ends[0] == 0 and ends[1] > 0, f"{where} (the header) holds rows or no bytes")
        else:
            _require(all(end > previous for end, previous in zip(ends, before)),
                     f"{where} does not end after chunk {number - 1}")
        before = ends


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise _Damage(problem)
