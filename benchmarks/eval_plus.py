"""Test-split figures of the relation diagnosis and CAP+ (parameters fitted on validation only).

Prints: relation accuracy and per-class recall beside the majority-class baseline, for the 8
classes and the 5 groups; CAP+ against CAP with the monotonicity diagnostic (pairwise accuracy
with bootstrap CIs, mean violations x/25, every hard pair, the paired difference), and the class
pairs where CAP+ orders worse than CAP. Saves the class-pair accuracy matrices side by side.

    .venv/bin/python benchmarks/eval_plus.py [--resamples 10000] [--plot docs/cap_plus_pairs.png | none]
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from capqa.plus import calibration
from capqa.constants import LABELS
from capqa.diagnostics.bootstrap import diagnostic_tables
from capqa.diagnostics.plots import class_pair_heatmap

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = REPO_ROOT / "data"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scores", type=Path, default=DATA_DIR / "paper_scores.csv")
    parser.add_argument("--split", default="test")
    parser.add_argument("--params", type=Path, default=None, help="parameter folder (default: shipped)")
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--plot", default=str(REPO_ROOT / "docs" / "cap_plus_pairs.png"),
                        help="where to save the class-pair plot; 'none' skips it")
    return parser.parse_args()


def group_of(labels):
    lookup = {label: group for group, members in calibration.RELATION_GROUPS.items() for label in members}
    return np.array([lookup[label] for label in labels])


def classification_report(title, truth, predicted, classes):
    """Accuracy and per-class recall, beside always predicting the most frequent true class."""
    counts = pd.Series(truth).value_counts()
    print(f"\n{title}: accuracy {np.mean(truth == predicted):.4f}  "
          f"(majority baseline, always {counts.index[0]!r}: {counts.iloc[0] / len(truth):.4f})")
    for name in classes:
        members = truth == name
        print(f"  recall {name:<22} {np.mean(predicted[members] == name):.4f}  (n = {members.sum()})")


def relation_figures(rows, params):
    probabilities = calibration.relation_probabilities(*calibration.frame_inputs(rows), params)
    truth = rows["label"].to_numpy()
    classification_report("8 classes", truth, np.array(LABELS)[probabilities.argmax(axis=1)], LABELS)
    groups = list(calibration.RELATION_GROUPS)
    predicted_group = np.array(groups)[calibration.group_probabilities(probabilities).argmax(axis=1)]
    classification_report("5 groups", group_of(truth), predicted_group, groups)


def ranking_figures(rows, params, resamples, seed):
    scores = {"cap": rows["cap"].to_numpy(),
              "cap_plus": calibration.cap_plus(*calibration.frame_inputs(rows), params)}
    tables = diagnostic_tables(scores, rows["label"].to_numpy(), n_resamples=resamples, seed=seed,
                               reference="cap_plus")
    print(f"\npairwise accuracy ({len(rows)} rows, {resamples} bootstrap resamples, 95% CI)")
    for record in tables["correlations"]:
        interval = (f"[{record['pairwise_accuracy_ci_low']:.4f}, {record['pairwise_accuracy_ci_high']:.4f}]"
                    if resamples else "")
        print(f"  {record['metric']:<9} {record['pairwise_accuracy']:.4f} {interval}  "
              f"spearman {record['spearman']:.4f}  kendall {record['kendall']:.4f}")
    for record in tables["paired_differences"]:
        if record["statistic"] == "pairwise_accuracy":
            print(f"  CAP+ - CAP: {record['mean_difference']:+.4f} [{record['ci_low']:+.4f}, "
                  f"{record['ci_high']:+.4f}], P(CAP+ not better) = {record['p_reference_not_better']:.4f}")
    for record in tables["monotonicity"]:
        print(f"  {record['metric']:<9} mean violations {record['mean_violations']}/{record['class_pairs']}")
    pairs = pd.DataFrame(tables["class_pairs"])
    wide = pairs.pivot_table(index=["better", "worse"], columns="metric", values="accuracy", sort=False)
    for metric in ("cap", "cap_plus"):
        violated = pairs[(pairs["metric"] == metric) & pairs["mean_violation"]]
        print(f"  {metric} mean violations: "
              + "; ".join(f"{r.better} < {r.worse}" for r in violated.itertuples()))
    accuracy_columns = [c for c in ("accuracy", "accuracy_ci_low", "accuracy_ci_high") if c in pairs]
    hard = pairs[pairs["hard_pair"]].pivot_table(index=["better", "worse"], columns="metric",
                                                 values=accuracy_columns, sort=False)
    print("\nhard pairs (accuracy, 95% CI):\n" + hard.round(4).to_string())
    worse = wide[wide["cap_plus"] < wide["cap"]]
    print(f"\nclass pairs where CAP+ is worse than CAP ({len(worse)}/{len(wide)}):\n"
          + (worse[["cap", "cap_plus"]].round(4).to_string() if len(worse) else "  none"))
    return tables


def main():
    args = parse_args()
    frame = pd.read_csv(args.scores)
    rows = frame[frame["split"] == args.split]
    relation_figures(rows, args.params)
    tables = ranking_figures(rows, args.params, args.resamples, args.seed)
    if args.plot.lower() != "none":
        figure = class_pair_heatmap(tables["class_pairs"], metrics=["cap", "cap_plus"],
                                    title=f"Class-pair accuracy on the {args.split} split: CAP vs CAP+")
        figure.savefig(args.plot, dpi=110)
        print(f"\nsaved {args.plot}")


if __name__ == "__main__":
    main()
