"""Code in an answer, which a statement keeps byte for byte.

Code is a fenced block or a backticked span ("```python ...```", "`heapq`"), or an answer that is
code as a whole: every line a call or an index ("sorted(d.items(), key=lambda kv: kv[1])",
"s[::-1]", "int[] a = new int[10];") or a keyword statement ("SELECT city, COUNT(*) FROM users").
Nothing that reads prose (citation marks, emphasis, headings, the capitals of a lower-case query)
may touch it: "kv[1]" is no citation, "*.txt" no emphasis, "# ... work ..." no heading.
"""

import functools
import re
import textwrap
from typing import Dict, List, Optional, Tuple

CODE_SPAN = re.compile(r"```[^`]*+```|`[^`\n]++`")
# A code fence's opening line names its language ("```python"): the name is no word of the answer.
FENCE_LANGUAGE = re.compile(r"^[ \t]*+```[ \t]*+[\w+#.-]*+[ \t]*+$", re.MULTILINE)
# A LaTeX formula ("$x^2 + 1$", "$$...$$", "\[...\]", "\(...\)"): written as it stands, like code, so that
# no cleaning of the prose around it reads its "^2" as a citation mark or its "*" as emphasis. A lone
# "$" before an amount ("$20 and $30") opens none: the closing "$" must not run into a word or digit.
MATH_SPAN = re.compile(r"\$\$[^$]{1,2000}?\$\$|\\\[.{1,2000}?\\\]|\\\(.{1,2000}?\\\)"
                       r"|(?<![\w$\\])\$(?=\S)[^$\n]{1,400}?(?<=\S)(?<!\\)\$(?![\w$])", re.DOTALL)
CODE_ONLY = re.compile(r"^\s*+(?:```[^`]*+```|`[^`\n]++`)\s*+$")
# A call or an index, and what follows it on the line: "hex(255)  # '0xff'", "arr[0]", "s[::-1]".
_CALL_LINE = re.compile(r"^[A-Za-z_][\w.]*+[(\[][^\n]*[)\]][\w.()\[\];]*+(?:\s++(?:#|//).*)?$")
_CODE_KEYWORD = re.compile(r"^(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|import|from|def|class|var|let|const)\s")
_CODE_MARK = re.compile(r"[()=*;\[\]{}]")
# An assignment of a method's or a module's call: "result = np.unravel_index(a.argmax(), a.shape)".
_CALL_ASSIGNMENT = re.compile(r"^[A-Za-z_][\w.]*+\s*+=\s*+[A-Za-z_]\w*+\.[\w.]*+\(")
# A shell command: a lower-case program name and an option among its arguments ("git reset --soft
# HEAD~1", "ls -la /tmp"), with no full stop at its end and none of prose's function words (a
# sentence about the command is prose: "sed -i ... is the quickest way").
_SHELL_LINE = re.compile(r"^(?![^\n]*\b(?:is|are|was|were|the|and|to|you|it)\b)[a-z][\w.]*+ "
                         r"(?:(?:\.|[^\s.!?,;:]++) ){0,6}?--?[A-Za-z][\w=.~/-]*+(?: [^\s!?,;]++){0,8}(?<!\.)$")
# A SQL query: its keywords in capitals ("SELECT team FROM table ORDER BY score DESC LIMIT 1"), or in
# lower case with a clause or mark that prose lacks ("select count(*) from head where age > 56"); "Select
# the best answer from the list" is prose.
SQL_QUERY = re.compile(r"^\s*+(?:(?:SELECT|WITH)\s[^;]{0,2000}?\sFROM\s|(?:select|with)\s[^;]{0,2000}?\sfrom\s\S++"
                       r"(?:\s++(?:as\s++)?\w++)?\s++(?:where|group by|order by|limit|join|natural|inner|left)\s)")
# A block of code: a header that opens it ("def f(n):", "for x in xs:", "public int add(int a) {"), then
# lines indented under it, closing brackets, or statements of code ("a, b = 0, 1", "return n", "i += 1").
_BLOCK_HEADER = re.compile(r"^(?:(?:async\s++)?def|class|if|elif|else|for|while|try|except|finally|with|switch|do)\b"
                           r"[^\n]*:$|^[^\n.!?]*\S\s*+\{$")
_CODE_STATEMENT = re.compile(r"^(?:[A-Za-z_][\w.]*+(?:\[[^\]\n]*\])?(?:\s*+,\s*+[A-Za-z_][\w.]*+)*+\s*+"
                             r"(?:[-+*/%&|^]|//|\*\*|<<|>>)?=(?!=)\s*+\S"
                             r"|(?:return|yield|raise|print|break|continue|pass|#include|using|import|from)\b"
                             r"|[{}()\]\[;]+$|(?:#|//)\s)")
_MAX_CODE_LINE = 400
_MAX_CODE_LINES = 40


