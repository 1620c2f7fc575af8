"""One prompt and one answer to statement sentences: the converter's pipeline.

1. The prompt is split into context sentences, the question proper and its answer options
   (``context.split_question``); a pronoun of the question that the context names is replaced
   by its referent; the question's form is read (``forms.read_form``).
2. The answer is reduced to the sentences that claim something (``answer_text``); the first is
   reduced to its content (labels, option letters, hedges, restating openers: ``answers``).
3. The statement is built from the question's parse (``analysis.analyse``) by the builder of its
   form and structure, or the answer's own sentence is kept (its opening pronoun resolved); the
   answer's further sentences follow it, each its own sentence.
4. When nothing applies the safe form states the answer as the answer to the question, quoting
   the question: ``The answer to "QUESTION" is ANSWER.``; it never writes the question or
   instruction with the answer tacked on.

``batch_statements`` runs it for many pairs with every text parsed in a batch: first the texts
``texts_to_parse`` names, then, round by round, those a statement read that were not parsed yet.
"""

import contextlib
import gc
import logging
import re
from typing import Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

from capqa.common.quoting import bounded_message
from capqa.statements.rules.analysis import Frame, analyse, render
from capqa.statements.rules.answer_cleaning import (clean_answer, elliptical_polarity, elliptical_subject,
                                                    lower_article, named_option, option_with_reason,
                                                    without_elliptical_sentences)
from capqa.statements.rules.answer_sentences import answer_sentences, code_case_kept
from capqa.statements.rules.blanks import complete, fill_blanks
from capqa.statements.rules.casing import cased_statement, casing_texts
from capqa.statements.rules.code import code_chunks, is_code
from capqa.statements.rules.code_answers import answers_with_sql, sql_statement, stub_statement, written_code_statement
from capqa.statements.rules.conditions import conditional_task, with_condition, with_conditions
from capqa.statements.rules.context import (QuestionParts, questioner_swapped, resolve_pronoun, says_you,
                                            speaker_swapped, speaks_to_system, split_question)
from capqa.statements.rules.course_answers import course_statement
from capqa.statements.rules.declarative import embedded_question
from capqa.statements.rules.howto import (Goal, code_sentences, goal_of, may_name_goal, steps_decide, steps_statement,
                                          steps_texts, topic_code)
from capqa.statements.rules.joins import without_doubled_joins
from capqa.statements.rules.judged import judged_prompt
from capqa.statements.rules.lexicon import DAY, DETERMINERS, NUMBER_WORDS, PREPOSITIONS, WHITESPACE, strip_trailing
from capqa.statements.rules.morphology import capitalize, clause_texts, lemmas_of, plural_phrase
from capqa.statements.rules.option_clauses import option_clause_answer
from capqa.statements.rules.parser import MAX_PARSED_CHARS, NotParsedYet, Parse, batched, bounded, parse_into
from capqa.statements.rules.polar import polar
from capqa.statements.rules.prompt_statements import (claim_statement, claim_texts, embedded_statement,
                                                      fragment_statement, imperative_statement, verdict_folded)
from capqa.statements.rules.queries import parse_question, question_text
from capqa.statements.rules.question_forms import Form, normalised, read_form
from capqa.statements.rules.sentences import (counted_list, dashed_head, dashed_head_texts, demonstrative_in_situ,
                                              denial, ends_in_situ, full_sentence, in_situ, restates_question,
                                              sentence_texts)
from capqa.statements.rules.stems import (continuation_texts, demonstrative_stem, ends_open, is_stem,
                                          opens_relative_clause, pronoun_restating_stem, stem_statement,
                                          subordinate_stem, subordinate_stem_texts)
from capqa.statements.rules.subject_frame import completed_predicate, completed_subject, completed_task_subject
from capqa.statements.rules.tails import with_tail
from capqa.statements.rules.wh_equative import equative
from capqa.statements.rules.wh_inverted import inverted
from capqa.statements.rules.wh_subject import wh_subject
from capqa.statements.rules.worked import ANSWER_NOUN, CONCLUDING, equation_conclusion, final_answer

logger = logging.getLogger(__name__)
_Made = TypeVar("_Made")

FALLBACK_OPENING = 'The answer to "'
_NON_ANSWER = re.compile(r"^(?:unknown|not known|unclear|uncertain|i (?:do not|don't) know|no one knows|nobody knows|"
                         r"it is (?:unknown|not known|unclear)|no answer|cannot be determined|n/a)\W*$", re.IGNORECASE)
_OPENING_WORDS = frozenset("because since as due by through with in on at from during after before when while "
                           "about around approximately roughly nearly almost over under between the a an one two three "
                           "four five six seven eight nine ten eleven twelve twenty hundred thousand million none nothing nobody neither "
                           "never".split())
_ASKS_YES_NO = re.compile(r"^(?:is|are|was|were|do|does|did|can|could|will|would|shall|should|may|might|must|has|"
                          r"have|had)(?:n[’']t)?\b", re.IGNORECASE)
_ASKS = re.compile(r"^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|"
                   r"will|would|shall|should|may|might|must|has|have|had)\b", re.IGNORECASE)
_CAN_NOT = re.compile(r"\b([Cc])an not\b(?! only\b)")
_VERDICT_PROMPT = re.compile(r"^(?:answer |say |state )?(?:true or false|true/false|t/f)\W*$", re.IGNORECASE)
_CLOSING_QUOTES = ('"', "”", "’", "'")
_DISPLAY_ENDED = re.compile(r"[.!?]\s*+\\\]$")  # a display formula ending its sentence: "... = 144. \]"
# A worked answer's last sentence concluding with an option's letter: "f(3) = 19. The answer is (B).",
# "The writer seems supportive, so B." (read only where the prompt has that option).
_LETTER_CONCLUSION = re.compile(rf"(?P<end>[.!?,;])\s++(?:{CONCLUDING})?(?:(?:the\s++)?{ANSWER_NOUN}\s++is\s*+:?\s*+|"
                                r"(?<=,\s)|(?<=so\s))\(?(?P<letter>[A-Ha-h])\)?(?:\s++(?P<text>[^.]{1,80}))?[.\s]*$",
                                re.IGNORECASE)
