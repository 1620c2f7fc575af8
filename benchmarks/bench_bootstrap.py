"""Speed of the monotonicity diagnostic's bootstrap on the paper's test split.

Times the vectorised paired bootstrap (all metrics on shared resamples, blocks of resamples at
once) against a straightforward loop that rebuilds each resampled data set and diagnoses it
(``monotonicity_report`` per metric per resample), checks that both give the same statistics on
the same resamples, and times the exact pair counting against an O(n^2) comparison.

    .venv/bin/python benchmarks/bench_bootstrap.py [--resamples 10000] [--loop-resamples 20]
"""

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from capqa.monotonicity import bootstrap as boot, measures as mono

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
METRICS = "cap,bleu,rouge_l,meteor,bertscore"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scores", type=Path, default=DATA_DIR / "paper_scores.csv")
    parser.add_argument("--split", default="test")
    parser.add_argument("--metrics", default=METRICS)
    parser.add_argument("--resamples", type=int, default=10_000, help="for the vectorised bootstrap")
    parser.add_argument("--loop-resamples", type=int, default=20,
                        help="for the per-resample loop (extrapolated to --resamples)")
    parser.add_argument("--seed", type=int, default=42)
    return parser.parse_args()


def timed(function, *args, **kwargs):
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start_wall, time.process_time() - start_cpu


def vectorised(orders, n_resamples, seed):
    return boot.bootstrap(orders, n_resamples, seed, progress=True)


def per_resample_loop(columns, labels, n_resamples, seed):
    """What one would write first: materialise each resample, diagnose each metric on it."""
    results = {name: [] for name in columns}
    for weights in boot.resample_weights(len(labels), n_resamples, seed):
        for counts in weights:
            rows = np.repeat(np.arange(len(labels)), counts)
            for name, scores in columns.items():
                results[name].append(mono.monotonicity_report(scores[rows], labels[rows]))
    return results


def check_agreement(distributions, loop_results):
    """Largest difference between the two ways, over the resamples both ran."""
    worst = 0.0
    for name, reports in loop_results.items():
        for statistic in mono.CORRELATION_STATISTICS:
            expected = np.array([report[statistic] for report in reports])
            got = getattr(distributions[name], statistic)[:len(reports)]
            worst = max(worst, float(np.max(np.abs(got - expected))))
    return worst


def quadratic_pair_counts(scores, severity, block=500):
    """Wins and ties by comparing every pair (numpy, in blocks of rows)."""
    wins = ties = 0
    for start in range(0, scores.size, block):
        more_correct = severity[start:start + block, None] > severity[None, :]
        higher = scores[start:start + block, None] - scores[None, :]
        wins += int(np.sum(more_correct & (higher > 0)))
        ties += int(np.sum(more_correct & (higher == 0)))
    return wins, ties


def main():
    args = parse_args()
    frame = pd.read_csv(args.scores)
    frame = frame[frame["split"] == args.split].reset_index(drop=True)
    metrics = args.metrics.split(",")
    labels = frame["label"].to_numpy(dtype=object)
    rows = mono.prepare_labels(labels)
    columns = {m: mono.prepare_scores(frame[m].to_numpy(), rows.n_rows) for m in metrics}
    orders = {m: mono.ScoreOrder(scores, rows) for m, scores in columns.items()}
    print(f"{len(frame):,} rows ({args.split}), {len(metrics)} metrics, seed {args.seed}")

    distributions, wall, cpu = timed(vectorised, orders, args.resamples, args.seed)
    print(f"vectorised bootstrap, {args.resamples:,} resamples: {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({1000 * wall / args.resamples:.2f} ms per resample, all metrics)")

    loop_results, loop_wall, loop_cpu = timed(per_resample_loop, columns, labels, args.loop_resamples, args.seed)
    per_resample = loop_wall / args.loop_resamples
    print(f"per-resample loop, {args.loop_resamples} resamples: {loop_wall:.1f} s wall, {loop_cpu:.1f} s CPU "
          f"({1000 * per_resample:.1f} ms per resample) -> {per_resample * args.resamples / 60:.1f} min "
          f"for {args.resamples:,}")
    cpu_ratio = loop_cpu / args.loop_resamples * args.resamples / cpu
    print(f"speed-up: {per_resample * args.resamples / wall:.0f}x wall, {cpu_ratio:.0f}x CPU (CPU is the "
          f"fairer figure on a shared machine); largest difference between the two "
          f"on the shared resamples: {check_agreement(distributions, loop_results):.1e}")

    scores = columns[metrics[0]]
    severity = rows.class_severity[rows.class_index]
    report, fast_wall, _ = timed(mono.monotonicity_report, scores, labels)
    (wins, ties), slow_wall, _ = timed(quadratic_pair_counts, scores, severity)
    assert (wins, ties) == (report["wins"], report["ties"]), "pair counts disagree"
    print(f"exact pair counts of {metrics[0]} ({report['comparable_pairs']:,} pairs): "
          f"O(n log n) {1000 * fast_wall:.0f} ms (whole report), O(n^2) {1000 * slow_wall:.0f} ms, "
          f"{slow_wall / fast_wall:.0f}x")


if __name__ == "__main__":
    main()
