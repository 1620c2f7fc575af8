"""Quality and speed of the rule-based statement converter (``statement_model="rules"``).

Prints, for the open-domain probe set (tests/data/open_domain_probes.csv, per category) and the
CAP-Statements sample (data/cap_statements_sample.csv, per question type), exact match (EM,
lower-cased, punctuation stripped), token F1 and "one sentence that contains the answer"
(1-sent) of the rules beside the naive baseline (blank filled or answer appended), how often the
fallback form ``The answer to "..." is X.`` was used, the converter's throughput, and the targets
of docs/rules.md with a verdict each.

    .venv/bin/python benchmarks/bench_rules.py [--show-misses N] [--only probes|sample]
"""

import argparse
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from capqa.statements.rules import naive_statement, rule_statement  # noqa: E402
from capqa.statements.rules.quality import quality_table, score_converter  # noqa: E402

PROBES = REPO_ROOT / "tests" / "data" / "open_domain_probes.csv"
SAMPLE = REPO_ROOT / "data" / "cap_statements_sample.csv"
# (data set, group, measure) -> the least acceptable value.
TARGETS = {
    ("probes", "overall", "EM rules"): 0.85,
    ("probes", "overall", "1-sent rules"): 1.0,
    ("sample", "overall", "EM rules"): 0.86,
    ("sample", "short_question", "EM rules"): 0.75,
    ("sample", "overall", "1-sent rules"): 1.0,
}
MIN_EXAMPLES_PER_SECOND = 10_000
TIMING_REPEATS = 5


def load(name):
    import pandas as pd

    path, group = (PROBES, "category") if name == "probes" else (SAMPLE, "label_question_type")
    return pd.read_csv(path, keep_default_na=False), group


def evaluate(name):
    """The scored rows of the rules and the quality table of data set ``name``."""
    frame, group = load(name)
    rules = score_converter(frame, rule_statement)
    return rules, quality_table(rules, score_converter(frame, naive_statement), group)


def throughput(frame):
    """Examples per second of rule_statement, best of TIMING_REPEATS passes (caches warm), in CPU
    time: on a shared machine wall time measures the neighbours too."""
    pairs = list(zip(frame.question, frame.answer))
    best = float("inf")
    for _ in range(TIMING_REPEATS):
        start = time.process_time()
        for question, answer in pairs:
            rule_statement(question, answer)
        best = min(best, time.process_time() - start)
    return len(pairs) / best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", type=int, default=0, metavar="N", help="print N mismatches per data set")
    parser.add_argument("--only", choices=("probes", "sample"), help="one data set only")
    args = parser.parse_args(argv)
    tables, met = {}, True
    for name in [args.only] if args.only else ["probes", "sample"]:
        rules, tables[name] = evaluate(name)
        print(f"\n## {name}: {len(rules)} rows\n")
        print(tables[name].to_markdown(floatfmt=("", ".0f") + (".3f",) * 6 + (".0f",)))
        print(f"\nthroughput: {throughput(rules):,.0f} examples/s (one CPU core)")
        misses = rules[rules.exact_match == 0].head(args.show_misses)
        for row in misses.itertuples():
            print(f"\n[{row[2]}] {row.question} | {row.answer}\n  rules: {row.output}\n  gold:  {row.statement}")
    print()
    for (name, group, measure), target in TARGETS.items():
        if name in tables:
            achieved = tables[name].loc[group, measure]
            met &= achieved >= target
            print(f"target {name} {group} {measure} >= {target:.2f}: {achieved:.3f} "
                  f"({'met' if achieved >= target else 'NOT met'})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
