"""The result schema: every field a CAP result can hold, defined once.

``PER_EXAMPLE`` lists the per-example fields in the order scored files write them; each says when
a result holds it (always, with ``variant="plus"``, with a verdict, with partial credit, with
``return_details``), its value for a blank prediction, the aggregate that holds its mean, the
file columns it becomes and whether harness records carry it. Everything else derives from it:
the scorer's result and the empty result (``assemble``, ``empty_result``), the columns of a scored
CSV (``output_columns``, ``file_columns``), the harness records (``harness_records``), the Space's
details and the metric's docs. Adding a field is one entry here (and the code that computes it).

A blank prediction (empty, whitespace or only invisible characters) is an answer that states
nothing: it gets each field's ``blank`` value without any model call (PLAN: the blank policy).
"""

import copy
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from capqa.common.constants import LABELS, NLI_LABELS, RELATION_GROUPS
from capqa.records.identity import FIELD_MEANINGS

# When a result holds a field.
ALWAYS, PLUS, VERDICT, GRADED, DETAILS = "always", "plus", "verdict", "graded", "details"
BLANK_EXPLANATION = "the answer is blank: it states nothing, so it is scored as invalid"


@dataclass(frozen=True)
class ResultField:
    """One per-example field of a result (a list with one value per example).

    columns: (file column, key inside the value or None for the value itself) pairs.
    harness: whether harness records carry it (under its first column's name).
    """

    key: str
    description: str
    when: str = ALWAYS
    blank: Any = None
    mean: Optional[str] = None
    columns: Tuple[Tuple[str, Optional[str]], ...] = ()
    harness: bool = False


def _blank_relation() -> Dict[str, Any]:
    group = next(name for name, members in RELATION_GROUPS.items() if "invalid" in members)
    return {"label": "invalid", "probability": 1.0,
            "probabilities": {label: float(label == "invalid") for label in LABELS},
            "group": group, "group_probability": 1.0,
            "group_probabilities": {name: float(name == group) for name in RELATION_GROUPS},
            "explanation": BLANK_EXPLANATION}


def _own_column(key: str) -> Tuple[Tuple[str, None]]:
    return ((key, None),)


_DIRECTIONS = {"forward": "gold -> prediction", "reverse": "prediction -> gold"}
_PROBABILITY_FIELDS = tuple(ResultField(f"p_{label}_{direction}", f"P({label}) of {pair}", DETAILS)
                            for direction, pair in _DIRECTIONS.items() for label in NLI_LABELS)

PER_EXAMPLE: Tuple[ResultField, ...] = (
    ResultField("scores", "CAP, in [0, 1] (higher is more correct)", ALWAYS, 0.0, "cap", (("cap", None),),
                harness=True),
    ResultField("forward", "D(gold -> prediction)", DETAILS, 0.0, columns=_own_column("forward")),
    ResultField("reverse", "D(prediction -> gold)", DETAILS, 0.0, columns=_own_column("reverse")),
    ResultField("premises", "the gold statement (of the gold that counted)", DETAILS, "",
                columns=_own_column("premises")),
    ResultField("hypotheses", "the predicted statement", DETAILS, "", columns=_own_column("hypotheses")),
    ResultField("best_reference", "index of the gold that counted: the best by the variant's score "
                "(CAP, or CAP+ with variant='plus'), the first on ties", DETAILS, 0,
                columns=_own_column("best_reference")),
    ResultField("cap_plus", "CAP+, in [0, 1]: an ordinal model over the NLI probabilities, BLEU and ROUGE-L "
                "that orders answers better than CAP on CAP-Correctness and never falls with more P(entail) "
                "nor rises with more P(contradiction)", PLUS, 0.0, "mean_cap_plus", _own_column("cap_plus"),
                harness=True),
    ResultField("relation", "the most likely correctness class with its probability, the five-group "
                "reading and a one-sentence explanation (a classifier over the six probabilities, BLEU and "
                "ROUGE-L, held to the classes consistent with CAP+)", DETAILS, _blank_relation,
                columns=(("relation", "label"), ("relation_probability", "probability"))),
    ResultField("correct", "the verdict (bool)", VERDICT, False, "accuracy", _own_column("correct"), harness=True),
    ResultField("credit", "the expected credit under the relation's class probabilities", GRADED, 0.0,
                "mean_credit", _own_column("credit"), harness=True),
    *_PROBABILITY_FIELDS,
    ResultField("statement_fallback", "True where the statement engine's statement was refused (empty; for an "
                "LLM also a refusal, several paragraphs or a flagged statement) and the rule-based one was used "
                "instead", DETAILS, False),
    ResultField("statement_engine", "which engine wrote the two statements: its name ('rules', 'seq2seq', "
                "'openai', ...) when it wrote both, else 'gold:NAME prediction:NAME'; 'none' without questions",
                DETAILS, "", columns=_own_column("statement_engine")),
    ResultField("statement_issues", "what looks wrong with the two statements CAP compared, as "
                "'gold:CODE' and 'prediction:CODE' (codes: capqa.statements.check.ISSUES; empty when "
                "nothing does, and without questions); a score resting on a flagged statement is doubtful; "
                "a file column joins them with spaces", DETAILS, [], columns=_own_column("statement_issues")),
)
# Aggregates that are not the mean of a per-example field.
VERDICT_MEANING = "verdict"
VERDICT_MEANING_DESCRIPTION = ("what `correct` means: the policy, the score judged, its threshold and the classes "
                               "that count as correct (under 'graded' these include partial answers)")
