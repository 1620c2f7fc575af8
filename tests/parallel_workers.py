"""Functions run in child processes by the cache and distributed tests.

They live apart from the test modules so that a spawned child imports only what it needs.
"""


def cache_pairs(n=100):
    return [(f"premise {i}", f"hypothesis {i}") for i in range(n)]


def probabilities_for(index):
    import numpy as np

    raw = np.array([index + 1.0, 7.0, 3.0])
    return raw / raw.sum()


def write_and_read_cache(directory, worker, rounds, ready):
    """One of two processes writing and reading the same cache entries at the same time."""
    import numpy as np

    from capqa.engine.cache import ScoreCache

    cache = ScoreCache(directory, "org/model", "abc123")
    pairs = cache_pairs()
    scored = {pair: probabilities_for(i) for i, pair in enumerate(pairs)}
    ready.wait()
    for round_ in range(rounds):
        # The two processes walk the pairs in opposite orders, so they meet on every entry.
        order = pairs if (worker + round_) % 2 == 0 else pairs[::-1]
        cache.put({pair: scored[pair] for pair in order})
        found = cache.get(pairs)
        assert cache.stats.rejected == 0, "a reader saw a half-written entry"
        assert all(np.array_equal(found[pair], scored[pair]) for pair in found)


def add_batch_and_compute(metric_path, options, process_id, num_process, batch, result_path):
    """One process of evaluate's distributed mode: add its share, compute (process 0 gathers)."""
    import json
    from pathlib import Path

    import evaluate

    metric = evaluate.load(metric_path, num_process=num_process, process_id=process_id,
                           experiment_id="cap-distributed-test", **options)
    metric.add_batch(**batch)
    Path(result_path).write_text(json.dumps(metric.compute()))
