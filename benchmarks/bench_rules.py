"""Benchmark of the rule-based statement converter (``statement_model="rules"``).

Measures, on data/cap_statements_sample.csv (the paper's CAP-Statements sample),
exact match (lower-cased, punctuation stripped) and token F1 against the gold ``statement``,
per ``label_question_type`` and overall, beside the naive baseline (blank filled or answer
appended), and the converter's throughput. Targets: overall exact match >= 0.75,
short_question >= 0.50.

    .venv/bin/python benchmarks/bench_rules.py [--data CSV] [--plot PNG] [--show-misses N]
"""

import argparse
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from capqa.statements.rules import naive_statement, rule_statement  # noqa: E402
from capqa.statements.text_metrics import exact_match, token_f1  # noqa: E402

DEFAULT_DATA = REPO_ROOT / "data" / "cap_statements_sample.csv"
TARGETS = {"overall": 0.75, "short_question": 0.50}
TIMING_REPEATS = 5


def score_rows(frame, converter):
    statements = [converter(question, answer) for question, answer in zip(frame.question, frame.answer)]
    frame = frame.assign(statement_out=statements)
    frame["exact_match"] = [exact_match(p, g) for p, g in zip(frame.statement_out, frame.statement)]
    frame["token_f1"] = [token_f1(p, g) for p, g in zip(frame.statement_out, frame.statement)]
    return frame


def summarise(frame):
    """exact match and token F1 per question type and overall."""
    table = frame.groupby("label_question_type")[["exact_match", "token_f1"]].mean()
    table["rows"] = frame.groupby("label_question_type").size()
    table.loc["overall"] = [frame.exact_match.mean(), frame.token_f1.mean(), len(frame)]
    return table


def throughput(frame):
    """Examples per second of rule_statement, best of TIMING_REPEATS passes (caches warm)."""
    pairs = list(zip(frame.question, frame.answer))
    best = float("inf")
    for _ in range(TIMING_REPEATS):
        start = time.perf_counter()
        for question, answer in pairs:
            rule_statement(question, answer)
        best = min(best, time.perf_counter() - start)
    return len(pairs) / best


def plot(rules_table, naive_table, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = list(rules_table.index)
    positions = range(len(groups))
    figure, axis = plt.subplots(figsize=(7, 3.5))
    axis.bar([p - 0.2 for p in positions], naive_table.loc[groups, "exact_match"], 0.4, label="naive baseline")
    axis.bar([p + 0.2 for p in positions], rules_table.loc[groups, "exact_match"], 0.4, label="rules")
    for name, target in TARGETS.items():
        axis.hlines(target, groups.index(name) - 0.4, groups.index(name) + 0.4, colors="black",
                    linestyles="dashed")
    axis.set_xticks(list(positions), [name.replace("_", "\n", 1) for name in groups])
    axis.set_ylabel("exact match")
    axis.set_ylim(0, 1.2)
    axis.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    axis.set_title("Rule-based statements vs gold (CAP-Statements sample); dashes: targets", fontsize=10)
    axis.legend(loc="upper center", ncol=2, frameon=False)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    print(f"plot written to {path}")


def main(argv=None):
    import pandas as pd

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="CAP-Statements CSV")
    parser.add_argument("--plot", type=Path, default=None, help="write a bar chart here (PNG)")
    parser.add_argument("--show-misses", type=int, default=0, metavar="N", help="print N mismatches")
    args = parser.parse_args(argv)
    if not args.data.exists():
        parser.error(f"--data {args.data} does not exist (the repo carries it in data/)")

    frame = pd.read_csv(args.data, keep_default_na=False)
    rules = score_rows(frame, rule_statement)
    naive = score_rows(frame, naive_statement)
    rules_table, naive_table = summarise(rules), summarise(naive)
    report = pd.DataFrame({
        "rows": rules_table.rows.astype(int),
        "EM rules": rules_table.exact_match, "EM naive": naive_table.exact_match,
        "F1 rules": rules_table.token_f1, "F1 naive": naive_table.token_f1,
    })
    print(f"{args.data.name}: {len(frame)} rows\n")
    print(report.to_string(float_format=lambda value: f"{value:.3f}"))
    speed = throughput(frame)
    print(f"\nthroughput: {speed:,.0f} examples/s ({1e6 / speed:.0f} µs per example, one CPU core)")
    for name, target in TARGETS.items():
        achieved = rules_table.loc[name, "exact_match"]
        verdict = "met" if achieved >= target else "NOT met"
        print(f"target {name} EM >= {target:.2f}: {achieved:.3f} ({verdict}; naive baseline "
              f"{naive_table.loc[name, 'exact_match']:.3f}, +{achieved - naive_table.loc[name, 'exact_match']:.3f})")
    misses = rules[rules.exact_match == 0].head(args.show_misses)
    for row in misses.itertuples():
        print(f"\n[{row.label_question_type}] {row.question} | {row.answer}\n  rules: {row.statement_out}"
              f"\n  gold:  {row.statement}")
    if args.plot:
        plot(rules_table, naive_table, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
