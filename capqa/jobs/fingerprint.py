"""What makes two runs "the same job": the input rows and everything that changes the output (the
scorer's identity, ``capqa.identity``, and the job's own settings).

A resume trusts rows already written only when both match; otherwise it refuses and says what
changed, so results of two different jobs never mix in one file.
"""

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List

import pandas as pd

if TYPE_CHECKING:
    from capqa.identity import ScorerIdentity


def input_digest(table: pd.DataFrame) -> str:
    """sha256 of the column names and every cell, in order: another, edited or reordered input
    gives another digest."""
    digest = hashlib.sha256(json.dumps(list(map(str, table.columns)), ensure_ascii=False).encode("utf-8"))
    for row in table.itertuples(index=False, name=None):
        digest.update(json.dumps(row, ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


@dataclass(frozen=True)
class JobSpec:
    """The identity of a scoring job: the input's digest and size, and the settings that
    determine the output: every field of the scorer's identity (``ScorerIdentity.job_settings``,
    so that the rows of one file share one hashcode) and the job's own (columns, escaping)."""

    input_sha256: str
    input_rows: int
    settings: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def for_table(cls, table: pd.DataFrame, settings: Dict[str, Any]) -> "JobSpec":
        return cls(input_digest(table), len(table), _plain(settings))

    def to_json(self) -> Dict[str, Any]:
        return {"input_sha256": self.input_sha256, "input_rows": self.input_rows, "settings": self.settings}

    @classmethod
    def from_json(cls, record: Dict[str, Any]) -> "JobSpec":
        return cls(record["input_sha256"], int(record["input_rows"]), dict(record["settings"]))

    def differences(self, earlier: "JobSpec") -> List[str]:
        """What changed from ``earlier`` to this job, one phrase each (empty when the same job)."""
        changes = []
        if (earlier.input_sha256, earlier.input_rows) != (self.input_sha256, self.input_rows):
            changes.append(f"the input rows ({earlier.input_rows:,} rows then, {self.input_rows:,} now; "
                           "another, edited or reordered file)")
        for name in sorted(set(earlier.settings) | set(self.settings)):
            before, now = earlier.settings.get(name), self.settings.get(name)
            if before != now:
                changes.append(f"{name} ({before!r} then, {now!r} now)")
        return changes


def _plain(settings: Dict[str, Any]) -> Dict[str, Any]:
    """Settings as JSON would give them back, so a stored job compares equal to a new one."""
    return json.loads(json.dumps(settings, sort_keys=True, default=str))


def scoring_job(table: pd.DataFrame, identity: "ScorerIdentity", job_settings: Dict[str, Any]) -> JobSpec:
    """The job of scoring ``table`` with a scorer of ``identity`` (a ``capqa.identity.ScorerIdentity``,
    for results with or without questions as the job has them), with the job's own settings."""
    return JobSpec.for_table(table, {**identity.job_settings(), **job_settings})
