"""Test-split figures of CAP+ and the relation diagnosis (models fitted on validation only).

Prints the tables of docs/plus.md (the functions of ``capqa.doctools.plus_tables``, which
``python -m capqa docs --write`` puts into the doc): the monotonicity guarantees, the ordering of
CAP, the old CAP+ and CAP+ with bootstrap CIs and paired differences, the hard pairs, the class
pairs where CAP+ orders worse than CAP, and the relation diagnosis. Saves the class-pair accuracy
matrices of the three side by side.

    .venv/bin/python benchmarks/eval_plus.py [--plot docs/cap_plus_pairs.png | none]
"""

import argparse
from pathlib import Path

from capqa.doctools import plus_tables as doc_tables
from capqa.monotonicity.plots import class_pair_heatmap

REPO_ROOT = Path(__file__).resolve().parents[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plot", default=str(REPO_ROOT / "docs" / "cap_plus_pairs.png"),
                        help="where to save the class-pair plot; 'none' skips it")
    args = parser.parse_args()
    for function in (doc_tables.guarantees_table, doc_tables.ordering_table, doc_tables.hard_pairs_table,
                     doc_tables.worse_pairs_table, doc_tables.relation_table, doc_tables.recall_lines):
        print(function() + "\n")
    if args.plot.lower() != "none":
        figure = class_pair_heatmap(doc_tables.diagnostic()["class_pairs"], metrics=list(doc_tables.METRICS),
                                    title="Class-pair accuracy on the test split: CAP, old CAP+, CAP+")
        figure.savefig(args.plot, dpi=100)
        print(f"saved {args.plot}")


if __name__ == "__main__":
    main()
