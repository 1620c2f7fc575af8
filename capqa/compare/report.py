"""A ``Comparison`` as tables (text, Markdown, LaTeX, JSON) and as a forest plot of the differences.

``render_tables`` and ``json_text`` render any report's tables and record the same way (the
agreement card uses them too). Every format renders the same ``report_tables``: the systems, the pairs, the breakdowns and the
relation classes, then a note that says how intervals and p-values were computed and which
hashcode scored the systems (or, with mixed settings, that they differ).
"""

import json
import math
import re
from dataclasses import dataclass
from typing import Callable, List, Optional

from capqa.common.extras import import_extra
from capqa.compare.significance import Estimate
from capqa.compare.summary import METRIC_NAMES
from capqa.compare.systems import Comparison

FORMATS = ("text", "markdown", "latex", "json")
SIGNIFICANCE_LEVEL = 0.05
# A line break in a cell (a question with a newline, a --names value) would end a row of every
# format but JSON: it is written as the format shows one inside a cell.
_LINE_BREAK = re.compile("\r\n|[\n\r\v\f\x85\u2028\u2029]")
_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "|": r"\textbar{}",
                  "<": "$<$", ">": "$>$", "−": "$-$"}


@dataclass(frozen=True)
class Table:
    title: str
    header: List[str]
    rows: List[List[str]]


def _interval(value: Estimate) -> str:
    return f"[{value.low:.4f}, {value.high:.4f}]" if value.has_interval else "(no CI)"


def _mean(value: Estimate) -> str:
    return f"{value.mean:.4f} {_interval(value)}"


def _p(value: float) -> str:
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


def report_tables(result: Comparison) -> List[Table]:
    settings = result.settings
    names = [METRIC_NAMES[metric] for metric in result.metrics]
    tables = [Table(f"Systems: mean with {round(100 * settings.confidence)}% CI ({settings.rows:,} examples)",
                    ["system", *names], [[s.name, *(_mean(s.metrics[m]) for m in result.metrics)]
                                         for s in result.systems])]
    tables.append(Table(
        "Pairs: difference (second − first) with paired-bootstrap CI; approximate-randomisation p-value, "
        f"{settings.correction}-adjusted over {holm_family_text(result)}",
        ["pair", "metric", "difference", f"{round(100 * settings.confidence)}% CI", "p", f"p ({settings.correction})",
         f"p < {SIGNIFICANCE_LEVEL}"],
        [[f"{p.second} − {p.first}", METRIC_NAMES[p.metric], f"{p.difference.mean:+.4f}", _interval(p.difference),
          _p(p.p_value), _p(p.p_adjusted), "*" if p.p_adjusted < SIGNIFICANCE_LEVEL else ""] for p in result.pairs]))
    for column in dict.fromkeys(group.column for group in result.groups):
        groups = [group for group in result.groups if group.column == column]
        tables.append(Table(f"Mean CAP by `{column}` (from `{result.systems[0].name}`)",
                            [column, "rows", *(s.name for s in result.systems)],
                            [[g.value, f"{g.rows:,}", *(_mean(g.cap[s.name]) for s in result.systems)] for g in groups]))
    if result.relations:
        tables.append(Table("Where each system loses points: its rows per diagnosed relation, their mean CAP, "
                            "and their share of all points lost (sum of 1 − CAP)",
                            ["system", "relation", "rows", "mean CAP", "share of lost points"],
                            [[r.system, r.relation, f"{r.rows:,}", f"{r.mean_cap:.4f}", f"{100 * r.lost_share:.1f}%"]
                             for r in result.relations]))
    return tables


def holm_family_text(result: Comparison) -> str:
    """Which p-values were adjusted together: 'the 3 pairs of each metric' or 'all 9 tests (...)'."""
    pairs = len(result.pairs) // max(len(result.metrics), 1)
    if result.settings.holm_family == "all":
        return (f"all {len(result.pairs)} tests as one family ({pairs} pair(s) × {len(result.metrics)} "
                "metric(s))")
    return f"the {pairs} pair(s) of each metric (one family per metric)"


