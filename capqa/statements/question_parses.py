"""The questions' parses kept on disk beside the rule statements (``score_cache_dir``).

A benchmark's questions are the same for every system scored on it, and parsing a question is
about a third of what a new answer's statement costs (spaCy's parse is most of the converter's
time). With the statement cache, a second system's job finds the gold statements made; with
this, it finds its questions parsed too, and parses only its own answers. The parses live in the
statement cache's database (``capqa.statements.statement_cache.TextCache``), under the parser's
identity (model package and version, spaCy's version) and ``PARSE_FORMAT``: another parser
never reads them. A parse read back is the one the parser would make (a text's parse does not
depend on the batch it is parsed in), so the statements are the same with or without it
(``tests/statements/test_question_parses.py``).
"""

import os
from typing import Callable, Dict, Sequence, Tuple, TypeVar, Union

from capqa.statements.rules.convert import question_parse_text
from capqa.statements.rules.parser import Parse, decode_parse, encode_parse, known_parses, parser_identity, remember
from capqa.statements.statement_cache import TextCache, identity_key

# The layout of a stored parse (``encode_parse``): a change of ``Word`` moves it.
PARSE_FORMAT = "1"

Made = TypeVar("Made")


def parse_cache(directory: Union[str, os.PathLike]) -> TextCache:
    """The store of question parses in ``directory``, under this parser's identity."""
    identity = parser_identity()
    return TextCache(directory, identity_key("parses", PARSE_FORMAT, sorted(identity.items())))


def with_question_parses(directory: Union[str, os.PathLike, None], questions: Sequence[str],
                         make: Callable[[], Made]) -> Made:
    """``make()``, with the parses of ``questions`` read from ``directory`` first (into the
    parser's memory) and those it parsed stored after; without a directory, just ``make()``."""
    if directory is None or not questions:  # nothing to read: not even the parser's identity (a load) is needed
        return make()
    cache = parse_cache(directory)
    try:
        texts = sorted({text for text in map(question_parse_text, dict.fromkeys(questions)) if text is not None})
        stored = readable(cache.get((text,) for text in texts))
        remember(stored)
        made = make()
        parsed = known_parses(text for text in texts if text not in stored)
        cache.put({(text,): encode_parse(words) for text, words in parsed.items()})
        return made
    finally:
        cache.close()


def readable(stored: Dict[Tuple[str, ...], str]) -> Dict[str, Parse]:
    """The stored parses that decode (an entry another layout wrote under this ``PARSE_FORMAT``,
    or damaged, is parsed again rather than trusted or raised)."""
    parses = {}
    for (text,), value in stored.items():
        try:
            parses[text] = decode_parse(value)
        except (ValueError, TypeError):
            continue
    return parses
