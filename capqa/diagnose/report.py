"""The paper's monotonicity diagnostic of metric scores in a file (``python -m capqa diagnose``,
whose command line is ``capqa.cli.diagnose``).

Writes every table as CSV (and all of them in ``results.json``, laid out like the paper's results
file), a ``summary.md`` in the paper's layout, and the plots of ``capqa.monotonicity.plots``.
"""

import argparse
import json
from pathlib import Path
from typing import Any, Callable, List, Mapping, Optional, Sequence

import pandas as pd

from capqa.common.escaping import to_safe_csv
from capqa.common.files import check_outputs, save_figure, write_atomically
from capqa.common.json_text import json_option_text, loads_json, names_file
from capqa.common.quoting import quote, quote_all
from capqa.monotonicity.bootstrap import diagnostic_tables
from capqa.monotonicity.measures import CONFIDENCE, check_severity, prepare_labels
from capqa.plus.calibration import add_cap_plus

TABLES = ("correlations", "descriptives", "class_pairs", "monotonicity", "paired_differences")
PLOTS = {
    "class_distributions.png": "Scores per class, in the taxonomy's order",
    "class_pair_accuracy.png": "Class-pair accuracy, mean violations framed",
    "agreement.png": "Agreement with human severity, with bootstrap intervals",
}
PLOT_DPI = 120


def load_scores(path: Path, label_column: str, metrics: Sequence[str], split_column: Optional[str] = None,
                split: Optional[str] = None) -> pd.DataFrame:
    """The rows to diagnose: labels and metric columns, optionally one split."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.plus.score_files import check_finite_columns, read_scores

    if not path.is_file():
        raise ValueError(f"scores file not found: {path}")
    frame = read_scores(path, metrics)
    # CAP+ can be computed from the NLI probabilities, BLEU and ROUGE-L (add_cap_plus below).
    missing = [c for c in [label_column, *metrics, *([split_column] if split_column else [])]
               if c not in frame.columns and not (c == "cap_plus" and "pe_f" in frame.columns)]
    if missing:
        raise ValueError(f"{path} has no column(s) {missing}; it has {quote_all(frame.columns)}")
    if split is not None:
        if split_column is None:
            raise ValueError("--split needs --split-column")
        frame = frame[frame[split_column].astype(str) == split]
        if frame.empty:
            raise ValueError(f"no rows with {split_column} == {quote(split)} in {path}")
    check_finite_columns(frame, [metric for metric in metrics if metric in frame.columns], path)
    if "cap_plus" in metrics:
        frame = add_cap_plus(frame)
    return frame.reset_index(drop=True)


def check_comparable(labels: list, severity: Optional[dict], label_column: str) -> None:
    """Refuse labels with nothing to compare: the diagnostic orders classes of different severity,
    so it needs at least two of them (one class, or one row, would leave every table empty)."""
    rows = prepare_labels(labels, severity, f"--label-column {label_column!r}")
    if len(set(rows.class_severity)) < 2:
        counts = pd.Series(labels).value_counts(sort=False)
        found = ", ".join(f"{label} ({count:,} row{'s' * (count != 1)})" for label, count in counts.items())
        raise ValueError(f"column {label_column!r} must hold at least two classes of different severity "
                         f"to compare; it holds {len(rows.class_index):,} row(s): {found}")


def written_files(args: argparse.Namespace, with_verdicts: bool) -> List[str]:
    """The names of the files ``run`` writes under ``args.out``."""
    plots = [] if args.no_plots else list(PLOTS)
    verdicts = ["verdicts.csv", "verdicts.md"] if with_verdicts else []
    return [f"{name}.csv" for name in TABLES] + ["results.json", "summary.md", *plots, *verdicts]


def check_out_folder(out: Path) -> None:
    """--out is a folder to write into: refuse an existing file before any work is done."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out must be a folder, but {str(out)!r} is a file")
    for parent in out.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"--out {str(out)!r} cannot be created: {str(parent)!r} is a file")
            break


def parse_severity(text: Optional[str]) -> Optional[dict]:
    """--severity: inline JSON or a path to a JSON file; None keeps the paper's."""
    if text is None:
        return None
    source = json_option_text(text, "--severity")
    try:
        return check_severity(loads_json(source))
    except json.JSONDecodeError as error:
        raise ValueError(f"--severity is neither a JSON object nor a JSON file: {error}") from None


