"""The on-disk score cache: exact round trip, resuming, corrupt entries, two writers at once."""

import json
import math
import multiprocessing

import evaluate
import numpy as np
import pytest

from capqa.engine.cache import ScoreCache
from capqa.engine.nli import NLIScorer
from conftest import MODEL_ATOL
from parallel_workers import cache_pairs, probabilities_for, write_and_read_cache

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
    scorer = NLIScorer(model_folder, device="cpu", batch_size=4, quantize=quantize)
    scorer.cache = ScoreCache.for_scorer(directory, scorer)
    return scorer, RowCounter(scorer.model)


@pytest.fixture(scope="module")
def uncached(random_nli_model):
    return NLIScorer(random_nli_model, device="cpu", batch_size=4).predict(PREMISES, HYPOTHESES)


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


def _corruptions(entry):
    other = dict(entry, premise="Another premise.")
    return {
        "truncated": json.dumps(entry)[: len(json.dumps(entry)) // 2],
        "not json": "\x00\x01 garbage",
        "empty": "",
        "a list": json.dumps([entry]),
        "two probabilities": json.dumps(dict(entry, probabilities=entry["probabilities"][:2])),
        "NaN": json.dumps(dict(entry, probabilities=[math.nan, 0.5, 0.5])),
        "sum is not 1": json.dumps(dict(entry, probabilities=[0.9, 0.9, 0.9])),
        "negative": json.dumps(dict(entry, probabilities=[1.2, -0.1, -0.1])),
        "strings": json.dumps(dict(entry, probabilities=["0.2", "0.3", "0.5"])),
        "another pair": json.dumps(other),
        "another model": json.dumps(dict(entry, model="someone/else")),
    }


def test_a_corrupt_entry_is_recomputed_and_overwritten(random_nli_model, tmp_path):
    scorer, rows = cached_scorer(random_nli_model, tmp_path)
    computed = scorer.predict(PREMISES[:1], HYPOTHESES[:1])
    path = scorer.cache.path((PREMISES[0], HYPOTHESES[0]))
    entry = json.loads(path.read_text(encoding="utf-8"))
    for kind, text in _corruptions(entry).items():
        path.write_text(text, encoding="utf-8")
        scorer.cache, rows.rows = ScoreCache.for_scorer(tmp_path, scorer), 0
        np.testing.assert_array_equal(scorer.predict(PREMISES[:1], HYPOTHESES[:1]), computed, err_msg=kind)
        assert rows.rows == 1 and scorer.cache.stats.rejected == 1, kind
        assert json.loads(path.read_text(encoding="utf-8")) == entry, kind


def test_the_key_is_model_revision_precision_and_the_exact_pair(tmp_path, random_nli_model):
    base = ScoreCache(tmp_path, "org/model", "abc123")
    pair = ("Sofia is a city.", "Burgas is a city.")
    others = [ScoreCache(tmp_path, "org/other", "abc123"), ScoreCache(tmp_path, "org/model", "def456"),
              ScoreCache(tmp_path, "org/model", "abc123", precision="int8-dynamic")]
    assert len({base.path(pair)} | {cache.path(pair) for cache in others}) == 4
    assert base.path(pair) != base.path(pair[::-1])
    assert base.path(pair) != base.path((pair[0] + " ", pair[1]))
    base.put({pair: [0.2, 0.3, 0.5]})
    assert all(cache.get([pair]) == {} for cache in others)
    # A local folder's key follows its weights: rebuilding them invalidates the entries.
    assert ScoreCache(tmp_path, random_nli_model).identity[1].startswith("None|local:")


def test_bad_arguments_are_named(tmp_path):
    with pytest.raises(TypeError, match="score_cache_dir"):
        ScoreCache(None, "org/model")
    with pytest.raises(ValueError, match="`model`"):
        ScoreCache(tmp_path, " ")
    with pytest.raises(TypeError, match="`revision`"):
        ScoreCache(tmp_path, "org/model", revision=3)


def test_two_processes_writing_at_once_leave_only_sound_entries(tmp_path):
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(2)
    workers = [context.Process(target=write_and_read_cache, args=(tmp_path, worker, 20, ready)) for worker in range(2)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=120)
    assert [process.exitcode for process in workers] == [0, 0]
    cache = ScoreCache(tmp_path, "org/model", "abc123")
    pairs = cache_pairs()
    found = cache.get(pairs)
    assert len(found) == len(pairs) and cache.stats.rejected == 0
    for i, pair in enumerate(pairs):
        np.testing.assert_array_equal(found[pair], probabilities_for(i))
    assert not list(tmp_path.rglob(".tmp-*")), "temporary files were left behind"


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


def test_quantized_scores_are_close_and_cached_apart(random_nli_model, tmp_path, uncached):
    float_cache = ScoreCache(tmp_path, random_nli_model, precision="float32")
    float_cache.put(dict(zip(zip(PREMISES, HYPOTHESES), uncached)))
    int8, rows = cached_scorer(random_nli_model, tmp_path, quantize=True)
    assert int8.precision == "int8-dynamic"
    quantized = int8.predict(PREMISES, HYPOTHESES)
    # Its own entries: the float32 ones are not reused for the int8 model.
    assert rows.rows == len(PREMISES) and int8.cache.stats.hits == 0
    np.testing.assert_allclose(quantized.sum(axis=1), 1.0, atol=1e-6)
    # The tiny test model's wide random weights magnify int8 rounding: a sanity bound only
    # (the benchmark reports the difference on a realistically initialised model).
    assert 0 < np.abs(quantized - uncached).max() < 0.5
    with pytest.raises(TypeError, match="`quantize`"):
        NLIScorer(random_nli_model, device="cpu", quantize="yes")



def test_truncation_length_is_part_of_the_key(random_nli_model, tmp_path):
    long_pair = (" ".join(["Sofia is the capital and largest city of Bulgaria."] * 8), "Burgas is a city.")
    scores = {}
    for max_length in (512, 16):
        scorer = NLIScorer(random_nli_model, device="cpu", max_length=max_length)
        scorer.cache = ScoreCache.for_scorer(tmp_path, scorer)
        scores[max_length] = scorer.predict([long_pair[0]], [long_pair[1]])
        assert scorer.cache.stats.hits == 0  # the other length's entry was not taken
    assert not np.allclose(scores[512], scores[16])
