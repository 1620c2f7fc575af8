"""A worked answer: reasoning (lines of equations, a chain of steps) and then its final answer,
as language models and rationale datasets write it. The final answer is what the question's
frame states; the working stays, as written, before that statement (CAP-Statements' convention).

The final answer is the answer's last sentence when it is
- labelled: "A: 18", "Answer: 32", "Final answer: 9", "The answer is: 17", "So the answer is 5.",
  "Therefore, the answer (arabic numerals) is 39." (a label the working's own sentences lack);
- a lone value after the working: "51 - 17 = 34" + "34" (GSM8K's "#### 34" once its mark goes,
  a "\\boxed{34}" once unboxed);
- a plain sentence after working that has an equation: "27 + 41 + 20 = 88" + "Sally has 88 cards now.",
  or a last equation chain's value after it ("21/3 = 7" + "so its perimeter is 6 * 7 = 42 inches.").

A final answer worked out in its own sentence ("Cost Price = 240 + 60 = Rs.300", "5a = 45, so a = 9
cents") answers with its chain's last value (``equation_conclusion``), the sentence kept as working.
"""

import re
from typing import List, Optional, Tuple

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
# Working that names an unknown before its equations: "Let w be the width.", "Let x = the number of apples."
_UNKNOWN_NAMED = re.compile(r"^let\s++\$?[A-Za-z]\$?\s++(?:be|=|denote|represent)\b", re.IGNORECASE)
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
    if (_EQUATION.search(working[0]) or _UNKNOWN_NAMED.match(working[0])) and _DIGIT.search(last) and (
            not _EQUATION.search(last) or _CHAIN_VALUE.search(last)):
        # the first sentence is working, not the answer: the last one states the result ("... so its
        # perimeter is 6 * 7 = 42 inches.": its chain's value, ``equation_conclusion``)
        return [last], working
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


# The value an equation chain ends in ("= Rs.300", "= 60 km/hr", "= $x = 7$", "= 40 cm²", "= \\frac{1}{2}$"):
# a currency, a number (a fraction), a per cent, and up to three unit words ("km/hr", "salty cookies",
# "km per hour"), or a formula's plain value before its closing "$". Only what ends the sentence is the value.
_CURRENCY = r"(?:Rs\.?\s*+|INR\s*+|USD\s*+|[$€£₹])"
_CHAIN_VALUE = re.compile(
    rf"=\s*+(?P<value>(?P<currency>{_CURRENCY})?(?P<number>[-−]?\d[\d,]*+(?:\.\d++)?(?:/\d++)?%?)"
    r"|(?P<latex>[-−]?\d*+(?:\\[dt]?frac\{[^{}$]{1,20}\}\{[^{}$]{1,20}\}|\\sqrt\{[^{}$]{1,20}\}|\\pi)))"
    r"\s*+(?P<closing>\$)?(?P<units>(?:\s*+(?!(?:and|or|so|but|is|are|was|were|if|then|which|that|because|since)\b)"
    r"[A-Za-zµ°][A-Za-z/²³°]*+){0,3})(?P<tail>[\s.!*$]*+)$")
# A conclusion after the working in one sentence: "$100 = 7 \\cdot 14 + 2$, so the remainder is 2."
_CONCLUDED = re.compile(r"^(?P<working>.*[^\s,;])[,;]?\s++(?:so|thus|therefore|hence)\b,?\s*+(?P<conclusion>\S.*)$",
                        re.IGNORECASE)
# A lone equation that only names the value ("x = 15", "$h = 7$"): the statement says it, no working to keep.
_NAMING_EQUATION = re.compile(r"^\$?[A-Za-z]\s*+=\s*+[^=]*$")
_UNIT_STOPS = frozenset(("per",))
_LABELLED = re.compile(r"\banswer\s*+:", re.IGNORECASE)
# Values listed one equation each, bare unknowns: "$x = 3$, $x = 5$ and $x = 7$", "x = 16 and y = 9" (not
# a derivation's "6w = 36 and w = 6")
_VALUE_LIST = re.compile(r"(?<![\w)])\$?[A-Za-z]\$?\s*+=[^=]*?(?:,|\band\b)\s*+\$?[A-Za-z]\$?\s*+=")


def equation_conclusion(sentence: str) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """(the value, the working) of a final answer that is worked out in the sentence itself: an equation
    chain's last value with its currency and units ("Cost Price = 240 + 60 = Rs.300" -> "Rs. 300", "Speed =
    120 / 2 = 60 km/hr", "5a = 45, so a = 9 cents" -> "9 cents"), the sentence kept as working (a lone "x =
    15" is none); or a conclusion after "so" ("$100 = 7 \\cdot 14 + 2$, so the remainder is 2" -> "the
    remainder is 2"). None for a sentence with no equation, or one whose last equation ends in no value
    (its value is inside the sentence: the sentence states it as written)."""
    if "=" not in sentence or "`" in sentence or _LABELLED.search(sentence) or _VALUE_LIST.search(sentence):
        return None  # code, a label's answer with its reasons run on, a list of values ("x = 16 and y = 9")
    chained = _CHAIN_VALUE.search(sentence)
    if chained and chained.group("units").strip().lower() not in _UNIT_STOPS:
        working = () if _NAMING_EQUATION.match(_ending_dropped(sentence)) else (sentence,)
        return _chain_value(chained), working
    concluded = _CONCLUDED.match(sentence)
    if concluded and _EQUATION.search(concluded.group("working")) and not _EQUATION.search(
            concluded.group("conclusion")):
        conclusion = concluded.group("conclusion")  # a sentence of its own now: "The remainder is 2."
        return conclusion[:1].upper() + conclusion[1:], (_ending_dropped(concluded.group("working")) + ".",)
    return None


def _chain_value(chained: "re.Match[str]") -> str:
    """The value of a chain's end, written as a statement says it: "Rs.300" as "Rs. 300", a formula's
    plain number out of its "$" ("$x = 7$" -> "7"), a formula kept in its "$" ("$\\frac{1}{2}$")."""
    units = " ".join(chained.group("units").split())
    if chained.group("latex"):
        value = f"${chained.group('latex')}$"
    else:
        currency = chained.group("currency") or ""
        currency = "Rs. " if currency.startswith("Rs") else currency.strip() + (" " if currency[:1].isalpha() else "")
        value = currency + chained.group("number")
    return f"{value} {units}" if units else value


def _ending_dropped(text: str) -> str:
    return text.rstrip(" .!*")
