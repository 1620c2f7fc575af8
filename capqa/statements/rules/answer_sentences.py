"""An answer as people and LLMs write it, reduced to the sentences that claim something.

``answer_sentences(answer)`` removes what states nothing about the question and keeps every
claim, extra ones included (CAP's overinclusive classes exist because of them):

- markdown (emphasis, headings, bullets, numbered items, links, code) and emoji;
- citation marks ("[1]", "^2");
- filler and chat sentences ("Sure!", "Great question!", "Hello, this is Bing.", "I hope this
  helps!", "Let me know if ...");
- disclaimers ("As an AI language model, I don't have access to real-time data."), and a
  connective left dangling after one ("However, ..." -> "...");
- questions ("To avoid predators what is a good strategy? Camouflage.", "Want to know more?"),
  when a sentence that claims something is left.

A numbered or bulleted list becomes one list ("A, B and C"). Sentences are split where a full
stop ends one, not after an initial or an abbreviation ("Sgt. Pepper's", "J. R. R. Tolkien").
Every pattern here is linear in the length of the text: no nested quantifiers, and anchored
patterns run on one sentence at a time.
"""

import re
import unicodedata
from typing import Callable, List

from capqa.statements.rules.code import CODE_SPAN, FENCE_LANGUAGE, MATH_SPAN, code_chunks, is_code, span_body
from capqa.statements.rules.lexicon import (COPULAS, DETERMINERS, PREPOSITIONS, TABLE_NO, TABLE_YES, TOTAL_WORDS,
                                            WHITESPACE)
from capqa.statements.rules.morphology import lemmas_of
from capqa.statements.rules.worked import COT_OPENING, WORKING_LABEL, final_line, unboxed

_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]{1,300})\]\([^()\s]{1,500}\)")
# (an index inside code goes on: "key=lambda x: x[1])", "a[0] = 5", "row[2].strip()" are no citations)
_CITATION = re.compile(r"\[\d{1,3}\](?![)=(]|\s*+=|\.\w)|\^\d{1,3}|【[^】\n]{0,40}】")
# An identifier that is code before an index: dotted or with an underscore ("df.iloc[0]", "my_list[2]").
_CODE_BEFORE_INDEX = re.compile(r"(?:\w\.\w+|_\w*)$")
# Emphasis marks open a word or close one: "**bold**", "*Plain toast:*". An asterisk between two
# words or numbers, or inside brackets, is code or arithmetic ("4*20", "2 * 9", "COUNT(*)") and stays, and
# so does one before ".word" (a glob: "'*.txt'"). Emphasis may open or close next to a held span ("**$x$**").
_EMPHASIS = re.compile(r"(?<![^\s(\[\"'“])\*{1,3}+(?=[\w\"'“(\[$£€–−+\uE000-\uF7FF-])|"
                       r"(?<=[\w.!?:;,)\]\"'”%\uE000-\uF7FF])\*{1,3}+(?![^\s.,;:!?)\]\"'”])(?!\.\w)|"
                       r"(?<!\w)_{2}|_{2}(?!\w)|`+")
