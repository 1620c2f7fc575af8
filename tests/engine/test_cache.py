"""The on-disk score cache: exact round trip, resuming, unsound entries, processes sharing it, and
a cache that cannot be used (deleted, read-only, full, not a database) never failing the job."""

import contextlib
import json
import logging
import math
import multiprocessing
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys

import numpy as np
import pytest

from capqa.dev.offline_models import build_nli_model
from capqa.engine.cache import ScoreCache, row_checksum
from capqa.engine.cache_database import DATABASE_NAME
from capqa.records.identity import cache_key

from support.data import REPO_ROOT
from support.lazy import lazy_module
from support.parallel_workers import TEST_IDENTITY, cache_pairs, probabilities_for, write_and_read_cache
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")
nli = lazy_module("capqa.engine.nli")

PREMISES = ["Sofia is a city in Bulgaria.", "Metal is the best conductor of electricity.",
            "Water begins to boil at 100°C.", "Water and food travel through the stem of a plant.",
            "The Berlin Wall fell in 1989.", "Plants make food using sunlight."]
HYPOTHESES = ["Burgas is a city in Bulgaria.", "Plastic is the best conductor of electricity.",
              "Water begins to boil at 212°F.", "Water travels through the stem of a plant.",
              "The Berlin Wall fell in 1990.", "Plants make food using photosynthesis."]


class RowCounter:
    """Counts the pairs the real model computes, with a forward hook (the model is not replaced)."""

    def __init__(self, model):
        self.rows = 0
        model.register_forward_hook(self._count, with_kwargs=True)

    def _count(self, module, args, kwargs, output):
        self.rows += int(kwargs["input_ids"].shape[0])


def cached_scorer(model_folder, directory, quantize=False):
    scorer = nli.NLIScorer(model_folder, device="cpu", batch_size=4, quantize=quantize, score_cache_dir=directory)
    return scorer, RowCounter(scorer.model)


@pytest.fixture(scope="module")
def uncached(random_nli_model):
    return nli.NLIScorer(random_nli_model, device="cpu", batch_size=4).predict(PREMISES, HYPOTHESES)


def test_second_run_reads_everything_from_disk(random_nli_model, tmp_path, uncached):
    first, first_rows = cached_scorer(random_nli_model, tmp_path)
    computed = first.predict(PREMISES, HYPOTHESES)
    np.testing.assert_allclose(computed, uncached, rtol=0, atol=MODEL_ATOL)
    assert first_rows.rows == len(PREMISES) and first.cache.stats.writes == len(PREMISES)

    second, second_rows = cached_scorer(random_nli_model, tmp_path)
    # Bit for bit what was computed and stored, and the model never ran.
    np.testing.assert_array_equal(second.predict(PREMISES, HYPOTHESES), computed)
    assert second_rows.rows == 0
    assert second.cache.stats.hits == len(PREMISES) and second.cache.stats.misses == 0


def test_an_interrupted_job_resumes_with_only_the_new_pairs(random_nli_model, tmp_path, uncached):
    done = 4  # as if the job had stopped after these pairs
    first, _ = cached_scorer(random_nli_model, tmp_path)
    first.predict(PREMISES[:done], HYPOTHESES[:done])

    resumed, rows = cached_scorer(random_nli_model, tmp_path)
    # The resumed batches differ from the uninterrupted run's: equal up to float32 rounding.
    np.testing.assert_allclose(resumed.predict(PREMISES, HYPOTHESES), uncached, rtol=0, atol=MODEL_ATOL)
    assert rows.rows == len(PREMISES) - done
    assert resumed.cache.stats.hits == done and resumed.cache.stats.writes == len(PREMISES) - done


def stored_row(cache, pair):
    """(probabilities, checksum) as stored, read with sqlite3 itself."""
    with contextlib.closing(sqlite3.connect(cache.database.path)) as database:
        return database.execute("SELECT probabilities, checksum FROM scores WHERE key = ?", (cache.key(pair),)).fetchone()


