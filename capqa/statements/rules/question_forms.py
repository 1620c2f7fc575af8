"""The form of a prompt's question proper, read before it is parsed.

``read_form(question)`` says what kind of sentence the question proper is and rewrites the forms
that wrap a question or a claim:

- ``claim``: "True or false: X", "Answer true or false: X", "Is it true that X?", "Decide whether
  the following statement is true: X": X is a declarative the answer affirms or denies;
- ``embedded``: "Tell me who ...", "Can you tell me when ...", "Explain why ...", "Do you know
  where ...", "I'd like to know how many ...": the embedded question, in declarative order;
  "Tell me whether X" is a claim;
- ``imperative``: "Name / List / Give / State / Identify / Define / Describe / Calculate ... NP";
- ``blank``: a sentence with blanks (``___``);
- ``question``: a wh- or yes/no question, or a sentence with a wh-phrase in situ;
- ``statement``: anything else: a sentence to complete, or a noun phrase ("Capital of France?").
"""

import re
from typing import NamedTuple, Tuple

from capqa.statements.rules.lexicon import BLANK, COMPUTING_VERBS, QUESTION_START, strip_trailing

_CLAIM = re.compile(
    r"^(?:(?:answer|say|state|decide|determine|tell me)\s+(?:whether\s+(?:it\s+is\s+)?)?)?(?:true\s+or\s+false|"
    r"t\s*/\s*f|true\s*/\s*false|fact\s+or\s+(?:myth|fiction))\s*[:?.!,-]\s*(?P<claim>\S.*)$|"
    r"^(?:is\s+it|it\s+is)\s+(?:true|correct|a\s+fact)\s+(?:or\s+false\s+)?that\s+(?P<that>\S.*)$|"
    r"^(?:decide|determine|say|state|indicate|tell me)\s+(?:whether|if)\s+(?:the\s+following|this)\s+"
    r"(?:statement|claim|sentence)\s+is\s+(?:true|correct)(?:\s+or\s+(?:false|not))?\s*[:.?-]\s*(?P<following>\S.*)$",
    re.IGNORECASE)
_EMBEDDING = re.compile(
    r"^(?:please\s+|kindly\s+|briefly\s+|now\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|"
    r"i(?:'d| would)\s+like\s+to\s+|i\s+want\s+to\s+|i\s+need\s+to\s+|do\s+you\s+|does\s+anyone\s+)?"
    r"(?:tell\s+(?:me|us)|explain(?:\s+to\s+me)?|describe|say|know|find\s+out|guess|figure\s+out|identify|"
    r"determine|state|name|show|clarify|remind\s+me|let\s+me\s+know|wonder|ask|understand|learn)\s+"
    r"(?P<clause>(?:who|whom|whose|what|which|when|where|why|how|whether|if)\b.*)$",
    re.IGNORECASE)
_EXPLAINS = re.compile(r"^(?:which|what)(?: of the following| of these| one| option| statement| answer| choice| fact)?"
                       r"(?: best| most likely| most)? explains why\s+(\S.*)$", re.IGNORECASE)
_WHETHER = re.compile(r"^(?:whether|if)\s+(?P<claim>\S.*?)(?:\s+or\s+not)?$", re.IGNORECASE)
_IMPERATIVE = re.compile(
    r"^(?:please\s+|kindly\s+|briefly\s+|now\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?P<verb>name|list|give|state|identify|mention|cite|provide|describe|define|explain|write|"
    + "|".join(COMPUTING_VERBS) + r"|find|solve|tell\s+me|suggest|recommend|specify|spell\s+out|enumerate|outline)"
    # a dative pronoun goes with its verb: "Give me all Argentine films." lists the films
    r"(?:\s+(?:me|us)(?=\s+(?:all|the|a|an|some|every|each|\w+s)\b))?:?\s+"
    r"(?!of\b)(?P<rest>\S.*)$", re.IGNORECASE)  # "list of X" is a noun phrase
_POLITE_END = re.compile(r",?\s+(?:please|for me|briefly|in one word|in a few words)$", re.IGNORECASE)


_SECOND_QUESTION = re.compile(r"^(.+?),? and (?:what|how|why|where|when|which|who)\b.*$", re.IGNORECASE)
_APPROXIMATELY = re.compile(r"^(approximately|roughly|about) |,? (approximately|roughly)(?=[?.!]?$)", re.IGNORECASE)
_WH_START = re.compile(r"^(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)


def normalised(question: str, answer: str) -> Tuple[str, str]:
    """A second question dropped ("What is the unit of power and what does it measure?" asks the
    first), and "approximately" moved from the question to the answer."""
    first = _SECOND_QUESTION.match(question)
    if first and _WH_START.match(question):
        question = first.group(1) + "?"
    adverb = _APPROXIMATELY.search(question)
    if adverb:
        without = _APPROXIMATELY.sub("", question).strip()
        if _WH_START.match(without):
            return without, f"{(adverb.group(1) or adverb.group(2)).lower()} {answer}"
    return question, answer


class Form(NamedTuple):
    kind: str       # claim / embedded / imperative / blank / question / statement
    text: str       # the claim, the embedded question, the imperative's object, or the question
    verb: str = ""  # the imperative's verb (lower-case), for "imperative"


def read_form(question: str) -> Form:
    """The form of the question proper ``question`` (labels and options already removed)."""
    text = question.strip()
    if BLANK.search(text):
        return Form("blank", text)
    bare = _POLITE_END.sub("", strip_trailing(text))
    claim = _CLAIM.match(bare)
    if claim:
        return Form("claim", strip_trailing(claim.group("claim") or claim.group("that") or claim.group("following")))
    explains = _EXPLAINS.match(bare)
    if explains:
        return Form("embedded", f"why {explains.group(1)}")  # "Which best explains why the Moon has phases?"
    embedded = _EMBEDDING.match(bare)
    if embedded:
        clause = embedded.group("clause")
        whether = _WHETHER.match(clause)
        if whether:
            return Form("claim", strip_trailing(whether.group("claim")))
        return Form("embedded", clause)
    imperative = _IMPERATIVE.match(bare)
    if imperative and not text.endswith("?"):
        verb = " ".join(imperative.group("verb").lower().split())
        return Form("imperative", imperative.group("rest"), verb)
    if text.endswith("?") or QUESTION_START.match(text) or _WH_START.match(text):
        return Form("question", text)  # "why dry ether is used in woods reaction": a search query
    return Form("statement", text)
