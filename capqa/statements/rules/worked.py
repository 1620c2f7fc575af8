"""A worked answer: reasoning (lines of equations, a chain of steps) and then its final answer,
as language models and rationale datasets write it. The final answer is what the question's
frame states; the working stays, as written, before that statement (CAP-Statements' convention).

The final answer is the answer's last sentence when it is
- labelled: "A: 18", "Answer: 32", "Final answer: 9", "The answer is: 17", "So the answer is 5.",
  "Therefore, the answer (arabic numerals) is 39." (a label the working's own sentences lack);
- a lone value after the working: "51 - 17 = 34" + "34" (GSM8K's "#### 34" once its mark goes,
  a "\\boxed{34}" once unboxed);
- a plain sentence after working that has an equation: "27 + 41 + 20 = 88" + "Sally has 88 cards now."
"""

import re
from typing import List, Tuple

from capqa.statements.rules.lexicon import WORKING_LABELS

# A conclusion's connective and its answer noun ("So, the correct option is ..."), for every pattern that
# reads a worked answer's conclusion.
CONCLUDING = r"(?:so|thus|therefore|hence),?\s++"
ANSWER_NOUN = r"(?:final\s++|correct\s++|right\s++|best\s++)?(?:answer|option|choice)"
# "The answer is: 17", "So the correct option is (C).", "Therefore, the answer (arabic numerals) is 39."
_FINAL_LABEL = re.compile(
    rf"^(?:(?:A|(?:the\s++)?(?:final\s++)?answer)\s*+[:=]\s*+|(?:{CONCLUDING})?the\s++{ANSWER_NOUN}"
    r"(?:\s*+\([^()\n]{1,40}\))?\s++is(?:\s*+:)?\s++)(?P<value>\S.{0,80}?)[.\s]*$", re.IGNORECASE)
# A value alone: a number with its currency, sign, per cent and up to two unit words ("34", "$6.75", "14 days"),
# a formula, or a date or time ("May 17, 2021", "12:15 PM") is no lone value: it needs a label.
LONE_VALUE = re.compile(r"^[$€£]?+[-−]?+\d[\d,]*+(?:\.\d++)?+%?+(?:\s++[A-Za-z]++){0,2}\.?$|^\$[^$\n]{1,40}\$\.?$")
# An equation of the working: "=" with a number or a variable on one side ("51 - 17 = 34", "x = 9").
_EQUATION = re.compile(r"[\w)]\s*+=\s*+[-−$]?[\w(]")
_DIGIT = re.compile(r"\d")
# A label that opens a line of reasoning ("Step 2:", "Explanation:", "Step 3 -", bold: "**Explanation:**"); a
# bullet's kin.
WORKING_LABEL = re.compile(r"^[ \t]*+(?:\*\*)?(?:" + "|".join(sorted(WORKING_LABELS)) +
                           r")(?:[ \t]++\d{1,2})?[ \t]*+[:.)–-](?:\*\*)?[ \t]++(?=\S)", re.IGNORECASE | re.MULTILINE)
_BOXED = "\\boxed{"
_NUMBER = re.compile(r"[-−]?\d[\d,]*+(?:\.\d++)?")
# The chain-of-thought prompt said back at the answer's start ("Let's think step by step.", "Let me work
# this out step by step:"): it claims nothing.
COT_OPENING = re.compile(r"^(?:let(?:'s|’s| us)|let me|i(?:'ll|’ll| will)|we(?:'ll|’ll| will)) (?:think|work|"
                         r"reason|solve|go|break)\b[^.!?:]{0,40}?step[- ]by[- ]step[\s.!:,;]*+", re.IGNORECASE)
# The marks of a final answer's line: GSM8K's "####", emphasis ("**34**").
_LINE_MARKS = re.compile(r"^[ \t]*+#{1,6}[ \t]*+|^[ \t]*+\*{1,3}+|\*{1,3}+[ \t]*+$")  # not "2*9"'s


def final_answer(sentences: List[str]) -> Tuple[List[str], Tuple[str, ...]]:
    """([the final answer], the working) of a worked answer (see the module docstring); the
    sentences as they are, and no working, for any other answer."""
    if len(sentences) < 2:
        return sentences, ()
    last, working = sentences[-1], tuple(sentences[:-1])
    label = _FINAL_LABEL.match(last)
    if label:
        return [label.group("value")], working
    if LONE_VALUE.match(last) and any(_DIGIT.search(sentence) for sentence in working):
        return [last], working  # "The farmer had 51 cows and sold 17. 51 - 17 = 34." + "34"
    if _EQUATION.search(working[0]) and _DIGIT.search(last) and not _EQUATION.search(last):
        return [last], working  # the first sentence is working, not the answer: the last one states the result
    return sentences, ()


def final_line(answer: str) -> Tuple[str, str]:
    """(the answer before its last line, that line) when the last line is a lone value after
    reasoning ("51 - 17 = 34" + "#### 34", "... = 70 red peaches." + "\\boxed{70}"), its marks gone; else
    (the answer, ""). Cut off before the sentences are split, as "= 34. 34" reads as one number."""
    body, _, last = answer.rstrip().rpartition("\n")
    value = _LINE_MARKS.sub("", last).strip()
    if not body.strip() or not LONE_VALUE.match(value) or not _DIGIT.search(body):
        return answer, ""
    return body, value


def unboxed(text: str) -> str:
    """``text`` with each "\\boxed{X}" written as X: the box marks the final answer, it says nothing
    ("= \\boxed{6+9i}" -> "= 6+9i", "\\boxed{\\frac{1}{2}}" -> "\\frac{1}{2}"). Linear: one pass per box."""
    start = text.find(_BOXED)
    if start < 0:
        return text
    out, position = [], 0
    while start >= 0:
        depth, end = 1, start + len(_BOXED)
        while end < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        if depth:
            break  # an unclosed box: the rest as written
        value, before = text[start + len(_BOXED):end - 1], text[position:start]
        if before.endswith("$") and text.startswith("$", end) and _NUMBER.fullmatch(value):
            before, end = before[:-1], end + 1  # "$\\boxed{8}$": a number, no formula once unboxed
        out.append(before + value)
        position = end
        start = text.find(_BOXED, position)
    return "".join(out) + text[position:]
