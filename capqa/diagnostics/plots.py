"""Plots of the monotonicity diagnostic; each function takes arrays or DataFrames and returns a
matplotlib Figure (no pyplot state), so the command line saves them and the Space shows them.
"""

from typing import Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from capqa.diagnostics.monotonicity import prepare_labels, prepare_scores
from capqa.extras import import_extra

_PURPOSE = "the diagnostic's plots (or diagnose --no-plots)"
Figure = import_extra("matplotlib.figure", "plots", _PURPOSE).Figure
Rectangle = import_extra("matplotlib.patches", "plots", _PURPOSE).Rectangle

SEVERITY_COLORMAP = "RdYlGn"
ACCURACY_COLORMAP = "RdYlGn"
VIOLATION_COLOR = "#1f1f1f"
HARD_PAIR_COLOR = "#1f4e9c"


def _score_columns(scores):
    """{metric: values} from a dict, a DataFrame or one array (called "score")."""
    if isinstance(scores, pd.DataFrame):
        return {str(column): scores[column].to_numpy() for column in scores.columns}
    if isinstance(scores, dict):
        if not scores:
            raise ValueError("`scores` is empty; give at least one metric")
        return dict(scores)
    return {"score": scores}


def _severity_colors(rows):
    """A color per present class: red for the least correct severity, green for the most."""
    severity = rows.class_severity
    span = severity.max() - severity.min()
    position = (severity - severity.min()) / span if span else np.ones_like(severity)
    colormap = import_extra("matplotlib", "plots", _PURPOSE).colormaps[SEVERITY_COLORMAP]
    return [colormap(0.1 + 0.8 * p) for p in position]


def class_distributions(scores: Union[Mapping[str, ArrayLike], pd.DataFrame, ArrayLike], labels: Sequence[str],
                        severity: Optional[Mapping[str, int]] = None, title: Optional[str] = None) -> Figure:
    """Per-class score distributions, one panel per metric, classes in taxonomy order.

    Violins show each class's distribution with its quartiles; the line joins the class means,
    so a step up from a more to a less correct class is a mean violation.
    """
    columns = _score_columns(scores)
    rows = prepare_labels(labels, severity)
    colors = _severity_colors(rows)
    figure = Figure(figsize=(max(8.0, 1.25 * len(rows.classes) + 2), 2.9 * len(columns) + 0.8),
                    layout="constrained")
    axes = figure.subplots(len(columns), 1, sharex=True, squeeze=False)[:, 0]
    positions = np.arange(len(rows.classes))
    for axis, (name, values) in zip(axes, columns.items()):
        values = prepare_scores(values, rows.n_rows, f"scores[{name!r}]")
        groups = [values[rows.class_index == c] for c in range(len(rows.classes))]
        _draw_violins(axis, groups, positions, colors)
        means = [group.mean() for group in groups]
        axis.plot(positions, means, color="black", marker="D", markersize=5, linewidth=1.2,
                  label="class mean", zorder=3)
        axis.set_ylabel(name)
        axis.grid(axis="y", alpha=0.3)
        axis.set_xlim(-0.6, len(rows.classes) - 0.4)
    figure.legend(*axes[0].get_legend_handles_labels(), loc="outside upper right", fontsize=8,
                  frameon=False, ncols=2)
    counts = np.bincount(rows.class_index, minlength=len(rows.classes))
    axes[-1].set_xticks(positions, [f"{label}\n(sev. {s:g}, n={n})" for label, s, n
                                    in zip(rows.classes, rows.class_severity, counts)],
                        rotation=30, ha="right", fontsize=8)
    figure.suptitle(title or "Scores per correctness class (most correct on the left)")
    return figure


def _draw_violins(axis, groups, positions, colors):
    # A class with a single distinct score has no density to draw (its quartile bar remains).
    drawable = [i for i, group in enumerate(groups) if np.ptp(group) > 0]
    if drawable:
        parts = axis.violinplot([groups[i] for i in drawable], positions=positions[drawable],
                                widths=0.8, showextrema=False)
        for body, i in zip(parts["bodies"], drawable):
            body.set_facecolor(colors[i])
            body.set_edgecolor("grey")
            body.set_alpha(0.75)
    quartiles = np.array([np.percentile(group, [25, 50, 75]) for group in groups])
    axis.vlines(positions, quartiles[:, 0], quartiles[:, 2], color="dimgray", linewidth=4, zorder=2,
                label="quartiles")
    axis.scatter(positions, quartiles[:, 1], color="white", edgecolors="black", linewidths=0.6, s=16,
                 zorder=3, label="median")