# A code span or formula stands in the prose as one private-use character while the prose is cleaned.
_HELD_CODE = 0xE000
_MAX_HELD_CODE = 0x1800
_HELD = re.compile("[\uE000-\uF7FF]")
_CODE_TOKEN = re.compile(r"[^\s`]+")
_MAX_CODE_TOKENS = 200
_AMOUNT = re.compile(r"^[$€£]?+\d[\d,]*+\.\d++$")
_LINE_END_WORDS = 3
_LIST_ITEM_WORDS = 8
_HEADING = re.compile(r"^#{1,6}(?:[ \t]++|$|(?=[^\W\d]))", re.MULTILINE)  # "#4" is a rank, no heading
_BLOCKQUOTE = re.compile(r"^[ \t]*+>{1,3}[ \t]++(?=\S)", re.MULTILINE)  # "> quoted text": markdown's quote mark
# A bullet before anything ("- 40 h × $10 = $400"); a number's item mark before a word, as "1. 5" may be a number
_BULLET = re.compile(r"^[ \t]*+(?:[-*•·▪‣][ \t]++(?=\S)|\d{1,3}[.)][ \t]++(?=[^\d\s]))", re.MULTILINE)
_INLINE_NUMBERED = re.compile(r"(?:^|(?<=\s))(\d{1,2})\.[ \t]++(?=\S)")
# Sentence ends: . ! ? (and a closing quote or bracket) before a space and a capital, digit,
# quote or bracket; not after an initial ("J."), a one- or two-letter abbreviation, or a title.
_ABBREVIATIONS = frozenset("mr mrs ms dr st mt sgt col gen lt capt prof sr jr vs etc inc ltd co corp no fig "
                           "approx ca jan feb mar apr jun jul aug sep sept oct nov dec e.g i.e u.s u.k rs".split())
# The look-behind and the possessive runs keep it linear on a million "." or "!" in a row: a
# match can start only where a run of marks starts, and a failed one gives nothing back.
_WORD_WINDOW = 40
_EQUATION_START = re.compile(r"\d[\d,.]*+ [^=.!?\n]{1,60}?=")  # a line of working: "40 h × $10 = $400"
# "$" closes a formula ("Find $p(8).$ Then ..."), and so does a display's "\]", which may run into
# the next sentence ("... = 144. \]In total, ...")
_BOUNDARY = re.compile(r"(?<![.!?])[.!?]++[\"”’')\]$]*+(?:\s*+\\\]\s*+|\s++)")

_FILLER_SENTENCE = re.compile(
    r"^(?:sure|certainly|of course|absolutely|okay|ok|great question|good question|excellent question|"
    r"hello|hi|hey|thanks|thank you|happy to help|glad to help|here(?:'s| is) (?:the|your|my|what)\b[^.!?]{0,60}|"
    r"i hope (?:this|that) helps|hope (?:this|that) helps|let me know\b.*|feel free\b.*|"
    # a reasoning's announcement: "Let's think step by step.", "Let's analyse each option."
    r"let(?:'s| us| me) (?:think|analy[sz]e|look at|consider|go through|work through|solve|break)\b[^.!?]{0,40}|"
    r"hello,? this is bing|this is bing|i(?:'m| am) (?:bing|chatgpt|an ai)\b.*|"
    r"is there anything else\b.*|do you have any other questions\b.*|it depends|"
    r"(?:that's|that is|this is|what) an? (?:\w+ ){0,2}question|"
    r"(?:i )?(?:hope|trust) (?:this|that) (?:answers|clarifies)\b.*)[\s!.,:;]*$",
    re.IGNORECASE)
_DISCLAIMER = re.compile(
    r"^(?:as an ai(?: language model| assistant| model)?|as a language model|as of my (?:last )?(?:knowledge|training)"
    r"(?: cutoff| update)?(?: date)?(?: in \w+ \d{4})?|i (?:do not|don't|cannot|can't|am unable to|am not able to) "
    r"(?:have access to|access|browse|provide real-time|know the (?:current|latest))|i(?:'m| am) (?:just )?an ai|"
    r"please (?:note|check|verify|consult|keep in mind)|note that|it(?:'s| is) (?:always )?(?:best|important|"
    r"advisable|recommended) to (?:check|verify|consult))\b",
    re.IGNORECASE)
# A disclaiming phrase set off by a comma before a claim of its own.
_DISCLAIMING_PHRASE = re.compile(r"^(?:as an ai(?: language model| assistant| model)?|as a language model|"
                                 r"as of my (?:last )?(?:knowledge|training)[^,]{0,60}|according to my (?:training|"
                                 r"knowledge)[^,]{0,40}|to my knowledge|as far as i know)\s*,\s*", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"^(?:i|i'm|i am|my|we)\b", re.IGNORECASE)
