"""Plots of the monotonicity diagnostic; each function takes arrays or DataFrames and returns a
matplotlib Figure (no pyplot state), so the command line saves them and the Space shows them.
"""

from typing import Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from capqa.common.extras import import_extra
from capqa.monotonicity.measures import prepare_labels, prepare_scores

_PURPOSE = "the diagnostic's plots (or diagnose --no-plots)"
Figure = import_extra("matplotlib.figure", "plots", _PURPOSE).Figure
_patches = import_extra("matplotlib.patches", "plots", _PURPOSE)
Polygon, Rectangle = _patches.Polygon, _patches.Rectangle

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


# The class-pair heatmap's geometry: each cell holds its accuracy and, for a mean violation,
# "mean ✗" below it in a smaller font, with room left in its corner for the hard-pair mark.
# Class names are written on two lines (split at "_") so that they fit a cell's width unrotated.
PAIR_CELL_IN = (1.0, 0.5)  # width, height of one cell at cell_font_pt=10
PAIR_LABEL_IN = 1.05  # room for the row names (first panel of each row only)
HARD_PAIR_MARK = 0.24  # the hard-pair corner, as a share of the cell's width and height


def class_pair_heatmap(class_pairs: Union[pd.DataFrame, Sequence[dict]], metrics: Optional[Sequence[str]] = None,
                       title: Optional[str] = None, cell_font_pt: float = 10.0,
                       tick_font_pt: float = 9.0, columns: int = 3) -> Figure:
    """Accuracy of every class pair (rows: better class, columns: worse class), per metric.

    ``class_pairs``: a DataFrame or list of records with ``better, worse, accuracy,
    mean_violation`` (and optionally ``metric``, ``hard_pair``), as the diagnostic returns them.
    Mean violations get a black frame and a "mean ✗" note, hard pairs a blue corner. The figure
    is sized from the fonts, so that every number, note and class name fits its cell unrotated;
    ``columns`` panels go side by side.
    """
    table = pd.DataFrame(class_pairs)
    if table.empty:
        raise ValueError("`class_pairs` is empty: the labels hold fewer than two severities")
    if "metric" not in table:
        table = table.assign(metric="score")
    names = list(dict.fromkeys(table["metric"])) if metrics is None else list(metrics)
    columns = min(len(names), columns)
    grid_rows = -(-len(names) // columns)
    better, worse = _pair_classes(table)
    scale = max(cell_font_pt, tick_font_pt * 1.1) / 10.0
    cell_width, cell_height = PAIR_CELL_IN[0] * scale, PAIR_CELL_IN[1] * scale
    panel_width, panel_height = cell_width * len(worse), cell_height * len(better)
    figure = Figure(figsize=(columns * panel_width + PAIR_LABEL_IN * scale + 0.5 * columns + 1.2,
                             grid_rows * (panel_height + 1.1 * scale) + 1.0), layout="constrained")
    axes = np.atleast_1d(figure.subplots(grid_rows, columns, squeeze=False).ravel())
    image = None
    for index, (axis, name) in enumerate(zip(axes, names)):
        image = _draw_pair_matrix(axis, table[table["metric"] == name], name, better, worse, cell_font_pt,
                                  tick_font_pt, row_names=index % columns == 0)
    for axis in axes[len(names):]:
        axis.set_visible(False)
    figure.colorbar(image, ax=list(axes[:len(names)]), shrink=0.6, label="pairwise accuracy")
    figure.suptitle(title or "Class-pair accuracy: share of (better, worse) pairs the metric orders "
                    "correctly\nframed, mean ✗: the worse class has the higher mean; blue corner: a hard pair",
                    fontsize=tick_font_pt + 2)
    return figure


def _pair_classes(table):
    """(better classes, worse classes) in order of first appearance: the diagnostic lists pairs
    in taxonomy order."""
    order = list(dict.fromkeys(list(table["better"]) + list(table["worse"])))
    better = list(dict.fromkeys(table["better"]))
    worse = sorted(dict.fromkeys(table["worse"]), key=order.index)
    return better, worse


def _two_lines(label):
    """A class name on two lines, split at its first "_" ("overinclusive_valid")."""
    return str(label).replace("_", "\n", 1)


def _draw_pair_matrix(axis, pairs, name, better, worse, cell_font_pt, tick_font_pt, row_names=True):
    row_of = {label: i for i, label in enumerate(better)}
    column_of = {label: i for i, label in enumerate(worse)}
    matrix = np.full((len(better), len(worse)), np.nan)
    for record in pairs.itertuples():
        matrix[row_of[record.better], column_of[record.worse]] = record.accuracy
    image = axis.imshow(matrix, cmap=ACCURACY_COLORMAP, vmin=0.0, vmax=1.0, aspect="auto")
    for record in pairs.itertuples():
        row, column = row_of[record.better], column_of[record.worse]
        violation = bool(record.mean_violation)
        if violation:
            axis.text(column, row - 0.14, f"{record.accuracy:.2f}", ha="center", va="center",
                      fontsize=cell_font_pt, fontweight="bold")
            axis.text(column, row + 0.22, "mean ✗", ha="center", va="center", fontsize=cell_font_pt * 0.8)
            axis.add_patch(Rectangle((column - 0.46, row - 0.44), 0.92, 0.88, fill=False,
                                     edgecolor=VIOLATION_COLOR, linewidth=2.0))
        else:
            axis.text(column, row, f"{record.accuracy:.2f}", ha="center", va="center", fontsize=cell_font_pt)
        if getattr(record, "hard_pair", False):
            right, top = column + 0.5, row - 0.5
            axis.add_patch(Polygon([(right, top), (right - HARD_PAIR_MARK, top), (right, top + HARD_PAIR_MARK)],
                                   closed=True, facecolor=HARD_PAIR_COLOR, edgecolor="none", label="hard pair",
                                   zorder=3))
    axis.set_xticks(range(len(worse)), [_two_lines(label) for label in worse], fontsize=tick_font_pt)
    axis.set_yticks(range(len(better)), [_two_lines(label) for label in better] if row_names else [],
                    fontsize=tick_font_pt)
    axis.set_xlabel("worse class", fontsize=tick_font_pt)
    if row_names:
        axis.set_ylabel("better class", fontsize=tick_font_pt)
    violations = int(pairs["mean_violation"].sum())
    axis.set_title(f"{name}: {violations}/{len(pairs)} mean violations", fontsize=tick_font_pt + 1)
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
