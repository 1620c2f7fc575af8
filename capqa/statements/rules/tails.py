"""An answer's tail: what comes after its first comma, and where it goes in the statement.

"Bill Russell, with 11 NBA championships" answering "Who got the most rings?": the phrase after
the comma is an adverbial; it follows the clause ("Bill Russell got the most rings, with 11
NBA championships"). A relative clause ("carbon dioxide, which enters through pores") follows
the clause when the answer is not its subject (CAP-Statements' convention) and is closed by a
comma when it is; so is an apposition ("Antonio Vivaldi, an Italian composer, composed ...").
"""

import re
from typing import Callable, NamedTuple, Optional

_PREPOSITIONS = ("in", "on", "at", "with", "from", "during", "after", "before", "since", "for", "by", "around",
                 "near", "about", "until", "under", "as", "through", "via", "according")
_TAIL = re.compile(r"^(?P<core>[^,]{1,200}?),\s+(?P<tail>\S.*)$")


class Tail(NamedTuple):
    core: str
    tail: str
    kind: str   # "adverbial", "relative" or "apposition"


def split_tail(answer: str) -> Optional[Tail]:
    """The answer's core and tail, or None when its first comma starts no tail (a list, a place
    "Paris, France")."""
    match = _TAIL.match(answer)
    if not match:
        return None
    core, tail = match.group("core"), match.group("tail")
    first = tail.split()[0].lower()
    if first in _PREPOSITIONS and len(tail.split()) >= 2 and " and " not in core:
        return Tail(core, tail, "adverbial")
    if first in ("which", "who", "whose", "where", "whom"):
        return Tail(core, tail, "relative")
    if first in ("a", "an", "the") and " and " not in tail and " or " not in tail:
        return Tail(core, tail, "apposition")
    return None


def with_tail(build: Callable[[str], Optional[str]], answer: str) -> Optional[str]:
    """``build(answer)``, with the answer's tail where it belongs (see the module docstring)."""
    tail = split_tail(answer)
    whole = build(answer)
    if tail is None or whole is None or whole.rstrip(" .").endswith(answer.rstrip(" .")):
        return whole
    if tail.kind == "apposition" or (tail.kind == "relative" and whole.startswith(answer)):
        position = whole.find(answer)
        if position < 0:
            return whole
        end = position + len(answer)
        return whole[:end] + "," + whole[end:] if whole[end:end + 1] == " " else whole
    core = build(tail.core)
    return f"{core}, {tail.tail}" if core else whole