_DANGLING = re.compile(r"^(?:however|but|that said|nevertheless|nonetheless|still|anyway)\s*,?\s+", re.IGNORECASE)
# "As an AI, I can't browse the internet, but X" keeps X.
_DISCLAIMER_BUT = re.compile(r"(?:,\s*+|(?<![\s,])\s++)(?:but|however)(?:\s*+,\s*+|\s++)(?:to answer your "
                             r"question,\s*+)?", re.IGNORECASE)
_MIN_CLAIM_WORDS = 2  # "..., but a town.": an answer to a stem may be two words
_EMOJI_CATEGORIES = ("So", "Cs")
_KEEP_SYMBOLS = frozenset("°©®™№℃℉µΩ←→↑↓±×÷√∞≈≠≤≥")


def strip_markup(text: str) -> str:
    """``text`` without markdown, citation marks and emoji; a numbered or bulleted list becomes
    one list ("A, B and C"). Code (``code``) passes through as written, without its fences and
    backticks: nothing of it is markup."""
    if is_code(text) and not CODE_SPAN.search(text):
        return WHITESPACE.sub(" ", text).strip()
    fenced = "```" in text
    spans: List[str] = []
    if len(_HELD.findall(text)) + text.count("`") < _MAX_HELD_CODE:  # else none held: a mark could be misread
        # The text's own private-use characters are held first, as themselves, so that none is read as a held span.
        text = _HELD.sub(lambda match: _held(match.group(0), spans), text)
        text = CODE_SPAN.sub(lambda match: _held(match.group(0), spans), text)
        text = MATH_SPAN.sub(lambda match: _held(match.group(0), spans, span_body=str), text)
    text = _MARKDOWN_LINK.sub(r"\1", text)
    text = _CITATION.sub(_citation_out, text)
    text = _HEADING.sub("", text)
    text = _BLOCKQUOTE.sub("", text)
    if "|" in text:
        text = _tables_as_bullets(text)
    items = _list_items(text)
    if items:
        text = _as_list(items)
    if "\n" in text:
        text = _introduced_lists(text)
    text = _BULLET.sub("", text)
    text = WORKING_LABEL.sub("", text)
    if not fenced and "\n" in text:  # code's lines are no sentences
        text = _lines_as_sentences(text)
    text = FENCE_LANGUAGE.sub("", text)
    text = _EMPHASIS.sub("", text)
    if not text.isascii():
        text = "".join(char for char in text if not _is_emoji(char))
    if spans:
        text = _HELD.sub(lambda match: _released(match.group(0), spans), text)
    text = WHITESPACE.sub(" ", text).strip()
    return text.lstrip("”’»)]").lstrip() if text[:1] in "”’»)]" else text  # a quote left by a cut title


def _citation_out(match: "re.Match[str]") -> str:
    """"" for a citation mark; an index after code's identifier kept ("df.iloc[0]")."""
    before = match.string[max(0, match.start() - 40):match.start()]
    return match.group(0) if match.group(0)[0] == "[" and _CODE_BEFORE_INDEX.search(before) else ""


def _held(span: str, spans: List[str], span_body: Callable[[str], str] = span_body) -> str:
    """The private-use character that stands for ``span`` while the prose around it is cleaned
    (the span itself when there are too many to hold); ``span_body`` is what comes back (a code
    span's code, a formula as written)."""
    if len(spans) >= _MAX_HELD_CODE:
        return span
    spans.append(span_body(span))
    return chr(_HELD_CODE + len(spans) - 1)


def _released(mark: str, spans: List[str]) -> str:
    index = ord(mark) - _HELD_CODE
    return spans[index] if index < len(spans) else mark


