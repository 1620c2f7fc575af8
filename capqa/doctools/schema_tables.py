"""The docs' tables of the records, generated from their one definition (registered in
``capqa.doctools.registry``): the result schema (``capqa.records.results.PER_EXAMPLE``) as
docs/architecture.md's table and the README's "Output values", the identity's fields
(``capqa.records.identity.FIELD_MEANINGS``) as docs/architecture.md's table, and the options'
names for the Space's card (``capqa.metric.options.OPTIONS``)."""

from itertools import groupby
from typing import List

from capqa.metric.options import option_names
from capqa.records.identity import FIELD_MEANINGS, NLIIdentity, ScorerIdentity, StatementIdentity, Versions, cache_key
from capqa.records.results import (ALWAYS, DETAILS, GRADED, HASHCODE, PER_EXAMPLE, PLUS, VERDICT, VERDICT_MEANING,
                                   VERDICT_MEANING_DESCRIPTION, ResultField, blank_value)

# When a result holds a field, as the tables say it.
_WHEN = {ALWAYS: "always", PLUS: '`variant="plus"`', VERDICT: "a verdict", GRADED: "partial credit",
         DETAILS: "details"}
# The README's headings of each group of fields, and the doc that says more.
_OUTPUT_GROUPS = {ALWAYS: ("Always", ""), PLUS: ('With `variant="plus"`', " ([docs/plus.md](docs/plus.md))"),
                  VERDICT: ("With `verdict=...`", " ([docs/verdicts.md](docs/verdicts.md))"),
                  GRADED: ("With a partial-credit verdict (`\"graded\"`, or credits between 0 and 1)", ""),
                  DETAILS: ("With `return_details=True`", "")}


def _code(names: List[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _blank(spec: ResultField) -> str:
    value = blank_value(spec)
    if isinstance(value, dict) and "label" in value:
        return f"`{value['label']}` (probability {value['probability']:g}), \"{value['explanation']}\""
    return '""' if value == "" else str(value)


def _row_key(spec: ResultField) -> tuple:
    """What fields share to be one row of the table: all but their names (their own columns alike)."""
    own = [column for column, _ in spec.columns] == [spec.key]
    return spec.when, _blank(spec), spec.mean, spec.harness, "same" if own else spec.columns


def result_schema_table() -> str:
    """docs/architecture.md's table of ``PER_EXAMPLE``, one row per run of fields alike."""
    lines = ["| field | when | blank | mean | file columns | harness |", "|---|---|---|---|---|---|"]
    for _, run in groupby(PER_EXAMPLE, key=_row_key):
        specs = list(run)
        first = specs[0]
        columns = [column for spec in specs for column, _ in spec.columns]
        shown = ("same" if len(specs) > 1 and _row_key(first)[-1] == "same" else _code(columns))
        if first.key == "statement_issues":
            shown += " (codes joined by spaces)"
        harness = _code([spec.columns[0][0] for spec in specs]) if first.harness else ""
        lines.append(f"| {_code([spec.key for spec in specs])} | {_WHEN[first.when]} | {_blank(first)} | "
                     f"{_code([first.mean]) if first.mean else ''} | {shown} | {harness} |")
    return "\n".join(lines)


def output_values_markdown() -> str:
    """The README's "Output values": each group of fields with what it holds, from ``PER_EXAMPLE``."""
    lines = []
    for when, (heading, more) in _OUTPUT_GROUPS.items():
        fields = [spec for spec in PER_EXAMPLE if spec.when == when]
        parts = []
        for spec in fields:
            mean = f"; **{spec.mean}** is their mean (`None` for no examples)" if spec.mean else ""
            parts.append(f"**{spec.key}** (`list`): {spec.description}{mean}")
        if when == ALWAYS:
            parts.append(f"**{HASHCODE}** (`str`): what produced the scores, built from what loaded and ran, "
                         f"`name=value` joined by `|` for {', '.join(FIELD_MEANINGS)} ([docs/architecture.md]"
                         f"(docs/architecture.md#the-identity-of-a-score) says what each holds); quote it with a table")
        if when == VERDICT:
            parts.append(f"**{VERDICT_MEANING}** (`dict`): {VERDICT_MEANING_DESCRIPTION}")
        lines.append(f"- {heading}: {'; '.join(parts)}{more}.")
    return "\n".join(lines)


def placeholder_identity() -> ScorerIdentity:
    """A record with every field and no values: its field names, in order, without loading a model."""
    return ScorerIdentity(Versions("", "", "", ""), NLIIdentity("", "", "", "", 0, False, ""), StatementIdentity(""),
                          0.0, 0.0, "", "", "", "")


def identity_fields_table() -> str:
    """docs/architecture.md's table of the identity's fields: what each says and where it is kept."""
    identity = placeholder_identity()
    cached = set(cache_key(identity.nli, identity.versions))
    lines = ["| field | what it says | in the cache key |", "|---|---|---|"]
    for name, _ in identity.items():
        lines.append(f"| `{name}` | {FIELD_MEANINGS[name]} | {'yes' if name in cached else ''} |")
    return "\n".join(lines)


def option_names_line() -> str:
    """The Space card's line of option names (each is described in the metric's docstring)."""
    return ("- Options at load time (an unknown one is refused; each is described in the metric's docstring, "
            f"`statement_model=\"rules\"` is the offline rule-based converter): {_code(list(option_names()))}.")