_CONCLUSION_CHARS = 160  # the conclusion is looked for in the sentence's end only: a long text stays linear
_TWO_WORDS = re.compile(r"\S\s+\S")
_DIGIT = re.compile(r"\d")
_LOWERED_OPENINGS = frozenset("The A An It They He She We You His Her Its Their Our Your There This That These "
                              "Those".split())
_GOAL_FORMS = ("question", "statement")
_TITLE_FORMS = ("statement", "imperative")
_TOPIC = re.compile(r"^(?P<topic>[^:?!.\n—–-]{1,80}?)\s*+(?::|--|—|–)\s*+(?P<question>(?:what|which|who|whom|whose|when|"
                    r"where|why|how|is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\b[^\n?]*+\?)$",
                    re.IGNORECASE)
# A phrase, then a wh-word and its inverted auxiliary: "In which county is", "under article 1 what is".
_PHRASE_THEN_WH = re.compile(r"^(?:in|on|at|under|during|for|from|of|by|with|after|before)\s[^,?]{0,60}?\b(?:what|which|"
                             r"who|whom|whose|where|when|why|how)\s++(?:\S+\s+){0,3}?(?:is|are|was|were|do|does|did|"
                             r"can|could|will|would|should|has|have|had)\b", re.IGNORECASE)
# A topic's label and a task title after it: "Git: undo last commit?", "Python -- reverse a list".
# (StackOverflow's titles set the label off with a spaced hyphen too: "python - how to sort a dict by value".)
_TOPIC_TASK = re.compile(r"^(?P<topic>[^:?!.\n—–-]{1,60}?)\s*+(?::|--|—|–|-(?=\s))\s*+(?P<task>[A-Za-z][a-z]*+\s[^\n?:]{2,120}?)"
                         r"\s*+\??$")
_HOW_TO = re.compile(r"^how\s++(?:to|(?:do|can|should)\s++(?:i|you|we))\s", re.IGNORECASE)
_NOT_TASK_VERBS = frozenset("be have do is are was were can may might must shall should will would could".split())
_BARE_WH = re.compile(r"^(?:why|how come|how|when|where)\s*+\?$", re.IGNORECASE)
_TOPIC_PRONOUN = re.compile(r"\b(?:they|them|it|he|she|him|her)\b")
_MAX_TOPIC_WORDS = 6
# (a lettered option's text before the dash is the answer too: "(B) its gills — sharks pull ...")
_DASHED_HEAD = re.compile(r"^(?P<head>\(?[A-E]\)?|\(?[A-E]\)\s++[^—–\n]{1,60}?|(?:no one|nobody|nothing|none|neither)"
                          r"(?: of (?:these|them|those|the above|the options)| in particular| at all)?)\s*+(?:[—–]|--|-(?=\s))"
                          r"\s*+(?=\w\S*\s+\S+\s+\S)", re.IGNORECASE)
# An option's key after an answer's label, then a sentence: "Answer: B. Force is measured in newtons."
_KEYED_HEAD = re.compile(r"^(?P<head>(?i:(?:the\s++)?(?:correct\s++|final\s++)?answer(?:\s++is)?\s*+:?\s*+)?"
                         r"\(?(?P<key>[A-Ha-h1-9])[.)])\s++(?P<rest>[A-Z].*)$")
_WORDS = re.compile(r"\w+")
_RESTATED_SHARE = 0.5  # a sentence with half of the option's words says the option again
_NEGATIVE_REASON = re.compile(r"^(no one|nobody|nothing|none|never|neither|both)\s*[,;:]\s*(\w.+)$", re.IGNORECASE)
# Pairs converted together: their parses (a handful of texts each) are held until the chunk is done.
CHUNK_PAIRS = 4096


class Prepared(NamedTuple):
    """A prompt and an answer read up to the point where the parse is needed."""
    question: str
    answer: str
    context: List[str]
    proper: str                 # the question proper, normalised
    form: Form
    content: str                # the answer's first claim, reduced to its content
    first: str                  # the answer's first claim as written
    extra: List[str]            # the answer's further claims, and a negative answer's reason
    options: dict
    done: Optional[str] = None  # the statement, when no parse is needed (the safe form)
    working: Tuple[str, ...] = ()  # a worked answer's steps, before its final answer ("A: 18")
    condition: str = ""         # a task's condition ("If n is even" of "If n is even, then find X.")


# A question's inline code: its backticks are markup, as in an answer (the code itself is read as a word).
_INLINE_CODE = re.compile(r"`([^`\n]{1,200})`")


def read_question(question: str) -> Tuple[QuestionParts, List[str], str]:
    """(the question's parts, its context sentences, the question proper normalised): what the
    converter reads of a question whatever its answer."""
    parts = split_question(_topic_read(_INLINE_CODE.sub(r"\1", WHITESPACE.sub(" ", question).strip())))
    context, proper = list(parts.context), parts.question
    if not proper:
        return parts, context, proper
    if context and _VERDICT_PROMPT.match(context[-1]):
        proper = f"True or false: {proper}"  # "True or false? Bats are blind."
        context.pop()
    judged = judged_prompt(context, proper)
    if judged:
        context, proper = judged  # "Claim: X. Is this claim supported?": "True or false: X"
    proper = resolve_pronoun(proper, context)
    if conditional_task(proper):
        return parts, context, proper  # the task's condition is read with the task (``prepare``)
    if read_form(proper).kind == "question":
        # A question's asker is the reader; a sentence to complete ("I can use a stopwatch to") is
        # the exam's narrator, and a request ("Tell me ...") keeps its "me".
        context, proper = [questioner_swapped(sentence) for sentence in context], questioner_swapped(proper)
    return parts, context, proper


