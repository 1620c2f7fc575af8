"""Reading tables of QA examples (CSV or JSONL) strictly, without losing text.

Every cell is read as text exactly as written: no "NA"/"None" turned into missing values,
no numbers parsed, so an answer "None" or "1e3" stays what it was. A file whose shape is
ambiguous (a row with more or fewer fields than the header, two columns of one name, a
byte-order mark glued to the first column name, a JSONL line with a key twice or other keys
than the first line) is refused with its file, line and column: guessing (pandas makes an
extra field the index) would score the wrong columns silently. Messages quote the input cut
short (``capqa.common.quoting``): a refused 30 MB line does not become a 30 MB message.

``read_table`` serves ``score`` and the Space; ``read_score_table`` serves the analysis commands
(diagnose, fit, fit-verdicts), whose score columns are numbers.
"""

import csv
import json
import math
import os
import re
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Tuple, Union

import pandas as pd

from capqa.common.json_text import loads_json
from capqa.common.quoting import bounded_message, quote, quote_all

TABLE_SUFFIXES = (".csv", ".jsonl")
BYTE_ORDER_MARK = "\ufeff"
# A CSV cell may be long (a paragraph-long answer); csv's default limit is 128 KiB.
CSV_FIELD_LIMIT = 2 ** 31 - 1
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

PathLike = Union[str, os.PathLike]


class TableError(ValueError):
    """A table that cannot be read unambiguously; the message names the file, line and column."""


def read_table(path: PathLike, max_rows: Optional[int] = None, allow_bom: bool = False,
               numbers: bool = False) -> pd.DataFrame:
    """A DataFrame of strings from a .csv or .jsonl file; ``max_rows`` refuses larger files.
    ``allow_bom``: a CSV may start with a byte-order mark, which is dropped (files saved by Excel,
    such as the paper's upstream CSVs), instead of being refused. ``numbers``: a JSONL value may
    be a number or a boolean, kept as its text (a scored file's ``cap`` and ``correct``)."""
    return read_table_lines(path, max_rows, allow_bom, numbers)[0]


def read_table_lines(path: PathLike, max_rows: Optional[int] = None, allow_bom: bool = False,
                     numbers: bool = False) -> Tuple[pd.DataFrame, List[int]]:
    """``read_table``, and the file line each row starts on (for messages, ``row_place``)."""
    path = _checked_path(path)
    table, lines = _read(path, numbers=numbers, allow_bom=allow_bom)
    if max_rows is not None and len(table) > max_rows:
        raise ValueError(f"`{path.name}` has {len(table):,} rows; at most {max_rows:,} are accepted here")
    return table, lines


def row_place(row: int, lines: Optional[Sequence[int]] = None) -> str:
    """How every message names the data row at position ``row`` (from 0) of a table: counted from
    1 below the header, and, when the file's lines are known, the line it starts on (the row
    number a spreadsheet shows, unless a cell holds a line break): "row 25 (line 26)"."""
    place = f"row {row + 1:,}"
    return f"{place} (line {lines[row]:,})" if lines is not None and row < len(lines) else place


def read_score_table(path: PathLike, numeric: Sequence[str]) -> pd.DataFrame:
    """A table of scores, read as strictly as ``read_table``: the ``numeric`` columns that it has
    become floats (an empty cell is missing, NaN), every other column stays text. A cell that is
    not a number is refused with its line and column; in JSONL a number may be written as one.
    The index holds the line each row starts on, for later messages about a row."""
    path = _checked_path(path)
    table, lines = _read(path, numbers=True)
    if table.empty:
        raise TableError(f"`{path.name}` has no rows: expected a header and one row per example")
    for column in dict.fromkeys(numeric):
        if column in table.columns:
            table[column] = _numbers(table[column], column, lines, path.name)
    table.index = pd.Index(lines)
    return table