def is_code_line(text: str) -> bool:
    """A line of code with no sentence around it (see the module docstring)."""
    text = text.strip()
    if len(text) > _MAX_CODE_LINE:
        return False  # a line of code is short; the call pattern backtracks over its brackets
    return bool(_CALL_LINE.match(text) or _CALL_ASSIGNMENT.match(text) or (
        _CODE_KEYWORD.match(text) and _CODE_MARK.search(text)) or _SHELL_LINE.match(text))


@functools.lru_cache(maxsize=65536)
def is_code(text: str) -> bool:
    """Whether ``text`` is code as a whole: a fenced block or backticked span alone, or lines that
    are each a line of code."""
    if CODE_ONLY.match(text) or SQL_QUERY.match(text):
        return True
    if not _CODE_MARK.search(text) and " -" not in text:
        return False  # no bracket, "=" or ";": no line of code (one pass, before the lines are cut)
    lines = [line for line in text.split("\n", _MAX_CODE_LINES) if line.strip()]
    if not lines or len(lines) > _MAX_CODE_LINES:
        return False
    return all(is_code_line(line) for line in lines) or is_code_block(lines)


def is_code_block(lines: List[str]) -> bool:
    """Whether the lines (none empty) are a block of code: some header with a line indented under
    it, and every line a header, an indented line, a line of code or a statement of code. The
    lines are read dedented: a function's body ("    i = 2\n    while ...") is a block too."""
    lines = textwrap.dedent("\n".join(lines)).split("\n")
    indented = [line[:1] in " \t" for line in lines]
    opened = any(_BLOCK_HEADER.match(line.strip()) and following for line, following in zip(lines, indented[1:]))
    return opened and all(inside or _BLOCK_HEADER.match(line.strip()) or _CODE_STATEMENT.match(line.strip())
                          or is_code_line(line) for line, inside in zip(lines, indented))


def span_body(span: str) -> str:
    """A fenced block's or a backticked span's code: the fences, the backticks and the fence's
    language tag go, every character of the code stays."""
    return FENCE_LANGUAGE.sub("", span).strip("`")


@functools.lru_cache(maxsize=65536)
def code_chunks(answer: str) -> Tuple[str, ...]:
    """The answer's code, each piece as written (fences, backticks and language tags gone): the
    whole answer when it is code as a whole, else its blocks and spans."""
    if is_code(answer) and not CODE_ONLY.match(answer):
        return (answer.strip(),)
    if "`" not in answer:
        return ()
    return tuple(body for body in (span_body(match.group(0)).strip() for match in CODE_SPAN.finditer(answer)) if body)


_CALL_START = re.compile(r"(?<![\w.])[A-Za-z_][\w.]*+[(\[]")
_OPENING, _CLOSING = "([{", ")]}"


def calls_masked(text: str, stand_in: str = "it") -> str:
    """``text`` with each call or index and its chained calls ("sorted(d.items(), key=lambda kv:
    kv[1])", "KMeans(n_clusters=3).fit(X)") replaced by ``stand_in``: the tagger reads code's
    pieces as nouns and names ("Use/NNP sorted(d.items/NNP"), so a sentence is parsed for its
    shape with a pronoun where its code was. Linear: the brackets are matched in one pass."""
    closing = _matching_brackets(text)
    out, start = [], 0
    for match in _CALL_START.finditer(text):
        if match.start() < start:
            continue  # inside a call already replaced
        end = _call_end(text, match.end() - 1, closing)
        if end is None:
            continue
        out += [text[start:match.start()], stand_in]
        start = end
    return "".join(out) + text[start:] if out else text


def _matching_brackets(text: str) -> Dict[int, int]:
    """Each opening bracket's position -> the position of the bracket that closes it."""
    closing: Dict[int, int] = {}
    opened: List[int] = []
    for index, char in enumerate(text):
        if char in _OPENING:
            opened.append(index)
        elif char in _CLOSING and opened:
            closing[opened.pop()] = index
    return closing


def _call_end(text: str, opening: int, closing: Dict[int, int]) -> Optional[int]:
    """The end of the call or index whose bracket opens at ``opening``, with the calls, indexes
    and attributes chained to it (".fit(X)", ".name"); None when its bracket does not close."""
    if opening not in closing:
        return None
    index = closing[opening] + 1
    while index < len(text):
        char = text[index]
        if char in _OPENING and index in closing:
            index = closing[index] + 1
        elif char.isalnum() or char == "_" or (char == "." and text[index + 1:index + 2].isalpha()):
            index += 1
        else:
            break  # the chain ends: a space, a comma, a full stop, an unclosed bracket
    return index


def after_call(text: str) -> str:
    """What follows the call or index (and its chain) that ``text`` opens with, after one space
    ("gives the distribution" of "scipy.stats.binom(n, p) gives the distribution"); "" when
    ``text`` opens with no call or nothing follows it."""
    start = _CALL_START.match(text)
    end = _call_end(text, start.end() - 1, _matching_brackets(text)) if start else None
    return text[end + 1:] if end is not None and text[end:end + 1] == " " else ""