def edit_row(cache, pair, values, checksum):
    """Change an entry behind the cache's back, as a hand edit or damage would."""
    with contextlib.closing(sqlite3.connect(cache.database.path)) as database, database:
        database.execute("UPDATE scores SET probabilities = ?, checksum = ? WHERE key = ?",
                         (values, checksum, cache.key(pair)))


def _float64(*values):
    return np.asarray(values, dtype="<f8").tobytes()


def _corruptions(key, values, checksum, other_row):
    """Unsound (probabilities, checksum) for the entry ``key``: with a stale checksum, or with a
    checksum recomputed over a value that is still wrong."""
    def resealed(data):
        return data, row_checksum(key, data) if isinstance(data, bytes) else checksum

    return {
        "hand-edited, valid-looking": (_float64(0.2, 0.3, 0.5), checksum),
        "another pair's entry": other_row,
        "checksum changed": (values, bytes(len(checksum))),
        "checksum cut": (values, checksum[:4]),
        "checksum as text": (values, checksum.hex()),
        "truncated": resealed(values[:16]),
        "empty": resealed(b""),
        "garbage": resealed(b"\x00\x01 garbage garbage garb"),
        "text": resealed("0.2,0.3,0.5"),
        "NaN": resealed(_float64(math.nan, 0.5, 0.5)),
        "sum is not 1": resealed(_float64(0.9, 0.9, 0.9)),
        "negative": resealed(_float64(1.2, -0.1, -0.1)),
    }


def test_an_unsound_entry_is_recomputed_and_overwritten(random_nli_model, tmp_path):
    scorer, rows = cached_scorer(random_nli_model, tmp_path)
    # One pair per call, as the recomputations below: the same batch gives the same bits.
    computed = scorer.predict(PREMISES[:1], HYPOTHESES[:1])
    scorer.predict(PREMISES[1:2], HYPOTHESES[1:2])
    pair, other = (PREMISES[0], HYPOTHESES[0]), (PREMISES[1], HYPOTHESES[1])
    entry = stored_row(scorer.cache, pair)
    for kind, (values, checksum) in _corruptions(scorer.cache.key(pair), *entry, stored_row(scorer.cache, other)).items():
        edit_row(scorer.cache, pair, values, checksum)
        scorer.cache, rows.rows = ScoreCache(tmp_path, cache_key(scorer.identity)), 0
        np.testing.assert_array_equal(scorer.predict(PREMISES[:1], HYPOTHESES[:1]), computed, err_msg=kind)
        assert rows.rows == 1 and scorer.cache.stats.rejected == 1, kind
        assert stored_row(scorer.cache, pair) == entry, kind


def test_the_key_is_the_identity_and_the_exact_pair(tmp_path, random_nli_model):
    base = ScoreCache(tmp_path, TEST_IDENTITY)
    pair = ("Sofia is a city.", "Burgas is a city.")
    others = [ScoreCache(tmp_path, {**TEST_IDENTITY, "nli_model": "org/other"}),
              ScoreCache(tmp_path, {**TEST_IDENTITY, "nli_revision": "def456"}),
              ScoreCache(tmp_path, {**TEST_IDENTITY, "quantization": "int8-dynamic"}),
              ScoreCache(tmp_path, {**TEST_IDENTITY, "torch": "0.0"})]
    assert len({base.key(pair)} | {cache.key(pair) for cache in others}) == 5
    assert base.key(pair) != base.key(pair[::-1])
    assert base.key(pair) != base.key((pair[0] + " ", pair[1]))
    # The order the fields are given in is not part of the key.
    assert ScoreCache(tmp_path, dict(reversed(TEST_IDENTITY.items()))).key(pair) == base.key(pair)
    base.put({pair: [0.2, 0.3, 0.5]})
    assert all(cache.get([pair]) == {} for cache in others)
    # A scorer's cache stores under its identity's cache key (capqa.records.identity.cache_key).
    scorer = nli.NLIScorer(random_nli_model, device="cpu", score_cache_dir=tmp_path)
    assert scorer.cache.identity == cache_key(scorer.identity)
    # One database for every model, with a table saying which identity each entry belongs to.
    assert [path.name for path in tmp_path.iterdir() if path.suffix == ".sqlite3"] == [DATABASE_NAME]
    with contextlib.closing(sqlite3.connect(base.database.path)) as database:
        stored = [dict(json.loads(identity)) for (identity,) in database.execute("SELECT identity FROM models")]
    assert stored == [TEST_IDENTITY]


