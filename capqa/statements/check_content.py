"""Whether a statement keeps what its question and answer say, and leaves out their formatting:
the string half of ``statement_issues`` added for issue 31.

- ``code_altered``: every code token of the answer (in backticks or a code block, or a token that
  only code writes: ``f(x)``, ``a.b``, ``x[1]``, ``2*9``, an operator between numbers) is in the
  statement as written, case included ("sklearn" is not "Sklearn", ``COUNT(*)`` not ``COUNT()``);
- ``question_missing``: the question's own words (its conditions and frame: "If she works 50
  weeks a year, ...") are mostly absent from what the statement says after the question's context;
- ``frame_lost``: the statement is the answer's own sentence and none of the question's words
  ("The film was shot in Canada." to "where was the film coming home for christmas filmed");
- ``lines_joined``: lines of the answer run together with no sentence break ("... 5 hours a day
  There are 7 days ..."); a code block's lines may be joined;
- ``markup_left``: a markdown table, a code fence or its language tag, bold marks, a heading;
- ``label_left``: an answer label ("A: 8", "Answer: B", "So the answer is (C)");
- ``options_left``: the question's options listed in the statement ("972; 451; 100; or 25 is 451").

Each test is one pass over its strings, with sets for membership (never a search per token), so
linear in the inputs.
"""

import functools
import re
from typing import Dict, FrozenSet, List, Tuple

from capqa.statements.rules.code import code_chunks, is_code
from capqa.statements.rules.lexicon import (AUXILIARIES, CLAIM_NOUNS, CLAIM_NOUNS_PATTERN, DETERMINERS, JUDGING_VERBS,
                                            NEGATIVE_VERDICTS, POSITIVE_VERDICTS, PREPOSITIONS, PRONOUNS, TRUTH_WORDS)
from capqa.statements.rules.morphology import lemmas_of
from capqa.statements.rules.worked import unboxed

MAX_WORDS = 400  # of the question and of the answer: the frame and the claims are in their first words
MAX_CHARS = 8000
_FENCE = re.compile(r"```[ \t]*+([\w+#.-]*+)[^\n]*+\n(.*?)(?:```|\Z)", re.DOTALL)
_INLINE_CODE = re.compile(r"`([^`\n]{1,300})`")
# Code-only shapes: a call or index, an attribute path, operators inside a token, assignment.
_CODE_TOKEN = re.compile(r"\w[\w.]*+[(\[][^\s]*+|[\w)\]]\.[A-Za-z_]\w*+|\w[*/^=<>+]+[\w.($-]|[\w)\]]\*\*[\w(]|"
                         r"[=!<>]=|->|=>|::|\w_\w")
_OPERATOR = frozenset("* / + = × ÷ ^ ** - − < > <= >= == != %".split())
_NUMBER = re.compile(r"^[$€£]?\(?[\d.,]+\)?%?$")
_BOLD = re.compile(r"(?<!\S)\*\*(?=\S)|(?<=\S)\*\*(?![\w(])|(?<![\w*])\*(?=[A-Za-z])|(?<=[A-Za-z.!?)])\*(?![\w*])")
_TABLE = re.compile(r"\|\s*+:?-{3,}|(?:\|[^|\n]{1,80}){3,}\|")
# A list's marks left in a sentence: two bullets ("... are: - Saturn - Jupiter") or items numbered 1 and 2.
_LIST_LEFT = re.compile(r"(?:^|(?<=[:.!?] ))[-*•] [^-*•\n]{1,80}? [-*•] (?=\w)|(?:^|(?<=[:.!?] ))1[.)] [^\n]{1,80}? 2[.)] (?=[A-Za-z])")
# A heading's marks open the statement or a sentence: inside one, after code ("hex(255) # '0xff'"),
# "#" is the code's comment, which is kept as written.
_MARKUP = re.compile(r"```|(?:^|(?<=[.!?:] ))#{1,6} |\*\*(?=\w)|(?<=\w)\*\*")
# "the answer is" before an option letter or a colon is a label; "So the answer is 284." a sentence.
_LABEL = re.compile(r"(?:^|(?<=[.!?] ))(?:A|Answer|ANSWER|Final answer|Correct answer)\s*+:\s*+\S|"
                    r"\b(?:so |thus |therefore )?the (?:final |correct )?answer is"
                    r"(?:\s*+[:(]|\s++(?-i:[A-E])\b(?!['’]))", re.IGNORECASE)
