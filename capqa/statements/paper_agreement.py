"""How the rule-based statements relate to the paper's: on the 1,375 CAP-Correctness sample rows,
how often the rules write the statement the paper's statement model wrote.

The sample's ``premise`` (question + gold answer) and ``hypothesis`` (question + predicted answer)
columns hold the statements of the paper's (unpublished) statement model, which produced its
77.70 %. ``rules_vs_paper`` writes the rule-based converter's statements for the same pairs and
scores them against the paper's with exact match and token F1 (``capqa.statements.text_metrics``),
for gold and for predicted answers, per correctness class. Agreement, not correctness: where the
paper's model wrote a broken statement (it did, on some long questions), a good rule statement
disagrees with it.

``rules_vs_paper_markdown`` (the table in docs/scale.md) and ``rules_vs_paper_line`` (the
README's limitations) are the generated-docs functions; ``python benchmarks/rules_vs_paper.py``
prints both.
"""

import os
import textwrap
from typing import Dict, Optional, Union

import pandas as pd

from capqa.constants import LABELS
from capqa.paths import DATA_DIR
from capqa.statements.text_metrics import exact_match, token_f1

SAMPLE_CSV = DATA_DIR / "cap_correctness_sample.csv"
# answer side -> (the sample's column of the paper's statements, the answer column)
SIDES = {"gold": ("premise", "gold_answer"), "predicted": ("hypothesis", "answer")}


def rules_vs_paper(path: Union[str, os.PathLike] = SAMPLE_CSV) -> pd.DataFrame:
    """One row per sample row and answer side: class, side, exact match and token F1 of the rule
    statement against the paper's."""
    from capqa.statements.generator import StatementGenerator

    sample = pd.read_csv(path, keep_default_na=False, dtype=str)
    generator = StatementGenerator("rules", show_progress=False)
    frames = []
    for side, (paper_column, answer_column) in SIDES.items():
        made = generator.generate(list(sample["question"]), list(sample[answer_column]))
        frames.append(pd.DataFrame({
            "label": sample["label_semantic"], "side": side,
            "exact_match": list(map(exact_match, made, sample[paper_column])),
            "token_f1": list(map(token_f1, made, sample[paper_column]))}))
    return pd.concat(frames, ignore_index=True)


def _figures(scores: pd.DataFrame) -> Dict[str, Dict[str, float]]:
    """{group: {side_metric: mean, "rows": n}} for every class and "all"."""
    groups = {"all": scores}
    groups.update({label: scores[scores["label"] == label] for label in LABELS if (scores["label"] == label).any()})
    figures = {}
    for name, group in groups.items():
        row = {"rows": int((group["side"] == "gold").sum())}
        for side in SIDES:
            part = group[group["side"] == side]
            row[f"{side}_exact_match"] = float(part["exact_match"].mean())
            row[f"{side}_token_f1"] = float(part["token_f1"].mean())
        figures[name] = row
    return figures


def rules_vs_paper_markdown(path: Union[str, os.PathLike] = SAMPLE_CSV,
                            scores: Optional[pd.DataFrame] = None) -> str:
    """The per-class table (Markdown): exact match (%) and token F1 of the rules' statements
    against the paper's model's, for gold and for predicted answers."""
    figures = _figures(rules_vs_paper(path) if scores is None else scores)
    lines = ["| class | rows | gold: exact match | gold: token F1 | predicted: exact match | predicted: token F1 |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, row in figures.items():
        label = "**all**" if name == "all" else name
        lines.append(f"| {label} | {row['rows']:,} | {100 * row['gold_exact_match']:.1f} % | "
                     f"{row['gold_token_f1']:.3f} | {100 * row['predicted_exact_match']:.1f} % | "
                     f"{row['predicted_token_f1']:.3f} |")
    return "\n".join(lines) + "\n"


def rules_vs_paper_line(path: Union[str, os.PathLike] = SAMPLE_CSV, scores: Optional[pd.DataFrame] = None) -> str:
    """The README's limitation (one Markdown bullet) with the overall figures."""
    row = _figures(rules_vs_paper(path) if scores is None else scores)["all"]
    text = (f"- **Rule statements, not the paper's model's** (which gave the 77.70 % and is not published): on "
            f"the {row['rows']:,} CAP-Correctness sample rows the rules write that model's statement (case and "
            f"punctuation aside) for {100 * row['gold_exact_match']:.1f} % of gold and {100 * row['predicted_exact_match']:.1f} % of "
            f"predicted answers (token F1 {row['gold_token_f1']:.3f}, {row['predicted_token_f1']:.3f}; per class in "
            "[docs/scale.md](docs/scale.md)); CAP's pairwise accuracy with them needs the real NLI model.")
    return textwrap.fill(text, width=100, subsequent_indent="  ", break_on_hyphens=False) + "\n"
