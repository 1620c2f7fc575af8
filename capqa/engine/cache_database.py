"""The score cache's storage: one SQLite database per cache folder, shared by every process and
thread of one machine, that never fails the job using it.

Why SQLite in WAL mode (stdlib ``sqlite3``): a million entries are one file instead of a million
files; readers never wait for the writer and only ever see committed transactions, so an entry is
whole or absent; writers take turns, each storing a whole batch in one transaction, and wait for
each other up to ``BUSY_TIMEOUT_S`` (``CAP_CACHE_BUSY_TIMEOUT_S`` sets it). WAL needs memory shared between the processes, so it is safe
on one machine's disk, not on a network filesystem (see docs/cache.md: one cache per node).

Never failing the job: every problem (folder deleted while in use, read-only folder or file, the
database path being a folder, a corrupt or foreign file, a disk that is full) makes that lookup
find nothing or that write store nothing, so the scores are computed instead; the first problem
is logged as a warning, later ones at debug level. Each operation tries again from scratch, so a
cache that comes back (folder recreated) is used again.

A lock held too long is different: another process holds the database's write lock beyond
the busy timeout, and every later batch would wait as long again (two examples at batch size 1
took over 100 s with a minute's timeout). So the timeout is short (a turn takes milliseconds),
and after the first one the cache steps aside for the rest of this ``ScoreDatabase``'s life (the
rest of the job): lookups find nothing and stores store nothing at once, and one warning says
that the cache is busy.
"""

import json
import logging
import math
import os
import sqlite3
import threading
import time
import weakref
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

logger = logging.getLogger(__name__)

DATABASE_NAME = "cap-scores.sqlite3"
# Bumped when the tables change; a database of another version is left alone (not used).
SCHEMA_VERSION = 1
# How long a writer waits for another one before the cache steps aside. Transactions are one NLI
# batch long (milliseconds), so two seconds covers many ranks' turns and a checkpoint; a lock held
# longer is another job's, and waiting would only stall this one. 0 tries the lock once.
BUSY_TIMEOUT_S = 2.0
BUSY_TIMEOUT_VARIABLE = "CAP_CACHE_BUSY_TIMEOUT_S"
# Keys per SELECT: below SQLite's oldest limit on bound parameters (999).
LOOKUP_CHUNK = 500

_SCHEMA = (
    # What each model_id stands for: canonical JSON of the cache identity's [field, value] pairs.
    "CREATE TABLE IF NOT EXISTS models (id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE)",
    # key: sha256 of the model identity and the pair; probabilities: 3 little-endian float64 (in
    # the statement cache: the statement, UTF-8);
    # checksum: over key and probabilities, so an edited or moved value is never trusted.
    "CREATE TABLE IF NOT EXISTS scores (key BLOB PRIMARY KEY, model_id INTEGER NOT NULL, "
    "probabilities BLOB NOT NULL, checksum BLOB NOT NULL) WITHOUT ROWID",
)
# Errors that mean "this database cannot be written here", as opposed to "cannot be used at all".
_READ_ONLY_ERRORS = ("SQLITE_READONLY", "SQLITE_READONLY_DIRECTORY", "SQLITE_CANTOPEN", "SQLITE_READONLY_DBMOVED")


class CacheUnusable(Exception):
    """The database exists but is not a score cache this code can use."""


