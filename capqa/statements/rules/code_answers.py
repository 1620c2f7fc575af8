"""Code that answers a task or a question about data, stated with what the code is for.

- A SQL query that answers a question, an instruction or a title (text-to-SQL): the query is no
  value of the question's frame ("The capital of Texas is SELECT ..." says nothing true), so the
  statement says what the query finds, the question embedded in declarative order: "The SQL query
  that finds how many heads of the departments are older than 56 is SELECT count(*) FROM ...",
  "The SQL query that lists the names of schools ... is ...", "The SQL query for top 10 users by
  reputation is ...". A question about SQL itself ("What is the SQL to ...?") is left to the frame.
- Code that answers a request to write it ("Write a Python function to find X.", "Implement a
  function that ..."): "A Python function to find X is: CODE", an opener before the code ("Here's a
  simple implementation:") dropped.
- A function's stub with its docstring (the prompt is code, as in HumanEval) answered with its body:
  "The body of the function f(n: int), which returns X, is: CODE" (the docstring's first sentence,
  an instruction, says what it does).

The code is written as the answer has it (its lines joined, as every statement's are); the
answer's prose after the code follows as sentences of their own.
"""

import re
from typing import List, NamedTuple, Optional, Tuple

from capqa.statements.rules.analysis import Frame, render
from capqa.statements.rules.answer_sentences import answer_sentences
from capqa.statements.rules.code import CODE_ONLY, SQL_QUERY, is_code, span_body
from capqa.statements.rules.declarative import declarative, embedded_question
from capqa.statements.rules.lexicon import AUXILIARIES, COPULAS, WHITESPACE, strip_trailing
from capqa.statements.rules.morphology import inflect, is_base_verb

# A fronted phrase that names the whole a count is taken from: "Among the customers,".
_PARTITIVE_LEAD = re.compile(r"^(?:among|of)\s++(?P<whole>[^,]+?)\s*+,?$", re.IGNORECASE)
_FENCED_BLOCK = re.compile(r"```[^`]*+```")
# A short lead and its colon before code on the same line: "The query is: SELECT ...".
_LABELLED_CODE = re.compile(r"^(?P<lead>[^:\n`]{1,60}):[ \t]++(?P<code>[^\n]++)$")
_OUTPUT_LABEL = re.compile(r"^(?:the\s++)?output\s*+:\s*+", re.IGNORECASE)
# A question about SQL itself: the query is the value its frame asks for ("What is the SQL to ...?").
_NAMES_QUERY = re.compile(r"\b(?:sql|query|queries|statement|syntax|command)\b", re.IGNORECASE)
# The questioner after an instruction's verb: "show me flights ..." -> "shows flights ...".
_QUESTIONER_OBJECT = re.compile(r"^(?:me|us)\s++", re.IGNORECASE)
# A request to write code: "Write a python function to ...", "Implement a function that ...".
_WRITE_REQUEST = re.compile(r"^(?:please\s++)?(?:write|implement|create|generate|develop|code|build|complete)\s++"
                            r"(?P<what>(?:an?|the|one|some)\s++(?:[\w#+.-]++\s++){0,3}?(?:function|program|method|"
                            r"class|script|module|snippet|code|regex|regular expression|algorithm|solution|procedure|"
                            r"routine|lambda|one-liner)s?\b.*)$", re.IGNORECASE | re.DOTALL)
# An opener that only announces the code after it: "Here's a simple implementation:", "Below is the code:".
_CODE_OPENER = re.compile(r"^(?:sure[,!.]?\s++)?(?:here(?:['’]s| is| are)|below is|the following is|this is|try this|"
                          r"(?:you can )?use (?:the following|this)\b|the (?:sql )?(?:query|code|solution) is\b)"
                          r"[^.!?\n]{0,80}?:?$", re.IGNORECASE)
