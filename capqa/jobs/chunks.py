"""Rows scored chunk by chunk into a resumable CSV: what every process of a job runs (one process,
or each rank on its shard), under ``capqa.jobs.scoring.score_table``.

Each chunk is scored, escaped against spreadsheet formulas when the job says so, appended to the
output and committed (``capqa.jobs.output.ResumableCsv``) before the next: a job that stops keeps
every finished chunk.
"""

from typing import TYPE_CHECKING, List, Optional, Sequence

import pandas as pd
from tqdm.auto import tqdm

from capqa.common.escaping import escape_formulas
from capqa.jobs.output import LINE_END, ResumableCsv
from capqa.records.job import JobSettings
from capqa.records.results import file_columns

if TYPE_CHECKING:
    from capqa.metric.scorer import CAPScorer

# Chunks whose statements are on their way while one is scored: enough to keep the workers busy
# through a chunk's NLI, few enough that a stopped job wasted little.
CHUNKS_AHEAD = 2


def split_golds(cells: Sequence[str], separator: Optional[str] = None) -> List[List[str]]:
    """Each cell's gold answers: the cell split on ``separator``, or the cell itself."""
    return [cell.split(separator) if separator else [cell] for cell in cells]


def score_into(table: pd.DataFrame, scorer: "CAPScorer", output: ResumableCsv, settings: JobSettings,
               chunk_size: int, description: str = "CAP") -> int:
    """Score the rows of ``table`` that ``output`` lacks, one committed chunk at a time; returns
    how many rows were scored. The statements of the next ``CHUNKS_AHEAD`` chunks are started
    before a chunk is scored (``CAPScorer.prefetch``): a statement engine with workers makes them
    while the NLI model scores."""
    done = output.rows_done
    starts = list(range(done, len(table), chunk_size))
    sent = 0  # chunks whose statements were started
    with tqdm(total=len(table), initial=done, desc=description, unit="row", dynamic_ncols=True) as progress:
        for number, start in enumerate(starts):
            for ahead in starts[sent:number + CHUNKS_AHEAD + 1]:
                _prefetch(table.iloc[ahead:ahead + chunk_size], scorer, settings)
            sent = max(sent, number + CHUNKS_AHEAD + 1)
            chunk = table.iloc[start:start + chunk_size]
            scored = _score_chunk(chunk, scorer, settings)
            if settings.escape_formulas:
                scored = escape_formulas(scored)
            output.append(scored.to_csv(header=False, index=False, lineterminator=LINE_END), len(chunk))
            progress.update(len(chunk))
    return len(table) - done


def _prefetch(chunk: pd.DataFrame, scorer, settings: JobSettings) -> None:
    if settings.question_column:
        scorer.prefetch(list(chunk[settings.answer_column]), split_golds(chunk[settings.gold_column],
                                                                         settings.gold_separator),
                        list(chunk[settings.question_column]))


def _score_chunk(chunk: pd.DataFrame, scorer, settings: JobSettings) -> pd.DataFrame:
    questions = list(chunk[settings.question_column]) if settings.question_column else None
    golds = split_golds(chunk[settings.gold_column], settings.gold_separator)
    result = scorer.score(list(chunk[settings.answer_column]), golds, questions, return_details=True)
    return chunk.assign(**file_columns(result, scorer.variant, scorer.verdict))