def question_parse_text(question: str) -> Optional[str]:
    """The text parsed for ``question`` whatever its answer (``parse_question``'s normal form of
    the question proper, as ``bounded`` cuts it), or None when none is: the text whose parse a
    second system's answers to the same question reuse."""
    proper = read_question(question)[2]
    return bounded(question_text(proper)) if proper and len(proper) <= MAX_PARSED_CHARS else None


def prepare(question: str, answer: str) -> Prepared:
    """Everything about ``question`` and ``answer`` that needs no parse (steps 1 and 2)."""
    stub = stub_statement(question, answer)
    if stub:  # a function's stub answered with its body: no prose of the question to read
        return Prepared(question, answer, [], "", Form("statement", ""), answer, answer, [], {}, _sentences([stub]))
    parts, context, proper = read_question(question)
    raw_answer = WHITESPACE.sub(" ", answer).strip()
    task = conditional_task(proper) if proper else None
    condition, proper = task if task else ("", proper)
    if not proper:
        done = fallback_statement(question, answer)
        return Prepared(question, answer, context, "", Form("statement", ""), raw_answer, raw_answer, [], {}, done)
    if len(proper) > MAX_PARSED_CHARS:  # no structure to read in a question that long: the safe form
        done = _sentences(context + [_fallback(proper, raw_answer)])
        return Prepared(question, answer, context, proper, Form("statement", proper), raw_answer, raw_answer, [], {},
                        done)
    sentences = answer_sentences(answer) or [raw_answer]
    if _ASKS_YES_NO.match(proper) and len(sentences) > 1 and elliptical_polarity(sentences[0]):
        sentences = [elliptical_polarity(sentences[0])] + sentences[1:]  # "It is. Helium is in group 18."
    sentences = without_elliptical_sentences(sentences)
    sentences = (option_with_reason(sentences[0], parts.options) or sentences[:1]) + sentences[1:]
    sentences, working = final_answer(sentences)
    if working:  # a letter is the option it names (a working of code or formulas is not cleaned)
        sentences = [named_option(sentences[0], parts.options) or sentences[0]]
    else:
        sentences, working = _letter_conclusion(sentences, parts.options)
    if (working or len(sentences) == 1) and _DIGIT.search(question) and not is_code(answer) and not (
            _ASKS_YES_NO.match(proper)):
        sentences, working = _equation_concluded(sentences, working)  # a word problem's final answer
    first, extra = _dashed_head(sentences[0], bool(parts.options)), sentences[1:]
    first = _keyed_head(first, parts.options) if first == sentences[0] else first
    if first != sentences[0]:
        extra = [sentences[0][len(first):].lstrip(" —–-")] + extra
    # Code as a whole is the answer as written: no hedge, label or article of prose to take from it
    content = first if is_code(answer) else clean_answer(first, proper, parts.options, " ".join(context)) or (
        strip_trailing(first))
    if not content:  # only punctuation ("?", "..."): no words to build on, the safe form quotes it
        done = _sentences(context + [_fallback(proper, f'"{first}"')] + extra)
        return Prepared(question, answer, context, proper, Form("statement", proper), first, first, extra, {}, done)
    content, reason = _negative_with_reason(content)
    proper, content = normalised(proper, content)
    return Prepared(question, answer, context, proper, read_form(proper), content, first,
                    ([reason] if reason else []) + extra, parts.options, working=working, condition=condition)


def texts_to_parse(prepared: Prepared) -> List[str]:
    """The texts ``finish`` parses, as far as they are known before a parse, so that a batch can
    parse them together first; each comes from the function of the reader that parses it. Where
    the question's parse decides (whether the frame has a wh-word, whether the steps make the
    statement), the question's opening and the answer's stand in for it: a wrong guess only has a
    text parsed for nothing, or read besides and parsed in the batch's next round
    (``batch_statements``)."""
    if prepared.done is not None:
        return []
    return _builder_texts(prepared) + casing_texts(prepared.question, prepared.proper)


def _builder_texts(prepared: Prepared) -> List[str]:
    """The texts of ``texts_to_parse`` that the statement's builders parse (``_steps``, ``_main``)."""
    form, content = prepared.form, prepared.content
    if written_code_statement(prepared.proper, prepared.answer):
        return []  # the request's own words frame the code (``_code_statement``): nothing is parsed
    if form.kind in _SQL_FORMS and answers_with_sql(prepared.proper, prepared.answer):
        return [question_text(prepared.proper)] if form.kind == "question" else []
    if form.kind == "blank" or (form.kind in _TITLE_FORMS and code_sentences([content] + prepared.extra)):
        return []  # a blank is filled, code's own sentences kept (``_steps``): nothing is parsed
    if form.kind == "claim":
        return claim_texts(form.text, content)
    if _task_request(form) and steps_decide(prepared.proper, [content] + prepared.extra, prepared.answer):
        return [question_text(prepared.proper)] + steps_texts(prepared.proper, [content] + prepared.extra,
                                                               prepared.answer)
    if form.kind in ("imperative", "embedded"):
        texts = sentence_texts(content, content, polar=False) + [question_text(form.text)] if _keeps_answer_sentence(
            form) else []
        if form.kind == "imperative" and _two_words(content):  # the answer as ``imperative_statement`` reads it
            texts += clause_texts(lower_article(elliptical_subject(content)))
        return texts + ([form.text] if form.kind == "embedded" else [])
    if form.kind in _GOAL_FORMS and steps_decide(prepared.proper, [content] + prepared.extra, prepared.answer):
        # The steps make the statement (``_steps``): the question and the steps are parsed, not
        # what ``_main`` would read (a wrong guess only has those parsed in a later round)
        return [question_text(prepared.proper)] + steps_texts(prepared.proper, [content] + prepared.extra,
                                                               prepared.answer)
    polar = bool(_ASKS_YES_NO.match(prepared.proper))
    texts = [question_text(prepared.proper)] + sentence_texts(content, prepared.first, polar, wh=not polar)
    if form.kind == "question" and not polar:
        texts += dashed_head_texts(content)
    if _two_words(content):  # the answer as the builders of a frame read it (``_main``)
        texts += clause_texts(lower_article(elliptical_subject(_sentence_case_dropped(content))))
    if form.kind in _GOAL_FORMS:
        texts += steps_texts(prepared.proper, [content] + prepared.extra, prepared.answer)
    if form.kind == "statement":
        # A sentence to complete: the texts ``stems.continues`` reads. A prompt that opens like a
        # question after a phrase ("In which county is X") is read as its frame, never continued.
        if not _PHRASE_THEN_WH.match(prepared.proper):
            texts += continuation_texts(strip_trailing(prepared.proper), content)
    else:  # a question that may prove to open a sentence to complete ("When X, this is")
        texts += subordinate_stem_texts(prepared.proper, content)
    return texts


