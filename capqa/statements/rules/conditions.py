"""The question's conditions given to an answer's own sentence.

An answer that is a full clause is kept as it is (``sentences.full_sentence``), but the clause often
leaves out what the question fixed around it: a fronted adverbial or condition ("At the time of
Martin Luther what was in demand?", "If she works 50 weeks a year, what's her salary?") and a
condition after the wh-clause ("how many grams can you eat if your target is 2000?"). The answer
says its claim under those conditions, so the statement carries them unless the answer's sentence
states them already (most of their content words in it).
"""

import re
from typing import Callable, Optional, Sequence, Tuple

from capqa.statements.rules.analysis import Frame, render
from capqa.statements.rules.contractions import WH_WORDS
from capqa.statements.rules.lexicon import (AUXILIARIES, COMPUTING_VERBS, CONDITION_WORDS, DETERMINERS, NUMBER_WORDS,
                                            PREPOSITIONS, PRONOUNS, strip_trailing)
from capqa.statements.rules.morphology import is_finite_verb, lemmas_of
from capqa.statements.rules.parser import Word
from capqa.statements.rules.subjects import subtree_edges

_FUNCTION_WORDS = DETERMINERS | PREPOSITIONS | AUXILIARIES | PRONOUNS | CONDITION_WORDS
_WORD = re.compile(r"\w+")
# The answerer's own words open the sentence ("I can't confirm ..., but X"): a condition put in
# front of them would be the answerer's, not the claim's.
_ANSWERER = re.compile(r"^(?:I|I['’]m|I['’]ve|I['’]d|My|We)\b")
# A task set under a condition: "If n = 2 (mod 7), then find the remainder ...", "Find x if x != 0."
_TASK_VERB_NAMES = ("find", "determine", "solve") + COMPUTING_VERBS
_TASK_VERBS = rf"(?:{'|'.join(_TASK_VERB_NAMES)})"
# A programming problem's task under its condition: "Given an array nums, return the maximum sum ...". (After
# the task, "if" is the task's own: "Return True if it is a palindrome.")
_FIRST_TASK_VERBS = rf"(?:{'|'.join(_TASK_VERB_NAMES + ('return', 'output', 'print', 'write', 'implement'))})"
# (a formula may hold the condition's comma: "If $f(1) = 1,$ then find ...")
_CONDITION_FIRST = re.compile(r"^(?P<condition>(?:if|when|for|given(?: that)?|assuming|suppose)\s.+?)(?P<mark>,\$|\$,|,)\s*+"
                              r"(?:then\s+)?"
                              rf"(?P<task>{_FIRST_TASK_VERBS}\b.+)$", re.IGNORECASE)
_TASK_START = re.compile(rf"^{_TASK_VERBS}\b", re.IGNORECASE)
# After the task only "if", "given" or "assuming" is its condition: "when" is most often the task's own
# ("Find the remainder when X is divided by 7.")
_CONDITION_AFTER = re.compile(rf"^(?P<task>{_TASK_VERBS}\b.+?),?\s++(?P<condition>(?:if|given that|assuming)\s[^,]+?)"
                              r"\s*+[.!]?$", re.IGNORECASE)


def stated(phrase: Sequence[Word], statement: str) -> bool:
    """Whether ``statement`` already says ``phrase``: more than half of the phrase's content words
    (not function words) are among the statement's words, and all of its numbers. A worked answer
    reuses the condition's nouns with other quantities ("If a pen costs 2 dollars, ..." + "Five
    pens cost 10 dollars."): the numbers are what the condition fixes."""
    content = [word.lower for word in phrase if word.text[:1].isalnum() and word.lower not in _FUNCTION_WORDS]
    words = _WORD.findall(statement.lower())
    have = set().union(*(_forms(word) for word in words))
    numbers = {_number(word) for word in words}
    if any(_number(word.lower) not in numbers for word in phrase if word.tag == "CD"):
        return False
    return not content or 2 * sum(bool(_forms(word) & have) for word in content) > len(content)