def _introduced_lists(text: str) -> str:
    """A list of short items after a line that ends with a colon joins it as one list: "Six
    teams have never won:" + "- Brewers" + "- Padres" -> "Six teams have never won: Brewers
    and Padres." Items that are sentences (steps) stay lines of their own; items that are all
    equations (a worked answer's lines) are sentences, and so is the line before them."""
    lines = text.split("\n")
    out: List[str] = []
    intro = None  # the last line of ``out`` with text, kept as lines come: a search back is quadratic
    index = 0
    while index < len(lines):
        end = index
        while end < len(lines) and (_BULLET.match(lines[end]) or (end > index and not lines[end].strip() and end + 1 < len(
                lines) and _BULLET.match(lines[end + 1]))):
            end += 1
        items = [_BULLET.sub("", line).strip().rstrip(";,") for line in lines[index:end] if line.strip()]
        if len(items) >= 2 and intro is not None and out[intro].rstrip().endswith(":") and all(
                0 < len(item.split()) <= _LIST_ITEM_WORDS and item[-1:] not in ".!?" for item in items):
            opening = out[intro].rstrip()
            if _ends_in_verb(opening[:-1]) or _ends_in_preposition(opening[:-1]):
                opening = opening[:-1]  # "They also fought:", "Africa is surrounded by:" + items: the items are its object
            out[intro] = f"{opening} {_as_list(items)}."
            del out[intro + 1:]
            index = end
            continue
        worked = len(items) >= 2 and all("=" in item for item in items)
        if worked and intro is not None:
            out[intro] = _ended(out[intro])  # "**$460**" before its working: the answer is a sentence of its own
        for line in lines[index:max(end, index + 1)]:  # a run not joined is passed over whole: linear
            if line.strip():
                intro = len(out)
            out.append(_ended(line) if worked and line.strip() else line)
        index = max(end, index + 1)
    return "\n".join(out)


def _ended(line: str) -> str:
    """A worked line ("- 40 h × $10 = $400") ended as a sentence, unless it ends with a mark."""
    stripped = line.rstrip()
    return stripped + "." if stripped[-1:].isalnum() or stripped[-1:] in "%)$*" else line


def _ends_in_preposition(text: str) -> bool:
    words = text.split()
    return bool(words) and words[-1].lower() in PREPOSITIONS


def _ends_in_verb(text: str) -> bool:
    """Whether ``text`` ends in a finite verb ("They also fought"), not a gerund, a noun or a
    passive's participle ("Three languages are spoken:": the items are no object)."""
    words = text.split()
    last = words[-1].lower() if words else ""
    if len(words) > 1 and words[-2].lower() in COPULAS:
        return False
    lemmas = lemmas_of(last) if last else {}
    return "VERB" in lemmas and "NOUN" not in lemmas and "ADJ" not in lemmas and not last.endswith("ing") and (
        last not in lemmas["VERB"])


def _lines_as_sentences(text: str) -> str:
    """A line of three words or more that ends with no mark, before a line (past blank ones) that
    opens with a capital or an equation, ends a sentence: the lines of a worked solution ("Charleston
    has 4*20=80 sheep" / "Toulouse has ...", "14 - 3 = 11" / "11 + 39 = 50"); a heading or a short
    label ("Plain toast") does not."""
    lines = text.split("\n")
    following = ""
    for index in range(len(lines) - 1, -1, -1):  # backwards: the next line with text is known, past blank ones
        line = lines[index].rstrip()
        ends_bare = line[-1:].isalnum() or (line[-1:] != "" and line[-1:] in "%)$")
        opens = following[:1].isupper() or bool(_EQUATION_START.match(following))  # "14 - 3 = 11" / "11 + 39 = 50"
        if opens and ends_bare and not line.lstrip().startswith("#") and len(
                line.split(None, _LINE_END_WORDS)) >= _LINE_END_WORDS:
            lines[index] = line + "."
        if line.strip():
            following = line.lstrip()
    return "\n".join(lines)