# A function's stub (imports, the signature, the docstring) and nothing after it.
_STUB = re.compile(r"^\s*+(?:(?:from|import)\s[^\n]*+\n\s*+)*def\s++(?P<name>\w++)\((?P<parameters>[^)]*+)\)"
                   r"(?:\s*+->\s*+[^:\n]++)?:[ \t]*+\n\s*+(?P<quote>\"\"\"|''')(?P<doc>.*?)(?P=quote)\s*+$", re.DOTALL)
_FIRST_SENTENCE = re.compile(r"^(?P<sentence>.+?)(?:[.!?](?:\s|$)|\n\s*\n|>>>|$)", re.DOTALL)


class CodeAnswer(NamedTuple):
    """An answer read around its code: what comes before it, the code, and what follows it."""
    lead: str
    code: str
    rest: str
    block: bool  # a fenced or multi-line block (a colon goes before it), not a line


def answer_code(answer: str) -> Optional[CodeAnswer]:
    """The answer's code: the whole answer when it is code as a whole, else its first fenced
    block with the prose around it; None when it has neither."""
    text = answer.strip()
    if is_code(text):
        return CodeAnswer("", _one_line(span_body(text) if CODE_ONLY.match(text) else text), "", "```" in text or (
            "\n" in text))
    labelled = _LABELLED_CODE.match(text)
    if labelled and is_code(labelled.group("code")):  # "The query is: SELECT ..."
        return CodeAnswer(labelled.group("lead"), _one_line(labelled.group("code")), "", False)
    block = _FENCED_BLOCK.search(text)
    if not block:
        return None
    return CodeAnswer(text[:block.start()].strip(), _one_line(span_body(block.group(0))), text[block.end():].strip(),
                      True)


def _one_line(code: str) -> str:
    return WHITESPACE.sub(" ", code).strip()


def _after(code: CodeAnswer) -> List[str]:
    """The answer's sentences after its code, an output's label said as a clause ("Output: [2, 4]" ->
    "the output is [2, 4]")."""
    sentences = answer_sentences(code.rest) if code.rest else []
    return [_OUTPUT_LABEL.sub("the output is ", sentence) for sentence in sentences]


def answers_with_sql(proper: str, answer: str) -> bool:
    """Whether the answer opens with a SQL query for a question not about SQL itself."""
    code = answer_code(answer)
    return code is not None and _announced(code) and bool(SQL_QUERY.match(code.code)) and not (
        _NAMES_QUERY.search(proper))


def _announced(code: CodeAnswer) -> bool:
    """Whether the answer says nothing before its code but an opener ("Here's the query:")."""
    return not code.lead or bool(_CODE_OPENER.match(code.lead))


def sql_statement(proper: str, frame: Optional[Frame], answer: str) -> Optional[List[str]]:
    """The statement of a SQL query answering ``proper`` (see the module docstring) and the
    answer's sentences after the query; None when the answer opens with no query, the question is
    about SQL itself, or nothing in the question says what the query is for. ``frame``: the
    question's analysis, None when it is not a question."""
    if not answers_with_sql(proper, answer):
        return None
    code = answer_code(answer)
    purpose = _purpose(proper, frame)
    if not purpose:
        return None
    lead, purpose = purpose
    if purpose.rsplit(" ", 1)[-1] in COPULAS:  # "that finds where the office is": not "... is is SELECT"
        statement = f"the SQL query {code.code} {purpose.replace('that finds', 'finds', 1)}"
    else:
        statement = f"the SQL query {purpose} is {code.code}"
    return [f"{lead}, {statement}" if lead else statement] + _after(code)


def _purpose(proper: str, frame: Optional[Frame]) -> Optional[Tuple[str, str]]:
    """(a fronted phrase to say first, what the query does): "that finds how many ..." for a
    question, "that lists ..." for an instruction, "for ..." for a title."""
    if frame is not None:
        lead = render(frame.lead).rstrip(",").strip()
        asked = _asked_phrase(frame)
        if asked and _PARTITIVE_LEAD.match(lead):
            lead = ""  # the whole the lead names is in the phrase asked for
        if _asks_identity(frame):
            return lead, f"that finds {render(frame.subject)}"  # "What is X?": the query finds X
        found = asked or embedded_question(frame._replace(lead=()))
        return (lead, f"that finds {found}") if found else None
    text = strip_trailing(proper.strip())
    if text.endswith("?") or not text:
        return None
    verb, _, rest = text.partition(" ")
    if rest and is_base_verb(verb.lower()) and verb.lower() not in AUXILIARIES:
        return "", f"that {inflect(verb.lower(), 'VBZ')} {_QUESTIONER_OBJECT.sub('', rest)}"
    return "", f"for {text[:1].lower() + text[1:] if text[1:2].islower() else text}"


