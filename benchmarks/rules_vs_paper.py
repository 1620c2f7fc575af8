"""How often the rule-based statements match the paper's model's statements, on the 1,375 rows of
data/cap_correctness_sample.csv, per correctness class (``capqa.doctools.paper_agreement``).

Prints the docs/scale.md table (generated name ``rules-vs-paper``), the README's sentences
(``rules-vs-paper-line``, ``calibration-statements-line``) and docs/plus.md's table
(``calibration-statements``): the figures change with the converter; ``python -m capqa docs
--write`` regenerates them in the docs.

    .venv/bin/python benchmarks/rules_vs_paper.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from capqa.doctools.paper_agreement import rules_vs_paper  # noqa: E402
from capqa.doctools.paper_agreement import (calibration_statements_line, calibration_statements_markdown,
                                            rules_vs_paper_line, rules_vs_paper_markdown)

if __name__ == "__main__":
    scores = rules_vs_paper()
    print(rules_vs_paper_markdown(scores=scores))
    print(rules_vs_paper_line(scores=scores))
    print(calibration_statements_markdown(scores=scores))
    print(calibration_statements_line(scores=scores))
