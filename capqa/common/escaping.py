"""CSV injection: a cell that a spreadsheet would run as a formula is written as text.

The OWASP rule: a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
gets a leading ``'``, which spreadsheets show as text and do not evaluate. A cell that is a plain
number (``-3``, ``+1.5``, ``-2e-3``) is data, not a formula, and is left as written; scores are
never negative, and numeric columns (floats) are never touched.
"""

import os
import re
from typing import Union

import pandas as pd

from capqa.common.files import write_atomically

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
ESCAPE_PREFIX = "'"
PLAIN_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def escape_formula(cell: str) -> str:
    """``cell`` with a leading ``'`` when a spreadsheet would read it as a formula."""
    if cell.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(cell):
        return ESCAPE_PREFIX + cell
    return cell


def to_safe_csv(frame: pd.DataFrame, path: Union[str, os.PathLike]) -> None:
    """``frame.to_csv(path, index=False)`` with every text cell and column name escaped: for the
    tables other commands write (diagnose, eval-statements), whose cells hold names and texts
    from the user's files."""
    escaped = escape_formulas(frame)
    escaped.columns = [escape_formula(str(column)) for column in escaped.columns]
    write_atomically(path, escaped.to_csv(index=False))


def escape_formulas(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every text cell escaped by ``escape_formula``."""
    escaped = frame.copy()
    for column in escaped.columns:
        if pd.api.types.is_string_dtype(escaped[column]) or escaped[column].dtype == object:
            escaped[column] = [escape_formula(cell) if isinstance(cell, str) else cell
                               for cell in escaped[column]]
    return escaped
