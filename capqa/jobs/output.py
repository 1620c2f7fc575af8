"""A CSV output that a job appends to in chunks and can resume, trusting only what it verifies.

Beside ``OUT`` live two files:

- ``OUT.capjob.json``, the manifest: the job (``JobSpec``), the columns, and for every chunk
  committed so far its end (rows, bytes, lines) and sha256;
- ``OUT.lock``, locked (``fcntl``) by the one process writing ``OUT``; it holds that process's PID.

A chunk is committed by appending its rows, fsync, then replacing the manifest atomically: a
crash at any point leaves at most an uncommitted tail, which the next run cuts off and rewrites.
On resume every committed chunk is checked against its checksum: a damaged last chunk (a torn
row) is rewritten; damage before intact data is refused with the lines it concerns.
"""

import csv
import hashlib
import io
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Union

from capqa.jobs.fingerprint import JobSpec

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the manifest checks still hold.
    fcntl = None

logger = logging.getLogger(__name__)

MANIFEST_SUFFIX = ".capjob.json"
LOCK_SUFFIX = ".lock"
MANIFEST_FORMAT = 1
# Rows end in CRLF (RFC 4180): Python's csv writer (and pandas') quotes a cell only for the
# characters of its line terminator, so with "\n" a cell holding a bare "\r" would be written
# unquoted and read back as two rows.
LINE_END = "\r\n"


class OutputLockedError(OSError):
    """Another process is writing the same output."""


class JobMismatchError(ValueError):
    """The output holds rows of another job (other input or options) or was changed after writing."""


def manifest_path(out: Path) -> Path:
    return out.with_name(out.name + MANIFEST_SUFFIX)