def _number(word: str) -> str:
    """A number word as its digits ("five" -> "5"), so that either spelling matches the other."""
    return str(NUMBER_WORDS.get(word, word))


def _forms(word: str) -> frozenset:
    """The word and its lemmas as any part of speech ("described" -> describe)."""
    return frozenset((word, *(lemma for lemmas in lemmas_of(word).values() for lemma in lemmas)))


def leading_condition(frame: Optional[Frame], words: Sequence[Word]) -> Sequence[Word]:
    """The question's fronted phrase that conditions its claim: the frame's lead (or, where the
    question was not read as a frame, the condition clause it opens with) when it is a phrase of
    time, place or source ("At the time of Martin Luther", "As of 2013,", "Based on the data,") or a
    condition set off by its comma ("If Jill works 50 weeks, ..."). Without its comma an "if" clause
    is more often the topic the question asks about ("If a person is a NEET what does this mean?").
    A frame with no lead may have read a fronted "When" clause as its wh-word ("When water boils,
    what does it turn into?"): the clause is looked for then too."""
    lead = tuple(frame.lead) if frame is not None and frame.lead else _opening_clause(words)
    if not lead:
        return ()
    if lead[0].lower in CONDITION_WORDS:
        return lead if lead[-1].text == "," else ()
    return lead if lead[0].tag in _PHRASE_OPENING_TAGS else ()


_PHRASE_OPENING_TAGS = frozenset(("IN", "TO", "VBN", "VBG"))


def _opening_clause(words: Sequence[Word]) -> Sequence[Word]:
    """The condition clause opening ``words`` with its comma, when a wh-word follows it."""
    if not words or words[0].lower not in CONDITION_WORDS:
        return ()
    head = next((index for index, word in enumerate(words) if word.dep == "advcl"), None)
    if head is None:
        return ()
    left, right = subtree_edges(words, head)
    end = right + 1
    if left != 0 or end >= len(words) or words[end].text != ",":
        return ()
    return tuple(words[:end + 1]) if any(word.lower in WH_WORDS for word in words[end + 1:end + 3]) else ()


def trailing_condition(words: Sequence[Word]) -> Sequence[Word]:
    """A condition clause that ends the question after its wh-word ("how many grams can you eat
    | if your daily target is 2000?"): an adverbial clause opened by a condition word, with what
    is coordinated after it ("... and you have already consumed 1800 calories")."""
    wh = next((index for index, word in enumerate(words) if word.lower in WH_WORDS), None)
    if wh is None:
        return ()
    kept = len(words)
    while kept and words[kept - 1].tag in _FINAL_MARKS:
        kept -= 1  # the question's own marks go, not a bracket or quote that closes something in the clause ("CO_{2}")
    end = kept
    while end and not words[end - 1].text[:1].isalnum():
        end -= 1  # the parser may attach such a bracket outside the clause: the clause ends before it
    for position in range(wh + 1, end):
        if words[position].dep != "advcl":
            continue
        left, right = subtree_edges(words, position)
        # the clause ends the question, or a coordinated clause follows it (its "and" may be parsed into it)
        ends = right == end - 1 or (right + 1 < end and words[right + 1].tag == "CC") or words[right].tag == "CC"
        if left > wh + 1 and ends and words[left].lower in CONDITION_WORDS and not any(
                word.lower in WH_WORDS for word in words[right + 1:end]):
            return tuple(words[left:kept if _balanced(words[left:kept]) else end])
    return ()


def _balanced(words: Sequence[Word]) -> bool:
    """Whether each bracket in ``words`` is closed there and its quotes are paired, so that a closing
    mark kept at the clause's end closes something inside it."""
    text = "".join(word.text for word in words)
    return all(text.count(opening) == text.count(closing) for opening, closing in ("()", "[]", "{}")) and (
        text.count('"') % 2 == 0)


_FINAL_MARKS = frozenset((".", ",", ":"))


