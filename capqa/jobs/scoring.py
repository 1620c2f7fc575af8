"""Scoring the rows of a table chunk by chunk into a ``ResumableCsv``."""

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional, Sequence

import pandas as pd
from tqdm.auto import tqdm

from capqa.jobs.escaping import escape_formula, escape_formulas
from capqa.jobs.output import LINE_END, ResumableCsv
from capqa.quoting import quote, quote_all
from capqa.results import file_columns, output_columns

if TYPE_CHECKING:
    from capqa.scorer import CAPScorer
    from capqa.verdicts.judge import Verdict

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableColumns:
    """Which input columns hold the question (None: the texts are statements), gold and answer."""

    question: Optional[str]
    gold: str
    answer: str
    gold_separator: Optional[str] = None


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


def split_golds(cells: Sequence[str], separator: Optional[str] = None) -> List[List[str]]:
    """Each cell's gold answers: the cell split on ``separator``, or the cell itself."""
    return [cell.split(separator) if separator else [cell] for cell in cells]


def score_into(table: pd.DataFrame, scorer: "CAPScorer", output: ResumableCsv, columns: TableColumns,
               chunk_size: int, escape: bool = True, description: str = "CAP") -> int:
    """Score the rows of ``table`` that ``output`` lacks, one committed chunk at a time; returns
    how many rows were scored."""
    done = output.rows_done
    with tqdm(total=len(table), initial=done, desc=description, unit="row", dynamic_ncols=True) as progress:
        for start in range(done, len(table), chunk_size):
            chunk = table.iloc[start:start + chunk_size]
            scored = _score_chunk(chunk, scorer, columns)
            if escape:
                scored = escape_formulas(scored)
            output.append(scored.to_csv(header=False, index=False, lineterminator=LINE_END), len(chunk))
            progress.update(len(chunk))
    return len(table) - done


def _score_chunk(chunk: pd.DataFrame, scorer, columns: TableColumns) -> pd.DataFrame:
    questions = list(chunk[columns.question]) if columns.question else None
    result = scorer.score(list(chunk[columns.answer]), split_golds(chunk[columns.gold], columns.gold_separator),
                          questions, return_details=True)
    return chunk.assign(**file_columns(result, scorer.variant, scorer.verdict))