def test_bad_arguments_are_named(tmp_path):
    with pytest.raises(TypeError, match="score_cache_dir"):
        ScoreCache(None, TEST_IDENTITY)
    with pytest.raises(TypeError, match="`identity` must be a non-empty mapping"):
        ScoreCache(tmp_path, "org/model")
    with pytest.raises(TypeError, match="`identity` must be a non-empty mapping"):
        ScoreCache(tmp_path, {})
    with pytest.raises(TypeError, match=r"`identity\['nli_revision'\]` must be a string, number or boolean"):
        ScoreCache(tmp_path, {"nli_model": "org/model", "nli_revision": None})


def test_the_cache_imports_nothing_of_the_engine():
    """The cache stores identities; it knows nothing of the NLI engine (no import cycle)."""
    code = ("import sys, capqa.engine.cache; "
            "print(sorted(name for name in sys.modules if name.startswith('capqa.engine.nli')))")
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert child.stdout.strip() == "[]"


def test_two_processes_share_one_cache_without_corruption(tmp_path):
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(2)
    results = [tmp_path / f"worker-{worker}.json" for worker in range(2)]
    workers = [context.Process(target=write_and_read_cache, args=(tmp_path / "cache", worker, 10, ready, result))
               for worker, result in enumerate(results)]
    for process in workers:
        process.start()
    # No deadline: each worker always reports, and ends when it has (a loaded machine is slow).
    for process in workers:
        process.join()
    reports = [json.loads(result.read_text()) for result in results]
    assert [report["error"] for report in reports] == [None, None]
    # Every entry either process read was the right one, and they read many while both wrote.
    assert [report["wrong"] for report in reports] == [[], []]
    assert all(report["reads"] > 1000 and report["stats"]["rejected"] == 0 for report in reports)
    assert all(report["stats"]["failures"] == 0 for report in reports)
    cache = ScoreCache(tmp_path / "cache", TEST_IDENTITY)
    pairs = cache_pairs()
    found = cache.get(pairs)
    assert len(found) == len(pairs) and cache.stats.rejected == 0
    for i, pair in enumerate(pairs):
        np.testing.assert_array_equal(found[pair], probabilities_for(i))
    with contextlib.closing(sqlite3.connect(cache.database.path)) as database:
        assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert database.execute("SELECT count(*) FROM scores").fetchone() == (len(pairs),)


def test_the_metric_option_score_cache_dir(random_nli_model, metric_path, tmp_path):
    options = dict(nli_model=random_nli_model, score_cache_dir=str(tmp_path / "scores"), cache_dir=str(tmp_path / "arrow"))
    first = evaluate.load(metric_path, **options).compute(predictions=HYPOTHESES, references=PREMISES)
    metric = evaluate.load(metric_path, **options)
    second = metric.compute(predictions=HYPOTHESES, references=PREMISES)
    assert second == first
    stats = metric._scorer.nli.cache.stats
    assert stats.hits == 2 * len(PREMISES) and stats.misses == 0
    with pytest.raises(TypeError, match="score_cache_dir"):
        evaluate.load(metric_path, nli_model=random_nli_model, score_cache_dir=3)