def _checked_path(path: PathLike) -> Path:
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise ValueError(f"`{path.name}` must be a .csv or .jsonl file, got {quote(suffix or 'no extension')}")
    if not path.is_file():
        if path.is_dir():
            raise IsADirectoryError(f"`{path}` is a folder; give a .csv or .jsonl file")
        if path.exists():  # a FIFO or a device would be read forever (or block)
            raise OSError(f"`{path}` is not a regular file (a pipe or a device?); give a .csv or .jsonl file")
        raise FileNotFoundError(f"`{path}`: no such file")
    return path


def _read(path: Path, numbers: bool, allow_bom: bool = False) -> Tuple[pd.DataFrame, List[int]]:
    """The table and the line each row starts on."""
    if path.suffix.lower() == ".csv":
        header, rows, lines = _read_csv(path, allow_bom)
    else:
        header, rows, lines = _read_jsonl(path, numbers)
    return pd.DataFrame(rows, columns=header, dtype=str), lines


def _read_csv(path: Path, allow_bom: bool = False) -> Tuple[List[str], List[List[str]], List[int]]:
    csv.field_size_limit(CSV_FIELD_LIMIT)
    try:
        with path.open(encoding="utf-8-sig" if allow_bom else "utf-8", newline="") as handle:
            reader = csv.reader(handle, strict=True)
            header = next(reader, None)
            if header is None:
                raise TableError(f"`{path.name}` is empty: expected a header line of column names")
            if not header:
                raise TableError(f"`{path.name}` line 1 is blank: expected the header line of column names there")
            check_header(header, path.name)
            rows, lines = [], []
            for line, record in _data_records(reader, len(header), path.name):
                rows.append(record)
                lines.append(line)
    except UnicodeDecodeError as error:
        raise TableError(f"`{path.name}` is not UTF-8 text (byte {error.start}: {error.reason})") from None
    except csv.Error as error:
        raise TableError(f"`{path.name}` line {reader.line_num}: not valid CSV ({error})") from None
    return header, rows, lines


def check_header(header: Sequence[str], name: str, line: int = 1) -> None:
    """Refuse a BOM, a blank column name or a name used twice, with the line and column."""
    if header and header[0].startswith(BYTE_ORDER_MARK):
        raise TableError(f"`{name}` line {line}, column 1: the header starts with a byte-order mark (BOM); "
                         "save the file as UTF-8 without BOM")
    seen = {}
    for number, column in enumerate(header, start=1):
        if not column.strip():
            raise TableError(f"`{name}` line {line}, column {number:,}: the column has no name")
        if column in seen:
            raise TableError(f"`{name}` line {line}: column name {quote(column)} appears twice (columns "
                             f"{seen[column]:,} and {number:,}); names must be unique")
        seen[column] = number


def _data_records(reader, n_columns: int, name: str) -> Iterable[Tuple[int, List[str]]]:
    """(first line, record) of each data record, each with exactly ``n_columns`` fields; blank
    lines are skipped."""
    first_line = reader.line_num + 1
    for record in reader:
        if record:
            if len(record) != n_columns:
                where = "has no header" if len(record) > n_columns else "is missing"
                raise TableError(f"`{name}` line {first_line}: {len(record):,} fields but the header has "
                                 f"{n_columns:,} (column {min(len(record), n_columns) + 1:,} {where}); "
                                 "quote cells that contain commas")
            yield first_line, record
        first_line = reader.line_num + 1


def _read_jsonl(path: Path, numbers: bool) -> Tuple[List[str], List[List[str]], List[int]]:
    """One JSON object per line, every line with the keys of the first, whose values are
    strings (with ``numbers``, also numbers and booleans, kept as their shortest exact text): a
    list or a null has no single written form to keep, so it is refused with its line and key."""
    header: Optional[List[str]] = None
    rows, lines = [], []
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise TableError(f"`{path.name}` line {number}: not UTF-8 text ({error.reason})") from None
            if number == 1 and line.startswith(BYTE_ORDER_MARK):
                raise TableError(f"`{path.name}` line 1, column 1: a byte-order mark (BOM); "
                                 "save the file as UTF-8 without BOM")
            if not line.strip():
                continue
            record = _json_record(line, number, path.name, numbers)
            if header is None:
                header = list(record)
                check_header(header, path.name, number)
                first_line = number
            elif record.keys() != set(header):
                raise TableError(_other_keys(path.name, number, record, header, first_line))
            rows.append([record[key] for key in header])
            lines.append(number)
    if header is None:
        raise TableError(f"`{path.name}` is empty: expected one JSON object per line")
    return header, rows, lines


