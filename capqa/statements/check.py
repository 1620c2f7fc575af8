"""What is wrong with a statement: ``statement_issues(question, answer, statement)``.

A statement is what CAP's NLI model compares, so a broken one makes a doubtful score. The check
runs on the output of the rule converter and of any statement model; it reads only strings
(no parser, no model), in time linear in the length of its inputs, so it can run on every
statement of the metric. ``ISSUES`` names and describes every code it can return; the codes are
stable (a caller may count them across versions).
"""

import re
import unicodedata
from typing import Dict, List

from capqa.statements.rules.answer_text import answer_sentences
from capqa.statements.rules.context import split_question
from capqa.statements.rules.lexicon import _MODALS, strip_trailing
from capqa.statements.rules.morphology import _indefinite_article, _inflect, _lemmas
from capqa.statements.text_metrics import normalize_statement
from capqa.validation import check_text

ISSUES: Dict[str, str] = {
    "wh_start": "not declarative: starts like a wh-question (a wh-word before an auxiliary)",
    "auxiliary_start": "not declarative: starts with an inverted auxiliary, like a yes/no question",
    "question_mark": "not declarative: ends with a question mark",
    "imperative_start": "not declarative: starts with an imperative verb (Name, List, Tell me, Explain, ...)",
    "echoed_question": "the question or instruction is repeated in the statement",
    "semicolon_join": "the answer is tacked on after a semicolon",
    "answer_missing": "the statement leaves out the words of the answer",
    "blank_left": "a blank marker (___) is left in the statement",
    "doubled_word": "a word or unit is written twice in a row ('metres metres', 'the the')",
    "article_mismatch": "'a' before a vowel sound or 'an' before a consonant sound",
    "copula_before_verb": "a copula or 'include' right before a finite or modal verb ('is can', 'are help', "
                          "'include are'): a sentence to complete given a verb it did not need",
    "article_before_verb": "an article right before a finite verb ('the is', 'a does')",
    "pronoun_start": "starts with a pronoun the question does not contain (an unresolved referent)",
    "fallback_form": "the safe form: 'The answer to \"QUESTION\" is ANSWER' (no statement was built)",
    "empty": "the statement is empty",
}

_WH = frozenset("what which who whom whose when where why how".split())
_AUXILIARIES = frozenset("is are was were am do does did can could will would shall should may might must "
                         "has have had isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't "
                         "wouldn't shouldn't hasn't haven't".split())
_IMPERATIVES = frozenset("name list give tell explain describe state identify define calculate compute write "
                         "choose select fill complete compare find determine provide mention suggest answer "
                         "please translate".split())
_IMPERATIVE_OBJECTS = frozenset("me us the a an one two three four five some all any why what how which who "
                                "when where whether if".split())
_PRONOUNS = frozenset("it they he she this these those its their his her".split())
_DOUBLE_ALLOWED = frozenset("that had very ha no bye now tut yeah la".split())
_ARTICLES = frozenset(("a", "an", "the"))
_BLANK = re.compile(r"_{2,}|\[blank\]|\(blank\)", re.IGNORECASE)
_QUESTION_MARK = re.compile(r"\?[\"'”’)]*(?:\s|$)")
# "It is unknown who ...", "It is not true that ...": "it" refers to nothing there.
_EXPLETIVE = re.compile(r"^it (?:is|was) (?:not |also )?\w+ (?:that|who|whom|whether|when|where|what|which|why|how|if|to)\b",
                        re.IGNORECASE)
_FALLBACK = 'The answer to "'
_WORD = re.compile(r"[^\W_]+")
# Words of an answer that claim nothing: the statement need not keep them.
_UNCLAIMED = frozenset(
    "a an the of to in on at is are was were be been it its this that these those and or but so as by for with "
    "i me my we you your he she they them their his her yes no true false not sure think believe guess probably "
    "maybe perhaps answer correct option choice final well ok okay hmm great question certainly course "
    "hello hi hey bing ai language model assistant hope helps let know please note however also just fairly "
    "pretty quite certain confident positive likely definitely most if remember recall correctly mistaken would "
    "do does did will can could should has have had am none nobody nothing never neither nor".split())