def code_tokens(answer: str) -> List[str]:
    """The words of the answer's code (in backticks or a fence) that have letters, whose case a
    statement must keep ("`sklearn.metrics.confusion_matrix(...)`", "`recv`", "`bool(n)`")."""
    tokens = []
    for body in code_chunks(answer):
        tokens += [token.strip(".,;:") for token in _CODE_TOKEN.findall(body)]
        if len(tokens) >= _MAX_CODE_TOKENS:
            break
    return [token for token in dict.fromkeys(tokens[:_MAX_CODE_TOKENS]) if any(char.isalpha() for char in token)]


def code_case_kept(statement: str, answer: str) -> str:
    """``statement`` with the answer's code written as the code writes it: a piece of code the
    statement holds whole (its spaces aside) is put back byte for byte, whatever capitals the
    sentence or a lower-case query's casing gave it ("lambda KV: KV" -> "lambda kv: kv"); in
    the rest, a code word's capital that opened a sentence, or a name or acronym the casing
    rules made of it, is undone. A plain word of the code (English, or capitalised:
    "Properties") is not, as the statement's own words may be it."""
    statement = _code_pieces_kept(statement, answer)
    # (an article is English even where the code names a variable "a": "A program that ..." keeps its capital)
    tokens = [token for token in code_tokens(answer) if token.lower() in statement.lower() and (
        not token.isalpha() or (token.islower() and not lemmas_of(token) and token not in DETERMINERS))]
    if not tokens:
        return statement
    by_lower = {token.lower(): token for token in sorted(tokens, key=len)}
    pattern = re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(token) for token in sorted(
        by_lower.values(), key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE)
    return pattern.sub(lambda match: by_lower.get(match.group(0).lower(), match.group(0)), statement)


def _code_pieces_kept(statement: str, answer: str) -> str:
    """``statement`` with each piece of the answer's code that it holds in other capitals written
    as the code writes it (``code_case_kept``)."""
    for chunk in code_chunks(answer):
        code = WHITESPACE.sub(" ", chunk).strip()
        lowered = code.lower()
        if len(lowered) != len(code) or code in statement:
            continue  # written as it is already (or a case change that alters the length: not searched)
        position = statement.lower().find(lowered)
        if position >= 0 and len(statement.lower()) == len(statement):
            statement = statement[:position] + code + statement[position + len(code):]
    return statement


def _is_emoji(char: str) -> bool:
    if char in _KEEP_SYMBOLS:
        return False
    code = ord(char)
    if 0x1F1E6 <= code <= 0x1F1FF or 0xFE00 <= code <= 0xFE0F or code in (0x200D, 0x20E3):
        return True  # flags, variation selectors, joiners
    return unicodedata.category(char) in _EMOJI_CATEGORIES and code > 0x2000


