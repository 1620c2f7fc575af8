"""CAP for every row of a table, resumable, on one or many processes (``python -m capqa score``:
its command line is ``capqa.cli.score``).

Rows are scored in chunks; each finished chunk is appended to the output, fsynced and recorded
in a manifest beside it (``OUT.capjob.json``) with the job's fingerprint, so a job that stops
(crash, pre-emption, Ctrl-C) keeps what it finished, and running the same command again resumes
it, after checking that input, options and the rows already written are what it expects.
Under ``torchrun``/``accelerate launch`` every rank scores its own shard (see capqa.jobs.distributed).
"""

import logging
import os
from typing import TYPE_CHECKING, Optional, Union

import pandas as pd

from capqa.jobs.fingerprint import scoring_job
from capqa.jobs.output import ResumableCsv
from capqa.jobs.scoring import (TableColumns, check_no_output_columns, output_columns,  # noqa: F401
                                output_header, score_into, split_golds)
from capqa.validation import check_positive_int

if TYPE_CHECKING:
    from capqa.scorer import CAPScorer

logger = logging.getLogger(__name__)


def score_table(table: pd.DataFrame, scorer: "CAPScorer", out: Union[str, os.PathLike],
                question_column: Optional[str], gold_column: str, answer_column: str,
                gold_separator: Optional[str] = None, chunk_size: int = 1000, escape_formulas: bool = True) -> int:
    """Score ``table`` chunk by chunk into the CSV ``out`` (resuming the same job); returns the
    number of new rows. The job is identified by its input, the scorer's identity and the columns."""
    chunk_size = check_positive_int(chunk_size, "chunk_size")
    check_no_output_columns(table.columns, scorer.variant, scorer.verdict)
    columns = TableColumns(question_column or None, gold_column, answer_column, gold_separator)
    job = scoring_job(table, scorer.identity_for(columns.question is not None), job_settings(columns, escape_formulas))
    header = output_header(table.columns, scorer.variant, scorer.verdict, escape_formulas)
    with ResumableCsv.open(out, job, header) as output:
        return score_into(table, scorer, output, columns, chunk_size, escape_formulas)


def job_settings(columns: TableColumns, escape: bool) -> dict:
    """The job's own settings that change the output file."""
    return {"question_column": columns.question, "gold_column": columns.gold, "answer_column": columns.answer,
            "gold_separator": columns.gold_separator, "escape_formulas": escape}