def _two_words(content: str) -> bool:
    """Whether the answer has two words, the only answers whose test for a clause parses
    (``morphology.clause_texts``): checked first, as the answer's readings cost more."""
    return content.count(" ") == 1


def _task_request(form: Form) -> bool:
    """Whether a request of the question's form may be a goal for steps: a question or a statement
    ("How do I ...", "Kill fruit flies."), or an imperative whose verb asks for an outcome that steps
    reach ("Find spices easily in the kitchen." + "Arrange your spices ..."), not for information
    ("Describe / List / Suggest ...": steps answering them are not the way to describe)."""
    return form.kind in _GOAL_FORMS or (form.kind == "imperative" and form.verb in _TASK_VERBS)


_TASK_VERBS = frozenset(("find", "calculate", "compute"))


def _keeps_answer_sentence(form: Form) -> bool:
    """Whether an instruction keeps an answer that is a sentence of its own ("Name either of these
    men." + a sentence naming them); "Explain why / how ..." builds from its own clause."""
    return form.kind == "imperative" or (form.kind == "embedded" and not form.text.lower().startswith(("why", "how")))


def finish(prepared: Prepared) -> str:
    """The statement (steps 3 and 4)."""
    if prepared.done is not None:
        return prepared.done
    steps = _code_statement(prepared) or _steps(prepared)
    if steps:
        steps = [with_condition(prepared.condition, steps[0], _lower_first_word)] + steps[1:]
        text = without_doubled_joins(_sentences(prepared.context + steps, prepared.answer), prepared.answer)
        return code_case_kept(cased_statement(text, prepared.question, prepared.answer, prepared.proper),
                              prepared.answer)
    main, more = _main(prepared.form, prepared.proper, prepared.content, prepared.first, prepared.options)
    if not main:
        main = _fallback(prepared.proper, lower_article(prepared.content))
    elif prepared.condition:
        main = with_condition(prepared.condition, main, _lower_first_word)
    if main and speaks_to_system(prepared.question, prepared.answer) and not says_you(prepared.content):
        main = speaker_swapped(main)  # "Do you have feelings?" + "No, I am ..." -> "I do not have feelings"
    extra = prepared.extra
    if prepared.form.kind == "claim" and not more:  # "Yes — this sentence is plausible because ...": said once
        main, extra = verdict_folded(prepared.form.text, main, extra)
    text = _sentences(prepared.context + _working_before(prepared.working, main) + _concession_joined(
        [main] + more + extra),
                      prepared.answer)
    text = without_doubled_joins(text, prepared.answer)
    return code_case_kept(cased_statement(text, prepared.question, prepared.answer, prepared.proper), prepared.answer)


def _working_before(working: Sequence[str], main: str) -> List[str]:
    """A worked answer's working before the statement of its final answer, less a last sentence
    that is the statement already ("Jake has 7 peaches." + "#### 7"): a statement is said once."""
    said = strip_trailing(main).lower()
    return list(working[:-1] if working and strip_trailing(working[-1]).lower() == said else working)


_SUBORDINATE_REASON = re.compile(r"^(?:though|although|even though|as long as|unless|because|since|while|but|as)\s")


def _concession_joined(parts: List[str]) -> List[str]:
    """The parts, a lower-case clause of concession or condition joined to the part before it: a
    negative answer's "none, though he was nominated" gives "X won no prizes, though he was
    nominated", not a sentence "Though he was nominated." (the answer's own sentences start with a
    capital and stay apart)."""
    out: List[str] = []
    for part in parts:
        if out and out[-1] and part and _SUBORDINATE_REASON.match(part):
            out[-1] = f"{strip_trailing(out[-1])}, {part}"
        else:
            out.append(part)
    return out


def _code_statement(prepared: Prepared) -> Optional[List[str]]:
    """Code that answers a request to write it, or a SQL query that answers the question, stated
    with what it is for (``code_answers``), or None."""
    written = written_code_statement(prepared.proper, prepared.answer)
    if written:
        return written
    kind = prepared.form.kind
    if kind == "imperative" and is_code(prepared.answer) and not _NAMES_CODE.search(prepared.form.text) and not (
            answers_with_sql(prepared.proper, prepared.answer)):
        # "list all files modified in the last 7 days" + "find . -type f -mtime -7": the command does it ("Name
        # the function that ..." asks for the code as its value)
        goal = Goal(f"{prepared.form.verb} {prepared.form.text}")
        return steps_statement(goal, [prepared.content] + prepared.extra, prepared.answer)
    if kind not in _SQL_FORMS:
        return None  # a title or a goal's query reads "You can X with CODE" (``_steps``)
    frame = analyse(parse_question(prepared.proper)) if kind == "question" else None
    return sql_statement(prepared.proper, frame, prepared.answer) if frame is not None or kind != "question" else None


# An instruction's object that is code itself: the code is its value, not what carries the instruction out.
_NAMES_CODE = re.compile(r"\b(?:function|command|method|keyword|module|library|package|query|operator|class|syntax|"
                         r"code|regex|flag|option|statement|expression)s?\b", re.IGNORECASE)
# The forms whose SQL answer says what it finds: a question's or an instruction's ("List the names of ...").
_SQL_FORMS = ("question", "imperative")