def _asks_identity(frame: Frame) -> bool:
    """"What is X?", "Who was X?": a copula and its subject, nothing else."""
    return frame.wh in ("what", "who") and not frame.phrase and frame.auxiliary in COPULAS and bool(
        frame.subject) and not frame.rest


def _asked_phrase(frame: Frame) -> Optional[str]:
    """What a question with a noun in its wh-phrase asks for, as a noun phrase: "which team has
    the highest score" -> "the team that has the highest score", "what position does X play" ->
    "the position X plays", "how many games did X win" -> "the number of games X won" (an
    embedded wh-word would read as the question left in place); None for other questions."""
    words = frame.phrase
    if frame.preposition or not words or words[0].lower == "of":
        return None
    lead = _PARTITIVE_LEAD.match(render(frame.lead))
    if frame.wh == "how" and render(words) == "many" and lead and frame.wh_is_subject and frame.rest:
        # "Among the customers, how many are from Canada?": the number of the customers that are
        return f"the number of {lead.group('whole')} that {render(frame.rest)}"
    if frame.wh in ("which", "what"):
        noun = f"the {render(words)}"
    elif frame.wh == "how" and words[0].lower in ("many", "much") and len(words) > 1:
        noun = f"the {'number' if words[0].lower == 'many' else 'amount'} of {render(words[1:])}"
    else:
        return None
    if frame.wh_is_subject:
        return f"{noun} that {render(frame.rest)}" if frame.rest else None
    clause = declarative(frame._replace(lead=()))
    return f"{noun} {clause.text()}" if clause is not None else None


def written_code_statement(proper: str, answer: str) -> Optional[List[str]]:
    """The statement of code answering a request to write it ("Write a function to X." ->
    "A function to X is: CODE") and the answer's sentences after the code; None for another
    prompt, an answer without code, or one whose prose before the code claims something."""
    request = _WRITE_REQUEST.match(strip_trailing(proper.strip()))
    code = answer_code(answer) if request else None
    if code is None or not _announced(code):
        return None
    what = request.group("what")
    return [f"{what} is{':' if code.block else ''} {code.code}"] + _after(code)


def stub_statement(question: str, answer: str) -> Optional[str]:
    """The statement of a function's body answering its stub (see the module docstring), or None
    when the question is no stub or the answer is no code."""
    stub = _STUB.match(question)
    code = answer_code(answer) if stub else None
    if code is None or code.lead:
        return None
    signature = f"{stub.group('name')}({stub.group('parameters')})"
    purpose = _docstring_purpose(stub.group("doc"))
    whole = code.code.startswith(f"def {stub.group('name')}(")  # the answer writes the function out
    subject = f"the function {signature}" if whole else f"the body of the function {signature}"
    if purpose:
        subject = f"{subject}, which {purpose},"
    return f"{subject} is: {code.code}"


def _docstring_purpose(doc: str) -> str:
    """The docstring's first sentence as what the function does, when it is an instruction
    ("Return the largest prime factor of n." -> "returns the largest prime factor of n"); "" else."""
    match = _FIRST_SENTENCE.match(doc.strip())
    sentence = WHITESPACE.sub(" ", match.group("sentence")).strip() if match else ""
    verb, _, rest = sentence.partition(" ")
    if not rest or not verb[:1].isupper() or not is_base_verb(verb.lower()) or verb.lower() in AUXILIARIES:
        return ""
    return f"{inflect(verb.lower(), 'VBZ')} {rest}"
