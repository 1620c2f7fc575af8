"""A CSV output that a job appends to in chunks and can resume, trusting only what it verifies.

Beside ``OUT`` live two files:

- ``OUT.capjob.json``, the manifest (``capqa.jobs.manifest``): the job (``JobSpec``), the columns,
  and for every chunk committed so far its end (rows, bytes, lines) and sha256;
- ``OUT.lock``, locked by the one process writing ``OUT`` while it writes (``capqa.jobs.locking``);
  it holds that process's PID and is removed when the job ends.

A chunk is committed by appending its rows, fsync, then replacing the manifest atomically: a
crash at any point leaves at most an uncommitted tail, which the next run cuts off and rewrites.
On resume every committed chunk is checked against its checksum: a damaged last chunk (a torn
row) is rewritten; damage before intact data is refused with the lines it concerns.

An output with no committed row belongs to no job: a run with other input or options replaces it
(with a warning), and a run that fails before committing a row removes the output it started,
so a failed first run never blocks its own fix.
"""

import csv
import hashlib
import io
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import List, Mapping, Optional, Sequence, Union

from capqa.common.files import check_outputs
from capqa.common.quoting import quote_all
from capqa.jobs.fingerprint import JobSpec
from capqa.jobs.locking import OutputLock, OutputLockedError, UnsafeLockError
from capqa.jobs.manifest import (MANIFEST_FORMAT, JobMismatchError, damaged, manifest_path, read_manifest_file,
                                 write_manifest_file)

logger = logging.getLogger(__name__)

# Rows end in CRLF (RFC 4180): Python's csv writer (and pandas') quotes a cell only for the
# characters of its line terminator, so with "\n" a cell holding a bare "\r" would be written
# unquoted and read back as two rows.
LINE_END = "\r\n"