# An option letter left as a word: "A, a tiger hunting a deer, ...", "C — lift their shoulders ...".
# A bracketed letter after a comma or "so" ("... = 2/5, so (A)."), or a bare one after "so" before a
# lower-case word or the end ("75 shirts, so B in the two days"), is a choice named too; not a name's
# "so A Tribe Called Quest" nor a list's ", A knockout punch".
# An option's letter with its period before the option's own article ("B. A Day at the Zoo can be ...",
# "According to the passage, C. The museum ..."): no initial stands before "A" or "The".
_OPTION_LETTER = re.compile(r"(?:^|[.!?] |\b(?:to|is|are|be|was|were) )[A-E](?:,| [—–]| ?\)) |"
                            r"(?:^|, )[A-E]\. (?:A|An|The) |"
                            r"(?:,|\b(?:so|thus|hence|therefore)) \([A-E]\)|"
                            r"\b(?:so|thus|hence|therefore),? [A-E](?=[.!]?$| [a-z])")
_LIST_MARKER = re.compile(r"(?:^|(?<=\s))\(?(?:[ivx]{1,4}|[A-Ea-e])\)\s")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_UNFRAMING = frozenset(
    "what which who whom whose when where why how following statement statements best most least likely true "
    "correct answer option options choice choices one none not no yes if then than also only about approximately "
    "according so its it's does do did is are was were be been being has have had will would can could should "
    "shall may might must there here this that these those them they their he she his her him i you your we our "
    "me my and or but of to in on at by for with from as into than".split()) | AUXILIARIES | PREPOSITIONS | (
    DETERMINERS) | PRONOUNS


@functools.lru_cache(maxsize=16384)
def code_tokens(answer: str) -> Tuple[str, ...]:
    """The answer's code, as the tokens that must reach the statement verbatim: every token of a
    code block or of backticks, and the code-only tokens of its prose (operators between numbers
    as "2 * 9"). Kept by answer: two tests read them."""
    tokens: List[str] = []
    prose = answer
    for match in _FENCE.finditer(answer):
        tokens += match.group(2).split()
    prose = _FENCE.sub(" ", prose)
    for match in _INLINE_CODE.finditer(prose):
        tokens += match.group(1).split()
    prose = _BOLD.sub("", _INLINE_CODE.sub(" ", prose))
    words = prose.split()
    for index, word in enumerate(words):
        if _CODE_TOKEN.search(word) and not _is_prose_token(word):
            tokens.append(word)
        elif word in _OPERATOR and 0 < index < len(words) - 1 and _NUMBER.match(words[index - 1].rstrip(",;:")) and (
                _NUMBER.match(words[index + 1].rstrip(",;:.")) or words[index + 1][:1] in "$(€£"):
            tokens.append(f"{words[index - 1]} {word} {words[index + 1]}")
    return tuple(_trimmed(token) for token in tokens if _trimmed(token))


def _is_prose_token(word: str) -> bool:
    """Dotted words of prose: "U.S.", "e.g.", "No.4", "Mr.", "3.5", "p.m.", a URL-less domain ends."""
    core = word.strip("\"'“”‘’()[],;:!?")
    return bool(re.fullmatch(r"(?:[A-Za-z]{1,3}\.){1,4}[A-Za-z]{0,3}|[\d.,]+%?|[A-Z][a-z]{0,3}\.\d*+", core))


def _trimmed(token: str) -> str:
    """A token without the sentence punctuation a statement may end it with."""
    return token.rstrip(".,;:!?") if not token.endswith(("()", "...")) else token


def code_altered(answer: str, statement: str) -> bool:
    """Whether a code token of the answer is not in the statement as written; a "\\boxed{X}" of the
    answer is X, as the converter reads it (the box marks the final answer: "= \\boxed{6+9i}" is "= 6+9i")."""
    tokens = code_tokens(unboxed(answer[:MAX_CHARS]))
    if not tokens:
        return False
    said = statement.split()
    single = set(said) | {_trimmed(word) for word in said} | {word.strip(_WRAPPING) for word in said} | {
        _trimmed(word.strip(_WRAPPING)) for word in said}
    triples = {_trimmed(" ".join(said[index:index + 3])) for index in range(len(said) - 2)}
    for token in tokens:
        if " " in token:
            if token not in triples and _trimmed(token) not in triples:
                return True
        elif token not in single and token.strip(_WRAPPING) not in single:
            return True
    return False


