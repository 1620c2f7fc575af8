"""Identity records built by hand, for tests of what reads them (summaries, compare): every field
set, none loaded, so a test changes exactly the field it is about."""

import dataclasses

from capqa.records.identity import NLIIdentity, ScorerIdentity, StatementIdentity, Versions
from capqa.records.job import JobIdentity, JobSettings

SCORER = ScorerIdentity(
    Versions("0.1.0", "c0de000000000000", "5.24.0", "2.13.0+cpu", commit="0123456789ab"),
    NLIIdentity("nli-tiny", "sha256:0000000000000000", "float32", "none", 512, True, "e1e1000000000000"),
    StatementIdentity("rules", (("version", "4"), ("parser", "en_core_web_sm==3.8.0"))),
    alpha=0.85, neutral_weight=0.3, variant="cap", cap_plus_params="27886c52eed9bbda", verdict="none",
    verdict_thresholds="none")
SETTINGS = JobSettings("question", "gold_answer", "answer")


def job_identity(rows: int = 0, settings: JobSettings = SETTINGS, **scorer_fields) -> JobIdentity:
    """A job's identity of ``rows`` input rows: ``SCORER`` with ``scorer_fields`` replaced
    (``alpha=0.7``, ``variant="plus"``), under ``settings``."""
    return JobIdentity(dataclasses.replace(SCORER, **scorer_fields), settings, "ab" * 32, rows)
