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
"""

import re
from typing import List, NamedTuple, Optional, Tuple

from capqa.statements.rules.analysis import Frame, analyse, render
from capqa.statements.rules.answer_text import answer_sentences
from capqa.statements.rules.answers import (
    clean_answer, elliptical_polarity, elliptical_subject, lower_article, without_elliptical_sentences,
)
from capqa.statements.rules.blanks import complete, fill_blanks
from capqa.statements.rules.casing import cased_statement
from capqa.statements.rules.clause import embedded_question
from capqa.statements.rules.context import resolve_pronoun, split_question
from capqa.statements.rules.forms import Form, normalised, read_form
from capqa.statements.rules.lexicon import _WHITESPACE, strip_trailing
from capqa.statements.rules.morphology import _capitalize, _lemmas
from capqa.statements.rules.parser import MAX_PARSED_CHARS
from capqa.statements.rules.polar import polar
from capqa.statements.rules.queries import parse_question, question_text
from capqa.statements.rules.prompts import claim_statement, embedded_statement, fragment_statement, imperative_statement
from capqa.statements.rules.sentences import (
    denial, ends_in_situ, full_sentence, in_situ, may_be_sentence, sentence_head,
)
from capqa.statements.rules.stems import (continuation_texts, ends_open, is_stem, stem_statement,
                                          subordinate_stem)
from capqa.statements.rules.tails import with_tail
from capqa.statements.rules.wh_equative import equative
from capqa.statements.rules.wh_inverted import inverted
from capqa.statements.rules.wh_subject import wh_subject

FALLBACK_OPENING = 'The answer to "'
_NON_ANSWER = re.compile(r"^(?:unknown|not known|unclear|uncertain|i (?:do not|don't) know|no one knows|nobody knows|"
                         r"it is (?:unknown|not known|unclear)|no answer|cannot be determined|n/a)\W*$", re.IGNORECASE)
_OPENING_WORDS = frozenset("because since as due by through with in on at from during after before when while "
                           "about around approximately roughly nearly almost over under between the a an one two three "
                           "four five six seven eight nine ten eleven twelve twenty hundred thousand million".split())
_ASKS_YES_NO = re.compile(r"^(?:is|are|was|were|do|does|did|can|could|will|would|shall|should|may|might|must|has|"
                          r"have|had)(?:n[’']t)?\b", re.IGNORECASE)
_ASKS = re.compile(r"^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|"
                   r"will|would|shall|should|may|might|must|has|have|had)\b", re.IGNORECASE)
_CAN_NOT = re.compile(r"\b([Cc])an not\b(?! only\b)")
_VERDICT_PROMPT = re.compile(r"^(?:answer |say |state )?(?:true or false|true/false|t/f)\W*$", re.IGNORECASE)
_CLOSING_QUOTES = ('"', "”", "’", "'")
_NEGATIVE_REASON = re.compile(r"^(no one|nobody|nothing|none|never|neither|both)\s*[,;:]\s*(\w.+)$", re.IGNORECASE)


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


def prepare(question: str, answer: str) -> Prepared:
    """Everything about ``question`` and ``answer`` that needs no parse (steps 1 and 2)."""
    parts = split_question(question)
    raw_answer = _WHITESPACE.sub(" ", answer).strip()
    context = list(parts.context)
    if not parts.question:
        done = _sentences([_fallback(_WHITESPACE.sub(" ", question).strip(), raw_answer)])
        return Prepared(question, answer, context, "", Form("statement", ""), raw_answer, raw_answer, [], {}, done)
    proper = parts.question
    if context and _VERDICT_PROMPT.match(context[-1]):
        proper = f"True or false: {proper}"  # "True or false? Bats are blind."
        context.pop()
    proper = resolve_pronoun(proper, context)
    if len(proper) > MAX_PARSED_CHARS:  # no structure to read in a question that long: the safe form
        done = _sentences(context + [_fallback(proper, raw_answer)])
        return Prepared(question, answer, context, proper, Form("statement", proper), raw_answer, raw_answer, [], {},
                        done)
    sentences = answer_sentences(answer) or [raw_answer]
    if _ASKS_YES_NO.match(proper) and len(sentences) > 1 and elliptical_polarity(sentences[0]):
        sentences = [elliptical_polarity(sentences[0])] + sentences[1:]  # "It is. Helium is in group 18."
    sentences = without_elliptical_sentences(sentences)
    first, extra = sentences[0], sentences[1:]
    content = clean_answer(first, proper, parts.options, " ".join(context)) or strip_trailing(first)
    content, reason = _negative_with_reason(content)
    proper, content = normalised(proper, content)
    return Prepared(question, answer, context, proper, read_form(proper), content, first,
                    ([reason] if reason else []) + extra, parts.options)


def texts_to_parse(prepared: Prepared) -> List[str]:
    """The texts ``finish`` will parse, so that a batch can parse them together first."""
    if prepared.done is not None:
        return []
    texts = [] if prepared.form.kind in ("blank", "claim", "embedded", "imperative") else [
        question_text(prepared.proper)]
    if prepared.form.kind in ("claim", "embedded"):
        texts.append(prepared.form.text)
    if may_be_sentence(prepared.content, prepared.first):
        texts.append(sentence_head(prepared.content))
    if prepared.form.kind == "statement":
        # A sentence to complete: parsed one by one, the texts ``stems.continues`` reads cost
        # several times what they cost in the batch.
        texts += continuation_texts(strip_trailing(prepared.proper), prepared.content)
    return texts


def finish(prepared: Prepared) -> str:
    """The statement (steps 3 and 4)."""
    if prepared.done is not None:
        return prepared.done
    main, more = _main(prepared.form, prepared.proper, prepared.content, prepared.first, prepared.options)
    if not main:
        main = _fallback(prepared.proper, lower_article(prepared.content))
    text = _sentences(prepared.context + [main] + more + prepared.extra)
    return cased_statement(text, prepared.question, prepared.answer, prepared.proper)


def statement(question: str, answer: str) -> str:
    """The statement for one prompt and answer (both already checked to be non-empty text)."""
    return finish(prepare(question, answer))


def _main(form: Form, proper: str, content: str, first: str, options: dict) -> Tuple[Optional[str], List[str]]:
    """(the statement, sentences to follow it) for the question proper and the answer's content."""
    if form.kind == "blank":
        return fill_blanks(proper, lower_article(content)), []
    if form.kind == "claim":
        return claim_statement(form.text, content)
    if form.kind == "imperative" or (form.kind == "embedded" and not form.text.lower().startswith(("why", "how"))):
        kept = full_sentence(None, (), content, content)  # "Name either of these men." + a sentence naming them
        if kept:
            return kept, []
    if form.kind == "embedded":
        return embedded_statement(form.text, lower_article(content)), []
    if form.kind == "imperative":
        return imperative_statement(form, lower_article(elliptical_subject(content)), first), []
    words = parse_question(proper)
    frame = analyse(words)
    if form.kind != "question" and (frame is None or not frame.wh):
        frame = None  # a sentence to complete is no question, unless it opens like one ("In which county is X")
    if frame is not None and subordinate_stem(frame, words, proper, content):
        frame, form = None, Form("statement", proper)  # "When rocks are exposed to wind, the rocks" + "erode"
    if frame is None and form.kind == "statement":
        continued = stem_statement(strip_trailing(proper), lower_article(_sentence_case_dropped(content)), content)
        if continued:
            return continued, []
    if frame is not None and _NON_ANSWER.match(content):
        embedded = embedded_question(frame)  # "Unknown." -> "It is unknown who sings X."
        if embedded:
            return f"it is unknown {embedded}", []
    kept = full_sentence(frame, words, content, first)
    if kept:
        return kept, []
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
        if ends_open(words) and not _ASKS.match(proper):
            return complete(strip_trailing(proper), lower_article(content)), []  # "... public worship in?"
        return fragment_statement(words, lower_article(content)), []
    if ends_in_situ(words):
        return in_situ(words, lower_article(content)), []
    return complete(proper, lower_article(content)) if is_stem(words) else fragment_statement(
        words, lower_article(content)), []