_WRAPPING = "\"'“”‘’()[]{},;:"


def question_missing(question: str, statement_rest: str, answer: str) -> bool:
    """Whether the statement (after the question's context sentences) drops what the question
    sets: a condition ("If she works 50 weeks a year, ..., what's her annual salary?" -> "Her
    annual salary is $57,500.": three or more of the clause's words, and most of them, absent from
    the statement and the answer), or a NOT / EXCEPT frame stated without any negation."""
    said = _content_keys(statement_rest, numbers=True) | _content_keys(answer, numbers=True)
    for condition in _CONDITION.findall(question[:MAX_CHARS]):
        asked = _content_keys(condition, numbers=True)
        missing = [key for key in asked if key not in said]
        if len(missing) >= 3 and len(missing) * 2 > len(asked):
            return True
    return bool(_EXCLUDING.search(question[:MAX_CHARS])) and not _NEGATION.search(statement_rest)


# A condition or situation the question sets, up to the next comma or the wh-word that asks.
_CONDITION = re.compile(r"\b(?:if|when(?!\s++(?:did|does|do|is|are|was|were|will|would|can|could|should|has|have|had)\b)|"
                        r"while|whenever|assuming|suppose|supposing|given that|unless|provided that)\b"
                        r"[^,?;]{3,300}+(?:,[^,?;]{1,120}+(?=,\s*+(?:what|which|who|how|when|where|why)\b))?",
                        re.IGNORECASE)
_EXCLUDING = re.compile(r"\b(?:NOT|EXCEPT|LEAST)\b|\bwhich\b[^?]{0,80}\b(?:is|are|was|were|would|does|do|could|"
                        r"can|will|did) not\b")
_NEGATION = re.compile(r"\b(?:not|no|never|none|neither|nor|without|cannot|nothing|least|except)\b|n['’]t\b",
                       re.IGNORECASE)


# A time the question sets: a preposition and a year ("in 1990", "during the 1960s").
_TIME_SET = re.compile(r"\b(?:in|on|during|since|after|before|until|by|from|between)\s+(?:the\s+)?(?:early\s+|late\s+|mid\s+)?"
                       r"((?:1[0-9]|20)[0-9]{2})s?\b", re.IGNORECASE)


def time_dropped(question: str, statement_rest: str, answer: str) -> bool:
    """Whether a year the question sets with a preposition ("Who was president in 1990?") is in
    neither the statement nor the answer: the statement claims it for any time."""
    said = f"{statement_rest} {answer}"
    return any(match.group(1) not in said for match in _TIME_SET.finditer(question[:MAX_CHARS]))


# The question's preposition before a phrase with an article ("in the second half").
_PLACED_PHRASE = re.compile(r"\b(in|on|at|during|after|before|under|into|from|with|for|to)\s+(the|a|an)\s+([a-z][\w-]*+)",
                            re.IGNORECASE)


def preposition_moved(question: str, statement_rest: str, answer: str) -> bool:
    """Whether a phrase the question puts after a preposition ("... in the second half?") stands
    in the statement without any preposition before it ("Brady threw in two touchdowns the second
    half."): the preposition moved away from its object. A phrase the answer has is its own."""
    lowered = statement_rest.lower()
    for match in _PLACED_PHRASE.finditer(question[:MAX_CHARS]):
        phrase = f"{match.group(2)} {match.group(3)}".lower()
        if phrase in answer.lower():
            continue
        places = [found.start() for found in re.finditer(rf"\b{re.escape(phrase)}\b", lowered)]
        if places and match.group(1).lower() in lowered.split() and not any(
                (lowered[:place].split() or [""])[-1].strip(",") in PREPOSITIONS for place in places):
            return True
    return False