_POLARITY = frozenset("yes no true false correct incorrect right wrong yeah yep nope".split())
_OPTION = re.compile(r"^\(?([a-hA-H])\)?[.):]?(?:\s+(.*))?$")


def statement_issues(question: str, answer: str, statement: str) -> List[str]:
    """The codes of ``ISSUES`` that apply to ``statement`` (made for ``question`` answered by
    ``answer``), in the order of ``ISSUES``; [] for a sound statement."""
    check_text(question, "question")
    check_text(answer, "answer")
    if not isinstance(statement, str):
        raise TypeError(f"`statement` must be a string, got {type(statement).__name__}")
    text = " ".join(statement.split())
    if not text:
        return ["empty"]
    found = set()
    words = text.split()
    first, second = _bare(words[0]), _bare(words[1]) if len(words) > 1 else ""
    given_first = {_bare(answer.split()[0])} if answer.split() else set()
    lead = question.split(",", 1)[0]
    if "," in question and text.startswith(lead.strip()):
        given_first.add(first)  # "Had war not intervened, Berlin would have ...": the question's lead
    found |= _form_issues(text, words, first, second, given_first)
    parts = split_question(question)
    proper = parts.question or " ".join(question.split())
    if text.startswith(_FALLBACK):
        found.add("fallback_form")
    elif _echoes(proper, text, _answer_text(answer, parts.options)):
        found.add("echoed_question")
    if _semicolon_join(proper, _answer_text(answer, parts.options), text):
        found.add("semicolon_join")
    if _answer_missing(_answer_text(answer, parts.options), text, question):
        found.add("answer_missing")
    if _BLANK.search(text):
        found.add("blank_left")
    found |= _word_issues(words, f"{question} {answer}")
    if first in _PRONOUNS and first not in {_bare(word) for word in f"{question} {answer}".split()} and (
            not _EXPLETIVE.match(text)):
        found.add("pronoun_start")
    return [code for code in ISSUES if code in found]


def _bare(word: str) -> str:
    return word.strip("\"'“”‘’()[],.;:!?").lower()


def _form_issues(text: str, words: List[str], first: str, second: str, given_first: set) -> set:
    found = set()
    if _question_mark_outside_quotes(text):
        found.add("question_mark")  # not a title's own: '"Mary, Did You Know?" is a song'  
    if first in _WH and (second in _AUXILIARIES or (
            "," not in text and any(_bare(word) in _AUXILIARIES for word in words[1:4]))):
        found.add("wh_start")
    if first in _AUXILIARIES and len(words) > 2 and first not in given_first:
        found.add("auxiliary_start")  # unless the answer opens so ("Will Friedle") or the question's lead does
    if (first in _IMPERATIVES and second in _IMPERATIVE_OBJECTS) or (first, second) == ("true", "or"):
        found.add("imperative_start")
    return found


def _question_mark_outside_quotes(text: str) -> bool:
    """Whether a question mark ends a sentence outside quotation marks (one pass over the text)."""
    straight = curly = position = 0
    for match in _QUESTION_MARK.finditer(text):
        segment = text[position:match.start()]
        straight += segment.count('"')
        curly += segment.count("“") - segment.count("”")
        position = match.start()
        if straight % 2 == 0 and curly <= 0:
            return True
    return False


def _echoes(question: str, text: str, answer: str) -> bool:
    """Whether the statement repeats a question or an instruction (of at least three words) as
    it was asked: at its start, or right before the answer. A statement that keeps the
    question's words in declarative order ("The character who dies in ... is Snape") does not."""
    asked = normalize_statement(strip_trailing(question))
    words = asked.split()
    if len(words) < 3 or "_" in question:
        return False
    if not (words[0] in _WH or words[0] in _AUXILIARIES or words[0] in _IMPERATIVES):
        return False  # a sentence to complete or a noun phrase is meant to be repeated
    if words[0] in _SUBORDINATING_WH and words[1] not in _AUXILIARIES and not question.rstrip().endswith("?"):
        return False  # "When rocks are exposed to wind, the rocks": a subordinate clause to complete
    said = normalize_statement(text)
    if said.startswith(asked + " ") or said == asked:
        return True
    answered = " ".join(normalize_statement(answer).split()[:3])
    return bool(answered) and f"{asked} {answered}" in said


