"""CAP for every row of a table, chunk by chunk into a resumable CSV: ``score_table``, the one
builder of a scored file (``python -m capqa score``, the Space's file job, every distributed rank).

It checks every row, builds the job's identity once (``capqa.jobs.fingerprint.job_identity``:
the loaded scorer's identity, the job's settings, the input's digest), and scores the rows the
output lacks: on one process (``capqa.jobs.chunks``), or, under ``torchrun``/``accelerate
launch``, each rank its shard (``capqa.jobs.distributed``). Each finished chunk is appended,
fsynced and recorded in a manifest beside the output (``OUT.capjob.json``) with the job's
fingerprint, so a job that stops (crash, pre-emption, Ctrl-C) keeps what it finished, and
running the same job again resumes it, after checking that input, options and the rows already
written are what it expects. The process that holds the output then writes its summary,
``OUT.summary.json``, with the job's identity record (``capqa.compare.summary``).
"""

import logging
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional, Sequence, Union

import pandas as pd

from capqa.common.escaping import escape_formula
from capqa.common.quoting import quote, quote_all
from capqa.common.tables import require_columns, row_place
from capqa.common.validation import check_positive_int, check_text, is_blank
from capqa.jobs.chunks import score_into, split_golds
from capqa.jobs.distributed import Ranks, score_shards
from capqa.jobs.fingerprint import JobSpec, job_identity
from capqa.jobs.output import ResumableCsv
from capqa.records.job import JobIdentity, JobSettings
from capqa.records.results import output_columns

if TYPE_CHECKING:
    from capqa.compare.summary import ScoreSummary
    from capqa.metric.scorer import CAPScorer
    from capqa.verdicts.judge import Verdict

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ScoredFile:
    """What ``score_table`` made: the scored CSV, its job's identity, how many rows this run
    scored, and the summary and its file (None on a rank that does not hold the output)."""

    out: Path
    identity: JobIdentity
    added: int
    summary: Optional["ScoreSummary"] = None
    summary_file: Optional[Path] = None


def output_header(input_columns: Sequence[str], variant: str, verdict: Optional["Verdict"] = None,
                  escape: bool = True) -> List[str]:
    """The output's column names: the input's, then scoring's; with ``escape`` a name that a
    spreadsheet would run as a formula is escaped like a cell (``escape_formula``)."""
    names = [str(column) for column in input_columns] + output_columns(variant, verdict)
    if not escape:
        return names
    escaped = [escape_formula(name) for name in names]
    if len(set(escaped)) < len(escaped):
        first = next(name for name in escaped if escaped.count(name) > 1)
        clashing = [name for name, written in zip(names, escaped) if written == first]
        raise ValueError(f"the input columns {quote_all(clashing)} would both be written as {quote(first)} once "
                         "escaped against spreadsheet formulas; rename one (or pass --no-escape-formulas)")
    return escaped


def check_no_output_columns(columns: Sequence[str], variant: str, verdict: Optional["Verdict"] = None) -> None:
    """Refuse input columns that scoring would overwrite (a file scored before, say)."""
    clashing = [column for column in output_columns(variant, verdict) if column in columns]
    if clashing:
        raise ValueError(f"the input already has column(s) {quote_all(clashing)} that scoring "
                         f"writes; rename them (a file that was scored before cannot be scored again as is)")


def check_rows(table: pd.DataFrame, settings: JobSettings, source: str = "the input",
               lines: Optional[Sequence[int]] = None) -> None:
    """Every row of ``table`` checked before the first model call (a bad row must not stop a job
    midway), each refusal naming the row as a spreadsheet counts it (``row_place``; ``lines``:
    the file line of each row) and the column. A blank answer is an answer that states nothing
    (it scores 0); a blank question or gold answer is an error."""
    columns = [settings.question_column, settings.gold_column, settings.answer_column]
    require_columns(table, columns, source)
    for column in filter(None, columns):
        for row, cell in enumerate(table[column]):
            check_text(cell, column, allow_blank=column == settings.answer_column,
                       where=f"{source} {row_place(row, lines)}, column {quote(column)},")
    separator = settings.gold_separator
    if separator:
        for row, golds in enumerate(split_golds(table[settings.gold_column], separator)):
            empty = next((number for number, gold in enumerate(golds, start=1) if is_blank(gold)), None)
            if empty is not None:
                raise ValueError(f"{source} {row_place(row, lines)}, column {quote(settings.gold_column)}: gold "
                                 f"answer {empty} of {len(golds)}, split on the gold separator {quote(separator)}, "
                                 "is empty; every gold answer must contain text")


def count_blank(answers: Sequence[str]) -> int:
    """Answers that state nothing: empty, whitespace, or only invisible characters."""
    return sum(1 for answer in answers if is_blank(answer))


def score_table(table: pd.DataFrame, scorer: "CAPScorer", out: Union[str, os.PathLike], settings: JobSettings,
                chunk_size: int = 1000, ranks: Optional[Ranks] = None, backend: Optional[str] = None,
                source: str = "the input", description: str = "CAP") -> ScoredFile:
    """Score ``table`` chunk by chunk into the CSV ``out`` (resuming the same job), then write
    its summary beside it (see the module's docstring).

    ranks: this process's place in a distributed job (``Ranks.from_environment()``); with more
    than one rank, ``backend`` names the process group's backend ("nccl" for CUDA ranks, "gloo"
    otherwise: ``capqa.jobs.distributed.process_group_backend``). source: how messages name
    the input.
    """
    chunk_size = check_positive_int(chunk_size, "chunk_size")
    ranks = ranks or Ranks()
    check_rows(table, settings, source)
    check_no_output_columns(table.columns, scorer.variant, scorer.verdict)
    identity = job_identity(table, scorer, settings)
    header = output_header(table.columns, scorer.variant, scorer.verdict, settings.escape_formulas)
    job, out = JobSpec.of(identity), Path(out)
    if ranks.distributed:
        added = score_shards(table, scorer, out, job, header, settings, chunk_size, ranks, backend)
    else:
        with ResumableCsv.open(out, job, header) as output:
            added = 0 if output.complete else score_into(table, scorer, output, settings, chunk_size, description)
    if ranks.rank != 0:  # only one process holds the output
        return ScoredFile(out, identity, added)
    # Deferred: scipy is heavy, imported on first use.
    from capqa.compare.summary import summarise_scored_file, write_summary

    summary = summarise_scored_file(out, identity, count_blank(table[settings.answer_column]),
                                    output_columns(scorer.variant, scorer.verdict))
    # What the statement engine spent in this process (an endpoint's calls and tokens), if anything.
    usage = scorer.statements.usage() if settings.question_column and hasattr(scorer.statements, "usage") else {}
    summary = replace(summary, statement_usage=usage or None)
    return ScoredFile(out, identity, added, summary, write_summary(summary, out))