def cluster_text(result: Comparison) -> str:
    """How the rows were resampled and permuted, and why."""
    settings = result.settings
    if settings.cluster:
        unit = (f"clusters of `{settings.cluster}` ({settings.clusters:,} clusters, {settings.repeated_clusters:,} "
                "with several rows) resampled and permuted whole")
        if settings.cluster_reason == "detected":
            unit += (f", by default since some `{settings.cluster}` has several rows (--no-cluster: resample "
                     "rows)")
        return unit
    if settings.cluster_reason == "no repeated questions":
        return "rows resampled independently (no question has several rows)"
    return "rows resampled independently (clustering turned off)"


def report_note(result: Comparison) -> str:
    """How the figures were computed, and what scored the systems."""
    settings = result.settings
    parts = [f"{settings.rows:,} examples, {settings.alignment}; percentile bootstrap, {settings.n_resamples:,} "
             f"resamples; approximate randomisation, {settings.n_permutations:,} trials; {cluster_text(result)}; "
             f"seed {settings.seed}; * = {settings.correction}-adjusted p < {SIGNIFICANCE_LEVEL} ("
             f"{holm_family_text(result)})."]
    hashcodes = list(dict.fromkeys(s.hashcode for s in result.systems))
    if settings.mixed_settings:
        parts.append("MIXED SETTINGS (--allow-mixed-settings): the systems were not all scored under one hashcode: "
                     + "; ".join(f"{s.name}: `{s.hashcode or 'unknown'}`" for s in result.systems) + ".")
    else:
        parts.append(f"Scored under hashcode `{hashcodes[0]}`.")
    return " ".join(parts)


def format_comparison(result: Comparison, format: str = "text") -> str:
    """The comparison in ``format``: one of FORMATS."""
    if format not in FORMATS:
        raise ValueError(f"`format` must be one of {', '.join(FORMATS)}, got {format!r}")
    if format == "json":
        return json_text(result.to_json())
    return render_tables(report_tables(result), report_note(result), format)


def render_tables(tables: List[Table], note: str, format: str) -> str:
    """Tables and their note as text, Markdown or LaTeX (every report of the package renders so)."""
    renderers = {"text": _text, "markdown": _markdown, "latex": _latex}
    if format not in renderers:
        raise ValueError(f"`format` must be one of {', '.join(renderers)} for tables, got {format!r}")
    return renderers[format](tables, note)


def json_text(record: dict) -> str:
    """A report's JSON record, indented, with NaN (an interval that does not exist) as null."""
    return json.dumps(_finite(record), indent=2)


