"""CAP for the judged rows: a scoring job like ``python -m capqa score``'s, resumable, with progress.

``score_judged`` is the one place the agreement calls the scoring job (``capqa.jobs.scoring.
score_table``, by its public signature): the rows are scored chunk by chunk into ``OUT/scored.csv``
beside its manifest, so an interrupted run keeps what it finished and the same command resumes it;
the NLI probabilities go through the score cache. The scorer scores without a verdict: the card
makes CAP's verdicts itself (``capqa.agreement.verdicts``), so one scored file serves every
policy and threshold.
"""

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, List, Union

import numpy as np

from capqa.agreement.judged import GOLD_SEPARATOR, JudgedRows
from capqa.common.tables import read_score_table
from capqa.jobs.scoring import score_table
from capqa.records.identity import NLIIdentity
from capqa.records.job import JobSettings

if TYPE_CHECKING:
    from capqa.metric.scorer import CAPScorer

SCORED_FILE = "scored.csv"
SCORE_COLUMNS = {"cap": "cap", "plus": "cap_plus"}   # the score a variant's verdicts judge


@dataclass(frozen=True)
class CapRun:
    """CAP's scores of the judged rows (in their order), the two statements each score compared,
    their ``statement_issues``, and what produced them (``hashcode``: the scores' with the
    verdict the card applies, when one policy's threshold judged them)."""

    score: str
    scores: np.ndarray = field(repr=False)
    gold_statements: List[str] = field(repr=False)
    answer_statements: List[str] = field(repr=False)
    issues: List[List[str]] = field(repr=False)
    nli: NLIIdentity
    hashcode: str


def score_judged(rows: JudgedRows, scorer: "CAPScorer", out_dir: Union[str, os.PathLike],
                 chunk_size: int = 500) -> CapRun:
    """Score ``rows`` into ``out_dir/scored.csv`` (resuming the same job), and read them back."""
    if scorer.verdict is not None:
        raise ValueError("the agreement makes CAP's verdicts itself: give it a scorer without a verdict")
    out = Path(out_dir) / SCORED_FILE
    score_table(rows.table, scorer, out, JobSettings("question", "gold", "answer", gold_separator=GOLD_SEPARATOR),
                chunk_size=chunk_size, source="the judged answers")
    score = SCORE_COLUMNS[scorer.variant]
    scored = read_score_table(out, numeric=[score])
    if len(scored) != len(rows.table):
        raise ValueError(f"`{out}` holds {len(scored):,} rows for {len(rows.table):,} judged rows; remove it and run again")
    identity = scorer.identity_for(questions=True)
    return CapRun(score, scored[score].to_numpy(dtype=float), list(scored["premises"]), list(scored["hypotheses"]),
                  [cell.split() for cell in scored["statement_issues"]], identity.nli, identity.hashcode())