def frame_lost(question: str, statement_rest: str, answer: str) -> bool:
    """Whether the statement is only the answer's own words, the question's frame left out ("The
    band was formed in Philadelphia." to "Not Richard, But Dick was an album by the band formed in
    what city?"): three or more of the question's content words, and three in four of them, absent
    from the statement, and none of the question's words there that the answer did not have. Read
    for a question without context or options (an exam's "Which statement describes ..." is
    answered by its option alone)."""
    if _names_an_alternative(question, statement_rest):
        return False
    asked = _content_keys(question, numbers=True)
    said = _content_keys(statement_rest, numbers=True)
    given = _content_keys(answer, numbers=True)
    missing = [key for key in asked if key not in said]
    added = [key for key in asked if key in said and key not in given]
    return not added and len(missing) >= _FRAME_MISSING and len(missing) >= _FRAME_SHARE * len(asked)


def _names_an_alternative(question: str, statement: str) -> bool:
    """Whether the question ends in a choice between two (", The Rescuers or The Muppets?") and the
    statement names one of them: the choice is the frame, and naming one keeps it ("The Rescuers
    came out first, in 1977.")."""
    alternatives = _ALTERNATIVES.search(question[-200:])
    if not alternatives:
        return False
    said = f" {' '.join(_WORD.findall(statement.lower()))} "
    return any(f" {' '.join(_WORD.findall(choice.lower()))} " in said
               for choice in re.split(r"\s++or\s++", alternatives.group(1)) if _WORD.search(choice))


_FRAME_MISSING = 3
_FRAME_SHARE = 0.75


@functools.lru_cache(maxsize=16384)
def _content_keys(text: str, numbers: bool = False) -> FrozenSet[str]:
    """The lemmas of the text's content words (and its numbers, with ``numbers``); kept by text,
    since the question's and the answer's are read by two tests for each statement."""
    words = _WORD.findall(text.lower())[:MAX_WORDS]
    return frozenset(_key(word) for word in words if word not in _UNFRAMING and "'" not in word and "’" not in word and (
        (numbers and word.isdigit()) or (len(word) > 2 and not word.isdigit())))


@functools.lru_cache(maxsize=65536)
def _key(word: str) -> str:
    """A word's lemma (the first the lexicon gives, any part of speech), or the word."""
    lemmas = lemmas_of(word.replace("’", "'"))
    for part in ("VERB", "NOUN", "ADJ", "ADV"):
        if part in lemmas:
            return lemmas[part][0]
    return word


def lines_joined(answer: str, statement: str) -> bool:
    """Whether two lines of the answer's prose meet in the statement with only a space between
    them, the first not ending a sentence ("... 5 hours a day There are 7 days", a list's items
    "Milwaukee Brewers San Diego Padres")."""
    if is_code(answer[:MAX_CHARS]):
        return False  # code as a whole ("SELECT count(*)\nFROM singer") is kept as code, its lines one run
    prose = _FENCE.sub("\n", answer[:MAX_CHARS])
    lines = [(bool(_ITEM.match(line)), _ITEM.sub("", line).strip()) for line in prose.splitlines()[:MAX_WORDS]]
    lines = [(item, line) for item, line in lines if line]
    if len(lines) < 2:
        return False
    said = [_plain(word) for word in statement.split()]
    pairs = set(zip(said, said[1:]))
    for (_, previous), (item, line) in zip(lines, lines[1:]):
        last, first = _plain(previous.split()[-1]), _plain(line.split()[0])
        if first and last[-1:] not in ".!?:;,\"”" and (item or first[:1].isupper()) and (last, first) in pairs:
            return True
    return False


_ITEM = re.compile(r"^[ \t]*+(?:[-*•·▪‣]|\d{1,3}[.)])[ \t]++")


def _plain(word: str) -> str:
    return word.strip("*_`")


def markup_left(statement: str, code: str = "") -> bool:
    """Markdown left in ``statement``; a mark inside a word of ``code`` (the question's words and the
    answer's code, as given) is that code's own ("**kwargs", "`**bold**`")."""
    if _TABLE.search(statement) or _LIST_LEFT.search(statement):
        return True
    return any(not _in_code(statement, match.start(), code) for match in _MARKUP.finditer(statement))


def _in_code(statement: str, position: int, code: str) -> bool:
    """Whether the word of ``statement`` at ``position`` is written as it is in ``code``."""
    if not code:
        return False
    start = statement.rfind(" ", 0, position) + 1
    end = statement.find(" ", position)
    word = statement[start:end if end >= 0 else len(statement)].strip(".,;:!?()\"'")
    return bool(word) and word in code