def _finite(value):
    """NaN as null: JSON has no NaN."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def _one_line(text: str, line_break: str) -> str:
    return _LINE_BREAK.sub(line_break, text)


def _text_cell(text: str) -> str:
    return _LINE_BREAK.sub(lambda match: repr(match.group())[1:-1], text)  # "\n", "\r\n", "\u2028"


def _text(tables: List[Table], note: str) -> str:
    blocks = []
    for table in tables:
        table = Table(_text_cell(table.title), [_text_cell(cell) for cell in table.header],
                      [[_text_cell(cell) for cell in row] for row in table.rows])
        widths = [max(len(row[c]) for row in [table.header, *table.rows]) for c in range(len(table.header))]
        lines = [table.title, "  ".join(cell.ljust(width) for cell, width in zip(table.header, widths)).rstrip()]
        lines += ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in table.rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks + [f"Note: {_text_cell(note)}"])


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_report(result: Comparison, escape: Optional[Callable[[str], str]] = None) -> str:
    """The comparison as Markdown. ``escape``: applied to every title, cell and the note (the
    Space escapes every Markdown mark of text from a visitor's files); by default only the
    cells' ``|`` are escaped, and the note keeps its `code`."""
    if escape is None:
        return _markdown(report_tables(result), report_note(result))
    return _markdown(report_tables(result), escape(report_note(result)), escape)


def _markdown(tables: List[Table], note: str, escape: Callable[[str], str] = _markdown_cell) -> str:
    """``note`` goes in as it is."""
    def cell(text: str) -> str:
        return _one_line(escape(text), "<br>")

    blocks = []
    for table in tables:
        lines = [f"**{cell(table.title)}**", "", "| " + " | ".join(map(cell, table.header)) + " |",
                 "|" + "|".join("---" if c == 0 else "---:" for c in range(len(table.header))) + "|"]
        lines += ["| " + " | ".join(map(cell, row)) + " |" for row in table.rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks + [f"*Note:* {_one_line(note, ' ')}"])


def _latex_text(text: str) -> str:
    """``text`` with LaTeX's special characters escaped, and `code` in typewriter type."""
    escaped = "".join(_LATEX_ESCAPES.get(char, char) for char in _one_line(text, " "))
    return re.sub(r"`([^`]*)`", r"\\texttt{\1}", escaped)


def _latex(tables: List[Table], note: str) -> str:
    blocks = []
    for table in tables:
        spec = "l" + "r" * (len(table.header) - 1)
        lines = [f"% {_one_line(table.title, ' ')}", r"\begin{tabular}{" + spec + "}", r"\toprule",
                 " & ".join(map(_latex_text, table.header)) + r" \\", r"\midrule"]
        lines += [" & ".join(map(_latex_text, row)) + r" \\" for row in table.rows]
        lines += [r"\bottomrule", r"\end{tabular}"]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks + [r"\par\footnotesize Note: " + _latex_text(note)])


def forest_plot(result: Comparison, metrics: Optional[List[str]] = None) -> "matplotlib.figure.Figure":  # noqa: F821
    """Each pair's difference with its CI, one panel per metric (two per row), a line at 0 (no
    pyplot state)."""
    Figure = import_extra("matplotlib.figure", "plots", "compare --plot").Figure
    MaxNLocator = import_extra("matplotlib.ticker", "plots", "compare --plot").MaxNLocator

    metrics = metrics or result.metrics
    labels = list(dict.fromkeys(f"{p.second} − {p.first}" for p in result.pairs))
    columns = min(len(metrics), 2)
    rows = math.ceil(len(metrics) / columns)
    figure = Figure(figsize=(5.0 * columns, rows * (0.5 * len(labels) + 1.4) + 0.4))
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for axis, metric in zip(axes, metrics):
        pairs = [p for p in result.pairs if p.metric == metric]
        for y, pair in enumerate(pairs):
            color = "#1f4e9c" if pair.p_adjusted < SIGNIFICANCE_LEVEL else "#888888"
            axis.plot([pair.difference.low, pair.difference.high], [y, y], color=color, linewidth=2)
            axis.plot(pair.difference.mean, y, "o", color=color)
            axis.annotate(f"p={_p(pair.p_adjusted)}", (pair.difference.mean, y), textcoords="offset points",
                          xytext=(0, 7), ha="center", fontsize=8)
        axis.axvline(0, color="#333333", linestyle="--", linewidth=1)
        axis.set_yticks(range(len(labels)), labels)
        axis.set_ylim(-0.7, len(labels) - 0.3)
        axis.invert_yaxis()
        axis.xaxis.set_major_locator(MaxNLocator(nbins=5))
        axis.set_xlabel(f"difference in {METRIC_NAMES[metric]} ({round(100 * result.settings.confidence)}% CI)")
    for axis in axes[len(metrics):]:
        axis.set_visible(False)
    figure.suptitle(f"Paired differences ({result.settings.correction}-adjusted p; blue: p < {SIGNIFICANCE_LEVEL})",
                    fontsize=10)
    figure.tight_layout()
    return figure