def _steps(prepared: Prepared) -> Optional[List[str]]:
    """A how-to goal's steps or code in its frame ("To X, you Y."), or None (``howto``)."""
    if prepared.form.kind in _TITLE_FORMS:
        kept = code_sentences([prepared.content] + prepared.extra)
        if kept:
            return kept
    sentences = [prepared.content] + prepared.extra
    goal = None
    if _task_request(prepared.form) and may_name_goal(prepared.proper):
        goal = goal_of(prepared.proper, parse_question(prepared.proper))
    if goal:
        return steps_statement(goal, sentences, prepared.answer)
    # Not a task: a query that names a topic ("scatter plot") may be answered with code for it
    return topic_code(prepared.proper, sentences, prepared.answer) if prepared.form.kind == "statement" else None


def statement(question: str, answer: str) -> str:
    """The statement for one prompt and answer (both already checked to be non-empty text)."""
    return finish(prepare(question, answer))


def batch_statements(pairs: Sequence[Tuple[str, str]]) -> List[str]:
    """The statement of each (question, answer) pair (both checked), every text parsed in a
    batch: a text's parse does not depend on the batch, so the statements are ``statement``'s."""
    made = []
    with collector_paused():
        for start in range(0, len(pairs), CHUNK_PAIRS):
            made += _chunk_statements(pairs[start:start + CHUNK_PAIRS])
    return made


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the block (and back on after it, unless it was off
    before): a batch makes hundreds of thousands of small objects, most of them live until it ends,
    and the collector's passes over them cost about 5 % of the converter's CPU for nothing. A full
    pass also walks every parse the parser keeps (``parser.CACHE``), so ``rule_statements`` holds
    it off from its first step (its pairs made distinct), not only for the batch."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _chunk_statements(pairs: Sequence[Tuple[str, str]]) -> List[str]:
    """The texts ``texts_to_parse`` names parsed together, then the statements made round by
    round: a statement that reads a text not parsed yet stops (``NotParsedYet``), the texts the
    round's statements stopped at are parsed together, and those statements start again.

    A pair whose text makes a step fail gets the safe form (``fallback_statement``, logged once
    per chunk): one pair's text never stops the conversion of the others. A missing parser (an
    ImportError) stops everything."""
    failed: Dict[int, Exception] = {}
    prepared = {index: item for index, item in _each_unless_it_fails(
        range(len(pairs)), lambda index: prepare(*pairs[index]), failed)}
    parsed: Dict[str, Parse] = {}
    unparsable: Dict[str, Exception] = {}
    _parse_each_unless_it_fails(parsed, [text for item in prepared.values() for text in texts_to_parse(item)],
                                unparsable)
    made: Dict[int, str] = {}
    waiting = list(prepared)
    while waiting:
        needed, stopped = set(), []
        with batched(parsed):
            for index, result in _each_unless_it_fails(waiting, lambda index: finish(prepared[index]), failed):
                if isinstance(result, NotParsedYet):
                    broken = [text for text in result.texts if text in unparsable]
                    if broken:
                        failed[index] = unparsable[broken[0]]
                        continue
                    needed.update(result.texts)
                    stopped.append(index)
                else:
                    made[index] = result
        _parse_each_unless_it_fails(parsed, sorted(needed), unparsable)
        waiting = stopped
    if failed:
        _log_failures(pairs, failed)
        made.update({index: fallback_statement(*pairs[index]) for index in failed})
    return [made[index] for index in range(len(pairs))]


def _each_unless_it_fails(indices: Iterable[int], step: Callable[[int], _Made],
                          failed: Dict[int, Exception]) -> Iterator[Tuple[int, Union[_Made, NotParsedYet]]]:
    """(index, ``step(index)``) of each index, or (index, the NotParsedYet it stopped at); an
    index whose text makes the step fail otherwise goes into ``failed`` instead."""
    for index in indices:
        try:
            yield index, step(index)
        except NotParsedYet as missing:
            yield index, missing
        except ImportError:
            raise
        except Exception as error:  # noqa: BLE001 - whatever one pair's text raises, it takes the safe form
            failed[index] = error


def _parse_each_unless_it_fails(parsed: Dict[str, Parse], texts: List[str], unparsable: Dict[str, Exception]) -> None:
    """``parse_into`` of ``texts`` as one batch; when the batch fails, each text alone, and a text
    that fails alone goes into ``unparsable`` (the pairs that need it take the safe form)."""
    try:
        parse_into(parsed, texts)
        return
    except ImportError:
        raise
    except Exception:  # noqa: BLE001 - a text the parser cannot take fails again, alone, below
        logger.debug("the batch parse failed; each text is parsed alone", exc_info=True)
    for text in dict.fromkeys(texts):
        try:
            parse_into(parsed, [text])
        except ImportError:
            raise
        except Exception as error:  # noqa: BLE001 - see above
            unparsable[bounded(text)] = error


def _log_failures(pairs: Sequence[Tuple[str, str]], failed: Dict[int, Exception]) -> None:
    index, error = next(iter(failed.items()))
    logger.warning("the rule converter failed on %d of %d (question, answer) pairs (the first, for the question "
                   "%s: %s: %s); they get the safe form 'The answer to \"QUESTION\" is ANSWER' (statement issue "
                   "fallback_form)", len(failed), len(pairs), bounded_message(repr(pairs[index][0]), 200),
                   type(error).__name__, bounded_message(str(error), 200))