def class_pair_heatmap(class_pairs: Union[pd.DataFrame, Sequence[dict]], metrics: Optional[Sequence[str]] = None,
                       title: Optional[str] = None) -> Figure:
    """Accuracy of every class pair (rows: better class, columns: worse class), per metric.

    ``class_pairs``: a DataFrame or list of records with ``better, worse, accuracy,
    mean_violation`` (and optionally ``metric``, ``hard_pair``), as the diagnostic returns them.
    Mean violations get a black frame and a "mean ✗" note, hard pairs a blue label.
    """
    table = pd.DataFrame(class_pairs)
    if table.empty:
        raise ValueError("`class_pairs` is empty: the labels hold fewer than two severities")
    if "metric" not in table:
        table = table.assign(metric="score")
    names = list(dict.fromkeys(table["metric"])) if metrics is None else list(metrics)
    columns = min(len(names), 3)
    grid_rows = -(-len(names) // columns)
    figure = Figure(figsize=(5.6 * columns + 1.0, 4.9 * grid_rows + 0.8), layout="constrained")
    axes = np.atleast_1d(figure.subplots(grid_rows, columns, squeeze=False).ravel())
    image = None
    for axis, name in zip(axes, names):
        image = _draw_pair_matrix(axis, table[table["metric"] == name], name)
    for axis in axes[len(names):]:
        axis.set_visible(False)
    figure.colorbar(image, ax=list(axes[:len(names)]), shrink=0.6, label="pairwise accuracy")
    figure.suptitle(title or "Class-pair accuracy: share of (better, worse) pairs the metric orders "
                    "correctly\nframed ✗: the worse class has the higher mean; H: a hard pair")
    return figure


def _draw_pair_matrix(axis, pairs, name):
    # Rows and columns in order of first appearance: the diagnostic lists pairs in taxonomy order.
    better = list(dict.fromkeys(pairs["better"]))
    worse = sorted(dict.fromkeys(pairs["worse"]), key=list(dict.fromkeys(
        list(pairs["better"]) + list(pairs["worse"]))).index)
    row_of = {label: i for i, label in enumerate(better)}
    column_of = {label: i for i, label in enumerate(worse)}
    matrix = np.full((len(better), len(worse)), np.nan)
    for record in pairs.itertuples():
        matrix[row_of[record.better], column_of[record.worse]] = record.accuracy
    image = axis.imshow(matrix, cmap=ACCURACY_COLORMAP, vmin=0.0, vmax=1.0)
    for record in pairs.itertuples():
        row, column = row_of[record.better], column_of[record.worse]
        violation = bool(record.mean_violation)
        text = f"{record.accuracy:.2f}" + ("\nmean ✗" if violation else "")
        axis.text(column, row, text, ha="center", va="center", fontsize=7.5,
                  fontweight="bold" if violation else "normal")
        if violation:
            axis.add_patch(Rectangle((column - 0.47, row - 0.47), 0.94, 0.94, fill=False,
                                     edgecolor=VIOLATION_COLOR, linewidth=2.2))
        if getattr(record, "hard_pair", False):
            axis.text(column + 0.42, row - 0.42, "H", ha="right", va="top", fontsize=6,
                      color=HARD_PAIR_COLOR, fontweight="bold")
    axis.set_xticks(range(len(worse)), worse, rotation=45, ha="right", fontsize=8)
    axis.set_yticks(range(len(better)), better, fontsize=8)
    axis.set_xlabel("worse class")
    axis.set_ylabel("better class")
    violations = int(pairs["mean_violation"].sum())
    axis.set_title(f"{name}: {violations}/{len(pairs)} mean violations", fontsize=10)
    return image


def agreement_intervals(correlations: Union[pd.DataFrame, Sequence[dict]],
                        statistics: Sequence[str] = ("spearman", "kendall", "pairwise_accuracy"),
                        title: Optional[str] = None) -> Figure:
    """Point estimates with bootstrap intervals per metric, one panel per statistic.

    ``correlations``: a DataFrame or records with ``metric``, each statistic and, when the
    bootstrap ran, ``<statistic>_ci_low`` / ``<statistic>_ci_high``.
    """
    table = pd.DataFrame(correlations)
    figure = Figure(figsize=(4.2 * len(statistics), 0.45 * len(table) + 1.8), layout="constrained")
    axes = figure.subplots(1, len(statistics), sharey=True, squeeze=False)[0]
    positions = np.arange(len(table))[::-1]
    for axis, statistic in zip(axes, statistics):
        values = table[statistic].to_numpy(float)
        low, high = f"{statistic}_ci_low", f"{statistic}_ci_high"
        if low in table and high in table:
            errors = np.vstack([values - table[low].to_numpy(float), table[high].to_numpy(float) - values])
            axis.errorbar(values, positions, xerr=errors, fmt="o", color="black", capsize=3)
        else:
            axis.plot(values, positions, "o", color="black")
        # The no-information value: chance for accuracy, no correlation otherwise.
        axis.axvline(0.5 if statistic == "pairwise_accuracy" else 0.0, color="grey",
                     linestyle="--", linewidth=1)
        axis.set_title(statistic.replace("_", " "), fontsize=10)
        axis.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(positions, table["metric"])
    figure.suptitle(title or "Agreement with human severity (95% bootstrap intervals)")
    return figure
