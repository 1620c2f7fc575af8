"""JSON that a user wrote (a JSONL line, an option, a file, an environment variable), parsed so
that every way it can fail is a ``json.JSONDecodeError``.

``json.loads`` raises ``RecursionError`` for text nested deeper than Python's recursion limit
(``"[" * 100000``): no caller expects that, and it escaped as a traceback. Here it is a decode
error like any other, so each caller's existing message (which names the argument, file and line)
covers it too.
"""

import json
from pathlib import Path
from typing import Any, Callable, Optional

from capqa.common.quoting import quote

NESTED_TOO_DEEPLY = "nested too deeply to read"


def loads_json(text: str, object_pairs_hook: Optional[Callable] = None) -> Any:
    """``json.loads(text)``; text nested too deeply raises ``json.JSONDecodeError`` as well."""
    try:
        return json.loads(text, object_pairs_hook=object_pairs_hook)
    except RecursionError:
        raise json.JSONDecodeError(NESTED_TOO_DEEPLY, "", 0) from None


def names_file(text: str) -> bool:
    """Whether ``text`` names an existing file; text that cannot be a path (longer than a file
    name may be, or holding a NUL byte) names none, rather than raising."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def json_option_text(text: str, option: str) -> str:
    """The JSON an option gives: the text itself, or the contents of the file it names."""
    if not names_file(text):
        return text
    try:
        return Path(text).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{option} {quote(text)} is not UTF-8 text (byte {error.start}: {error.reason})") from None
