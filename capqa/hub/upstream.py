"""Reading the paper's upstream CSVs strictly: every cell a string, whitespace normalised once,
and every problem named by file, row and column (rows counted from 1 after the header)."""

from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Tuple, Union

import pandas as pd

from capqa.common.quoting import quote, quote_all
from capqa.common.tables import TableError, check_header, read_table
from capqa.common.validation import parse_count

MAX_PROBLEMS_SHOWN = 20


def normalise_whitespace(text: str) -> str:
    """The one whitespace normalisation of the build: line breaks to LF, ends stripped.

    CRLF and lone CR become LF (the upstream files use CRLF, and a few quoted fields contain
    line breaks), and leading/trailing whitespace is removed. Inner spaces and line breaks are
    kept as they are: they belong to the source text (e.g. two spaces after a full stop in MMLU,
    or a list of answers on separate lines). Idempotent, so applying it again changes nothing.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def cell_location(path: Union[str, Path], row_index: int, column: str) -> str:
    return f"{Path(path).name}: row {row_index + 1}, column '{column}'"


def raise_problems(path: Union[str, Path], problems: List[str]) -> None:
    if not problems:
        return
    shown = "\n  ".join(problems[:MAX_PROBLEMS_SHOWN])
    more = len(problems) - MAX_PROBLEMS_SHOWN
    tail = f"\n  ... and {more} more" if more > 0 else ""
    raise ValueError(f"{Path(path).name}: {len(problems)} problem(s) (rows counted from 1 after "
                     f"the header):\n  {shown}{tail}")


def read_upstream_csv(path: Union[str, Path], required_columns: Sequence[str], argument: str) -> pd.DataFrame:
    """Every cell as a string ("None", "NA" stay text), whitespace normalised once."""
    path = Path(path)
    if not path.is_file() or path.suffix.lower() != ".csv":
        raise ValueError(f"`{argument}` must be an existing CSV file, got {quote(str(path))}")
    try:
        # The strict reader of `score`: a duplicate column, a row with a field too many or too
        # few, or a broken quote is refused with its line (pandas would guess).
        frame = read_table(path, allow_bom=True)
    except TableError as error:
        raise ValueError(f"`{argument}`: {error}") from None
    frame.columns = [normalise_whitespace(column) for column in frame.columns]
    check_header(list(frame.columns), path.name)  # again: names that differ only by whitespace
    missing = [column for column in required_columns if column not in frame.columns]
    if missing:
        raise ValueError(f"{path.name}: missing required column(s) {quote_all(missing)} (`{argument}`); "
                         f"found {quote_all(frame.columns)}")
    return frame.map(normalise_whitespace)


def empty_cell_problems(frame: pd.DataFrame, columns: Iterable[str], path: Union[str, Path]) -> List[str]:
    return [f"{cell_location(path, index, column)}: empty cell; every row needs a {column}"
            for column in columns for index in frame.index[frame[column] == ""]]


def canonical_labels(frame: pd.DataFrame, column: str, allowed: Sequence[str],
                     path: Union[str, Path]) -> Tuple[pd.Series, List[str]]:
    """Lower-cased labels, and a problem for each one outside ``allowed``.

    Empty cells are left to ``empty_cell_problems`` (or allowed, for optional labels)."""
    labels = frame[column].str.lower()
    problems = []
    for index, label in labels.items():
        if label and label not in allowed:
            problems.append(f"{cell_location(path, index, column)}: unknown label {quote(frame.at[index, column])}; "
                            f"expected one of {', '.join(allowed)}")
    return labels, problems


def parse_row_ids(frame: pd.DataFrame, column: str, path: Union[str, Path],
                  allow_empty: bool) -> Tuple[List[Optional[int]], List[str]]:
    """Integer row ids (None where empty and allowed) and a problem for each bad or repeated one."""
    ids, problems, first_seen = [], [], {}
    for index, cell in frame[column].items():
        if cell == "":
            ids.append(None)
            if not allow_empty:
                problems.append(f"{cell_location(path, index, column)}: empty cell; every row needs a {column}")
            continue
        row_id = parse_count(cell, ascii_only=True)
        if row_id is None:
            problems.append(f"{cell_location(path, index, column)}: {quote(cell)} is not a non-negative integer")
            ids.append(None)
            continue
        if row_id in first_seen:
            problems.append(f"{cell_location(path, index, column)}: duplicate row id {row_id} "
                            f"(first at row {first_seen[row_id] + 1})")
        first_seen.setdefault(row_id, index)
        ids.append(row_id)
    return ids, problems


def unique_ids(frame: pd.DataFrame, column: str, path: Union[str, Path]) -> Tuple[pd.Series, List[str]]:
    """Optional string ids: empty is allowed (stored as null), repeats are not."""
    seen, problems = {}, []
    for index, cell in frame[column].items():
        if cell and cell in seen:
            problems.append(f"{cell_location(path, index, column)}: duplicate id {quote(cell)} "
                            f"(first at row {seen[cell] + 1})")
        seen.setdefault(cell, index)
    return nulls_for_empty(frame[column]), problems


def nulls_for_empty(column: pd.Series) -> pd.Series:
    """Empty cells as None in an object column (a pandas string column would make them NaN)."""
    return pd.Series([cell or None for cell in column], index=column.index, dtype=object)