def _from_frame(frame: Frame, answer: str) -> Optional[Tuple[str, List[str]]]:
    if not frame.wh:
        made = polar(frame, answer)
        if not made:
            return None
        main, explanation = made
        return main, [explanation] if explanation else []
    def build(text: str) -> Optional[str]:
        return wh_subject(frame, text) if frame.wh_is_subject else equative(frame, text) or inverted(frame, text)

    statement_text = with_tail(build, answer)
    if not statement_text:
        return None
    lead = render(frame.lead)
    if lead:
        statement_text = f"{lead.rstrip(',')}, {_lower_first_article(statement_text)}"
    return statement_text, []


def _lower_first_article(text: str) -> str:
    first, _, rest = text.partition(" ")
    return f"{first.lower()} {rest}" if first in ("The", "A", "An", "It", "They") else text


def _fallback(question: str, answer: str) -> str:
    return f'{FALLBACK_OPENING}{question.strip()}" is {answer}'


def _sentence_case_dropped(content: str) -> str:
    """"Coming through a tough shell, ..." -> "coming ...": an answer's capital that only opened
    its sentence (a verb, adverb or adjective, not a name) is lowered, as it lands mid-sentence."""
    first = content.split(" ", 1)[0]
    if len(first) < 2 or not first[0].isupper() or not first[1:].islower():
        return content
    lowered = first.lower()
    if lowered in _OPENING_WORDS:
        return lowered + content[len(first):]  # "Because chlorophyll breaks down ..."
    lemmas = _lemmas(lowered)
    gerund = lowered.endswith("ing") and "VERB" in lemmas
    plural = lemmas.get("NOUN", (lowered,))[0] != lowered and len(content.split()) > 2  # "Rivers carry minerals"
    if gerund or plural or (lemmas and "NOUN" not in lemmas and {"VERB", "ADV", "ADJ"} & set(lemmas)):
        return lowered + content[len(first):]
    return content


def _negative_with_reason(content: str) -> Tuple[str, str]:
    """"No one, it was cancelled" -> ("No one", "it was cancelled"): a negative answer and its
    reason, which follows the statement as a sentence of its own."""
    match = _NEGATIVE_REASON.match(content)
    return (match.group(1), match.group(2)) if match else (content, "")


def _sentences(parts: List[str]) -> str:
    """The parts as sentences: each capitalised and ended with one full stop (or its own ! ?)."""
    out = []
    for part in parts:
        part = _WHITESPACE.sub(" ", part).strip()
        stripped = strip_trailing(part)
        if not stripped:
            continue
        if stripped[-1:] in _CLOSING_QUOTES and stripped[-2:-1] in ".!?":
            out.append(_capitalize(stripped))  # '... album "Sgt. Pepper's Lonely Hearts Club Band."'
        else:
            out.append(_capitalize(stripped) + ".")
    return _CAN_NOT.sub(lambda match: match.group(1) + "annot", " ".join(out))
