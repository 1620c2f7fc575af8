"""Uploaded tables: read strictly within the Space's limits, and their columns guessed by name
(the "Score a file" and "Compare" tabs)."""

import os
from pathlib import Path
from typing import Any, Iterable, List, Optional, Tuple

import pandas as pd

from capqa.common.tables import read_table_lines
from capqa.space.inputs import MAX_FILE_COLUMNS, MAX_FILE_ROWS
from capqa.space.text import user_error

# Column names tried, in order, to preselect the file tab's column choices.
COLUMN_GUESSES = {
    "question": ("question", "questions", "query"),
    "gold": ("gold_answer", "gold", "reference", "references", "gold_answers", "target"),
    "answer": ("answer", "prediction", "predicted_answer", "predictions", "pred", "output"),
    "label": ("label", "label_semantic", "class", "correctness"),
}


def read_upload(path: Any, numbers: bool = False) -> pd.DataFrame:
    """The uploaded table (``numbers``: a scored JSONL file's numbers and booleans kept as text),
    read strictly within the Space's limits; raises ``gr.Error``."""
    return read_upload_lines(path, numbers)[0]


def read_upload_lines(path: Any, numbers: bool = False) -> Tuple[pd.DataFrame, List[int]]:
    """``read_upload``, and the file line each row starts on (for messages that name a row)."""
    if not path:
        raise user_error("Please upload a CSV or JSONL file first.")
    if not isinstance(path, (str, os.PathLike)):
        raise user_error(f"The file must be given as the path of an upload, got {type(path).__name__}.")
    try:
        table, lines = read_table_lines(path, max_rows=MAX_FILE_ROWS, numbers=numbers)
    except FileNotFoundError:  # a raw API call may name an upload the server never had (or removed)
        raise user_error(f"{Path(path).name}: the uploaded file is not on the server (any more); "
                         "upload it again.") from None
    except (ValueError, OSError) as error:  # OSError: a folder, a pipe, a file the server cannot read
        # A parser may quote the whole path: the visitor sees the file's name, not the server's folders.
        raise user_error(str(error).replace(str(Path(path).parent) + "/", "")) from None
    if table.empty:
        raise user_error(f"{Path(path).name} has no rows.")
    if len(table.columns) > MAX_FILE_COLUMNS:
        raise user_error(f"{Path(path).name} has {len(table.columns):,} columns; at most {MAX_FILE_COLUMNS:,} "
                         "are accepted (a question, a gold answer and an answer column are needed).")
    return table, lines


def guess_column(columns: Iterable[str], role: str) -> Optional[str]:
    lowered = {column.lower(): column for column in columns}
    return next((lowered[name] for name in COLUMN_GUESSES[role] if name in lowered), None)