def _json_record(line: str, number: int, name: str, numbers: bool) -> dict:
    where = f"`{name}` line {number}"
    try:
        record = loads_json(line, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        raise TableError(f"{where}, column {error.colno}: not valid JSON ({error.msg})") from None
    except _DuplicateKey as duplicate:
        raise TableError(f"{where}: key {quote(duplicate.key)} appears twice in one object; keys must be "
                         "unique (as CSV column names must)") from None
    except ValueError as error:  # e.g. an integer longer than Python converts (4,300 digits)
        raise TableError(f"{where}: not valid JSON here ({bounded_message(str(error), 300)})") from None
    if not isinstance(record, dict):
        raise TableError(f"{where} is not a JSON object")
    for column, value in record.items():
        if isinstance(value, bool) and numbers:
            record[column] = str(value)  # "True", "False": as a CSV that score wrote holds them
        elif isinstance(value, (int, float)) and numbers:
            record[column] = _number_text(value, where, column)
        elif not isinstance(value, str):
            raise TableError(f"{where}, column {quote(column)}: expected a string, got "
                             f"{type(value).__name__} {quote(value)} (quote it; several gold answers go in "
                             f"one string with a separator)")
        _refuse_surrogates(column, where, column, "key")
        _refuse_surrogates(record[column], where, column, "value")
    return record


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: List[Tuple[str, object]]) -> dict:
    record = dict(pairs)
    if len(record) != len(pairs):
        seen = set()
        raise _DuplicateKey(next(key for key, _ in pairs if key in seen or seen.add(key)))
    return record


def _number_text(value: Union[int, float], where: str, column: str) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        raise TableError(f"{where}, column {quote(column)}: {value} is not a finite number")
    return repr(value)


def _refuse_surrogates(text: str, where: str, column: str, what: str) -> None:
    """JSON may escape half of a surrogate pair (``"\\ud800"``): no UTF-8 text can hold it."""
    surrogate = _LONE_SURROGATE.search(text)
    if surrogate:
        raise TableError(f"{where}, column {quote(column)}: the {what} holds a lone surrogate "
                         f"\\u{ord(surrogate.group()):04x} at character {surrogate.start():,}: not valid Unicode "
                         "text (half of an escaped pair, or a broken encoder)")


def _other_keys(name: str, number: int, record: dict, header: List[str], first_line: int) -> str:
    missing = [key for key in header if key not in record]
    extra = [key for key in record if key not in header]
    differences = ([f"no {quote_all(missing)}"] if missing else []) + ([f"also {quote_all(extra)}"] if extra else [])
    return (f"`{name}` line {number}: other keys than line {first_line} ({'; '.join(differences)}); "
            "every line needs the same keys, as every CSV row needs the same columns")


def _numbers(cells: pd.Series, column: str, lines: List[int], name: str) -> pd.Series:
    values = pd.to_numeric(cells.str.strip(), errors="coerce")
    text = cells.str.strip().str.lower()
    bad = values.isna() & text.ne("") & ~text.isin(["nan", "+nan", "-nan"])
    if bad.any():
        row = int(bad.to_numpy().argmax())
        raise TableError(f"`{name}` line {lines[row]}, column {quote(column)}: expected a number, got "
                         f"{quote(cells.iloc[row])} ({int(bad.sum()):,} such cell(s) in the column)")
    return values.astype(float)


def require_columns(table: pd.DataFrame, columns: Sequence[Optional[str]], source: str = "the file") -> None:
    """Refuse a table that lacks any of ``columns`` (None entries are optional and skipped)."""
    missing = [column for column in columns if column and column not in table.columns]
    if missing:
        raise ValueError(f"{source} has no column {quote_all(missing)}; its columns are {quote_all(table.columns)}")
