"""The agreement card as tables (text, Markdown, LaTeX, JSON, rendered as ``compare``'s are), as a
plot of each system's accuracy with its CI (CAP beside the baselines), and its disagreement rows
as a CSV.
"""

import math
import os
from typing import List, Optional, Union

import pandas as pd

from capqa.agreement.card import ALL_SOURCES, AgreementCard, GroupAgreement
from capqa.agreement.peers import CITATIONS
from capqa.common.constants import DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION
from capqa.common.escaping import to_safe_csv
from capqa.common.extras import import_extra
from capqa.compare.report import FORMATS, Table, json_text, render_tables
from capqa.compare.significance import Estimate

# Characters of a statement shown in a table cell (the CSV and the JSON hold them whole).
SHOWN_CHARS = 90
DEFAULT_SHOWN_DISAGREEMENTS = 10
_PUBLISHED = "published, not recomputed"
_COMPUTED = "computed here"


def _value(estimate: Estimate) -> str:
    return "n/a" if math.isnan(estimate.mean) else f"{estimate.mean:.3f}"


def _interval(estimate: Estimate) -> str:
    return f"[{estimate.low:.3f}, {estimate.high:.3f}]" if estimate.has_interval else "—"


def _short(text: str, limit: int = SHOWN_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _method_rows(card: AgreementCard, group: GroupAgreement, leading: List[str]) -> List[List[str]]:
    return [[*leading, card.methods[method], f"{group.rows:,}", _value(value.accuracy), _interval(value.accuracy),
             _value(value.kappa), _interval(value.kappa), _COMPUTED]
            for method, value in group.methods.items()]


def source_table(card: AgreementCard) -> Table:
    """Per source (and over every source): each method's accuracy and kappa, the published figures beside."""
    rows = []
    for group in (g for g in card.groups if g.system is None):
        rows += _method_rows(card, group, [group.source])
        for figure in (f for f in card.published if f.source == group.source):
            rows.append([group.source, f"{figure.method} [{figure.citation}]", f"{figure.rows:,}",
                         f"{figure.accuracy:.3f}", "—", "—" if figure.kappa is None else f"{figure.kappa:.3f}", "—",
                         _PUBLISHED])
    percent = round(100 * card.settings.confidence)
    return Table(f"Agreement with the human judgement, per source: accuracy and Cohen's κ with {percent}% CIs "
                 "(bootstrap over questions)",
                 ["source", "method", "rows", "accuracy", f"{percent}% CI", "κ", f"{percent}% CI", "figures"], rows)


def system_table(card: AgreementCard) -> Table:
    """Per system within its source: each method's accuracy and kappa."""
    rows = []
    for group in (g for g in card.groups if g.system is not None):
        rows += [row[:-1] for row in _method_rows(card, group, [group.source, group.system])]
    percent = round(100 * card.settings.confidence)
    return Table("Agreement with the human judgement, per system",
                 ["source", "system", "method", "rows", "accuracy", f"{percent}% CI", "κ", f"{percent}% CI"], rows)


def thresholds_table(card: AgreementCard) -> Table:
    return Table("How the scores became verdicts (no threshold is chosen on the rows it judges)",
                 ["method", "threshold", "chosen"],
                 [[card.methods[method], judged.thresholds_text(), judged.how] for method, judged in card.judged.items()]
                 + [[card.methods[name], "—", "a verdict itself"] for name in card.methods if name not in card.judged])


def flags_table(card: AgreementCard) -> Table:
    flags = card.flags
    rows = [["disagreements", f"{flags.disagreements:,} of {card.settings.rows:,} rows",
             f"{flags.flagged_disagreements:,} ({_share(flags.disagreement_share)})"],
            ["agreements", f"{flags.agreements:,} of {card.settings.rows:,} rows",
             f"{flags.flagged_agreements:,} ({_share(flags.agreement_share)})"]]
    rows += [[f"disagreements flagged `{code}`", "", f"{count:,}"] for code, count in list(flags.codes.items())[:6]]
    return Table(f"Where {card.methods[card.cap.score]} and the people disagree: rows with a statement that "
                 "`statement_issues` flags (the statements, or the NLI model, at fault?)",
                 ["where", "rows", "with a flagged statement"], rows)


def _share(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{100 * value:.1f}%"


def disagreements_table(card: AgreementCard, shown: int = DEFAULT_SHOWN_DISAGREEMENTS) -> Table:
    label = card.methods[card.cap.score]
    rows = [[row.id, row.source, row.system, row.human, row.cap, f"{row.score:.4f}", _short(row.gold_statement),
             _short(row.answer_statement), " ".join(row.statement_issues) or "—"]
            for row in card.disagreements[:shown]]
    return Table(f"The first {len(rows)} of {len(card.disagreements):,} disagreements (all in the CSV and the JSON)",
                 ["id", "source", "system", "people", label, "score", "gold statement", "answer statement",
                  "statement_issues"], rows)


def citations_table(card: AgreementCard) -> Table:
    return Table("Sources of the published figures", ["key", "citation", "quoted"],
                 [[key, citation.text, citation.quoted] for key, citation in CITATIONS.items()])


def card_tables(card: AgreementCard, shown: int = DEFAULT_SHOWN_DISAGREEMENTS) -> List[Table]:
    tables = [source_table(card), system_table(card), thresholds_table(card)]
    if card.cap is not None:
        tables.append(flags_table(card))
        if shown and card.disagreements:
            tables.append(disagreements_table(card, shown))
    return tables + [citations_table(card)]


def model_warning(card: AgreementCard) -> Optional[str]:
    """Why CAP's figures say nothing about CAP, when another NLI model made them."""
    if card.cap is None or card.cap.nli.is_fitted_model:
        return None
    return (f"NLI MODEL: these CAP figures come from `{card.cap.nli.model}` ({card.cap.nli.revision}), not from CAP's "
            f"model `{DEFAULT_NLI_MODEL}` at {DEFAULT_NLI_REVISION[:7]}: they describe that model, not CAP, and the "
            "shipped thresholds were fitted on CAP's model.")


def card_note(card: AgreementCard) -> str:
    settings = card.settings
    parts = [f"{settings.described}. Accuracy: the share of rows whose verdict is the person's; κ: Cohen's kappa "
             "against the person's verdicts (n/a where one class fills the group)."]
    parts.append(f"CIs: percentile bootstrap, {settings.n_resamples:,} resamples of whole questions (a question's "
                 f"answers drawn together; a question in two sources is one), seed {settings.seed}; every method of a "
                 f"group on the same resamples. Folds: {settings.folds}, split by question (seed {settings.seed}).")
    parts.append("Baselines: SQuAD v1.1 normalisation, the best of the gold answers. Published figures are the "
                 "papers', on their rows (for NQ301 the same 1,490 answers), quoted, not recomputed.")
    if card.cap is None:
        parts.append("CAP is not in this card: `python -m capqa agreement` adds it (no CAP figure is quoted until it "
                     "is produced with CAP's NLI model).")
    else:
        warning = model_warning(card)
        parts += [warning] if warning else []
        parts.append(f"{card.methods[card.cap.score]} verdicts: {card.judged[card.cap.score].how}. "
                     f"Scored under hashcode `{card.cap.hashcode}`.")
    return " ".join(parts)


def format_card(card: AgreementCard, format: str = "text", shown: int = DEFAULT_SHOWN_DISAGREEMENTS) -> str:
    """The card in ``format``: one of FORMATS (JSON holds every disagreement row)."""
    if format not in FORMATS:
        raise ValueError(f"`format` must be one of {', '.join(FORMATS)}, got {format!r}")
    if format == "json":
        return json_text({**card.to_json(), "note": card_note(card)})
    return render_tables(card_tables(card, shown), card_note(card), format)


def write_disagreements(card: AgreementCard, path: Union[str, os.PathLike]) -> None:
    """Every disagreement row, with both statements and their issues, as a CSV (formulas escaped)."""
    frame = pd.DataFrame([row.to_json() for row in card.disagreements],
                         columns=list(card.disagreements[0].to_json()) if card.disagreements else None)
    if "statement_issues" in frame:
        frame["statement_issues"] = [" ".join(codes) for codes in frame["statement_issues"]]
    to_safe_csv(frame, path)


_MARKERS = ("o", "s", "^", "D", "v")
_COLOURS = ("#1f4e9c", "#d95f02", "#7570b3", "#1b9e77", "#666666")


def accuracy_plot(card: AgreementCard) -> "matplotlib.figure.Figure":  # noqa: F821
    """One panel per source: each system's (and the source's) accuracy with its CI, one marker per
    method, CAP first (no pyplot state)."""
    Figure = import_extra("matplotlib.figure", "plots", "agreement --plot").Figure
    sources = [group.source for group in card.groups if group.system is None and group.source != ALL_SOURCES]
    panels = {source: [g for g in card.groups if g.source == source and g.system is None]
              + [g for g in card.groups if g.source == source and g.system is not None] for source in sources}
    tallest = max(len(groups) for groups in panels.values())
    figure = Figure(figsize=(5.2 * len(sources), 0.42 * tallest + 1.8))
    axes = figure.subplots(1, len(sources), squeeze=False)[0]
    methods = list(card.methods)
    for axis, (source, groups) in zip(axes, panels.items()):
        for m, method in enumerate(methods):
            offset = (m - (len(methods) - 1) / 2) * 0.16
            for y, group in enumerate(groups):
                value = group.methods[method].accuracy
                if value.has_interval:
                    axis.plot([value.low, value.high], [y + offset] * 2, color=_COLOURS[m % 5], linewidth=1.4)
                axis.plot(value.mean, y + offset, _MARKERS[m % 5], color=_COLOURS[m % 5], markersize=4,
                          label=card.methods[method] if y == 0 else None)
        axis.set_yticks(range(len(groups)), [f"{g.system or 'all'} ({g.rows})" for g in groups], fontsize=8)
        axis.axhline(0.5, color="#bbbbbb", linewidth=0.8)   # the source's own row above its systems
        axis.set_ylim(-0.6, len(groups) - 0.4)
        axis.invert_yaxis()
        axis.set_xlim(-0.03, 1.03)
        axis.set_title(source, fontsize=10)
        axis.set_xlabel(f"accuracy against the people ({round(100 * card.settings.confidence)}% CI)")
    axes[0].legend(fontsize=8, loc="lower left")
    model = "" if card.cap is None else f"; CAP's NLI model: {card.cap.nli.model}"
    figure.suptitle(f"Agreement with the human judgement{model}", fontsize=10)
    figure.tight_layout()
    return figure
