"""The measured figures of the README's paper table and docs/diagnostic.md, as Markdown
(registered in ``capqa.dev.doc_tables``): recomputed from the published per-row scores."""

from functools import lru_cache
from typing import List

import pandas as pd

from capqa.constants import PAPER_COMET_MEAN_VIOLATIONS, PAPER_COMET_PAIRWISE_ACCURACY
from capqa.paths import DATA_DIR

PAPER_METRICS = {"cap": "CAP", "bleu": "BLEU", "rouge_l": "ROUGE-L", "meteor": "METEOR", "bertscore": "BERTScore"}
RESAMPLES, SEED = 10_000, 42


def _table(header: List[str], rows: List[list], align: str = "---") -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join([align] * len(header)) + "|"]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


@lru_cache(maxsize=1)
def _test_rows() -> pd.DataFrame:
    frame = pd.read_csv(DATA_DIR / "paper_scores.csv")
    return frame[frame["split"] == "test"]


def paper_metrics_table() -> str:
    """The README's table: pairwise accuracy and mean violations of the paper's metrics."""
    from capqa.diagnostics.monotonicity import monotonicity_report

    rows = _test_rows()
    found = {name: monotonicity_report(rows[column].to_numpy(), rows["label"].tolist())
             for column, name in PAPER_METRICS.items()}
    entries = [(name, report["pairwise_accuracy"], report["mean_violations"]) for name, report in found.items()]
    entries.append(("COMET (as reported; no per-row scores published)", PAPER_COMET_PAIRWISE_ACCURACY,
                    PAPER_COMET_MEAN_VIOLATIONS))
    entries.sort(key=lambda entry: -entry[1])
    lines = ["| metric | pairwise accuracy | mean violations |", "|---|---:|---:|"]
    return "\n".join(lines + [f"| {name} | {100 * accuracy:.2f} % | {violations}/25 |"
                              for name, accuracy, violations in entries])


@lru_cache(maxsize=1)
def _diagnostic() -> dict:
    from capqa.diagnostics.bootstrap import diagnostic_tables

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
    from capqa.diagnostics.monotonicity import monotonicity_report

    rows = _test_rows()
    cap = monotonicity_report(rows["cap"].to_numpy(), rows["label"].tolist())
    return (f"CAP on the {len(rows):,} test rows: {cap['comparable_pairs']:,} comparable pairs, {cap['wins']:,} wins, "
            f"{cap['ties']:,} ties, {cap['losses']:,} losses.")