def fence_tag_left(answer: str, statement: str) -> bool:
    """A code block's language tag left before its code ("... python import heapq ...")."""
    said = statement.split()
    pairs = set(zip(said, said[1:]))
    for match in _FENCE.finditer(answer):
        code = match.group(2).split()
        if match.group(1) and code and (match.group(1), code[0]) in pairs:
            return True
    return False


def label_left(statement: str) -> bool:
    """An answer label ("A: 8", "So the answer is (B)") or an option letter left as a word."""
    return (bool(_LABEL.search(statement)) and not statement.startswith('The answer to "')) or bool(
        _OPTION_LETTER.search(statement))


def options_left(statement: str, options: Dict[str, str], last_sentence: str, question: str = "",
                 answer: str = "") -> bool:
    """Whether the statement lists the question's options: two or more list markers ("i) OLS ii)
    ILS", "(A) ... (B)"), three or more of its lettered options, or its closing list of choices
    ("972; 451; 100; or 25?"), or the choice between two that ends ``question`` (the question
    proper: "..., Leonotis or Psychopsis?"). An option the answer names itself ("A, since it
    relies on B and C instead") is the answer's claim, not a choice left in."""
    if len(_LIST_MARKER.findall(statement)) >= 2:
        return True
    said = " " + " ".join(_WORD.findall(statement.lower())) + " "
    claimed = " " + " ".join(_WORD.findall(answer.lower())) + " "
    choices = [" ".join(_WORD.findall(choice.lower())) for choice in list(options.values())[:26]]
    choices = [choice for choice in choices if len(choice) > 2 and not choice.replace(" ", "").isdigit()
               and f" {choice} " not in claimed]
    if sum(f" {choice} " in said for choice in choices) >= 3:
        return True
    alternatives = _ALTERNATIVES.search(question[-200:])
    if alternatives and f" {' '.join(_WORD.findall(alternatives.group(1).lower()))} " in said:
        return True  # "Which genus has 5 known species, Leonotis or Psychopsis?": the choice left in
    items = [item for item in _CHOICE_SEPARATOR.split(last_sentence.strip(" ?.")) if item.strip()]
    if len(items) < 3 or not all(len(item.split()) <= 4 for item in items):
        return False
    listed = " ".join(_WORD.findall(last_sentence.lower()))
    return bool(listed) and f" {listed} " in said


# The question's closing choice between two: ", Tom Hanks or Leonardo DiCaprio?"
_ALTERNATIVES = re.compile(r",\s*+([^,?;]{1,80}?\s++or\s++[^,?;]{1,80}?)\s*+\?\s*+$")
_CHOICE_SEPARATOR = re.compile(r"\s*+[;,]\s*+(?:or\s++)?|\s++or\s++")


# An equation's sign: "=" (not "==", "<=", "!=", "=>") or "≈".
_EQUALS = re.compile(r"(?<![=!<>])=(?![=>])|≈")
# Words after which an equation opens a clause of its own ("..., so x = 4", "then 11 + 9 = 20").
_CLAUSE_OPENERS = frozenset("so then thus therefore hence and but or plus because since as that where which if when "
                            "while giving gives get gets got we i.e. e.g.".split())


def formula_in_frame(answer: str, statement: str) -> bool:
    """Whether the answer's working, an equation that opens its sentence or clause there ("3x = 18,
    x = 6", "Distance = speed × time = 60 × 3 = 180 miles.", "Let n = 6."), stands in the statement
    after a word of the question's frame ("The value of x is 3x = 18, x = 6", "The sum is let n = 6"):
    pasted where a value goes. Working is an equation in a sentence with another one, or one whose
    left side has a word of a clause ("let", "servings"); a lone computation after the frame's verb
    ("The donuts cost 3 x $68 = $204.") or formula after its copula ("Newton's second law is F = ma")
    says the value. An equation the statement keeps in its own clause (after a stop, a comma, "so",
    "then"), or after the word the answer has before it too, is the answer's sentence, kept."""
    if not _EQUALS.search(answer) or code_chunks(answer[:MAX_CHARS]):
        return False  # code's "=" assigns ("KMeans(n_clusters=3)"): "you can use CODE" frames it
    said = _plain_words(statement)
    lowered = [word.lower() for word in said]
    for opening, before in _working_openings(answer):
        size = len(opening)
        for start in range(1, len(lowered) - size + 1):
            if lowered[start:start + size - 1] != list(opening[:-1]) or not lowered[start + size - 1].startswith(
                    opening[-1]):
                continue
            previous = lowered[start - 1]
            if not (previous[-1:] in ".!?;:,([" or previous in _CLAUSE_OPENERS or previous == before):
                return True
    return False