def csv_text(records: Sequence[Sequence[str]]) -> str:
    """Records as CSV text, quoted as pandas' ``to_csv`` quotes them, one ``LINE_END`` per row."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator=LINE_END).writerows(records)
    return buffer.getvalue()


def check_out_path(out: Union[str, os.PathLike],
                   inputs: Optional[Mapping[str, Union[str, os.PathLike]]] = None) -> Path:
    """``out`` as a Path, if it can be an output file: not a folder or a named pipe, none of the
    ``inputs`` ({name: path}), and in a folder that exists or can be made (checked again, with
    the lock, by ``ResumableCsv.open``: a job calls this first so that a wrong --out fails before
    the models load). The manifest beside it is checked against the inputs too."""
    out = Path(out)
    check_outputs({"--out": out, "--out's manifest": manifest_path(out)}, inputs or {})
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

    def __init__(self, out: Path, job: JobSpec, columns: List[str], chunks: List[Chunk], lock: OutputLock):
        self.out, self.job, self.columns = out, job, columns
        self.chunks, self._lock = chunks, lock
        self._started = False  # whether this run wrote the header (then a failure before any row removes it)

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
            lock = OutputLock.acquire(out)
        except (OutputLockedError, UnsafeLockError):
            raise
        except OSError as error:
            raise OSError(f"cannot write `--out` {out}: {error.strerror or error}") from None
        try:
            output = cls(out, job, list(columns), [], lock)
            output._resume_or_start()
        except BaseException:
            lock.release()
            raise
        return output

    def __enter__(self) -> "ResumableCsv":
        return self

    def __exit__(self, exc_type, *exc_info) -> None:
        self.close(failed=exc_type is not None)

    def close(self, failed: bool = False) -> None:
        """Release the output (removing its lock file); ``failed``: the job stopped early, and an
        output this run started that holds no committed row is removed with its manifest."""
        if self._lock is None:
            return
        try:
            if failed and self._started and self.rows_done == 0:
                self._discard()
        finally:
            self._lock.release()
            self._lock = None

    def _discard(self) -> None:
        for path in (manifest_path(self.out), self.out):
            path.unlink(missing_ok=True)
        logger.info("%s: removed the output this run started (no row was committed)", self.out)

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
        earlier = read_manifest_file(manifest)
        changes = self.job.differences(JobSpec.from_json(earlier["job"]))
        if earlier["columns"] != self.columns:
            changes.append(f"the output columns ({_names(earlier['columns'])} then, {_names(self.columns)} now)")
        if changes and len(earlier["chunks"]) == 1 and self._holds_only_header(earlier):
            logger.warning("`--out` %s held no committed row of an earlier job (whose %s differed); it is "
                           "replaced by this job's output", self.out, "; ".join(changes))
            self._start()
            return
        if changes:
            raise JobMismatchError(f"`--out` {self.out} holds rows of another job; changed since: "
                                   f"{'; '.join(changes)}. Rerun with the same input and options, or choose "
                                   "another --out")
        self.chunks = [Chunk(**chunk) for chunk in earlier["chunks"]]
        if self.rows_done > self.job.input_rows:
            raise damaged(manifest, f"it records {self.rows_done:,} rows of a {self.job.input_rows:,}-row job")
        self._verify_chunks()

    def _holds_only_header(self, earlier: dict) -> bool:
        """Whether ``out`` holds the header the earlier job wrote (or part of it, cut by a crash),
        and after it at most rows that job never committed: then it holds nothing of anyone's."""
        header = csv_text([earlier["columns"]]).encode("utf-8")
        if hashlib.sha256(header).hexdigest() != earlier["chunks"][0]["sha256"]:
            return False
        with self.out.open("rb") as handle:
            start = handle.read(len(header))
        return start == header[:len(start)]

    def _start(self) -> None:
        """Begin the output with its header. The manifest is written first: a crash between the
        two leaves a manifest of no rows beside an empty or partial header, which is started again."""
        header = csv_text([self.columns]).encode("utf-8")
        self.chunks = [Chunk(0, len(header), header.count(b"\n"), hashlib.sha256(header).hexdigest())]
        self._write_manifest()
        with self.out.open("wb") as handle:
            handle.write(header)
            handle.flush()
            os.fsync(handle.fileno())
        self._started = True

    def _verify_chunks(self) -> None:
        """Keep the committed chunks whose bytes still match; cut a torn tail, refuse a damaged middle."""
        size = self.out.stat().st_size
        with self.out.open("rb") as handle:
            for index, chunk in enumerate(self.chunks):
                start = self.chunks[index - 1].bytes if index else 0
                data = handle.read(chunk.bytes - start)
                if hashlib.sha256(data).hexdigest() == chunk.sha256:
                    self._check_rows(index, data)
                    continue
                # Intact-looking data after a damaged chunk is an edit, not a crash; so is a
                # header that a crash could not have cut this way (another file saved here).
                edited = size > chunk.bytes and index + 1 < len(self.chunks)
                if edited or (index == 0 and not self._torn_header(data)):
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

    def _check_rows(self, index: int, data: bytes) -> None:
        """An intact chunk holds as many records as the manifest says (rows, or the header)."""
        expected = self.chunks[index].rows - self.chunks[index - 1].rows if index else 1
        found = sum(1 for record in csv.reader(io.StringIO(data.decode("utf-8", "replace"), newline="")) if record)
        if found != expected:
            raise damaged(manifest_path(self.out), f"chunk {index} records {expected:,} rows, but its bytes hold "
                                                   f"{found:,}")

    def _torn_header(self, data: bytes) -> bool:
        """Whether ``data`` (the file's start) is this job's header cut short by a crash."""
        return csv_text([self.columns]).encode("utf-8").startswith(data)

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
        write_manifest_file(manifest_path(self.out), {
            "format": MANIFEST_FORMAT, "job": self.job.to_json(), "columns": self.columns,
            "chunks": [chunk.__dict__ for chunk in self.chunks]})


def read_manifest(out: Path) -> Optional[dict]:
    """The manifest of ``out``, checked, or None when there is none (read without the lock)."""
    path = manifest_path(Path(out))
    return read_manifest_file(path) if path.exists() else None


def _names(columns: Sequence[str]) -> str:
    return f"[{quote_all(columns)}]"


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
