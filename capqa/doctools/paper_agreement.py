"""How the rule-based statements relate to the paper's: on the 1,375 CAP-Correctness sample rows,
how often the rules write the statement the paper's statement model wrote.

The sample's ``premise`` (question + gold answer) and ``hypothesis`` (question + predicted answer)
columns hold the statements of the paper's (unpublished) statement model, which produced its
77.70 %. ``rules_vs_paper`` writes the rule-based converter's statements for the same pairs and
scores them against the paper's with exact match and token F1 (``capqa.statements.text_metrics``),
for gold and for predicted answers, per correctness class. Agreement, not correctness: where the
paper's model wrote a broken statement (it did, on some long questions), a good rule statement
disagrees with it.

``rules_vs_paper_markdown`` (the table in docs/scale.md), ``rules_vs_paper_line`` (docs/statements.md's
limitations), ``calibration_statements_markdown`` (docs/plus.md: per class, how often *both*
statements of a row are the paper's, the statements CAP+ and the verdict thresholds were fitted
on) and ``calibration_statements_line`` (the README's metric description) are the generated-docs
functions; ``python benchmarks/rules_vs_paper.py`` prints them. They measure what the rule
converter writes now, so they move with it: ``python -m capqa docs --write`` regenerates them.
"""

import os
import textwrap
from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional, Union

import pandas as pd

from capqa.common.constants import LABELS
from capqa.common.paths import DATA_DIR
from capqa.statements.generator import StatementGenerator
from capqa.statements.text_metrics import exact_match, token_f1

SAMPLE_CSV = DATA_DIR / "cap_correctness_sample.csv"
# answer side -> (the sample's column of the paper's statements, the answer column)
SIDES = {"gold": ("premise", "gold_answer"), "predicted": ("hypothesis", "answer")}


def rules_vs_paper(path: Union[str, os.PathLike] = SAMPLE_CSV) -> pd.DataFrame:
    """One row per sample row and answer side: the sample row, class, side, exact match and token
    F1 of the rule statement against the paper's, and whether it is identical character for character."""
    sample = pd.read_csv(path, keep_default_na=False, dtype=str)
    generator = StatementGenerator("rules", show_progress=False)
    frames = []
    for side, (paper_column, answer_column) in SIDES.items():
        made = generator.generate(list(sample["question"]), list(sample[answer_column]))
        frames.append(pd.DataFrame({
            "row": range(len(sample)), "label": sample["label_semantic"], "side": side,
            "exact_match": list(map(exact_match, made, sample[paper_column])),
            "identical": [float(mine == theirs) for mine, theirs in zip(made, sample[paper_column])],
            "token_f1": list(map(token_f1, made, sample[paper_column]))}))
    return pd.concat(frames, ignore_index=True)


@lru_cache(maxsize=1)
def sample_scores() -> pd.DataFrame:
    """``rules_vs_paper`` of the shipped sample, computed once per process for the doc tables."""
    return rules_vs_paper()


def _both(group: pd.DataFrame, measure: str = "exact_match") -> float:
    """The share of sample rows whose gold and predicted rule statements both match the paper's
    (``measure``: "exact_match", case and punctuation aside, or "identical")."""
    return float(group.groupby("row")[measure].min().mean())


def _figures(scores: pd.DataFrame) -> Dict[str, Dict[str, float]]:
    """{group: {side_metric: mean, "both_exact_match": share, "rows": n}} for every class and "all"."""
    groups = {"all": scores}
    groups.update({label: scores[scores["label"] == label] for label in LABELS if (scores["label"] == label).any()})
    figures = {}
    for name, group in groups.items():
        row = {"rows": int((group["side"] == "gold").sum())}
        for side in SIDES:
            part = group[group["side"] == side]
            row[f"{side}_exact_match"] = float(part["exact_match"].mean())
            row[f"{side}_token_f1"] = float(part["token_f1"].mean())
        row["both_exact_match"] = _both(group)
        row["both_identical"] = _both(group, "identical")
        figures[name] = row
    return figures


