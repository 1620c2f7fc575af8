"""A score cache whose write lock another process holds (issue 27, item 2): after the first busy
timeout the cache steps aside for the rest of the job, with one warning, instead of making every
later batch wait the full timeout again.

The lock is held by a real second process for the whole test (it holds `BEGIN IMMEDIATE` until
told to stop), so nothing races the clock: every store the scorer tries meets the lock."""

import logging
import subprocess
import sys

import numpy as np
import pytest

from capqa.engine import cache_database
from capqa.engine.cache import ScoreCache
from capqa.engine.cache_database import DATABASE_NAME
from capqa.records.identity import cache_key

from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
nli = lazy_module("capqa.engine.nli")

PREMISES = ["Sofia is a city in Bulgaria.", "Water boils at 100°C.", "The Berlin Wall fell in 1989.",
            "Metal conducts electricity.", "Plants make food using light."]
HYPOTHESES = ["Burgas is a city in Bulgaria.", "Water boils at 212°F.", "The Berlin Wall fell in 1990.",
              "Copper conducts electricity.", "Plants make food using photosynthesis."]
# Short, so that the one wait the test allows is short; the behaviour does not depend on it.
BUSY_TIMEOUT_S = 0.5

HOLD_THE_LOCK = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
connection.execute("INSERT INTO models (identity) VALUES ('held by another process')")
print("locked", flush=True)
sys.stdin.read()  # hold the write lock until the test closes our stdin
connection.execute("ROLLBACK")
"""


@pytest.fixture
def held_cache(tmp_path, random_nli_model):
    """A cache folder whose database exists, and another process holding its write lock."""
    seed = ScoreCache(tmp_path, {"model": "seed"})
    seed.put({("a", "b"): [0.5, 0.3, 0.2]})  # creates the database and its tables
    seed.close()
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, str(tmp_path / DATABASE_NAME)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    yield tmp_path
    holder.stdin.close()
    assert holder.wait(timeout=60) == 0


def test_a_locked_cache_steps_aside_after_the_first_timeout(held_cache, random_nli_model, monkeypatch, caplog):
    expected = nli.NLIScorer(random_nli_model, device="cpu", batch_size=1).predict(PREMISES, HYPOTHESES)
    monkeypatch.setattr(cache_database, "BUSY_TIMEOUT_S", BUSY_TIMEOUT_S)
    scorer = nli.NLIScorer(random_nli_model, device="cpu", batch_size=1)
    scorer.cache = ScoreCache(held_cache, cache_key(scorer.identity))
    with caplog.at_level(logging.WARNING):
        np.testing.assert_allclose(scorer.predict(PREMISES, HYPOTHESES), expected, rtol=0, atol=MODEL_ATOL)
        np.testing.assert_allclose(scorer.predict(PREMISES, HYPOTHESES), expected, rtol=0, atol=MODEL_ATOL)
    database = scorer.cache.database
    assert database.stepped_aside and database.busy_timeout_s == BUSY_TIMEOUT_S
    # One store met the lock; after it nothing touched the database again (no connection is open).
    assert database._connection is None
    warnings = [record.getMessage() for record in caplog.records
                if record.name.startswith("capqa.engine.cache") and record.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "is locked by another process" in warnings[0]
    assert "scores without the cache from now on" in warnings[0]
    # Every later operation is counted as not using the cache: the first lookup found nothing,
    # and the two runs' other lookups and ten stores were all skipped.
    assert scorer.cache.stats.writes == 0 and scorer.cache.stats.hits == 0
    assert scorer.cache.stats.failures == 2 * len(PREMISES) + 1


def test_a_database_that_steps_aside_neither_reads_nor_writes(held_cache):
    database = cache_database.ScoreDatabase(held_cache, busy_timeout_s=BUSY_TIMEOUT_S)
    assert database.lookup([b"k" * 32]) == {}  # readers do not wait for a WAL writer
    assert database.store(["m"], [(b"k" * 32, b"v" * 24, b"c" * 8)]) is False  # the one wait
    assert database.stepped_aside
    assert database.lookup([b"k" * 32]) is None and database.store(["m"], []) is False


def test_the_busy_timeout_is_kept_by_a_pickled_copy(tmp_path):
    import pickle

    database = cache_database.ScoreDatabase(tmp_path, busy_timeout_s=2.5)
    copy = pickle.loads(pickle.dumps(database))
    assert copy.busy_timeout_s == 2.5 and not copy.stepped_aside
    assert cache_database.ScoreDatabase(tmp_path).busy_timeout_s == cache_database.BUSY_TIMEOUT_S


def test_the_busy_timeout_is_short_and_set_by_its_variable(monkeypatch, tmp_path):
    """Issue 35 item 10: a minute's timeout cost every job that met a held lock a minute."""
    monkeypatch.delenv(cache_database.BUSY_TIMEOUT_VARIABLE, raising=False)
    assert cache_database.ScoreDatabase(tmp_path).busy_timeout_s <= 5
    monkeypatch.setenv(cache_database.BUSY_TIMEOUT_VARIABLE, "0")
    assert cache_database.ScoreDatabase(tmp_path).busy_timeout_s == 0
    monkeypatch.setenv(cache_database.BUSY_TIMEOUT_VARIABLE, " 7.5 ")
    assert ScoreCache(tmp_path, {"model": "m"}).database.busy_timeout_s == 7.5
    for bad in ("-1", "soon", "nan", "inf"):
        monkeypatch.setenv(cache_database.BUSY_TIMEOUT_VARIABLE, bad)
        with pytest.raises(ValueError, match=r"CAP_CACHE_BUSY_TIMEOUT_S must be a number of seconds of at least 0"):
            ScoreCache(tmp_path, {"model": "m"})


def test_a_held_lock_is_tried_once_without_waiting_and_said_once(held_cache, monkeypatch, caplog):
    monkeypatch.setenv(cache_database.BUSY_TIMEOUT_VARIABLE, "0")
    cache = ScoreCache(held_cache, {"model": "m"})
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            cache.put({("premise", "hypothesis"): [0.5, 0.3, 0.2]})
    assert cache.database.stepped_aside
    busy = [record.getMessage() for record in caplog.records if "is busy" in record.getMessage()]
    assert len(busy) == 1 and "busy timeout of 0 s (CAP_CACHE_BUSY_TIMEOUT_S)" in busy[0]
