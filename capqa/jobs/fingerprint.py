"""What makes two runs "the same job": the input rows and everything that changes the output, one
record (``capqa.records.job.JobIdentity``: the scorer's identity, the job's own settings, the
input's digest), built once by ``job_identity``.

``JobSpec`` is its fingerprint as the manifest stores it (the input's digest and size, the
record's fields flat). A resume trusts rows already written only when both match; otherwise it
refuses and says what changed, so results of two different jobs never mix in one file.
"""

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List

import pandas as pd

from capqa.records.job import JobIdentity, JobSettings
from capqa.records.json_records import differences

if TYPE_CHECKING:
    from capqa.metric.scorer import CAPScorer


def input_digest(table: pd.DataFrame) -> str:
    """sha256 of the column names and every cell, in order: another, edited or reordered input
    gives another digest."""
    digest = hashlib.sha256(json.dumps(list(map(str, table.columns)), ensure_ascii=False).encode("utf-8"))
    for row in table.itertuples(index=False, name=None):
        digest.update(json.dumps(row, ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def job_identity(table: pd.DataFrame, scorer: "CAPScorer", settings: JobSettings) -> JobIdentity:
    """The identity of scoring ``table`` with ``scorer`` (as it runs with or without questions, as
    the job has them) under ``settings``."""
    return JobIdentity(scorer.identity_for(settings.question_column is not None), settings,
                       input_digest(table), len(table))


@dataclass(frozen=True)
class JobSpec:
    """A job's fingerprint as the manifest stores it: the input's digest and size, and the
    settings that determine the output (``JobIdentity.fingerprint``, flat)."""

    input_sha256: str
    input_rows: int
    settings: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, identity: JobIdentity) -> "JobSpec":
        return cls(identity.input_sha256, identity.input_rows, _plain(identity.fingerprint()))

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
        changes += [f"{name} ({before!r} then, {now!r} now)"
                    for name, before, now in differences(earlier.settings, self.settings)]
        return changes


def _plain(settings: Dict[str, Any]) -> Dict[str, Any]:
    """Settings as JSON would give them back, so a stored job compares equal to a new one."""
    return json.loads(json.dumps(settings, sort_keys=True, default=str))
