"""Statements an engine that costs something wrote, kept on disk: re-scoring never asks the
endpoint twice, and a resumed job pays nothing for what it already has.

The storage is the score cache's (``capqa.engine.cache_database.ScoreDatabase``: one SQLite
file in WAL mode, shared by every process of one machine, never failing the job), in a file of
its own, ``DIRECTORY/cap-statements.sqlite3``, usually beside the NLI scores (the metric option
``score_cache_dir``). An entry's key is the sha256 of the engine's identity (its name and every
detail the hashcode records: model, prompt version and hash, sampling settings) and the exact
(question, answer); its value is the statement (UTF-8) with a checksum over key and value, so an
edited or moved entry is treated as missing and asked for again. The rules engine keeps its
questions' parses in the same file (``capqa.statements.question_parses``), under the parser's
identity.
"""

import hashlib
import json
import os
from typing import Dict, Iterable, List, Mapping, Tuple, Union

from capqa.engine.cache import check_cache_dir, row_checksum
from capqa.engine.cache_database import ScoreDatabase
from capqa.records.identity import StatementIdentity

STATEMENT_DATABASE = "cap-statements.sqlite3"


def identity_key(kind: str, value: str, details: Iterable[Tuple[str, str]]) -> List[List[str]]:
    """A store's identity as [name, value] pairs: what it holds (``kind`` and its ``value``), then
    every detail that decides the stored texts. Entries' keys hash it, so a store of statements
    and a store of parses never share one, nor do two identities."""
    return [[kind, value], *[[name, detail] for name, detail in details]]


class TextCache:
    """{a tuple of texts: a text} on disk, for one identity (a list of [name, value] pairs: what
    decides the values)."""

    def __init__(self, directory: Union[str, os.PathLike], identity_key: List[List[str]]) -> None:
        check_cache_dir(directory)
        self.database = ScoreDatabase(directory, name=STATEMENT_DATABASE)
        self._identity_key = identity_key
        self.hits = self.writes = 0

    def key(self, pair: Tuple[str, ...]) -> bytes:
        canonical = json.dumps(self._identity_key + list(pair), ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).digest()

    def get(self, pairs: Iterable[Tuple[str, ...]]) -> Dict[Tuple[str, ...], str]:
        """{pair: text} for the pairs with a sound entry."""
        keys = {self.key(pair): pair for pair in dict.fromkeys(pairs)}
        stored = self.database.lookup(list(keys)) or {}
        found = {}
        for key, (value, checksum) in stored.items():
            if isinstance(value, bytes) and checksum == row_checksum(key, value):
                found[keys[key]] = value.decode("utf-8")
        self.hits += len(found)
        return found

    def put(self, written: Mapping[Tuple[str, ...], str]) -> None:
        """Store {pair: text} in one transaction (nothing is raised when it cannot be written)."""
        rows = []
        for pair, statement in written.items():
            key, value = self.key(pair), statement.encode("utf-8")
            rows.append((key, value, row_checksum(key, value)))
        if rows and self.database.store(self._identity_key, rows):
            self.writes += len(rows)

    def close(self) -> None:
        self.database.close()


class StatementCache(TextCache):
    """{(question, answer): statement} on disk, for one engine identity."""

    def __init__(self, directory: Union[str, os.PathLike], identity: StatementIdentity) -> None:
        super().__init__(directory, identity_key("engine", identity.engine, identity.details))