def write_tables(tables: dict, out: Path) -> None:
    for name in TABLES:
        to_safe_csv(pd.DataFrame(tables[name]), out / f"{name}.csv")  # metric and class names are the user's
    write_atomically(out / "results.json", json.dumps(tables, indent=1, default=_json_default))


def _json_default(value):
    # numpy scalars (severity, counts) serialise as plain numbers.
    return value.item() if hasattr(value, "item") else str(value)


def write_plots(frame: pd.DataFrame, metrics: List[str], label_column: str, tables: dict, out: Path,
                severity: Optional[Mapping[str, int]]) -> None:
    # Imported here: matplotlib comes with the plots extra, and --no-plots needs none of it.
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.plots import agreement_intervals, class_distributions, class_pair_heatmap

    labels = frame[label_column].tolist()
    figures = {
        "class_distributions.png": class_distributions(frame[metrics], labels, severity),
        "class_pair_accuracy.png": class_pair_heatmap(tables["class_pairs"]),
        "agreement.png": agreement_intervals(tables["correlations"]),
    }
    for name, figure in figures.items():
        save_figure(figure, out / name, dpi=PLOT_DPI)


# --- summary.md ------------------------------------------------------------------------------

def _with_interval(record, statistic, digits=3):
    value = f"{record[statistic]:.{digits}f}"
    low, high = record.get(f"{statistic}_ci_low"), record.get(f"{statistic}_ci_high")
    return value if low is None else f"{value} [{low:.{digits}f}, {high:.{digits}f}]"


def _markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


def _agreement_section(tables):
    rows = [[r["metric"], _with_interval(r, "spearman"), _with_interval(r, "kendall"),
             _with_interval(r, "pairwise_accuracy"), f"{r['comparable_pairs']:,}",
             f"{r['pair_wins']:,}", f"{r['pair_ties']:,}", f"{r['pair_losses']:,}"]
            for r in tables["correlations"]]
    header = ["Metric", "Spearman", "Kendall τ-b", "Pairwise accuracy", "Comparable pairs",
              "Wins", "Ties", "Losses"]
    return "## Agreement with human severity\n\n" + _markdown_table(header, rows)


def _hard_pairs_section(tables, metrics):
    pairs = pd.DataFrame(tables["class_pairs"])
    hard = pairs[pairs["hard_pair"]]
    if hard.empty:
        return "## Hard pairs\n\nNone of the hard pairs occurs in these labels."
    rows = []
    for (better, worse), group in hard.groupby(["better", "worse"], sort=False):
        cells = {r.metric: _with_interval(r._asdict(), "accuracy", 2) + (" ✗" if r.mean_violation else "")
                 for r in group.itertuples()}
        rows.append([f"{better} > {worse}", *[cells[m] for m in metrics]])
    return ("## Hard pairs\n\nPairwise accuracy within each pair; ✗: the less correct class has the "
            "higher mean score.\n\n" + _markdown_table(["Pair", *metrics], rows))


def _monotonicity_section(tables):
    pairs = pd.DataFrame(tables["class_pairs"])
    rows = []
    for r in tables["monotonicity"]:
        violated = pairs[(pairs["metric"] == r["metric"]) & pairs["mean_violation"]]
        names = ", ".join(f"{b} < {w}" for b, w in zip(violated["better"], violated["worse"]))
        rows.append([r["metric"], f"{r['mean_violations']}/{r['class_pairs']}",
                     f"{r['row_level_violation_rate']:.3f}", names or "none"])
    header = ["Metric", "Mean violations", "Row-level violation rate", "Violated pairs (mean of better < worse)"]
    return ("## Monotonicity\n\nA class pair is violated when the less correct class has the higher "
            "mean score; the row-level rate is losses / comparable pairs.\n\n"
            + _markdown_table(header, rows))


def _paired_section(tables, n_resamples):
    records = tables["paired_differences"]
    if not records:
        return ""
    reference = records[0]["reference"]
    floor = f"< {1 / n_resamples:.0e}"
    rows = [[r["metric"], r["statistic"].replace("_", " "),
             f"{r['mean_difference']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}]",
             floor if r["p_reference_not_better"] == 0 else f"{r['p_reference_not_better']:.4f}"]
            for r in records]
    header = ["Metric", "Statistic", f"{reference} − metric [95% CI]", f"p ({reference} not better)"]
    return (f"## Paired differences against {reference}\n\nSame bootstrap resamples for every metric; "
            f"one-sided p-value: share of resamples where {reference} is not better.\n\n"
            + _markdown_table(header, rows))


