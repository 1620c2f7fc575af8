"""What a scoring job is: the scorer's identity, the job's own settings and the input, one record.

``JobIdentity`` is built once per job (``capqa.jobs.scoring.score_table``), and everything that
says what a scored file is derives from it:

- ``fingerprint()``: the job's fields as a flat dict, compared on resume; what changed since an
  earlier run is named from it ("changed since: gold_separator ...", ``capqa.jobs.fingerprint``);
- ``hashcode()``: the scorer's hashcode plus the job settings that change scores (the gold
  separator): the line people quote with the file's scores;
- ``scoring()``: the fields that decide the file's scores (the scorer's, less its provenance,
  and the score-changing settings), flat: what ``compare`` checks, field by field, before it
  compares two systems;
- ``to_json()`` / ``json_records.from_json(JobIdentity, ...)``: the record in OUT.summary.json.

``JobSettings`` holds the job's own settings; a field whose metadata says ``affects_scores``
changes the scores (splitting the gold cell on a separator gives other gold answers), the others
only the file (which column is which, how cells are escaped).
"""

import json
from dataclasses import dataclass, field, fields
from typing import Any, Dict, Optional

from capqa.records.identity import NONE, ScorerIdentity, hashcode_of
from capqa.records.json_records import fields_to_json


@dataclass(frozen=True)
class JobSettings:
    """A scoring job's own settings: which input column holds what (no question column: the
    texts already are statements), the string that splits a gold cell into several gold
    answers, and whether cells a spreadsheet would run are escaped."""

    question_column: Optional[str]
    gold_column: str
    answer_column: str
    gold_separator: Optional[str] = field(default=None, metadata={"affects_scores": True})
    escape_formulas: bool = True

    def __post_init__(self) -> None:
        # "" is how a command line says "none" (--question-column '').
        for name in ("question_column", "gold_separator"):
            if getattr(self, name) == "":
                object.__setattr__(self, name, None)
        for name in ("question_column", "gold_column", "answer_column", "gold_separator"):
            value = getattr(self, name)
            if not (isinstance(value, str) or (value is None and name in ("question_column", "gold_separator"))):
                raise TypeError(f"`{name}` must be a string, got {type(value).__name__} {value!r}")
        if not isinstance(self.escape_formulas, bool):
            raise TypeError(f"`escape_formulas` must be True or False, got {self.escape_formulas!r}")

    def items(self) -> Dict[str, Any]:
        return {spec.name: getattr(self, spec.name) for spec in fields(self)}

    def affecting_scores(self) -> Dict[str, Any]:
        """The settings that change the scores, not only the file."""
        return {spec.name: getattr(self, spec.name) for spec in fields(self) if spec.metadata.get("affects_scores")}


def setting_text(value: Any) -> str:
    """A job setting as the hashcode shows it: a string quoted (a separator may be a space or a
    "|"), None as "none"."""
    if value is None:
        return NONE
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


@dataclass(frozen=True)
class JobIdentity:
    """The identity of a scoring job (see the module's docstring)."""

    scorer: ScorerIdentity
    settings: JobSettings
    input_sha256: str
    input_rows: int

    def fingerprint(self) -> Dict[str, Any]:
        """Every compared field of the scorer and every job setting, flat (the input apart)."""
        return {**self.scorer.compared(), **self.settings.items()}

    def scoring(self) -> Dict[str, Any]:
        """What decides the file's scores, flat: compare checks that two systems share it."""
        return {**self.scorer.compared(), **self.settings.affecting_scores()}

    def hashcode(self) -> str:
        """The scorer's hashcode and the job's score-changing settings: the file's one line."""
        settings = tuple((name, setting_text(value)) for name, value in self.settings.affecting_scores().items())
        return hashcode_of((*self.scorer.items(), *settings))

    def to_json(self) -> Dict[str, Any]:
        return fields_to_json(self)