def rules_vs_paper_markdown(path: Union[str, os.PathLike] = SAMPLE_CSV,
                            scores: Optional[pd.DataFrame] = None) -> str:
    """The per-class table (Markdown): exact match (%) and token F1 of the rules' statements
    against the paper's model's, for gold and for predicted answers."""
    figures = _figures(_scores(path, scores))
    lines = ["| class | rows | gold: exact match | gold: token F1 | predicted: exact match | predicted: token F1 |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, row in figures.items():
        label = "**all**" if name == "all" else name
        lines.append(f"| {label} | {row['rows']:,} | {100 * row['gold_exact_match']:.1f} % | "
                     f"{row['gold_token_f1']:.3f} | {100 * row['predicted_exact_match']:.1f} % | "
                     f"{row['predicted_token_f1']:.3f} |")
    return "\n".join(lines) + "\n"


def rules_vs_paper_line(path: Union[str, os.PathLike] = SAMPLE_CSV, scores: Optional[pd.DataFrame] = None) -> str:
    """docs/statements.md's bullet with the overall figures (it was the README's limitation)."""
    row = _figures(_scores(path, scores))["all"]
    text = (f"- **Rule statements, not the paper's model's** (which gave the 77.70 % and is not published): on "
            f"the {row['rows']:,} CAP-Correctness sample rows the rules write that model's statement (case and "
            f"punctuation aside) for {100 * row['gold_exact_match']:.1f} % of gold and {100 * row['predicted_exact_match']:.1f} % of "
            f"predicted answers (token F1 {row['gold_token_f1']:.3f}, {row['predicted_token_f1']:.3f}; per class in "
            "[scale.md](scale.md)); CAP's pairwise accuracy with them needs the real NLI model.")
    return textwrap.fill(text, width=100, subsequent_indent="  ", break_on_hyphens=False) + "\n"


def _scores(path: Union[str, os.PathLike], scores: Optional[pd.DataFrame]) -> pd.DataFrame:
    if scores is not None:
        return scores
    return sample_scores() if Path(path) == SAMPLE_CSV else rules_vs_paper(path)


def calibration_statements_markdown(path: Union[str, os.PathLike] = SAMPLE_CSV,
                                    scores: Optional[pd.DataFrame] = None) -> str:
    """docs/plus.md's table: per class, the share of sample rows on which the rules write both
    statements exactly as the paper's model did (the inputs CAP+ and the thresholds were fitted
    on), and each side's share."""
    figures = _figures(_scores(path, scores))
    lines = ["| class | rows | both statements the paper's (case, punctuation aside) | both identical, character "
             "for character | gold statement the paper's | predicted statement the paper's |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, row in figures.items():
        label = "**all**" if name == "all" else name
        lines.append(f"| {label} | {row['rows']:,} | {100 * row['both_exact_match']:.1f} % | "
                     f"{100 * row['both_identical']:.1f} % | {100 * row['gold_exact_match']:.1f} % | "
                     f"{100 * row['predicted_exact_match']:.1f} % |")
    return "\n".join(lines) + "\n"


def calibration_statements_line(path: Union[str, os.PathLike] = SAMPLE_CSV,
                                scores: Optional[pd.DataFrame] = None) -> str:
    """The README's metric description: which statements the paper's figures, CAP+ and the
    thresholds rest on, and how far a run with the rules is from them."""
    figures = _figures(_scores(path, scores))
    overall = figures["all"]
    weakest = sorted((name for name in figures if name != "all"), key=lambda name: figures[name]["both_exact_match"])[:2]
    classes = " and ".join(f"{100 * figures[name]['both_exact_match']:.1f} % of {name}" for name in weakest)
    text = (f"**Which statements the figures assume.** The paper's 77.70 %, CAP+ and the verdict thresholds were "
            "measured and fitted on the NLI probabilities of the paper's statement model's statements "
            "(`data/paper_scores.csv`), not on the statements your run makes. With the rule-based converter, "
            f"both statements of a row are that model's on {100 * overall['both_exact_match']:.1f} % of the "
            f"{overall['rows']:,} CAP-Correctness sample rows, case and punctuation aside "
            f"({100 * overall['both_identical']:.1f} % character for character; {classes} rows; per class in "
            "[docs/plus.md](docs/plus.md)), so a run with the rules is "
            "not scored on the inputs those figures were measured on; `OUT.summary.json` records the "
            "assumption (`calibration_statements`).")
    return textwrap.fill(text, width=100, break_on_hyphens=False) + "\n"
