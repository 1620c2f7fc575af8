"""Code in an answer, which a statement keeps byte for byte.

Code is a fenced block or a backticked span ("```python ...```", "`heapq`"), or an answer that is
code as a whole: every line a call or an index ("sorted(d.items(), key=lambda kv: kv[1])",
"s[::-1]", "int[] a = new int[10];") or a keyword statement ("SELECT city, COUNT(*) FROM users").
Nothing that reads prose (citation marks, emphasis, headings, the capitals of a lower-case query)
may touch it: "kv[1]" is no citation, "*.txt" no emphasis, "# ... work ..." no heading.
"""

import re
from typing import List

CODE_SPAN = re.compile(r"```[^`]*+```|`[^`\n]++`")
# A code fence's opening line names its language ("```python"): the name is no word of the answer.
FENCE_LANGUAGE = re.compile(r"^[ \t]*+```[ \t]*+[\w+#.-]*+[ \t]*+$", re.MULTILINE)
CODE_ONLY = re.compile(r"^\s*+(?:```[^`]*+```|`[^`\n]++`)\s*+$")
# A call or an index, and what follows it on the line: "hex(255)  # '0xff'", "arr[0]", "s[::-1]".
_CALL_LINE = re.compile(r"^[A-Za-z_][\w.]*+[(\[][^\n]*[)\]][\w.()\[\];]*+(?:\s++(?:#|//).*)?$")
_CODE_KEYWORD = re.compile(r"^(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|import|from|def|class|var|let|const)\s")
_CODE_MARK = re.compile(r"[()=*;\[\]{}]")
_MAX_CODE_LINE = 400
_MAX_CODE_LINES = 40


def is_code_line(text: str) -> bool:
    """A line of code with no sentence around it (see the module docstring)."""
    text = text.strip()
    if len(text) > _MAX_CODE_LINE:
        return False  # a line of code is short; the call pattern backtracks over its brackets
    return bool(_CALL_LINE.match(text) or (_CODE_KEYWORD.match(text) and _CODE_MARK.search(text)))


def is_code(text: str) -> bool:
    """Whether ``text`` is code as a whole: a fenced block or backticked span alone, or lines that
    are each a line of code."""
    if CODE_ONLY.match(text):
        return True
    lines = [line for line in text.split("\n", _MAX_CODE_LINES) if line.strip()]
    return bool(lines) and len(lines) <= _MAX_CODE_LINES and all(is_code_line(line) for line in lines)


def span_body(span: str) -> str:
    """A fenced block's or a backticked span's code: the fences, the backticks and the fence's
    language tag go, every character of the code stays."""
    return FENCE_LANGUAGE.sub("", span).strip("`")


def code_chunks(answer: str) -> List[str]:
    """The answer's code, each piece as written (fences, backticks and language tags gone): the
    whole answer when it is code as a whole, else its blocks and spans."""
    if is_code(answer) and not CODE_ONLY.match(answer):
        return [answer.strip()]
    return [body for body in (span_body(match.group(0)).strip() for match in CODE_SPAN.finditer(answer)) if body]