class ScoreDatabase:
    """The SQLite file ``folder/DATABASE_NAME``, opened on first use and reopened when needed.

    ``lookup`` and ``store`` never raise for a problem of the disk or the file: they return
    nothing found / False, and the first such problem is logged as a warning.
    """

    def __init__(self, folder: Union[str, os.PathLike], busy_timeout_s: Optional[float] = None,
                 name: str = DATABASE_NAME):
        # name: the file in the folder; the statement cache (capqa.statements.statement_cache)
        # keeps its entries, the statements an endpoint wrote, in a file of its own.
        self.path = Path(folder) / name
        self.busy_timeout_s = configured_busy_timeout() if busy_timeout_s is None else float(busy_timeout_s)
        # Set by the first lock held beyond busy_timeout_s: the cache is then not used again.
        self.stepped_aside = False
        self._connection = None
        self._writable = False
        self._opened_file = None  # (st_dev, st_ino) of the file the connection has open
        self._model_ids = {}
        self._lock = threading.Lock()  # one connection, used by one thread at a time
        self._warned = False
        _OPEN_DATABASES.add(self)

    def lookup(self, keys: Sequence[bytes]) -> Optional[Dict[bytes, Tuple[bytes, bytes]]]:
        """{key: (probabilities, checksum)} for the keys stored, or None when the cache cannot be read."""
        found = {}
        with self._lock:
            if self.stepped_aside:
                return None
            try:
                connection = self._connect(create=False)
                for start in range(0, len(keys), LOOKUP_CHUNK) if connection is not None else ():
                    chunk = keys[start:start + LOOKUP_CHUNK]
                    rows = connection.execute(
                        f"SELECT key, probabilities, checksum FROM scores WHERE key IN ({','.join('?' * len(chunk))})",
                        chunk)
                    found.update((key, (values, checksum)) for key, values, checksum in rows)
            except (sqlite3.Error, OSError, CacheUnusable) as error:
                self._problem("could not be read", "computed instead", error)
                return None
        return found

    def store(self, identity: List[str], rows: Sequence[Tuple[bytes, bytes, bytes]]) -> bool:
        """Store ``rows`` [(key, probabilities, checksum)] for the model ``identity`` in one
        transaction; True when they were stored."""
        with self._lock:
            if self.stepped_aside:
                return False
            try:
                connection = self._connect(create=True)
                if not self._writable:
                    raise CacheUnusable("it is read-only here")
                connection.execute("BEGIN IMMEDIATE")
                try:
                    model_id = self._model_id(connection, identity)
                    connection.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?, ?, ?)",
                                           [(key, model_id, values, checksum) for key, values, checksum in rows])
                    connection.execute("COMMIT")
                except BaseException:
                    if connection.in_transaction:
                        connection.execute("ROLLBACK")
                    raise
            except (sqlite3.Error, OSError, CacheUnusable) as error:
                self._problem("could not be written", "not stored", error)
                return False
        return True

    def close(self) -> None:
        with self._lock:
            self._close()

    def __getstate__(self):
        # A connection and a lock belong to one process: a copy opens its own on first use.
        return {"path": self.path, "_warned": self._warned, "busy_timeout_s": self.busy_timeout_s}

    def __setstate__(self, state):
        self.__init__(state["path"].parent, state.get("busy_timeout_s"), state["path"].name)
        self._warned = state["_warned"]

    def _model_id(self, connection, identity):
        text = json.dumps(identity, ensure_ascii=False, separators=(",", ":"))
        if text not in self._model_ids:
            connection.execute("INSERT OR IGNORE INTO models (identity) VALUES (?)", (text,))
            (self._model_ids[text],) = connection.execute("SELECT id FROM models WHERE identity = ?", (text,)).fetchone()
        return self._model_ids[text]

    def _connect(self, create):
        """The open connection, reopened if the file was deleted or replaced since; None when
        there is no database yet and ``create`` is false."""
        try:
            stat = os.stat(self.path)
            current = (stat.st_dev, stat.st_ino)
        except FileNotFoundError:
            current = None
        if self._connection is not None and current == self._opened_file:
            return self._connection
        if self._connection is not None:
            if current is None:
                self._problem("was deleted while in use", "computed, and stored in a new database",
                              FileNotFoundError(self.path))
            self._close()
        if current is None:
            if not create:
                return None
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._connection, self._writable = _open(self.path, self.busy_timeout_s)
        stat = os.stat(self.path)
        self._opened_file = (stat.st_dev, stat.st_ino)
        return self._connection

    def _close(self):
        if self._connection is not None:
            # SQLite itself leaves a database that was deleted or replaced untouched on close.
            self._connection.close()
        self._connection, self._opened_file, self._model_ids = None, None, {}

    def _problem(self, what, consequence, error):
        self._close()
        if _is_busy(error):
            self.stepped_aside = True
            logger.warning("The score cache %s is busy: it is locked by another process, which held it beyond "
                           "the busy timeout of %g s (%s); this job scores without the cache from now on (nothing "
                           "is read from or stored in it), so no later batch waits for the lock again.", self.path,
                           self.busy_timeout_s, BUSY_TIMEOUT_VARIABLE)
            return
        message = f"The score cache {self.path} {what} ({type(error).__name__}: {error}); scores are {consequence}."
        if self._warned:
            logger.debug(message)
            return
        self._warned = True
        logger.warning("%s Later cache problems are logged at debug level.", message)


