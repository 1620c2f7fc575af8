"""Functions run in child processes by the cache and distributed tests.

They live apart from the test modules so that a spawned child imports only what it needs.
"""

# A cache identity as capqa.records.identity.cache_key gives one, for caches filled by hand.
TEST_IDENTITY = {"cap-eval": "0.1.0", "transformers": "5.24.0", "torch": "2.13.0", "nli_model": "org/model",
                 "nli_revision": "abc123", "nli_dtype": "float32", "quantization": "none", "max_length": 512,
                 "compact_attention": True}


def cache_pairs(n=100):
    return [(f"premise {i}", f"hypothesis {i}") for i in range(n)]


def probabilities_for(index):
    import numpy as np

    raw = np.array([index + 1.0, 7.0, 3.0])
    return raw / raw.sum()


def write_and_read_cache(directory, worker, rounds, ready, result_path):
    """One of two processes writing and reading the same cache entries at the same time; writes
    what it saw to ``result_path`` (JSON), whatever happens, for the parent to check."""
    import json
    import traceback
    from dataclasses import asdict
    from pathlib import Path

    import numpy as np

    from capqa.engine.cache import ScoreCache

    report = {"reads": 0, "wrong": [], "error": None}
    try:
        cache = ScoreCache(directory, TEST_IDENTITY)
        pairs = cache_pairs()
        scored = {pair: probabilities_for(i) for i, pair in enumerate(pairs)}
        # Both start at once, so they also race to create the database.
        ready.wait()
        for round_ in range(rounds):
            # The two walk the pairs in opposite orders, in batches of 10 (one transaction each),
            # so they meet on every entry, writing and reading.
            order = pairs if (worker + round_) % 2 == 0 else pairs[::-1]
            for start in range(0, len(order), 10):
                cache.put({pair: scored[pair] for pair in order[start:start + 10]})
                found = cache.get(order)
                report["reads"] += len(found)
                report["wrong"] += [pair for pair in found if not np.array_equal(found[pair], scored[pair])]
        report["stats"] = asdict(cache.stats)
    except BaseException:
        report["error"] = traceback.format_exc()
        # Never leave the other worker waiting at the barrier for one that will not come.
        ready.abort()
    Path(result_path).write_text(json.dumps(report))


def read_only_cache_report(directory, n_pairs):
    """Run without write access to ``directory``: look up ``n_pairs`` pairs, store the missing
    ones twice (as a job would batch after batch) and print what happened as JSON."""
    import json
    import logging
    from dataclasses import asdict

    import numpy as np

    from capqa.engine.cache import ScoreCache

    warnings = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = warnings.append
    logging.getLogger("capqa").addHandler(handler)
    cache = ScoreCache(directory, TEST_IDENTITY)
    pairs = cache_pairs(n_pairs)
    found = cache.get(pairs)
    missing = {pair: probabilities_for(i) for i, pair in enumerate(pairs) if pair not in found}
    for _ in range(2):
        cache.put(missing)
    print(json.dumps({"found": len(found), "stats": asdict(cache.stats), "warnings": len(warnings),
                      "correct": all(np.array_equal(found[pair], probabilities_for(i))
                                     for i, pair in enumerate(pairs) if pair in found)}))


def add_batch_and_compute(metric_path, options, process_id, num_process, batch, result_path):
    """One process of evaluate's distributed mode: add its share, compute (process 0 gathers)."""
    import json
    from pathlib import Path

    import evaluate

    metric = evaluate.load(metric_path, num_process=num_process, process_id=process_id,
                           experiment_id="cap-distributed-test", **options)
    metric.add_batch(**batch)
    Path(result_path).write_text(json.dumps(metric.compute()))