def csv_text(records: Sequence[Sequence[str]]) -> str:
    """Records as CSV text, quoted as pandas' ``to_csv`` quotes them, one ``LINE_END`` per row."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator=LINE_END).writerows(records)
    return buffer.getvalue()


def check_out_path(out: Union[str, os.PathLike]) -> Path:
    """``out`` as a Path, if it can be an output file: not a folder, in a folder that exists or
    can be made (checked again, with the lock, by ``ResumableCsv.open``: a job calls this first
    so that a wrong --out fails before the models load)."""
    out = Path(out)
    if out.is_dir():
        raise IsADirectoryError(f"`--out` {out} is a folder; give a file name")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OSError(f"cannot write `--out` {out}: {error.strerror or error}") from None
    return out


@dataclass
class Chunk:
    """Where a committed chunk ends in the output, and the checksum of its bytes."""

    rows: int
    bytes: int
    lines: int
    sha256: str


class ResumableCsv:
    """The locked output of one job; use ``ResumableCsv.open(...)`` as a context manager."""

    def __init__(self, out: Path, job: JobSpec, columns: List[str], chunks: List[Chunk], lock_handle):
        self.out, self.job, self.columns = out, job, columns
        self.chunks, self._lock_handle = chunks, lock_handle

    @property
    def rows_done(self) -> int:
        return self.chunks[-1].rows

    @property
    def complete(self) -> bool:
        return self.rows_done >= self.job.input_rows

    @classmethod
    def open(cls, out: Union[str, os.PathLike], job: JobSpec, columns: Sequence[str]) -> "ResumableCsv":
        """Lock ``out`` and verify what it holds (or start it with the header), before any scoring."""
        out = check_out_path(out)
        try:
            lock_handle = _lock(out)
        except OutputLockedError:
            raise
        except OSError as error:
            raise OSError(f"cannot write `--out` {out}: {error.strerror or error}") from None
        try:
            output = cls(out, job, list(columns), [], lock_handle)
            output._resume_or_start()
        except BaseException:
            lock_handle.close()
            raise
        return output

    def __enter__(self) -> "ResumableCsv":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        if self._lock_handle is not None:
            self._lock_handle.close()  # releases the lock; the lock file stays (see _lock)
            self._lock_handle = None

    def append(self, records_csv: str, n_rows: int) -> None:
        """Commit ``n_rows`` rows given as CSV text: write, fsync, then record them in the manifest."""
        data = records_csv.encode("utf-8")
        end = self.chunks[-1]
        with self.out.open("r+b") as handle:
            handle.seek(end.bytes)
            handle.truncate()
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        self.chunks.append(Chunk(end.rows + n_rows, end.bytes + len(data), end.lines + data.count(b"\n"),
                                 hashlib.sha256(data).hexdigest()))
        self._write_manifest()

    # --- resume ---------------------------------------------------------------------------------

    def _resume_or_start(self) -> None:
        manifest = manifest_path(self.out)
        if not self.out.exists() or self.out.stat().st_size == 0:
            self._start()
            return
        if not manifest.exists():
            raise JobMismatchError(
                f"`--out` {self.out} already holds data but has no job manifest ({manifest.name}): it was not "
                "written by `capqa score` (or by a version without manifests); remove it or choose another --out")
        earlier = _read_manifest(manifest)
        job = JobSpec.from_json(earlier["job"])
        changes = self.job.differences(job)
        if earlier["columns"] != self.columns:
            changes.append(f"the output columns ({earlier['columns']} then, {self.columns} now)")
        if changes:
            raise JobMismatchError(f"`--out` {self.out} holds rows of another job; changed since: "
                                   f"{'; '.join(changes)}. Rerun with the same input and options, or choose "
                                   "another --out")
        self.chunks = [Chunk(**chunk) for chunk in earlier["chunks"]]
        self._verify_chunks()

    def _start(self) -> None:
        header = csv_text([self.columns]).encode("utf-8")
        with self.out.open("wb") as handle:
            handle.write(header)
            handle.flush()
            os.fsync(handle.fileno())
        self.chunks = [Chunk(0, len(header), header.count(b"\n"), hashlib.sha256(header).hexdigest())]
        self._write_manifest()

    def _verify_chunks(self) -> None:
        """Keep the committed chunks whose bytes still match; cut a torn tail, refuse a damaged middle."""
        size = self.out.stat().st_size
        with self.out.open("rb") as handle:
            for index, chunk in enumerate(self.chunks):
                start = self.chunks[index - 1].bytes if index else 0
                data = handle.read(chunk.bytes - start)
                if hashlib.sha256(data).hexdigest() != chunk.sha256:
                    # Intact-looking data after a damaged chunk is an edit, not a crash.
                    if size > chunk.bytes and index + 1 < len(self.chunks):
                        raise JobMismatchError(self._damage_message(index, data))
                    logger.warning("%s: rows %d and after were cut or damaged; rewriting them",
                                   self.out, self.chunks[index - 1].rows + 1 if index else 1)
                    del self.chunks[index:]
                    break
        if not self.chunks:
            self._start()
            return
        if size != self.chunks[-1].bytes:
            logger.info("%s: dropping %d uncommitted bytes at the end", self.out, size - self.chunks[-1].bytes)
        self._write_manifest()
        with self.out.open("r+b") as handle:
            handle.truncate(self.chunks[-1].bytes)

    def _damage_message(self, index: int, data: bytes) -> str:
        first_line = self.chunks[index - 1].lines + 1 if index else 1
        last_line = self.chunks[index].lines
        bad_line = _first_misshapen_line(data, len(self.columns))
        if index == 0:
            where = "the header (line 1)"
        elif bad_line is not None:
            where = f"line {first_line + bad_line}"
        else:
            where = f"lines {first_line}-{last_line}"
        rows = f" (rows {self.chunks[index - 1].rows + 1}-{self.chunks[index].rows})" if index else ""
        return (f"`--out` {self.out} was changed after it was written: {where}{rows} no longer match "
                "their checksum, and rows after them are intact; restore the file or choose another --out")

    def _write_manifest(self) -> None:
        record = {"format": MANIFEST_FORMAT, "job": self.job.to_json(), "columns": self.columns,
                  "chunks": [chunk.__dict__ for chunk in self.chunks]}
        path = manifest_path(self.out)
        temporary = path.with_name(path.name + f".{os.getpid()}.tmp")
        with temporary.open("w", encoding="utf-8") as handle:
            json.dump(record, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)


def read_manifest(out: Path) -> Optional[dict]:
    """The manifest of ``out``, or None when there is none (read without the lock)."""
    path = manifest_path(Path(out))
    return _read_manifest(path) if path.exists() else None


def _read_manifest(path: Path) -> dict:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("format") != MANIFEST_FORMAT or not record["chunks"]:
            raise ValueError("unknown format")
        return record
    except (ValueError, KeyError, TypeError) as error:
        raise JobMismatchError(f"the job manifest {path} is unreadable ({error}); remove it and the output "
                               "to start over") from None


def _first_misshapen_line(data: bytes, n_columns: int) -> Optional[int]:
    """0-based line (within ``data``) of the first record without ``n_columns`` fields, if any."""
    reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace"), newline=""))
    start = 0
    try:
        for record in reader:
            if record and len(record) != n_columns:
                return start
            start = reader.line_num
    except csv.Error:
        return start
    return None


def _lock(out: Path):
    """An exclusive lock on ``OUT.lock`` (kept as a file: deleting it would let two writers race)."""
    handle = out.with_name(out.name + LOCK_SUFFIX).open("a+", encoding="utf-8")
    if fcntl is not None:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise OutputLockedError(f"`--out` {out} is being written by {holder}; wait for it to finish "
                                    "or choose another --out") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"PID {os.getpid()}\n")
    handle.flush()
    return handle