def _list_items(text: str) -> List[str]:
    """The items of an answer that is only a numbered list ("1. Cory 2. Kory 3. Korey"), or of
    short bulleted lines; [] otherwise."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 2 and all(_BULLET.match(line) for line in lines):
        items = [_BULLET.sub("", line).strip().rstrip(".;,") for line in lines]
        if all(0 < len(item.split()) <= 6 for item in items):
            return items
    numbered = list(_INLINE_NUMBERED.finditer(text))
    if len(numbered) >= 3 and numbered[0].start() == 0 and [int(match.group(1)) for match in numbered] == list(
            range(1, len(numbered) + 1)):
        ends = [match.start() for match in numbered[1:]] + [len(text)]
        items = [text[match.end():end].strip().rstrip(".;,") for match, end in zip(numbered, ends)]
        if all(0 < len(item.split()) <= 6 for item in items):
            return items
    return []


_TABLE_LINE = re.compile(r"^[ \t]*+\|.*\|[ \t]*+$")
_TABLE_RULE = re.compile(r"^[ \t|:]*+-[ \t|:-]*+$")


def _tables_as_bullets(text: str) -> str:
    """A markdown table (a header line, its rule of dashes, rows) as the answer's words. A table
    that is the whole answer is a bulleted list of its rows, which the list rules then join ("A, B
    and C"): a row is its first cell, the thing it is about, with its other cells in brackets
    ("Helium (He)"); a cell that only says yes goes ("| Saturn | yes |" -> "Saturn"), and a row
    whose one other cell says no is no item of the answer. A table of working with a total row is
    its total ("| **total** | **$57.00** |" -> "$57.00"). A table beside prose is the prose's
    support, which the prose states: it goes, and a colon that introduced it ends its sentence."""
    lines = text.split("\n")
    tables = []
    index = 0
    while index < len(lines):
        end = index
        while end < len(lines) and _TABLE_LINE.match(lines[end]):
            end += 1
        if end - index >= 3 and _TABLE_RULE.match(lines[index + 1]):
            tables.append((index, end))
        index = max(end, index + 1)
    if not tables:
        return text
    inside = {line for begin, end in tables for line in range(begin, end)}
    prose = [line for number, line in enumerate(lines) if number not in inside and line.strip()]
    if not prose and len(tables) == 1:
        begin, end = tables[0]
        return "\n".join(_table_items(lines[begin + 2:end]))
    out: List[str] = []
    for number, line in enumerate(lines):
        if number in inside:
            last = next((position for position in range(len(out) - 1, -1, -1) if out[position].strip()), None)
            if last is not None and out[last].rstrip().endswith(":"):
                out[last] = out[last].rstrip()[:-1] + "."
            continue
        out.append(line)
    return "\n".join(out)


def _table_items(rows: List[str]) -> List[str]:
    """A whole answer's table as lines: its total alone, or its rows as bullets (``_tables_as_bullets``)."""
    items = []
    for row in rows:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if not cells or not cells[0]:
            continue
        values = [cell for cell in cells[1:] if cell and cell.strip("*_").lower() not in TABLE_YES]
        if cells[0].strip("*_ ").lower() in TOTAL_WORDS and values:
            return [", ".join(value.strip("*_ ") for value in values)]
        if len(cells) == 2 and values and values[0].strip("*_").lower() in TABLE_NO:
            continue
        items.append(f"{cells[0]} ({', '.join(values)})" if values else cells[0])
    return [f"- {item}" for item in items]


def _as_list(items: List[str]) -> str:
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def split_sentences(text: str) -> List[str]:
    """``text`` cut into sentences (an initial or an abbreviation does not end one); in a text
    written all in lower case ("in florida it is illegal ... sunday. this is an example of"), a
    full stop ends a sentence before a lower-case word too."""
    sentences, start = [], 0
    lowercase = text == text.lower() and any(char.isalpha() for char in text[:200])
    for match in _BOUNDARY.finditer(text):
        end = match.end()
        if end >= len(text):
            break
        if not _ends_sentence(text, match.start(), end, lowercase):
            continue
        sentences.append(text[start:end].strip())
        start = end
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def quote_whole_sentences(text: str) -> List[str]:
    """``split_sentences``, but a quoted text is never cut: a break inside an open double quote
    ends no sentence of the text around it ('The comment "Oh great, another Monday. Just what I
    needed." is sarcastic.' is one sentence, whose quote is one constituent)."""
    sentences: List[str] = []
    for sentence in split_sentences(text):
        if sentences and _quote_open(sentences[-1]):
            sentences[-1] = f"{sentences[-1]} {sentence}"
        else:
            sentences.append(sentence)
    return sentences


def _quote_open(text: str) -> bool:
    return text.count('"') % 2 == 1 or text.count("“") > text.count("”")


def _ends_sentence(text: str, mark: int, next_start: int, lowercase: bool = False) -> bool:
    following = text[next_start:next_start + 1]
    if not (following.isupper() or following.isdigit() or following in "\"'“‘([" or (lowercase and following.isalpha())):
        return False
    if text[mark] != ".":
        return True
    if following.isdigit() and text[mark - 1:mark].isdigit() and not _EQUATION_START.match(text, next_start):
        return False  # "63. 0": a number; "$460. 40 h × $10 = $400.": a worked line starts
    window = max(0, mark - _WORD_WINDOW)  # an abbreviation is short: never search the whole text back
    word_start = max(text.rfind(" ", window, mark), text.rfind("(", window, mark), window - 1) + 1
    word = text[word_start:mark].lower().lstrip("\"'“‘([")
    if text.startswith(("$", "\\]"), mark + 1):
        return True  # a formula closes after its full stop ("... = n.$ Enter ..."): no initial is in a formula
    if len(word) == 1 and word.isalpha() and (text[mark - 1].isupper() or lowercase or not following.isupper()):
        # an initial: "J. K. Rowling", "(d. 1998)"; a lower-case letter before a capital is a variable: "Given a
        # string s. Print ..."
        return False
    if _AMOUNT.match(word):
        return True  # "... he spends $300.00. A: 300": a number with decimals ends a sentence
    return word.rstrip(".") not in _ABBREVIATIONS and "." not in word[-3:-1]


_DASH_CLAUSE = re.compile(r"(?<!\s)\s++[—–-]{1,2}\s++(?=(?:it|they|he|she|this|these|that|there)\s)", re.IGNORECASE)


def _dash_clauses(sentence: str) -> List[str]:
    """"Canberra — it is often confused with Sydney." -> two sentences: a clause after a dash
    with a pronoun subject is a claim of its own."""
    parts = _DASH_CLAUSE.split(sentence)
    return [parts[0]] + [_capitalised(part) for part in parts[1:]] if len(parts) > 1 else [sentence]


def answer_sentences(answer: str) -> List[str]:
    """The answer's sentences that claim something (see the module docstring); [] when it has
    none (a refusal or a bare filler). An answer that is code as a whole is one claim, never cut
    at its full stops ("# ... work ...")."""
    if is_code(answer):
        return [strip_markup(answer)]
    answer, value = final_line(unboxed(answer))
    sentences = [part for sentence in split_sentences(strip_markup(answer)) for part in _dash_clauses(sentence)]
    kept: List[str] = []
    dropped_disclaimer = False
    for sentence in sentences:
        opening = COT_OPENING.match(sentence)
        sentence = _capitalised(sentence[opening.end():]) if opening else sentence
        if not sentence or _FILLER_SENTENCE.match(sentence):
            continue
        if _DISCLAIMER.match(sentence):
            rest = _after_disclaimer(sentence)
            dropped_disclaimer = True
            if not rest:
                continue
            sentence = rest
        if dropped_disclaimer and not kept:
            sentence = _capitalised(_DANGLING.sub("", sentence, count=1))
        if not kept and sentence.lower().startswith(("hello", "hi,", "hi ")) and "," in sentence[:20]:
            sentence = _capitalised(sentence.split(",", 1)[1].strip())
        kept.append(sentence)
    claims = [sentence for sentence in kept if not sentence.endswith("?")]
    # A question claims nothing: the question repeated before the answer, "Want to know more?".
    return (claims if claims else kept) + ([value] if value else [])  # a worked answer's lone final value last


def _after_disclaimer(sentence: str) -> str:
    """What a disclaimer sentence goes on to claim: after "but" ("As an AI, I can't browse, but
    World War II ended in 1945."), or after the comma of a disclaiming phrase ("As of my last
    training data, a core principle of the party is ..."); "" when it claims nothing."""
    parts = _DISCLAIMER_BUT.split(sentence, maxsplit=1)
    if len(parts) == 2 and len(parts[1].split()) >= _MIN_CLAIM_WORDS:
        return _capitalised(parts[1].strip())
    phrase = _DISCLAIMING_PHRASE.match(sentence)
    if phrase:
        rest = sentence[phrase.end():].strip()
        if len(rest.split()) >= 3 and not _DISCLAIMER.match(rest) and not _FIRST_PERSON.match(rest):
            return _capitalised(rest)
    return ""


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text