def _answer_text(answer: str, options: Dict[str, str]) -> str:
    """The answer's claims (fillers, disclaimers and offers left out) with an option letter read
    as its option's text ("B" -> "Mars")."""
    option = _OPTION.match(answer.strip())
    if option and option.group(1).lower() in options and not (option.group(2) or "").strip():
        return options[option.group(1).lower()]
    return " ".join(answer_sentences(answer)) or answer


def _content_words(text: str) -> List[str]:
    return [word for word in _WORD.findall(text.lower()) if word not in _UNCLAIMED and len(word) > 1]


def _semicolon_join(question: str, answer: str, text: str) -> bool:
    if "; " not in text:
        return False
    before, after = text.rsplit("; ", 1)
    answer_words = normalize_statement(answer).split()[:3]
    after_words = normalize_statement(after).split()
    if answer_words and after_words[:len(answer_words)] == answer_words:
        return True
    asked = normalize_statement(strip_trailing(question))
    return len(asked.split()) >= 3 and asked in normalize_statement(before)


def _answer_missing(answer: str, text: str, question: str) -> bool:
    """Whether less than half the answer's content words are in the statement (all of them for
    an answer of one or two; none needed for a bare yes/no, which the statement says instead).
    Words the question has too are not the answer's to give ("Treaties of 1899: The Hague ...")."""
    asked = set(_WORD.findall(question.lower()))
    words = [word for word in _content_words(answer) if word not in asked]
    if not words:
        return False
    said = set(_WORD.findall(text.lower()))
    present = sum(word in said or _number_word(word, said) for word in words)
    if len(words) <= 2:
        return present < len(words)
    return present * 2 < len(words)


def _number_word(word: str, said: set) -> bool:
    """"CO₂" and "CO2", "100°C" and "100 °C" count as the same word."""
    folded = unicodedata.normalize("NFKC", word)
    return folded != word and folded in said


def _word_issues(words: List[str], given: str) -> set:
    """Doubled words and articles that disagree; a double the question or the answer already has
    ("Mercy Mercy Me", "in In Cold Blood") is theirs, not the statement's."""
    found = set()
    bare = [_bare(word) for word in words]
    given_words = [_bare(word) for word in given.split()]
    given_pairs = set(zip(given_words, given_words[1:]))
    for index in range(1, len(words)):
        previous, word = bare[index - 1], bare[index]
        if not word or not previous or words[index - 1][-1:] in ",;:." or (previous, word) in given_pairs:
            continue
        if word == previous and word.isalpha() and word not in _DOUBLE_ALLOWED and not (
                words[index][:1].isupper() and words[index - 1][:1].isupper()):
            found.add("doubled_word")
        elif previous in _ARTICLES and word in _ARTICLES:
            found.add("doubled_word")
        elif previous in _LINKING and _is_verb_after_copula(words[index], word):
            found.add("copula_before_verb")
        elif previous in _ARTICLES and word in _VERBS_NOT_NOUNS and words[index].islower():
            found.add("article_before_verb")
        elif previous in ("a", "an") and word[:1].isalpha() and _indefinite_article(
                words[index].strip("\"'“”‘’()[],.;:!?")) != previous:
            found.add("article_mismatch")
    return found


_SUBORDINATING_WH = frozenset(("when", "where", "whenever"))
_LINKING = frozenset("is are was were include includes".split())
# Finite verbs that are never nouns: after an article they are a verb where a noun should be.
_VERBS_NOT_NOUNS = frozenset("is are was were does did has have had should would could shall".split())
_AFTER_COPULA = _MODALS | frozenset("is are was were am do does did has have had".split())


def _is_verb_after_copula(written: str, word: str) -> bool:
    """Whether ``word`` (after a copula or "include") is a finite verb: a modal or auxiliary in
    lower case ("is can", not "is Will"), or an -s form the lexicon knows only as a verb ("is
    ceases"); a base form that is a noun too ("are help") is not judged."""
    if not written[:1].islower():
        return False
    if word in _AFTER_COPULA:
        return True
    lemmas = _lemmas(word)
    return word.endswith("s") and set(lemmas) == {"VERB"} and _inflect(lemmas["VERB"][0], "VBZ") == word