HASHCODE = "hashcode"
HASHCODE_DESCRIPTION = ("what produced the scores, built from what loaded and ran (capqa.records.identity, whose "
                        "FIELD_MEANINGS say what each field holds): `name=value` joined by '|' for "
                        + ", ".join(FIELD_MEANINGS))
_WHEN = {ALWAYS: "always", PLUS: 'with variant="plus"', VERDICT: "with a verdict",
         GRADED: "with a partial-credit verdict", DETAILS: "with return_details"}
# The hashcode's name in harness records (beside the metrics a harness averages).
HARNESS_HASHCODE = "cap_hashcode"


def fields_docstring() -> str:
    """The "Returns:" part of the metric's docstring, from the schema."""
    lines = ["Returns:"]
    for spec in PER_EXAMPLE:
        mean = f"; `{spec.mean}` is their mean (None for no examples)" if spec.mean else ""
        lines.append(f"    {spec.key} (`list`, {_WHEN[spec.when]}): {spec.description}, one per example{mean}.")
    lines.append(f"    {VERDICT_MEANING} (`dict`, {_WHEN[VERDICT]}): {VERDICT_MEANING_DESCRIPTION}.")
    lines.append(f"    {HASHCODE} (`str`, always): {HASHCODE_DESCRIPTION}.")
    return "\n".join(lines) + "\n"


def result_fields(variant: str = "cap", verdict: Optional[Any] = None, details: bool = False) -> List[ResultField]:
    """The per-example fields a result holds for this variant, resolved verdict and ``details``."""
    holds = {ALWAYS: True, PLUS: variant == "plus", VERDICT: verdict is not None,
             GRADED: verdict is not None and verdict.graded, DETAILS: details}
    return [spec for spec in PER_EXAMPLE if holds[spec.when]]


def blank_value(spec: ResultField) -> Any:
    """The field's value for a blank prediction (a fresh copy)."""
    return spec.blank() if callable(spec.blank) else copy.deepcopy(spec.blank)


def _mean(values: Sequence[Any]) -> Optional[float]:
    return float(np.mean(np.asarray(values, dtype=float))) if len(values) else None


def assemble(answered: Mapping[str, Sequence[Any]], positions: Sequence[int], n_examples: int,
             fields: Sequence[ResultField]) -> Dict[str, Any]:
    """The result of ``n_examples``: ``answered`` holds each field's values for the examples at
    ``positions`` (the non-blank predictions); the others get the blank values. Means over all."""
    where = {position: index for index, position in enumerate(positions)}
    result: Dict[str, Any] = {}
    for spec in fields:
        given = answered.get(spec.key, ())
        values = (list(given) if len(where) == n_examples else
                  [given[where[i]] if i in where else blank_value(spec) for i in range(n_examples)])
        if spec.mean is not None:
            result[spec.mean] = _mean(values)
        result[spec.key] = values
    return result


def empty_result(variant: str = "cap", verdict: Optional[Any] = None, details: bool = False) -> Dict[str, Any]:
    """The result for no examples: no means, empty lists (without the hashcode)."""
    return {**assemble({}, (), 0, result_fields(variant, verdict, details)), **verdict_meaning(verdict)}


def verdict_meaning(verdict: Optional[Any]) -> Dict[str, Any]:
    """The ``verdict`` aggregate of a result judged by ``verdict`` (none without one)."""
    return {} if verdict is None else {VERDICT_MEANING: verdict.describe()}


def output_columns(variant: str = "cap", verdict: Optional[Any] = None) -> List[str]:
    """The columns scoring adds to a file, in order (files are scored with details)."""
    return [column for spec in result_fields(variant, verdict, details=True) for column, _ in spec.columns]


def verdict_columns(verdict: Optional[Any]) -> List[str]:
    """The file columns a resolved verdict adds (``correct``, and ``credit`` with partial credit)."""
    return [column for spec in result_fields("cap", verdict) if spec.when in (VERDICT, GRADED)
            for column, _ in spec.columns]


def file_columns(result: Mapping[str, Any], variant: str = "cap", verdict: Optional[Any] = None) -> Dict[str, list]:
    """{column: values} of a detailed result, in ``output_columns`` order."""
    columns = {}
    for spec in result_fields(variant, verdict, details=True):
        for column, part in spec.columns:
            values = result[spec.key]
            columns[column] = [_cell(value if part is None else value[part]) for value in values]
    return columns


def _cell(value: Any) -> Any:
    """A value as one file cell: a list of codes becomes one space-separated string."""
    return " ".join(value) if isinstance(value, list) else value


def harness_names(variant: str = "cap", verdict: Optional[Any] = None) -> List[str]:
    """The per-sample values a harness record holds, in order (``cap``, ``cap_plus``, ...)."""
    return [spec.columns[0][0] for spec in result_fields(variant, verdict) if spec.harness]


def harness_records(result: Mapping[str, Any], variant: str = "cap", verdict: Optional[Any] = None) -> List[dict]:
    """One record per example with the harness fields (``cap``, ``cap_plus``, ``correct``, ...)
    and the result's hashcode as ``cap_hashcode``."""
    kept = [spec for spec in result_fields(variant, verdict) if spec.harness]
    return [{**{spec.columns[0][0]: result[spec.key][i] for spec in kept}, HARNESS_HASHCODE: result[HASHCODE]}
            for i in range(len(result["scores"]))]