def test_quantized_scores_are_close_and_cached_apart(models_dir, tmp_path):
    # The tiny model's wide random weights magnify int8 rounding: a sanity bound only (the
    # benchmark reports the difference on a realistically initialised model), measured on this
    # model (the default tokenizer's; the session's NLI models have another vocabulary).
    model = str(build_nli_model(models_dir / "nli-random-for-int8", seed=1))
    float_scorer = nli.NLIScorer(model, device="cpu", score_cache_dir=tmp_path)
    unquantized = float_scorer.predict(PREMISES, HYPOTHESES)
    int8, rows = cached_scorer(model, tmp_path, quantize=True)
    assert int8.precision == "int8-dynamic" and int8.identity.quantization == "int8-dynamic"
    quantized = int8.predict(PREMISES, HYPOTHESES)
    # Its own entries: the float32 ones are not reused for the int8 model.
    assert rows.rows == len(PREMISES) and int8.cache.stats.hits == 0
    np.testing.assert_allclose(quantized.sum(axis=1), 1.0, atol=1e-6)
    assert 0 < np.abs(quantized - unquantized).max() < 0.5
    with pytest.raises(TypeError, match="`quantize`"):
        nli.NLIScorer(model, device="cpu", quantize="yes")



def test_truncation_length_is_part_of_the_key(random_nli_model, tmp_path):
    long_pair = (" ".join(["Sofia is the capital and largest city of Bulgaria."] * 8), "Burgas is a city.")
    scores = {}
    for max_length in (512, 16):
        scorer = nli.NLIScorer(random_nli_model, device="cpu", max_length=max_length, score_cache_dir=tmp_path)
        scores[max_length] = scorer.predict([long_pair[0]], [long_pair[1]])
        assert scorer.cache.stats.hits == 0  # the other length's entry was not taken
    assert not np.allclose(scores[512], scores[16])


def test_a_forked_child_and_a_pickled_copy_use_their_own_connection(tmp_path):
    cache = ScoreCache(tmp_path, TEST_IDENTITY)
    pairs = cache_pairs(30)
    scored = {pair: probabilities_for(i) for i, pair in enumerate(pairs)}
    cache.put(dict(list(scored.items())[:10]))  # the parent's connection is open when it forks
    child = multiprocessing.get_context("fork").Process(target=cache.put, args=(dict(list(scored.items())[10:20]),))
    child.start()
    child.join()
    assert child.exitcode == 0
    copy = pickle.loads(pickle.dumps(cache))
    copy.put(dict(list(scored.items())[20:]))
    for reader in (cache, copy):
        found = reader.get(pairs)
        assert len(found) == len(pairs) and all(np.array_equal(found[pair], scored[pair]) for pair in pairs)


# A cache that cannot be used never fails the job: the scores are computed, with one warning.


def cache_warnings(caplog):
    return [record for record in caplog.records
            if record.name.startswith("capqa.engine.cache") and record.levelno >= logging.WARNING]


def test_deleting_the_cache_folder_while_a_metric_is_alive(random_nli_model, metric_path, tmp_path, caplog):
    folder = tmp_path / "outer" / "scores"
    metric = evaluate.load(metric_path, nli_model=random_nli_model, score_cache_dir=str(folder),
                           cache_dir=str(tmp_path / "arrow"))
    first = metric.compute(predictions=HYPOTHESES, references=PREMISES)
    shutil.rmtree(tmp_path / "outer")
    with caplog.at_level(logging.WARNING):
        second = metric.compute(predictions=HYPOTHESES, references=PREMISES)
    np.testing.assert_allclose(second["cap"], first["cap"], rtol=0, atol=MODEL_ATOL)
    assert len(cache_warnings(caplog)) == 1 and "deleted" in cache_warnings(caplog)[0].getMessage()
    # The computed scores went into a new database at the same place.
    cache = metric._scorer.nli.cache
    assert cache.database.path.is_file() and cache.stats.writes == 4 * len(PREMISES)
    # Each compute looks up both directions of the 6 pairs: the third finds all 12 in the new database.
    metric.compute(predictions=HYPOTHESES, references=PREMISES)
    assert cache.stats.hits == 2 * len(PREMISES) and cache.stats.misses == 4 * len(PREMISES)


