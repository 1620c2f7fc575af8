"""Reading tables of QA examples (CSV or JSONL) without losing text.

Every cell is read as text exactly as written: no "NA"/"None" turned into missing values,
no numbers parsed, so an answer "None" or "1e3" stays what it was.
"""

import json
from pathlib import Path

import pandas as pd

TABLE_SUFFIXES = (".csv", ".jsonl")


def read_table(path, max_rows=None):
    """A DataFrame of strings from a .csv or .jsonl file; ``max_rows`` refuses larger files."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise ValueError(f"`{path.name}` must be a .csv or .jsonl file, got {suffix or 'no extension'!r}")
    try:
        if suffix == ".csv":
            table = pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)
        else:
            table = _read_jsonl(path)
    except (ValueError, pd.errors.ParserError, UnicodeDecodeError) as error:
        raise ValueError(f"`{path.name}` could not be read as {suffix[1:].upper()}: {error}") from None
    if max_rows is not None and len(table) > max_rows:
        raise ValueError(f"`{path.name}` has {len(table):,} rows; at most {max_rows:,} are accepted here")
    return table


def _read_jsonl(path):
    """One JSON object per line whose values are strings: a number or a list has no single
    written form to keep, so it is refused with its row and column rather than converted."""
    records = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError(f"line {number} is not a JSON object")
            for column, value in record.items():
                if not isinstance(value, str):
                    raise ValueError(f"line {number}, column {column!r}: expected a string, got "
                                     f"{type(value).__name__} {value!r} (quote it; several gold answers go in "
                                     f"one string with a separator)")
            records.append(record)
    return pd.DataFrame.from_records(records).fillna("")


def require_columns(table, columns, source="the file"):
    """Refuse a table that lacks any of ``columns`` (None entries are optional and skipped)."""
    missing = [column for column in columns if column and column not in table.columns]
    if missing:
        raise ValueError(f"{source} has no column {', '.join(map(repr, missing))}; "
                         f"its columns are {', '.join(map(repr, table.columns))}")
