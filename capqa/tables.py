"""Reading tables of QA examples (CSV or JSONL) without losing text.

Every cell is read as text exactly as written: no "NA"/"None" turned into missing values,
no numbers parsed, so an answer "None" or "1e3" stays what it was.
"""

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
            table = pd.read_json(path, lines=True, dtype=False).fillna("")
            table = table.astype(str)
    except (ValueError, pd.errors.ParserError, UnicodeDecodeError) as error:
        raise ValueError(f"`{path.name}` could not be read as {suffix[1:].upper()}: {error}") from None
    if max_rows is not None and len(table) > max_rows:
        raise ValueError(f"`{path.name}` has {len(table):,} rows; at most {max_rows:,} are accepted here")
    return table


def require_columns(table, columns, source="the file"):
    """Refuse a table that lacks any of ``columns`` (None entries are optional and skipped)."""
    missing = [column for column in columns if column and column not in table.columns]
    if missing:
        raise ValueError(f"{source} has no column {', '.join(map(repr, missing))}; "
                         f"its columns are {', '.join(map(repr, table.columns))}")
