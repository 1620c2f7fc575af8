"""How often the rule-based statements match the paper's model's statements, on the 1,375 rows of
data/cap_correctness_sample.csv, per correctness class (``capqa.statements.paper_agreement``).

Prints the docs/scale.md table (generated name ``rules-vs-paper``) and the README's sentence
(``rules-vs-paper-line``): the figures change with the converter, so regenerate them with this
command (or ``python -m capqa docs --write`` once those names are registered).

    .venv/bin/python benchmarks/rules_vs_paper.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from capqa.statements.paper_agreement import rules_vs_paper, rules_vs_paper_line, rules_vs_paper_markdown  # noqa: E402

if __name__ == "__main__":
    scores = rules_vs_paper()
    print(rules_vs_paper_markdown(scores=scores))
    print(rules_vs_paper_line(scores=scores))
