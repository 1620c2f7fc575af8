"""The Benchmark tab: the paper's comparison of CAP with four metrics, from the published
per-row scores (no model needed), plus the paper's COMET row as reported."""

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

import numpy as np
import pandas as pd

from capqa.common.constants import PAPER_COMET_MEAN_VIOLATIONS, PAPER_COMET_PAIRWISE_ACCURACY
from capqa.common.tables import require_columns
from capqa.space.text import user_error

if TYPE_CHECKING:
    from matplotlib.figure import Figure

BENCHMARK_METRICS = {"cap": "CAP", "bleu": "BLEU", "rouge_l": "ROUGE-L", "meteor": "METEOR",
                     "bertscore": "BERTScore"}
BENCHMARK_DATASETS = ("ARC-Easy", "MMLU", "OpenBookQA")
BENCHMARK_SPLITS = ("validation", "test")
ALL = "all"
CLASS_PAIRS = 25
COMET_NAME = "COMET (as reported)"
NOT_AVAILABLE = "n/a"
# The class-pair heatmap has two panels a row, about 13 in wide, which the page shows about
# 1,200 px wide on a 1366 px screen (at most HEATMAP_MAX_PX on wider ones, app.py's CSS): a point
# becomes about 1.3 px, so the 10 pt cell numbers show at about 12 px, the notes at about 10 px.
HEATMAP_COLUMNS = 2
HEATMAP_PAGE_PX = 1200
HEATMAP_MAX_PX = 1300
HEATMAP_CELL_FONT_PT = 10.0
HEATMAP_TICK_FONT_PT = 9.0


@lru_cache(maxsize=4)
def load_benchmark_scores(path: str) -> pd.DataFrame:
    """The published per-row scores (read once per path)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(
            f"The benchmark scores file was not found ({path.name}). Set `CAP_BENCHMARK_SCORES` to the "
            "CSV of the paper's per-row scores (columns split, dataset, label and "
            f"{', '.join(BENCHMARK_METRICS)}).")
    table = pd.read_csv(path)
    require_columns(table, ["split", "dataset", "label", *BENCHMARK_METRICS], f"`{path.name}`")
    return table


def filter_benchmark(table: pd.DataFrame, dataset: str, split: str) -> pd.DataFrame:
    if dataset not in (ALL, *BENCHMARK_DATASETS):
        raise user_error(f"Unknown dataset {dataset!r}; choose one of {', '.join((ALL, *BENCHMARK_DATASETS))}.")
    if split not in (ALL, *BENCHMARK_SPLITS):
        raise user_error(f"Unknown split {split!r}; choose one of {', '.join((ALL, *BENCHMARK_SPLITS))}.")
    keep = np.ones(len(table), dtype=bool)
    if dataset != ALL:
        # The published file spells some names in lower case ("mmlu", "openbookqa").
        keep &= table["dataset"].str.lower().eq(dataset.lower()).to_numpy()
    if split != ALL:
        keep &= table["split"].eq(split).to_numpy()
    return table[keep]


def comet_reported(dataset: str, split: str) -> bool:
    """The paper reports COMET for the whole test split only."""
    return dataset == ALL and split == "test"


def benchmark_tables(rows: pd.DataFrame, with_comet: bool = False) -> tuple:
    """The diagnostic of the five metrics on ``rows``: (summary table, class-pair records)."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.bootstrap import diagnostic_tables

    columns = {name: rows[column].to_numpy() for column, name in BENCHMARK_METRICS.items()}
    tables = diagnostic_tables(columns, rows["label"].to_numpy(), n_resamples=0, progress=False)
    violations = {record["metric"]: record for record in tables["monotonicity"]}
    records = [{
        "metric": record["metric"],
        "pairwise accuracy (%)": f"{100 * record['pairwise_accuracy']:.2f}",
        "mean violations": (f"{violations[record['metric']]['mean_violations']}/"
                            f"{violations[record['metric']]['class_pairs']}"),
        "Spearman": f"{record['spearman']:.3f}",
        "Kendall tau-b": f"{record['kendall']:.3f}",
        "wins": f"{record['pair_wins']:,}", "ties": f"{record['pair_ties']:,}",
        "losses": f"{record['pair_losses']:,}", "comparable pairs": f"{record['comparable_pairs']:,}",
    } for record in tables["correlations"]]
    if with_comet:
        records.append(comet_row(records[0].keys()))
    return pd.DataFrame(records), tables["class_pairs"]


def comet_row(columns: Iterable[str]) -> dict:
    """The paper's COMET figures as reported; what it did not report is "n/a"."""
    row = dict.fromkeys(columns, NOT_AVAILABLE)
    row.update({"metric": COMET_NAME,
                "pairwise accuracy (%)": f"{100 * PAPER_COMET_PAIRWISE_ACCURACY:.2f}",
                "mean violations": f"{PAPER_COMET_MEAN_VIOLATIONS}/{CLASS_PAIRS}"})
    return row


def legible_heatmap(class_pairs: pd.DataFrame) -> "Figure":
    """The class-pair heatmap, lettered for a page about 1,300 px wide (``HEATMAP_*``)."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.plots import class_pair_heatmap

    return class_pair_heatmap(class_pairs, cell_font_pt=HEATMAP_CELL_FONT_PT, tick_font_pt=HEATMAP_TICK_FONT_PT,
                              columns=HEATMAP_COLUMNS)


@lru_cache(maxsize=16)
def benchmark_view(path: str, dataset: str, split: str) -> tuple:
    """(summary markdown, table, per-class distributions, class-pair heatmap) for the filters.

    Cached per (path, dataset, split): the published scores never change while the app runs.
    """
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.plots import class_distributions

    try:
        table = load_benchmark_scores(str(path))
    except (FileNotFoundError, ValueError) as error:
        return f"**Benchmark unavailable.** {error}", None, None, None
    rows = filter_benchmark(table, dataset, split)
    if rows["label"].nunique() < 2:
        return (f"**Nothing to compare.** {len(rows):,} rows match dataset = {dataset}, split = {split}: "
                "too few classes to compare the metrics."), None, None, None
    with_comet = comet_reported(dataset, split)
    summary, class_pairs = benchmark_tables(rows, with_comet)
    counts = ", ".join(f"{label} {n:,}" for label, n in rows["label"].value_counts().items())
    comet = (f" **{COMET_NAME}**: the paper's published figures, shown as reported; no per-row COMET "
             "scores exist, so it has no pair counts, correlations or plots here"
             + (" (reported for the test split of all datasets only)." if with_comet else
                "; the paper reports it for the test split of all datasets only."))
    text = (f"**{len(rows):,} rows** (dataset: {dataset}, split: {split}) from the paper's published "
            f"per-row scores; classes: {counts}. Pairwise accuracy: the share of comparable pairs "
            "(different severity) that a metric orders correctly, ties counting as errors. A mean "
            "violation: a less correct class with a higher mean score than a more correct one." + comet)
    labels = rows["label"].to_numpy()
    scores = {name: rows[column].to_numpy() for column, name in BENCHMARK_METRICS.items()}
    return text, summary, class_distributions(scores, labels), legible_heatmap(class_pairs)