def _main(form: Form, proper: str, content: str, first: str, options: dict) -> Tuple[Optional[str], List[str]]:
    """(the statement, sentences to follow it) for the question proper and the answer's content."""
    if form.kind == "blank":
        return fill_blanks(proper, lower_article(content)), []
    if form.kind == "claim":
        return claim_statement(form.text, content)
    if _keeps_answer_sentence(form):
        kept = full_sentence(None, (), content, content)
        if kept:
            completed = completed_subject(kept, form.text)
            if form.kind == "imperative" and completed == kept:
                completed = completed_task_subject(kept, strip_trailing(form.text))
            return completed, []
    if form.kind == "embedded":
        return embedded_statement(form.text, lower_article(content)), []
    if form.kind == "imperative":
        return imperative_statement(form, lower_article(elliptical_subject(content)), first), []
    words = parse_question(proper)
    frame = analyse(words)
    if form.kind != "question" and (frame is None or not frame.wh or opens_relative_clause(words)):
        frame = None  # a sentence to complete is no question, unless it opens like one ("In which county is X")
    if frame is not None and subordinate_stem(frame, words, proper, content):
        frame, form = None, Form("statement", proper)  # "When rocks are exposed to wind, the rocks" + "erode"
    if frame is None and form.kind == "statement":
        pointed = demonstrative_stem(proper, lower_article(_sentence_case_dropped(content)))
        if pointed:  # "These are costs which ...:" + "fixed costs" -> "Fixed costs are costs which ..."
            return pointed, []
        restated = pronoun_restating_stem(proper, content)
        if restated:
            return restated, []
        continued = stem_statement(strip_trailing(proper), lower_article(_sentence_case_dropped(content)), content)
        if continued:
            return continued, []
    if frame is not None and _NON_ANSWER.match(content):
        embedded = embedded_question(frame)  # "Unknown." -> "It is unknown who sings X."
        if embedded:
            return f"it is unknown {embedded}", []
    dashed = dashed_head(content) if form.kind == "question" and frame is not None and frame.wh else None
    if dashed:  # "Jurassic Park — Neeson starred in ...": the head in the frame, the clause after it
        head = _sentence_case_dropped(_without_option_letter(dashed[0], options))
        built = _from_frame(frame, lower_article(elliptical_subject(head)))
        if built:
            return built[0], built[1] + [dashed[1]]
    listed = counted_list(frame, content)
    if listed:  # "Four: A, B, C and D" -> "Four N ...: A, B, C and D"
        built = _from_frame(frame, listed[0].lower() if listed[0].lower() in NUMBER_WORDS else listed[0])
        if built:
            return f"{strip_trailing(built[0])}: {listed[1]}", built[1]
    framed = option_clause_answer(frame, content, options)
    if framed:  # an option that is a clause or verb phrase, as the frame's noun phrase, before its verb phrase
        # (the question's own: "Which step signals ...?" agrees with one step, as a gerund subject does)
        said = f"{framed} {render(frame.rest)}" if frame.wh_is_subject else (
            f"{render(frame.subject)} {frame.auxiliary} {framed}")
        return with_lead(frame, said), []
    denied = denial(frame, content, whole=True) if frame is not None else None
    if denied:  # "It hasn't; Australia is still a monarchy.": the premise negated, then the reason
        return denied
    course = course_statement(frame, words, content) if form.kind == "question" else None
    if course:  # "Best way to X?" + "Take lessons ..." -> "The best way to X is to take lessons ..."
        return with_lead(frame, course) if frame is not None else course, []
    kept = full_sentence(frame, words, content, first)
    if not kept and frame is not None and frame.wh_is_subject and _says_of_topic(first, content):
        # "Who wrote X?" + "It's from Hamlet.": the pronoun is the question's topic, "from Hamlet" no doer
        opened = _CONTRACTED_OPENING.sub(lambda match: f"{match.group(1)} {'are' if match.group(2) == 're' else 'is'}",
                                         strip_trailing(first))
        kept = full_sentence(frame, words, opened, opened)
    if not kept and form.kind == "question" and (frame is None or frame.wh) and restates_question(words, content, first):
        kept = content  # the answer says the whole question's frame over again: it is the statement
    if kept:
        kept = completed_predicate(completed_subject(kept, proper), proper)
        return with_conditions(frame, words, kept, _lower_first_word), []
    content = _sentence_case_dropped(content)
    if frame is not None:
        denied = denial(frame, content)
        if denied:
            return denied
        built = _from_frame(frame, lower_article(elliptical_subject(content)))
        if built:
            return built
    if frame is not None and frame.wh in ("where", "when", "why", "how") and frame.wh_is_subject:
        # "why dry ether is used in woods reaction": a search query in declarative order
        built = embedded_statement(strip_trailing(proper), lower_article(content))
        if built:
            return built, []
    if form.kind == "question":
        situ = in_situ(words, lower_article(content))
        if situ:
            return situ, []
        if frame is not None:
            return None, []  # a question read but not restructured: the safe form, never an echo
        pointed = demonstrative_in_situ(words, lower_article(content))
        if pointed:
            return pointed, []
        if ends_open(words) and not _ASKS.match(proper):
            return complete(strip_trailing(proper), lower_article(content)), []  # "... public worship in?"
        return fragment_statement(words, lower_article(content)), []
    if ends_in_situ(words):
        return in_situ(words, lower_article(content)), []
    pointed = demonstrative_in_situ(words, lower_article(content))
    if pointed:
        return pointed, []  # a clue: "This 'Father of Our Country' didn't really chop down a cherry tree"
    return complete(proper, lower_article(content)) if is_stem(words) else fragment_statement(
        words, lower_article(content)), []


_PRONOUN_OPENING = re.compile(r"^(?:it|they|he|she)\b", re.IGNORECASE)
_CONTRACTED_OPENING = re.compile(r"^(it|he|she|they)[’'](s|re)\b", re.IGNORECASE)


def _says_of_topic(first: str, content: str) -> bool:
    """Whether the answer's first claim is a pronoun's sentence whose content (its opener cut) is a
    prepositional phrase other than an agent's "by": "It's from Shakespeare's Hamlet." says where
    the question's topic is from; it names no one to put in the wh-subject's place."""
    word = content.split(" ", 1)[0].lower()
    return content != first and word in PREPOSITIONS and word != "by" and bool(_PRONOUN_OPENING.match(first))


def _from_frame(frame: Frame, answer: str) -> Optional[Tuple[str, List[str]]]:
    if not frame.wh:
        made = polar(frame, answer)
        if not made:
            return None
        main, explanation = made
        return with_lead(frame, main), [explanation] if explanation else []
    def build(text: str) -> Optional[str]:
        return wh_subject(frame, text) if frame.wh_is_subject else equative(frame, text) or inverted(frame, text)

    statement_text = with_tail(build, answer)
    if not statement_text:
        return None
    return with_lead(frame, statement_text), []