def without_write_access(command):
    """``command`` run so that file permissions bind it, also when the tests run as root."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root, and setpriv (util-linux) is missing to drop the override of file permissions")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", *command]


@pytest.mark.parametrize("stored, read_only", [(100, "folder and file"), (60, "folder and file"), (60, "file"),
                                               (0, "empty folder")])
def test_a_read_only_cache_is_read_and_never_fails_the_job(tmp_path, stored, read_only):
    folder = tmp_path / "scores"
    cache = ScoreCache(folder, TEST_IDENTITY)
    cache.put({pair: probabilities_for(i) for i, pair in enumerate(cache_pairs(stored))})
    cache.close()  # the last connection folds the WAL into the database file
    folder.mkdir(exist_ok=True)
    locked = ([cache.database.path] if stored else []) + ([folder] if "folder" in read_only else [])
    modes = {path: path.stat().st_mode for path in locked}
    for path in locked:
        path.chmod(0o555 if path.is_dir() else 0o444)
    code = "import sys; from support.parallel_workers import read_only_cache_report; read_only_cache_report(sys.argv[1], 100)"
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO_ROOT), str(REPO_ROOT / "tests")]))
    try:
        child = subprocess.run(without_write_access([sys.executable, "-c", code, str(folder)]),
                               env=environment, capture_output=True, text=True)
    finally:
        for path, mode in modes.items():
            path.chmod(mode)
    assert child.returncode == 0, child.stderr
    report = json.loads(child.stdout)
    assert report["found"] == stored and report["correct"] and report["stats"]["rejected"] == 0
    # A full cache has nothing to store: no warning. Otherwise one, however many writes fail.
    assert report["warnings"] == (0 if stored == 100 else 1)
    assert report["stats"]["writes"] == 0 and report["stats"]["failures"] == (0 if stored == 100 else 2)


def _a_folder(path):
    path.mkdir()


def _garbage(path):
    path.write_bytes(b"not a database, " * 512)


def _another_schema(path):
    with contextlib.closing(sqlite3.connect(path)) as database:
        database.execute("PRAGMA user_version = 99")


@pytest.mark.parametrize("break_database", [_a_folder, _garbage, _another_schema])
def test_an_unusable_database_degrades_to_computing_with_one_warning(random_nli_model, tmp_path, uncached, caplog,
                                                                     break_database):
    database = tmp_path / DATABASE_NAME
    break_database(database)
    before = database.read_bytes() if database.is_file() else None
    scorer, rows = cached_scorer(random_nli_model, tmp_path)
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            np.testing.assert_allclose(scorer.predict(PREMISES, HYPOTHESES), uncached, rtol=0, atol=MODEL_ATOL)
    # Each run looked up once and stored two batches of 4, all in vain, and said so once.
    assert rows.rows == 2 * len(PREMISES) and scorer.cache.stats.failures == 2 * 3
    assert len(cache_warnings(caplog)) == 1
    # What is there is not ours to repair: it is left as it was.
    assert (database.read_bytes() if database.is_file() else None) == before


def test_a_truncated_database_never_returns_wrong_scores(tmp_path, caplog):
    cache = ScoreCache(tmp_path, TEST_IDENTITY)
    pairs = cache_pairs(3000)
    scored = {pair: probabilities_for(i) for i, pair in enumerate(pairs)}
    cache.put(scored)
    cache.close()
    size = cache.database.path.stat().st_size
    with open(cache.database.path, "r+b") as file:
        file.truncate(size // 2)
    damaged = ScoreCache(tmp_path, TEST_IDENTITY)
    with caplog.at_level(logging.WARNING):
        found = damaged.get(pairs)
        damaged.put(scored)
    assert all(np.array_equal(found[pair], scored[pair]) for pair in found)
    assert len(cache_warnings(caplog)) == 1


@pytest.mark.parametrize("inside", [False, True])
def test_a_score_cache_dir_that_is_a_file_is_refused_at_load(random_nli_model, metric_path, tmp_path, inside):
    file = tmp_path / "scores.txt"
    file.write_text("not a folder")
    target = file / "scores" if inside else file
    with pytest.raises(ValueError, match="`score_cache_dir` must be a folder.*file"):
        evaluate.load(metric_path, nli_model=random_nli_model, score_cache_dir=str(target),
                      cache_dir=str(tmp_path / "arrow"))
    with pytest.raises(ValueError, match="`score_cache_dir` must be a folder"):
        ScoreCache(target, TEST_IDENTITY)