def _plain_words(text: str) -> List[str]:
    return [word for word in (word.strip("*") for word in text[:MAX_CHARS].split()[:MAX_WORDS * 2]) if word]


def _working_openings(answer: str) -> List[Tuple[Tuple[str, ...], str]]:
    """Per equation of the answer's working (see ``formula_in_frame``), the words from its clause's
    start to its sign (the sign's word cut after the sign: "2x+3=" for "2x+3=11"), lower-cased, and
    the word before the clause in its line ("" at the line's start)."""
    openings = []
    for line in unboxed(answer[:MAX_CHARS]).splitlines()[:MAX_WORDS]:
        words = [word.lower() for word in _plain_words(line)]
        start = sentence = 0
        found: List[Tuple[Tuple[str, ...], str]] = []
        for index, word in enumerate(words + [""]):
            if sentence < index and (not word or words[index - 1][-1:] in ".!?"):
                # a sentence ends: its equations are working if it has two, or a clause's word opens one
                openings += [(opening, before) for opening, before in found if len(found) > 1 or any(
                    len(part) > 2 and part.isalpha() for part in opening[:-1])]
                found, sentence = [], index
            if not word:
                break
            sign = _EQUALS.search(word)
            if sign is not None and (index > start or sign.start() > 0):
                opening = tuple(words[start:index]) + ((word[:sign.end()],) if sign.start() > 0 else (word,))
                found.append((opening, words[start - 1] if start else ""))
            if word[-1:] in ".!?;:," or word in _CLAUSE_OPENERS:
                start = index + 1
    return openings


# A sentence a question quotes to ask a verdict on: in double quotes, or after "the following
# sentence:" / "?" to the line's end ("Is the following sentence plausible? Joao caught the pass.").
_QUOTE = re.compile(r"\"([^\"\n]{12,400})\"|“([^”\n]{12,400})”|"
                    rf"\bthe following (?:{CLAIM_NOUNS_PATTERN})\b[^\n:?]{{0,40}}[:?]\s*+([^\n\"“]{{12,400}})",
                    re.IGNORECASE)
# "The following statement is sarcastic.": a sentence named by "the following" with nothing after it.
_FOLLOWING_NAMED = re.compile(
    rf"\bthe following (?:{CLAIM_NOUNS_PATTERN}|passage|text|paragraph)s?\b(?![^.!?]*[:\"“])", re.IGNORECASE)
# What a question may ask of a quoted sentence that a statement says by asserting it or its negation.
_TRUTH_FRAME = frozenset(TRUTH_WORDS | CLAIM_NOUNS | POSITIVE_VERDICTS | NEGATIVE_VERDICTS) - frozenset(
    "plausible implausible valid invalid".split()) | frozenset("following fact factual real whether".split()) | (
    JUDGING_VERBS)
_TRUTH_FRAME_KEYS = frozenset(_key(word) for word in _TRUTH_FRAME)


def quote_asserted(question: str, statement: str) -> bool:
    """Whether a sentence the question quotes to ask a verdict on other than its truth ("Is the
    following sentence plausible?", "Is this sarcastic?", "Does the premise entail ...?") is stated
    as a fact, quotation marks gone and none of the question's predicate left ("Lionel Messi did not
    score a touchdown."), or is named by "the following" with the sentence itself left out ("The
    following statement is sarcastic.")."""
    question = question[:MAX_CHARS]
    quotes = [next(group for group in match.groups() if group) for match in _QUOTE.finditer(question)]
    if not quotes:
        return False
    if _FOLLOWING_NAMED.search(statement):
        return True
    if '"' in statement or "“" in statement:
        return False
    said = _content_keys(statement, numbers=True)
    for quote in quotes:
        quoted = _content_keys(quote, numbers=True)
        outside = question.replace(quote, " ")
        asked = _content_keys(outside) - quoted - _TRUTH_FRAME_KEYS
        if len(quoted) >= 3 and asked and 3 * len(quoted & said) >= 2 * len(quoted) and not asked & said:
            return True
    return False