def with_conditions(frame: Optional[Frame], words: Sequence[Word], kept: str, lowered: Callable[[str], str]) -> str:
    """``kept`` (an answer's own sentence) with the question's leading and trailing conditions that
    it does not state (``lowered`` lowers its first word after a fronted phrase). A trailing
    condition goes in front ("When making a countertop, you fill ..."), where it cannot attach to a
    second clause of the answer; after a lead it goes at the end of a one-clause sentence."""
    if _ANSWERER.match(kept) or all(word.text == word.lower for word in words):
        return kept  # a lower-case query cannot tell a condition from a title ("who wrote if i were a boy")
    if _fronted(kept):
        return kept  # the answer fronts its own phrase ("In 2003, the largest ship ..."): no second one
    if not any(word.islower() and is_finite_verb(word) for word in _WORD.findall(kept)):
        return kept  # a title read as a clause ("Video Killed the Radio Star by The Buggles") is no claim to condition
    lead, trailing = leading_condition(frame, words), trailing_condition(words)
    lead = lead if lead and not stated(lead, kept) else ()
    trailing = trailing if trailing and not stated(trailing, kept) else ()
    if trailing and not lead:
        lead = trailing
    elif trailing and not _CLAUSE_MARKS.search(kept):
        kept = f"{kept} {render(trailing)}"
    if not lead:
        return kept
    opening = render(lead).rstrip(",").strip()
    return f"{opening[:1].upper()}{opening[1:]}, {lowered(_second_mention(opening, kept))}"


_INDEFINITE_SUBJECT = re.compile(r"^[Aa]n? (\w+) (\w+)")


def _second_mention(opening: str, kept: str) -> str:
    """``kept`` with its indefinite one-word subject made definite when the condition put before it
    names the same thing ("When you're frying a turkey, a turkey should be defrosted" -> "..., the
    turkey should ..."): a second mention is definite."""
    match = _INDEFINITE_SUBJECT.match(kept)
    if not match or not is_finite_verb(match.group(2).lower()):
        return kept
    mentioned = re.search(rf"\ban? {re.escape(match.group(1))}(?!\w)", opening, re.IGNORECASE)
    return f"{'T' if kept[0].isupper() else 't'}he{kept[match.start(1) - 1:]}" if mentioned else kept


_CLAUSE_MARKS = re.compile(r"[,;:]")


def _fronted(sentence: str) -> bool:
    """Whether a sentence opens with a phrase of its own set off by a comma ("In 2003, ...",
    "When it rains, ..."): a preposition or condition word first, a comma within a few words."""
    first, _, rest = sentence.partition(" ")
    return first.lower() in PREPOSITIONS | CONDITION_WORDS and "," in " ".join(rest.split()[:_FRONTED_WORDS])


_FRONTED_WORDS = 10


def conditional_task(question: str) -> Optional[Tuple[str, str]]:
    """(the condition, the task) of an imperative set under a condition ("If $n$ is even, then find
    X." -> ("If $n$ is even", "Find X."); "Find $x$ if $x\\neq0$." -> ("if $x\\neq0$", "Find $x$.")),
    or None. The task is read as the imperative it is, and its statement goes after the condition:
    echoing "then find X" would leave an instruction in the statement."""
    first = _CONDITION_FIRST.match(question)
    if first:
        task = first.group("task")
        return first.group("condition") + ("$" if "$" in first.group("mark") else ""), task[:1].upper() + task[1:]
    after = _CONDITION_AFTER.match(question)
    if after:
        condition = after.group("condition")
        return condition, after.group("task") + "."
    return None


def is_task(sentence: str) -> bool:
    """Whether a sentence sets a task ("Find X.", "If n is even, then compute X.")."""
    return bool(_TASK_START.match(sentence)) or conditional_task(sentence) is not None


def with_condition(condition: str, statement: str, lowered: Callable[[str], str]) -> str:
    """The statement under the task's condition, where the task had it (a condition written
    after the task, lower-case, follows the statement), unless it states the condition already."""
    if not condition or condition.lower() in statement.lower():
        return statement
    if condition[:1].islower():
        return f"{strip_trailing(statement)} {condition}"
    return f"{condition}, {lowered(statement)}"
