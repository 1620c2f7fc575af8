"""The measured figures of the README's paper table and docs/diagnostic.md, as Markdown
(registered in ``capqa.doctools.registry``): recomputed from the published per-row scores, beside
the paper's printed figures (``data/paper_printed.json``)."""

import json
import textwrap
from functools import lru_cache
from typing import List

import pandas as pd

from capqa.common.constants import PAPER_COMET_MEAN_VIOLATIONS
from capqa.common.paths import DATA_DIR

PAPER_METRICS = {"cap": "CAP", "bleu": "BLEU", "rouge_l": "ROUGE-L", "meteor": "METEOR", "bertscore": "BERTScore"}
RESAMPLES, SEED = 10_000, 42
# The paper's figures on its human labels, as printed.
PAPER_MANUAL_LABELS, PAPER_HUMAN_LLM_KAPPA = 1638, ".779"


def _table(header: List[str], rows: List[list], align: str = "---") -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join([align] * len(header)) + "|"]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


@lru_cache(maxsize=1)
def _test_rows() -> pd.DataFrame:
    frame = pd.read_csv(DATA_DIR / "paper_scores.csv")
    return frame[frame["split"] == "test"]


@lru_cache(maxsize=1)
def paper_printed() -> dict:
    """The paper's table as printed (``data/paper_printed.json``)."""
    return json.loads((DATA_DIR / "paper_printed.json").read_text())


def _recomputed(rows: pd.DataFrame) -> dict:
    """{metric column: monotonicity report} of the paper's metrics on ``rows``."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.measures import monotonicity_report

    return {column: monotonicity_report(rows[column].to_numpy(), rows["label"].tolist()) for column in PAPER_METRICS}


def paper_metrics_table() -> str:
    """The README's table: the paper's printed pairwise accuracy beside the recomputation from the
    published per-row scores, the mean violations, and why the two columns differ."""
    printed = paper_printed()["pairwise_accuracy_percent"]
    found = _recomputed(_test_rows())
    rows = [(PAPER_METRICS[column], printed[column], f"{100 * report['pairwise_accuracy']:.2f} %",
             f"{report['mean_violations']}/25") for column, report in found.items()]
    rows.append(("COMET", printed["comet"], "– (no per-row scores published)",
                 f"{PAPER_COMET_MEAN_VIOLATIONS}/25 (as printed)"))
    rows.sort(key=lambda row: -row[1])
    differ = [name for name, value, recomputed, _ in rows if not recomputed.startswith(f"{value:.2f} ")
              and not recomputed.startswith("–")]
    lines = ["| metric | pairwise accuracy, as printed in the paper | recomputed from the published per-row "
             "scores | mean violations (recomputed) |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {value:.2f} % | {recomputed} | {violations} |" for name, value, recomputed, violations in rows]
    return "\n".join(lines) + "\n\n" + _why_they_differ(differ)


def _why_they_differ(differ: List[str]) -> str:
    """One sentence: the recomputation is the published scores' own figure, and the variants that
    do not give the printed one."""
    column_of = {name: column for column, name in PAPER_METRICS.items()}
    columns = [column_of[name] for name in differ]
    test, every = _test_rows(), pd.read_csv(DATA_DIR / "paper_scores.csv")
    found = _recomputed(test)
    results = {r["metric"]: r["pairwise_accuracy"] for r in
               json.loads((DATA_DIR / "paper_results.json").read_text())["correlations"]}
    same = all(abs(results[column] - report["pairwise_accuracy"]) < 1e-12 for column, report in found.items())
    ties = {column: _tie_half(report) for column, report in found.items()}
    everything = {column: report["pairwise_accuracy"] for column, report in _recomputed(every).items()}
    listed = lambda values: " / ".join(f"{100 * values[column]:.2f}" for column in columns)  # noqa: E731
    results_note = ("`data/paper_results.json`, from the paper's repository, holds the same figures" if same
                    else "`data/paper_results.json`, from the paper's repository, holds other figures")
    return (f"The recomputed column is what the paper's published per-row scores give ({results_note}); "
            f"for {', '.join(differ)} the printed figures differ, and neither counting ties as half "
            f"({listed(ties)} %) nor using all {len(every):,} rows instead of the test split ({listed(everything)} %) "
            "gives them, so the printed table presumably comes from another run than the published scores.")


def _tie_half(report: dict) -> float:
    return (report["wins"] + report["ties"] / 2) / report["comparable_pairs"]


@lru_cache(maxsize=1)
def _diagnostic() -> dict:
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.bootstrap import diagnostic_tables

    rows = _test_rows()
    return diagnostic_tables({column: rows[column].to_numpy() for column in PAPER_METRICS}, rows["label"].tolist(),
                             n_resamples=RESAMPLES, seed=SEED, reference="cap", progress=False)


def paper_diagnostic_table() -> str:
    """docs/diagnostic.md: the paper's table with 10,000 bootstrap resamples."""
    tables = _diagnostic()
    violations = {r["metric"]: r["mean_violations"] for r in tables["monotonicity"]}

    def cell(record, statistic):
        return (f"{record[statistic]:.3f} [{record[f'{statistic}_ci_low']:.3f}, "
                f"{record[f'{statistic}_ci_high']:.3f}]")

    rows = [[PAPER_METRICS[r["metric"]], cell(r, "spearman"), cell(r, "kendall"), cell(r, "pairwise_accuracy"),
             f"{violations[r['metric']]}/25"] for r in tables["correlations"]]
    return _table(["metric", "Spearman", "Kendall τ-b", "pairwise accuracy", "mean violations"], rows)


def paper_pair_counts() -> str:
    """docs/diagnostic.md: CAP's exact pair counts."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.measures import monotonicity_report

    rows = _test_rows()
    cap = monotonicity_report(rows["cap"].to_numpy(), rows["label"].tolist())
    return (f"CAP on the {len(rows):,} test rows: {cap['comparable_pairs']:,} comparable pairs, {cap['wins']:,} wins, "
            f"{cap['ties']:,} ties, {cap['losses']:,} losses.")


def manual_label_agreement() -> str:
    """The CAP-Correctness card's human-label bullet: the paper's human–LLM agreement, and how often
    ``label_semantic`` equals the manual label in the public sample, with Cohen's kappa over the
    eight classes."""
    sample = pd.read_csv(DATA_DIR / "cap_correctness_sample.csv", keep_default_na=False, dtype=str)
    both = sample[sample["label_semantic_manual"].str.strip() != ""]
    first, second = both["label_semantic"].to_numpy(), both["label_semantic_manual"].to_numpy()
    observed = float((first == second).mean())
    classes = sorted(set(first) | set(second))
    chance = sum(float((first == c).mean()) * float((second == c).mean()) for c in classes)
    kappa = (observed - chance) / (1.0 - chance)
    text = (f"- **Human labels.** {PAPER_MANUAL_LABELS:,} rows were labelled by hand (`label_semantic_manual`); the "
            f"paper reports a human–LLM agreement of κ = {PAPER_HUMAN_LLM_KAPPA}. Where both labels exist they "
            f"mostly agree: in the public {len(sample):,}-row sample of this corpus, `label_semantic` equals "
            f"`label_semantic_manual` on {100 * observed:.1f}% of the {len(both):,} rows that have both (Cohen's κ "
            f"{kappa:.2f}).")
    return textwrap.fill(text, width=100, subsequent_indent="  ", break_on_hyphens=False)