def summary_markdown(tables: dict, context: Mapping[str, Any], plots: bool = True) -> str:
    """The report in the paper's layout; ``context`` describes the data and the bootstrap."""
    metrics = [r["metric"] for r in tables["correlations"]]
    counts = " · ".join(f"{r['label']} {r['n']:,}" for r in tables["descriptives"]
                        if r["metric"] == metrics[0])
    units = f"`{context['cluster']}` clusters" if context.get("cluster") else "rows"
    intervals = (f"{context['n_resamples']:,} bootstrap resamples over {units} (seed {context['seed']}), "
                 f"{CONFIDENCE:.0%} percentile intervals" if context["n_resamples"] else "no bootstrap")
    sections = [
        "# Monotonicity diagnostic",
        f"Scores: `{context['source']}`{context['split_note']}: {context['rows']:,} rows; {intervals}. "
        f"Scores rounded to 10 decimals before comparison.\n\nRows per class: {counts}",
        _agreement_section(tables), _hard_pairs_section(tables, metrics),
        _monotonicity_section(tables), _paired_section(tables, context["n_resamples"]),
    ]
    if plots:
        sections.append("## Plots\n\n" + "\n\n".join(f"**{caption}**\n\n![{caption}]({name})"
                                                    for name, caption in PLOTS.items()))
    sections.append("Tables: " + ", ".join(f"`{name}.csv`" for name in TABLES) + ", all in `results.json`.")
    return "\n\n".join(section for section in sections if section) + "\n"


# --- the diagnostic of a parsed command line ---------------------------------------------------

def run(args: argparse.Namespace, extra_sections: Optional[Callable[[List[str]], str]] = None) -> dict:
    """The whole diagnostic for ``python -m capqa diagnose``'s arguments (``capqa.cli.diagnose``):
    tables, plots and ``summary.md`` written under ``args.out``; returns the tables.
    ``extra_sections(metrics)``: more Markdown for ``summary.md`` (the verdict report)."""
    # A metric named twice is diagnosed once (as two columns of one name it broke the plots).
    metrics = list(dict.fromkeys(m.strip() for m in args.metrics.split(",") if m.strip()))
    if not metrics:
        raise ValueError("--metrics names no column")
    check_out_folder(args.out)
    check_outputs({f"--out/{name}": args.out / name for name in written_files(args, extra_sections is not None)},
                  {"scores": args.scores, "--severity": args.severity if args.severity and names_file(args.severity)
                   else None})
    if not args.no_plots:
        # Deferred: matplotlib (the plots extra), imported now so that a missing extra fails before the bootstrap.
        import capqa.monotonicity.plots  # noqa: F401
    severity = parse_severity(args.severity)
    frame = load_scores(args.scores, args.label_column, metrics, args.split_column, args.split)
    if getattr(args, "cluster", None) and args.cluster not in frame.columns:
        raise ValueError(f"{args.scores} has no --cluster column {args.cluster!r}; it has {list(frame.columns)}")
    check_comparable(frame[args.label_column].astype(str).tolist(), severity, args.label_column)
    tables = diagnostic_tables({m: frame[m].to_numpy(float) for m in metrics},
                               frame[args.label_column].astype(str).tolist(), severity,
                               n_resamples=args.bootstrap, seed=args.seed,
                               reference=args.reference or metrics[0], progress=not args.quiet,
                               clusters=frame[args.cluster].tolist() if getattr(args, "cluster", None) else None)
    args.out.mkdir(parents=True, exist_ok=True)
    write_tables(tables, args.out)
    if not args.no_plots:
        write_plots(frame, metrics, args.label_column, tables, args.out, severity)
    split_note = f" (split `{args.split}`)" if args.split else ""
    context = {"source": args.scores.name, "split_note": split_note, "rows": len(frame),
               "n_resamples": args.bootstrap, "seed": args.seed, "cluster": getattr(args, "cluster", None)}
    summary = summary_markdown(tables, context, not args.no_plots)
    if extra_sections is not None:
        summary += "\n" + extra_sections(metrics)
    write_atomically(args.out / "summary.md", summary)
    return tables
