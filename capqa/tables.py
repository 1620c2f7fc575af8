"""Reading tables of QA examples (CSV or JSONL) strictly, without losing text.

Every cell is read as text exactly as written: no "NA"/"None" turned into missing values,
no numbers parsed, so an answer "None" or "1e3" stays what it was. A file whose shape is
ambiguous (a row with more or fewer fields than the header, two columns of one name, a
byte-order mark glued to the first column name) is refused with its file, line and column:
guessing (pandas makes an extra field the index) would score the wrong columns silently.
"""

import csv
import json
import os
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Union

import pandas as pd

TABLE_SUFFIXES = (".csv", ".jsonl")
BYTE_ORDER_MARK = "\ufeff"
# A CSV cell may be long (a paragraph-long answer); csv's default limit is 128 KiB.
CSV_FIELD_LIMIT = 2 ** 31 - 1


class TableError(ValueError):
    """A table that cannot be read unambiguously; the message names the file, line and column."""


def read_table(path: Union[str, os.PathLike], max_rows: Optional[int] = None) -> pd.DataFrame:
    """A DataFrame of strings from a .csv or .jsonl file; ``max_rows`` refuses larger files."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise ValueError(f"`{path.name}` must be a .csv or .jsonl file, got {suffix or 'no extension'!r}")
    if not path.is_file():
        raise FileNotFoundError(f"`{path}`: no such file")
    table = _read_csv(path) if suffix == ".csv" else _read_jsonl(path)
    if max_rows is not None and len(table) > max_rows:
        raise ValueError(f"`{path.name}` has {len(table):,} rows; at most {max_rows:,} are accepted here")
    return table


def _read_csv(path: Path) -> pd.DataFrame:
    csv.field_size_limit(CSV_FIELD_LIMIT)
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle, strict=True)
            header = next(reader, None)
            if header is None:
                raise TableError(f"`{path.name}` is empty: expected a header line of column names")
            check_header(header, path.name)
            rows = list(_data_records(reader, len(header), path.name))
    except UnicodeDecodeError as error:
        raise TableError(f"`{path.name}` is not UTF-8 text (byte {error.start}: {error.reason})") from None
    except csv.Error as error:
        raise TableError(f"`{path.name}` line {reader.line_num}: not valid CSV ({error})") from None
    return pd.DataFrame(rows, columns=header, dtype=str)


def check_header(header: Sequence[str], name: str) -> None:
    """Refuse a BOM, a blank column name or a name used twice, with the line and column."""
    if header and header[0].startswith(BYTE_ORDER_MARK):
        raise TableError(f"`{name}` line 1, column 1: the header starts with a byte-order mark (BOM); "
                         "save the file as UTF-8 without BOM")
    seen = {}
    for number, column in enumerate(header, start=1):
        if not column.strip():
            raise TableError(f"`{name}` line 1, column {number}: the column has no name")
        if column in seen:
            raise TableError(f"`{name}` line 1: column name {column!r} appears twice (columns "
                             f"{seen[column]} and {number}); names must be unique")
        seen[column] = number


def _data_records(reader, n_columns: int, name: str) -> Iterable[List[str]]:
    """The data records, each with exactly ``n_columns`` fields; blank lines are skipped."""
    first_line = reader.line_num + 1
    for record in reader:
        if record:
            if len(record) != n_columns:
                where = "has no header" if len(record) > n_columns else "is missing"
                raise TableError(f"`{name}` line {first_line}: {len(record)} fields but the header has "
                                 f"{n_columns} (column {min(len(record), n_columns) + 1} {where}); "
                                 "quote cells that contain commas")
            yield record
        first_line = reader.line_num + 1


def _read_jsonl(path: Path) -> pd.DataFrame:
    """One JSON object per line whose values are strings: a number or a list has no single
    written form to keep, so it is refused with its line and column rather than converted."""
    records = []
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise TableError(f"`{path.name}` line {number}: not UTF-8 text ({error.reason})") from None
            if number == 1 and line.startswith(BYTE_ORDER_MARK):
                raise TableError(f"`{path.name}` line 1, column 1: a byte-order mark (BOM); "
                                 "save the file as UTF-8 without BOM")
            if line.strip():
                records.append(_json_record(line, number, path.name))
    return pd.DataFrame.from_records(records).fillna("")


def _json_record(line: str, number: int, name: str) -> dict:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise TableError(f"`{name}` line {number}, column {error.colno}: not valid JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise TableError(f"`{name}` line {number} is not a JSON object")
    for column, value in record.items():
        if not isinstance(value, str):
            raise TableError(f"`{name}` line {number}, column {column!r}: expected a string, got "
                             f"{type(value).__name__} {value!r} (quote it; several gold answers go in "
                             f"one string with a separator)")
    return record


def require_columns(table: pd.DataFrame, columns: Sequence[Optional[str]], source: str = "the file") -> None:
    """Refuse a table that lacks any of ``columns`` (None entries are optional and skipped)."""
    missing = [column for column in columns if column and column not in table.columns]
    if missing:
        raise ValueError(f"{source} has no column {', '.join(map(repr, missing))}; "
                         f"its columns are {', '.join(map(repr, table.columns))}")