def with_lead(frame: Optional[Frame], statement_text: str) -> str:
    """The statement after the question's fronted clause or adverbial ("If she works 50 weeks a
    year, her salary is ..."), unless it has it already."""
    lead = render(frame.lead).rstrip(",").strip() if frame is not None else ""
    if not lead or lead.lower() in statement_text.lower():
        return statement_text
    return f"{lead}, {_lower_first_word(statement_text)}"


def _lower_first_word(text: str) -> str:
    """The statement's first word lowered after a lead: a function word, or a word the lexicon
    knows written with a capital only because it opened the sentence ("Salt and sand ...", "Five
    pens ..."), not the first word of a name ("West Germany")."""
    first, _, rest = text.partition(" ")
    word = first.lower()
    known = len(first) > 1 and first[1:].islower() and bool(lemmas_of(word) or word in NUMBER_WORDS) and not (
        rest[:1].isupper())
    return f"{word} {rest}" if first in _LOWERED_OPENINGS or known else text


def fallback_statement(question: str, answer: str) -> str:
    """The safe form of the whole prompt and answer, for a prompt with no question proper (only
    labels and options) and for a pair the converter could not convert."""
    return _sentences([_fallback(WHITESPACE.sub(" ", question).strip(), WHITESPACE.sub(" ", answer).strip())])


def _fallback(question: str, answer: str) -> str:
    return f'{FALLBACK_OPENING}{question.strip()}" is {answer}'


def _sentence_case_dropped(content: str) -> str:
    """"Coming through a tough shell, ..." -> "coming ...": an answer's capital that only opened
    its sentence (a verb, adverb or adjective, not a name) is lowered, as it lands mid-sentence."""
    first = content.split(" ", 1)[0]
    if len(first) < 2 or not first[0].isupper() or not first[1:].islower() or DAY.match(content):
        return content  # "May 17, 2021": a month is a name, not the modal
    lowered = first.lower()
    if lowered in _OPENING_WORDS:
        return lowered + content[len(first):]  # "Because chlorophyll breaks down ..."
    lemmas = lemmas_of(lowered)
    gerund = lowered.endswith("ing") and "VERB" in lemmas
    plural = lemmas.get("NOUN", (lowered,))[0] != lowered and len(content.split()) > 2  # "Rivers carry minerals"
    modifier = lemmas and "NOUN" not in lemmas and {"VERB", "ADV", "ADJ"} & set(lemmas)
    if gerund or plural or (modifier and not _opens_name(content)):
        return lowered + content[len(first):]
    return content


def _opens_name(content: str) -> bool:
    """Whether an adjective's capital opens a name with the capitalised word after it ("New
    Jersey", "Great Britain", "Northern Ireland"), which a sentence's opening adjective lacks."""
    words = content.split()
    return len(words) > 1 and words[1][:1].isupper() and words[1][1:2].islower() and "ADJ" in lemmas_of(
        words[0].lower()) and "VERB" not in lemmas_of(words[0].lower())


def _letter_conclusion(sentences: List[str], options: dict) -> Tuple[List[str], Tuple[str, ...]]:
    """A worked answer whose last sentence ends in an option's letter ("... sugars, so B.", "... The
    answer is (C) glucose."): ([that option], the working up to its conclusion), the working as
    written; the sentences as they are, and no working, for any other answer."""
    tail_start = max(len(sentences[-1]) - _CONCLUSION_CHARS, 0)
    concluded = _LETTER_CONCLUSION.search(sentences[-1], tail_start) if options else None
    option = named_option(concluded.group("letter"), options) if concluded else ""
    if not option or (concluded.group("text") and strip_trailing(concluded.group("text")).lower() != strip_trailing(
            option).lower()):
        return sentences, ()  # "..., so the answer is B) newton.": the letter's own option only
    last = sentences[-1][:concluded.end("end")]
    if not _TWO_WORDS.search(last):
        return sentences, ()  # "A, C": letters, not working
    last = last[:-1] + "." if last[-1] in ",;" else last
    return [option], tuple(sentences[:-1]) + (last,)


def _equation_concluded(sentences: List[str], working: Tuple[str, ...]) -> Tuple[List[str], Tuple[str, ...]]:
    """The answer's sentences and working once its final claim's own equations are working too:
    "Speed = 120 / 2 = 60 km/hr" answers with "60 km/hr", the chain said before the statement
    (``worked.equation_conclusion``); as they are for a claim with no equation."""
    concluded = equation_conclusion(sentences[0])
    if not concluded:
        return sentences, working
    value, worked = concluded
    return [value] + sentences[1:], working + worked


def _topic_read(proper: str) -> str:
    """A question after its topic ("Medieval castles--were they really cold inside?", "Harry
    Potter: who wrote it?", "Geography: what is the capital of Peru?"): the question, its first
    pronoun replaced by the topic, or the topic dropped when no pronoun stands for it (a label)."""
    match = _TOPIC.match(proper)
    if not match:
        return _topic_task(proper) or proper
    if len(match.group("topic").split()) > _MAX_TOPIC_WORDS or _ASKS.match(match.group("topic")):
        return proper
    topic, question = match.group("topic").strip(), match.group("question")
    if _BARE_WH.match(question):
        return _small_clause_question(topic, question) or proper
    pronoun = _TOPIC_PRONOUN.search(question)
    if not pronoun:
        return question[:1].upper() + question[1:]
    first = topic.split(" ", 1)[0]
    if pronoun.start() > 0 and first[1:].islower() and {"NOUN", "ADJ"} & set(lemmas_of(first.lower())):
        topic = topic[:1].lower() + topic[1:]  # "Medieval castles" mid-sentence: not a name
    made = question[:pronoun.start()] + topic + question[pronoun.end():]
    return made[:1].upper() + made[1:]