def configured_busy_timeout() -> float:
    """The busy timeout in seconds: ``CAP_CACHE_BUSY_TIMEOUT_S`` when set (a number of at least 0),
    else ``BUSY_TIMEOUT_S``."""
    text = os.environ.get(BUSY_TIMEOUT_VARIABLE, "").strip()
    if not text:
        return BUSY_TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"environment variable {BUSY_TIMEOUT_VARIABLE} must be a number of seconds of at least 0 "
                         f"(how long the score cache waits for another writer), got {text!r}")
    return value


def _is_busy(error: BaseException) -> bool:
    """Whether ``error`` is SQLite giving up on a lock another connection holds."""
    name = getattr(error, "sqlite_errorname", "") or ""
    return isinstance(error, sqlite3.OperationalError) and (
        name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in str(error))


def _open(path, busy_timeout_s):
    """(connection, writable): read-write where possible, else read-only."""
    connection = _connection(str(path), uri=False, busy_timeout_s=busy_timeout_s)
    try:
        _prepare(connection, create=True, busy_timeout_s=busy_timeout_s)
        return connection, True
    except sqlite3.OperationalError as error:
        connection.close()
        if getattr(error, "sqlite_errorname", "") not in _READ_ONLY_ERRORS:
            raise
    # A WAL database in a folder we cannot write: SQLite cannot create its shared-memory file,
    # so read the file as it is (nobody can change it without write access either).
    connection = _connection(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, busy_timeout_s=busy_timeout_s)
    try:
        _prepare(connection, create=False, busy_timeout_s=busy_timeout_s)
    except BaseException:
        connection.close()
        raise
    return connection, False


def _connection(target, uri, busy_timeout_s):
    # isolation_level=None: transactions are begun and committed explicitly; the lock of
    # ScoreDatabase serialises the threads that share the connection.
    return sqlite3.connect(target, uri=uri, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)


def _prepare(connection, create, busy_timeout_s):
    """Check (and if ``create``, make) the tables; a file that is no SQLite database, or one
    of another schema, is CacheUnusable."""
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorname", "") in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
            raise CacheUnusable(f"it is not a readable SQLite database ({error}); delete it to start a new cache") from error
        raise
    if version == SCHEMA_VERSION:
        if create and connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            _use_wal(connection, busy_timeout_s)
    elif version == 0 and create:
        # WAL is a property of the file: set once, by whoever creates it. Several processes may
        # create it at once, so the version is read again under the write lock.
        _use_wal(connection, busy_timeout_s)
        connection.execute("BEGIN IMMEDIATE")
        try:
            if connection.execute("PRAGMA user_version").fetchone()[0] == 0:
                for statement in _SCHEMA:
                    connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    elif version != 0:
        raise CacheUnusable(f"it has schema version {version}, this capqa reads version {SCHEMA_VERSION}")
    # Durable across a crash of the process; a power cut may lose the last batches, never corrupt.
    connection.execute("PRAGMA synchronous=NORMAL")


def _use_wal(connection: sqlite3.Connection, busy_timeout_s: float) -> None:
    """Switch the file to WAL. SQLite answers "database is locked" at once, without its busy
    handler, while another process holds the file; so wait here as the busy timeout would."""
    deadline = time.monotonic() + busy_timeout_s
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


# Fork safety: a child must never use (or close) a connection of its parent, so connections are
# closed around a fork and reopened on next use, in the parent and in the child.
_OPEN_DATABASES = weakref.WeakSet()


def _before_fork():
    for database in list(_OPEN_DATABASES):
        database._lock.acquire()
        database._close()
        _LOCKED_FOR_FORK.append(database)


def _after_fork():
    while _LOCKED_FOR_FORK:
        _LOCKED_FOR_FORK.pop()._lock.release()


_LOCKED_FOR_FORK = []
os.register_at_fork(before=_before_fork, after_in_parent=_after_fork, after_in_child=_after_fork)
