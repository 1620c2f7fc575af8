"""Quoting a user's input in a message, cut to a bounded length.

An error that quotes what it refuses helps, until the input is a 30 MB line or a header of 300,000
columns: then the message is the size of the input, and a terminal or a pop-up drowns in it.
Every message that quotes input (a cell, a column name, a list of names, a whole message built
from them) goes through these functions, so the bound is one fact in one place.
"""

import reprlib
from typing import Any, Iterable

# A quoted value keeps this many characters (enough to recognise it), then says how long it was.
MAX_QUOTED_CHARS = 80
# A list of names shows this many, then how many more there are.
MAX_QUOTED_ITEMS = 30
# A whole message (several quotes, a path, the way forward) is cut in the middle beyond this.
MAX_MESSAGE_CHARS = 2000
ELLIPSIS = "…"

_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxlevel = 3
_SHORT_REPR.maxlist = _SHORT_REPR.maxtuple = _SHORT_REPR.maxset = _SHORT_REPR.maxdict = 5
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = _SHORT_REPR.maxlong = 40


def quote(value: Any, limit: int = MAX_QUOTED_CHARS) -> str:
    """``repr(value)`` for a message: a string longer than ``limit`` characters is cut, and the
    quote says how long it was (``'aaaa…' (30,000,000 characters)``); a list, dict or other value
    is shown by ``reprlib`` (a few items, each cut), never built whole first."""
    if isinstance(value, str):
        if len(value) > limit:
            return f"{value[:limit]!r}{ELLIPSIS} ({len(value):,} characters)"
        return repr(value)
    text = _SHORT_REPR.repr(value)
    return text if len(text) <= limit else text[:limit] + ELLIPSIS


def quote_all(values: Iterable[Any], limit_items: int = MAX_QUOTED_ITEMS) -> str:
    """Comma-separated quotes of ``values`` (each cut by ``quote``): the first ``limit_items``,
    then how many more there are."""
    values = list(values)
    shown = ", ".join(quote(value) for value in values[:limit_items])
    more = len(values) - limit_items
    return f"{shown}, {ELLIPSIS} and {more:,} more" if more > 0 else shown


def bounded_message(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` cut in the middle to at most about ``limit`` characters: its start says what went
    wrong and its end what to do, so both are kept."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]} {ELLIPSIS} [{len(text) - 2 * half:,} characters cut] {ELLIPSIS} {text[-half:]}"