def _topic_task(proper: str) -> Optional[str]:
    """"Git: undo last commit?" -> "undo last commit": a task title after its topic's label reads
    as the task (its verb first, as ``howto`` reads a title, or "how to ..."), the label dropped as
    a question's is; None when no verb opens what follows the label."""
    match = _TOPIC_TASK.match(proper)
    if not match or len(match.group("topic").split()) > _MAX_TOPIC_WORDS or _ASKS.match(match.group("topic")) or (
            proper.endswith(".") or _VERDICT_PROMPT.match(match.group("topic"))):
        return None  # "True or false: water boils at 100 °C.": a claim to judge, not a task
    task = match.group("task")
    if _HOW_TO.match(task):
        return task[:1].upper() + task[1:]  # "python - how to sort a dict": the goal ``howto`` reads
    first = task.split(" ", 1)[0].lower()
    if "VERB" not in lemmas_of(first) or lemmas_of(first)["VERB"][0] != first or first in _NOT_TASK_VERBS:
        return None
    return first + task[len(first):]


def _small_clause_question(topic: str, question: str) -> Optional[str]:
    """"Laptop battery draining fast -- why?" -> "Why is the laptop battery draining fast?": a
    topic that is a noun phrase and its predicate (an -ing verb or an adjective), asked about by
    a wh-word alone, is the question's clause; None for any other topic."""
    words = topic.split()
    predicate = next((index for index, word in enumerate(words[1:], start=1) if _predicate_word(word.lower())), None)
    if predicate is None:
        return None
    subject = " ".join(words[:predicate])
    first = words[0].lower()
    if first not in DETERMINERS and words[0][1:].islower() and {"NOUN", "ADJ"} & set(lemmas_of(first)):
        subject = f"the {subject[:1].lower()}{subject[1:]}"  # a title's bare noun: the thing the asker has
    copula = "are" if plural_phrase(subject) else "is"
    wh = question.rstrip("?").strip().lower()
    return f"{wh.capitalize()} {copula} {subject} {' '.join(words[predicate:])}?"


def _predicate_word(word: str) -> bool:
    """An -ing verb ("draining") or a word the lexicon knows only as an adjective ("blue")."""
    lemmas = lemmas_of(word)
    gerund = word.endswith("ing") and lemmas.get("VERB", (word,))[0] != word
    return gerund or set(lemmas) == {"ADJ"}


def _dashed_head(sentence: str, has_options: bool) -> str:
    """"C — a faster rotation means ...", "(B) its gills — sharks ...", "None of these — first you'd
    write ...": an option letter (and its text) or a negative answer set off by a dash is the answer; what follows the dash is a claim
    of its own (``prepare`` makes it a sentence). The sentence itself when it has no such head
    (a letter is a head only where the prompt has options)."""
    match = _DASHED_HEAD.match(sentence)
    lettered = bool(match) and (len(match.group("head").strip("()")) == 1 or match.group("head").startswith("("))
    if not match or (lettered and not has_options):
        return sentence
    return match.group("head")


def _keyed_head(sentence: str, options: dict) -> str:
    """"Answer: B. Force is measured in newtons.": an option's key, then a sentence that does not say
    the option again, is the answer and a claim of its own (``prepare`` makes it a sentence); "D.
    TNCs are not ..." restating option D is the answer's own words for it, and stays whole."""
    match = _KEYED_HEAD.match(sentence)
    option = named_option(match.group("key"), options) if match else ""
    if not option or _shared_share(option, match.group("rest")) >= _RESTATED_SHARE:
        return sentence
    return match.group("head").rstrip()


def _shared_share(option: str, text: str) -> float:
    """The share of the option's words that ``text`` has too."""
    said, words = set(_WORDS.findall(text.lower())), _WORDS.findall(option.lower())
    return sum(word in said for word in words) / max(len(words), 1)


def _without_option_letter(head: str, options: dict) -> str:
    """"Minimum wage legislation (A)" -> "Minimum wage legislation": the letter of one of the
    prompt's options after the option's words goes (the statement names no letters)."""
    match = _TRAILING_LETTER.search(head)
    return head[:match.start()] if match and match.group(1).lower() in options else head


_TRAILING_LETTER = re.compile(r"(?<=\S)\s++\(([A-Z])\)$")


def _negative_with_reason(content: str) -> Tuple[str, str]:
    """"No one, it was cancelled" -> ("No one", "it was cancelled"): a negative answer and its
    reason, which follows the statement as a sentence of its own."""
    match = _NEGATIVE_REASON.match(content)
    return (match.group(1), match.group(2)) if match else (content, "")


def _code_ends(answer: str) -> Tuple[str, ...]:
    """The answer's pieces of code that end in ";" or "}", written as a statement writes them
    (``_sentences`` ends a sentence with them, adding no full stop)."""
    if "`" not in answer and not is_code(answer):
        return ()
    return tuple(code for code in (WHITESPACE.sub(" ", chunk).strip() for chunk in code_chunks(answer)) if code.endswith(
        (";", "}")))


def _sentences(parts: List[str], answer: str = "") -> str:
    """The parts as sentences: each capitalised and ended with one full stop (or its own ! ?);
    a part that ends with the answer's code ending in ";" or "}" ends there, as the code does."""
    out = []
    code_ends = _code_ends(answer)
    for part in parts:
        part = WHITESPACE.sub(" ", part).strip()
        if code_ends and part.endswith(code_ends):
            out.append(capitalize(part))
            continue
        stripped = strip_trailing(part)
        if not stripped:
            continue
        if (stripped[-1:] in _CLOSING_QUOTES + ("$",) and stripped[-2:-1] in ".!?") or _DISPLAY_ENDED.search(stripped):
            # '... album "Sgt. Pepper's Lonely Hearts Club Band."', "... to $7 + 2i.$", "... = 144. \]"
            out.append(capitalize(stripped))
        else:
            out.append(capitalize(stripped) + ".")
    return _CAN_NOT.sub(lambda match: match.group(1) + "annot", " ".join(out))
