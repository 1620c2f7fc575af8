"""What is wrong with a statement: ``statement_issues(question, answer, statement)``.

A statement is what CAP's NLI model compares, so a broken one makes a doubtful score. The check
reads the statement it is given, not the path that made it, so it runs on the output of the rule
converter and of any statement model or LLM alike: its strings (a question echoed, the answer's
words or code missing, markdown, labels and options left, lines run together: here and in
``check_content``) and its parse by the rule converter's parser (a sentence without a finite verb
or a subject, an auxiliary before its subject, a wh-word left in place, disagreement, a missing
article, a pronoun with nothing to refer to: ``check_grammar``). ``statements_issues`` checks many
statements with their parses made in one batch, as the metric does. A question or answer that is
not English gets ``not_english`` alone. Every test is linear in the length of its inputs.
``ISSUES`` names and describes every code; the codes are stable (a caller may count them across
versions).
"""


import collections
import functools
import re
import unicodedata
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Set

from capqa.common.validation import check_same_length, check_text, check_text_list, visible_text
from capqa.statements.check_content import (code_altered, code_tokens, fence_tag_left, formula_in_frame, frame_lost,
                                            label_left, lines_joined, markup_left, options_left, preposition_moved,
                                            question_missing, quote_asserted, time_dropped)
from capqa.statements.check_grammar import grammar_issues, is_imperative, unfilled_preposition
from capqa.statements.rules.answer_cleaning import without_hedges, without_topic_label
from capqa.statements.rules.answer_sentences import answer_sentences, quote_whole_sentences, split_sentences
from capqa.statements.rules.code import MATH_SPAN, code_chunks
from capqa.statements.rules.context import says_you, speaks_to_system, split_question
from capqa.statements.rules.joins import without_doubled_joins
from capqa.statements.rules.language import not_english
from capqa.statements.rules.lexicon import (ARTICLES, AUXILIARIES, BLANK, CONDITION_WORDS, DETERMINERS, MODALS,
                                            NEGATIONS, NEGATIVE_ANSWER_WORDS, NUMBER_WORDS, PREPOSITIONS, PRONOUNS,
                                            VERDICT_LABELS, strip_trailing)
from capqa.statements.rules.morphology import (indefinite_article, inflect, is_bare_noun_phrase, is_base_verb,
                                               is_count_noun, is_finite_verb, is_participle, lemmas_of)
from capqa.statements.rules.parser import MAX_PARSED_CHARS, NotParsedYet, Parse, batched, parse, parse_into
from capqa.statements.text_metrics import normalize_statement

ISSUES: Dict[str, str] = {
    "wh_start": "not declarative: starts like a wh-question (a wh-word before an auxiliary)",
    "auxiliary_start": "not declarative: starts with an inverted auxiliary, like a yes/no question",
    "question_mark": "not declarative: ends with a question mark",
    "imperative_start": "not declarative: starts with an imperative verb (Name, List, Tell me, Explain, ...)",
    "echoed_question": "the question or instruction is repeated in the statement (an instruction after a task's "
                       "premises too: '..., then find the remainder when ...', '..., calculate Allen's age ...'), or "
                       "a yes/no question's 'any' or 'ever' kept in an affirmative sentence ('They won any awards')",
    "semicolon_join": "the answer is tacked on after a semicolon",
    "answer_missing": "the statement leaves out the words of the answer (not its hedges: 'I'd say', 'probably')",
    "blank_left": "a blank marker (___, or a lone '_' as a word: 'in order to _ show') is left in the statement",
    "doubled_word": "a word, unit or phrase is written twice ('metres metres', 'the the', 'In Greek mythology, in "
                    "Greek mythology'), a number's unit again after an adverb ('16 years later years'), or a "
                    "relative 'that' ('the agronomist that that worked')",
    "article_mismatch": "'a' before a vowel sound or 'an' before a consonant sound",
    "copula_before_verb": "a copula or 'include' right before a finite or modal verb ('is can', 'are help', "
                          "'include are'), or the question's 'doing' before the answer's -ing verb ('by doing "
                          "absorbing them'), or a 'be' as the auxiliary of a bare verb ('is not show the "
                          "resident'): a sentence to complete given a verb it did not need",
    "article_before_verb": "an article right before a finite verb or a personal pronoun ('the is', 'a does', 'The "
                           "me a list of ...')",
    "pronoun_start": "starts with a pronoun the question does not contain (an unresolved referent)",
    "fallback_form": "the safe form: 'The answer to \"QUESTION\" is ANSWER' (no statement was built)",
    "empty": "the statement is empty",
    "not_english": "the question or the answer is not English: the statement is not checked (the rule converter "
                   "passes such an answer through as it is)",
    "fragment": "a sentence has no finite verb of its own: a noun phrase (its only verb in its relative or 'that' "
                "clause: 'The view that honesty is ...'), a lone 'Because ...' clause, a label, a phrase before a "
                "dash ('Father Brown — the priest-detective who ...', 'None — ...', 'Based on the data given, "
                "186 pm — ...'), or a noun phrase that ends it after ', but' or ', so' ('I can't be sure, but a "
                "town.'), or before a comma and a concession ('The Sahara, though Antarctica is larger.'); a LaTeX "
                "formula reads as a name, an equation as a clause; or its finite verb has a prepositional phrase "
                "for its subject ('From Shakespeare's Hamlet wrote ...'); a noun phrase with a clause of its own joined after "
                "', but' ('Alexander Graham Bell, but I'm not completely sure.') or after its prepositional phrase "
                "('About 14 million in the city proper people live ...'); a count label before a colon ('Only one: "
                "Spain borders ...')",
    "imperative_sentence": "a sentence is an instruction (a bare verb and no subject: 'Put it in water', 'To get a "
                           "good seat buy a ticket early'), not a statement; a name's verb ('Build With Chrome "
                           "combines ...') is none",
    "inverted_order": "an auxiliary stands before its subject inside the statement: a question's word order left "
                      "('... does she need to walk', '... theorist did Arther Quinlan interview'), or a 'than' "
                      "before its comparative ('had in 2000 than 2,700 more residents in 1990')",
    "wh_in_place": "a wh-word of the question is left inside the statement ('... won what award in 2011'), or the "
                   "'many' of its 'how many' (the adjective of 'how old', 'how tall') after the number put for "
                   "'how' ('In total, 4 many values', 'was ten old'), or a question asked after a colon ('The SQL "
                   "query for: What position does the player play is ...')",
    "agreement": "subject and verb disagree in number ('Gould and Beattie has', 'the scatter plot include', a name "
                 "of the question with a bare verb: 'Carla take', 'Tom's take him'; a plural copula right after a "
                 "name where the question has the singular: 'Elon Musk are the CEO')",
    "determiner_missing": "a singular count noun the answer gave bare stands without an article ('came from "
                          "indo-pacific region'; one with a participle after its noun is not judged), or one the "
                          "question gives an article opens the statement without it ('Draft began ...' for 'the "
                          "baseball draft')",
    "unresolved_pronoun": "the statement's first sentence has a pronoun, an object 'one' or 'there' that nothing "
                          "in it or in the question names ('Polonia Warsaw won it in 2000', 'You can make one "
                          "with cork')",
    "question_missing": "most of the question's own words are missing: a premise, condition or frame dropped; or a "
                        "name's numeral 'I' cut off ('The main causes of World War are ...'); or a year the question "
                        "sets ('in 1990') left out of a statement that is not the answer as given",
    "code_altered": "the answer's code is not kept as written: a token changed, recased or dropped",
    "lines_joined": "lines of the answer run together without a sentence break",
    "markup_left": "markdown is left: a table, a code fence or its language tag, bold marks, a heading (not a '#' "
                   "inside a sentence: the code's comment)",
    "label_left": "an answer label is left ('A: 8', 'So the answer is (B)', '... = 2/5, so (A).'; 'So the answer "
                  "is 284' is a sentence)",
    "options_left": "the question's answer options are listed in the statement",
    "missing_preposition": "a year stands without its preposition ('was born 1995'), or a phrase the question puts "
                           "after a preposition without one ('threw in two touchdowns the second half'); a number "
                           "after a copula is a "
                           "value ('is 2020')",
    "answer_in_frame": "a full-sentence answer put inside the question's frame ('The Saxon Garden in Polish is in "
                       "Polish the Saxon Garden is called ...', a lower-case one after its copula: 'its area is "
                       "the area is 40 square cm'), or after 'because' as a reason that restates the sentence's "
                       "opening ('Cats purr because cats purr when ...') or says none is known ('because nobody "
                       "knows')",
    "capital_inside": "a capitalised word inside a sentence: another sentence or an option pasted into the "
                      "question's frame ('... we conclude that We conclude there is ...', 'Cast of the movie X, Some "
                      "of its cast are ...', a word the question writes in lower case capitalised as it opened an "
                      "option: 'are all forms of Water (B)'; the answer's opening common noun or 'It's' after "
                      "'because': 'because Sunlight is made of ...'; the answer's opening determiner before a "
                      "number: 'replace your shoes Every 300 miles')",
    "negative_as_thing": "a negative answer put where a thing goes ('... is none', 'is a nothing in common', 'A neither "
                         "signed ...'), or a denial left elliptical ('Vikings didn't; horned helmets ...')",
    "person_not_swapped": "the questioner's 'I' or 'my' is left in the statement, where the reader is 'you'; or the "
                          "system's 'you' is, where the answer speaks as 'I' ('Do you have a body?' + 'No, I am a "
                          "program' -> 'You do not have a body.')",
    "auxiliary_misplaced": "the question's fronted auxiliary is put back in the wrong place ('... banned was 4 years "
                           "long', '(who died was in 1979) most associated'), a copula before an 'of' phrase "
                           "with its predicate after it ('The population is of France about 68 million'), a name "
                           "and a noun's phrase as two subjects ('Ottawa the capital is of Canada')",
    "frame_lost": "the statement is the answer's own words with none of the question's: what it answers is left "
                  "out ('The band was formed in Philadelphia.' for the band that made a named album, 'Pew reported "
                  "about 14%.' for an option of a word or two); naming one of the question's two alternatives keeps "
                  "it, and an option that is a sentence may stand alone",
    "split_possessive": "a possessive 's set apart from its name ('Radcliffe College 's liberal arts college'): "
                        "the answer put where the question's possessive phrase was",
    "participle_as_verb": "a past participle that is never a past tense ('born', 'given', 'seen') is a clause's "
                          "verb right after its relative pronoun or pronoun, with no auxiliary ('the surfer that "
                          "born 18 October 1992 won ...')",
    "clause_as_subject": "a clause stands as a subject without 'that' or 'for': a gerund's clause with a finite verb "
                         "of its own ('Replacing fat lowers LDL but raises triglycerides is correct'), a name with "
                         "its infinitive ('Luther to write hymns was caused by ...'), a sentence with its own "
                         "subject and auxiliary ('The museum is closed on Mondays is TRUE')",
    "clause_unclosed": "an adverbial clause set after the subject by a comma has no comma to close it before the "
                       "verb ('Jacques Lefevre, though I'm not certain of the dates was ...'), a prepositional "
                       "phrase too ('Mars, because of iron oxide on its surface are known ...')",
    "word_split": "a hyphenated word of the question or the answer is written with spaces around its hyphen "
                  "('whole - number')",
    "formula_in_frame": "an equation of the answer, which opens its own sentence or clause there, pasted after a "
                        "word of the question's frame where a value goes ('Tom has 3 * 12 = 36 apples left', 'The "
                        "value of x is 3x = 18, x = 6', 'The sum is let n = 6')",
    "quote_asserted": "a sentence the question quotes to ask a verdict on other than its truth ('Is the following "
                      "sentence plausible?', 'Is it sarcastic?', 'Does the premise entail ...?') stated as a fact, "
                      "the question's predicate gone ('Lionel Messi did not score a touchdown in the Super Bowl.'), "
                      "or named by 'the following' with the sentence left out ('The following statement is "
                      "sarcastic.')",
    "slot_mismatch": "the answer's phrase is of the wrong kind for its place in the frame: a noun phrase where a "
                     "clause goes, after 'because' or a clause-taking verb's 'that' ('The Roman Empire fell because "
                     "economic troubles.', 'The premise entails that the dog.'), or a clause where a preposition's "
                     "object goes ('The story ends through the hero returns home.')",
    "preposition_stranded": "the preposition the question strands ends a sentence with no object: the answer "
                            "never took its place ('The Eiffel Tower is made of.' for 'What is the Eiffel Tower "
                            "made of?')",
}
MAX_CODE_CHARS = 8000
MAX_WORDS = 400

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
# A blank of two underscores or more, or a lone one standing as a word ("is _ .", "in order to _ show"):
# no word is written so.
_BLANK = re.compile(BLANK.pattern + r"|\[blank\]|\(blank\)|(?<!\S)_(?!\S)", re.IGNORECASE)
_QUESTION_MARK = re.compile(r"\?[\"'”’)]*(?:\s|$)")
# "It is unknown who ...", "It is not true that ...": "it" refers to nothing there.
_EXPLETIVE = re.compile(r"^it (?:(?:is|was) (?:not |also )?\w+ (?:that|who|whom|whether|when|where|what|which|why|how|if|"
                        r"to)\b|depends\b|seems\b|appears\b|turns out\b|"
                        # "It takes a majority of 51 votes to confirm X": the infinitive is its subject
                        r"(?:takes|took|costs|cost) [^.;!?]{1,80}?\bto \w)", re.IGNORECASE)
_FALLBACK = 'The answer to "'
_WORD = re.compile(r"[^\W_]+")
# Words of an answer that claim nothing: the statement need not keep them.
_UNCLAIMED = frozenset(
    "a an the of to in on at is are was were be been it its this that these those and or but so as by for with "
    "i me my we you your he she they them their his her yes no true false not sure think believe guess say probably "
    "maybe perhaps answer correct option choice final well ok okay hmm great question certainly course "
    "hello hi hey bing ai language model assistant hope helps let know please note however also just fairly "
    "pretty quite certain confident positive likely definitely most if remember recall correctly mistaken would "
    "do does did will can could should has have had am none nobody nothing never neither nor".split()) | VERDICT_LABELS
_POLARITY = frozenset("yes no true false correct incorrect right wrong yeah yep nope".split())
# A rate said twice, in two ways, in one clause: "about $294 a week on eggs per week".
_DOUBLED_RATE = re.compile(r"\ba (second|minute|hour|day|week|month|year)\b[^.,;!?]{0,60}?\bper \1\b|"
                           r"\bper (second|minute|hour|day|week|month|year)\b[^.,;!?]{0,60}?\ba \2\b", re.IGNORECASE)
# A name, a space, then "'s": the possessive of a phrase the answer replaced ("College 's").
_SPLIT_POSSESSIVE = re.compile(r"(?<![^\s(])[A-Z][\w.-]*+ [’']s\b")
_OPTION = re.compile(r"^\(?([a-hA-H])\)?[.):]?(?:\s+(.*))?$")


def statement_issues(question: str, answer: str, statement: str) -> List[str]:
    """The codes of ``ISSUES`` that apply to ``statement`` (made for ``question`` answered by
    ``answer``), in the order of ``ISSUES``; [] for a sound statement."""
    check_text(question, "question")
    check_text(answer, "answer")
    if not isinstance(statement, str):
        raise TypeError(f"`statement` must be a string, got {type(statement).__name__}")
    return _issues([question], [answer], [statement])[0]


def statements_issues(questions: Sequence[str], answers: Sequence[str], statements: Sequence[str]) -> List[List[str]]:
    """``statement_issues`` of each (question, answer, statement), the statements parsed in one
    batch; each distinct triple is checked once."""
    questions = check_text_list(questions, "questions")
    answers = check_text_list(answers, "answers")
    statements = check_text_list(statements, "statements", allow_blank=True)
    check_same_length(questions, "questions", answers, "answers")
    check_same_length(questions, "questions", statements, "statements")
    return _issues(questions, answers, statements)


class _Reading(NamedTuple):
    """One statement as the checks read it, with the codes found before any parse."""
    question: str
    answer: str
    text: str                    # the statement, whitespace collapsed
    proper: str                  # the question proper (no context, no options)
    claims: str                  # the answer's claims
    has_context: bool
    sentences: List[str]         # the statement's sentences after the question's context, to parse
    found: Set[str]
    checked: bool                # False for an empty, a non-English or a fallback statement


def _issues(questions: List[str], answers: List[str], statements: List[str]) -> List[List[str]]:
    triples = list(dict.fromkeys(zip(questions, answers, statements)))
    readings = {triple: _read(*triple) for triple in triples}
    checked = {triple: reading for triple, reading in readings.items() if reading.checked}
    parsed: Dict[str, Parse] = {}
    parse_into(parsed, (sentence for reading in checked.values() for sentence in reading.sentences))  # one batch
    found = {triple: set(reading.found) for triple, reading in readings.items()}
    grammar = {triple: _grammar_issues(reading, parsed) for triple, reading in checked.items()}
    # Most statements need no parse of their question (its tests read the strings first): those
    # that do raise NotParsedYet, and their questions are parsed in a second batch.
    waiting = []
    with batched(parsed):
        for triple, reading in checked.items():
            try:
                found[triple] |= _question_issues(reading, grammar[triple])
            except NotParsedYet:
                waiting.append(triple)
    if waiting:
        parse_into(parsed, [checked[triple].proper for triple in waiting])
        with batched(parsed):
            for triple in waiting:
                found[triple] |= _question_issues(checked[triple], grammar[triple])
    codes = {triple: [code for code in ISSUES if code in found[triple]] for triple in triples}
    return [codes[triple] for triple in zip(questions, answers, statements)]


def _read(question: str, answer: str, statement: str) -> _Reading:
    """Everything about one statement that needs no parse."""
    # Read as shown: a zero-width space hides neither a doubled word nor a final question mark.
    question, answer, statement = visible_text(question), visible_text(answer), visible_text(statement)
    text = " ".join(statement.split())
    if not text:
        return _Reading(question, answer, text, "", "", False, [], {"empty"}, False)
    if not_english(question, answer):
        return _Reading(question, answer, text, "", "", False, [], {"not_english"}, False)
    parts = _split_question(question)
    proper = parts.question or " ".join(question.split())
    claims = _answer_text(answer, parts.options)
    rest = _after_context(text, parts.context)
    found = _surface_issues(question, answer, text, parts, proper, claims, rest)
    found |= _content_issues(question, answer, text, parts, proper, claims, rest)
    return _Reading(question, answer, text, proper, claims, rest != text, _bounded_sentences(_formulas_named(rest)),
                    found, "fallback_form" not in found)


def _formulas_named(text: str) -> str:
    """``text`` with each LaTeX formula read as one name ("Let X be a polynomial ...") for the
    parse: the tagger splits "$p(8).$" into words and sentences, and reads "\\frac{3}{56}" as an
    adjective, so that a sound sentence looks like a fragment. An equation is a clause ("$6-3i =
    6+9i$." reads "X equals X.")."""
    if "$" not in text and "\\" not in text:
        return text
    return MATH_SPAN.sub(lambda match: "X equals X" if "=" in match.group(0) else "X", text)


def _code_has_underscore(answer: str) -> bool:
    """Whether the answer's code has a lone "_" as a word: a name ("for _ in range(n)"), no blank."""
    return any("_" in re.split(r"[\s(),\[\]]+", chunk) for chunk in code_chunks(answer[:MAX_CODE_CHARS]))


# A question has many answers: its parts are found once (the parts are read, never changed).
_split_question = functools.lru_cache(maxsize=16384)(split_question)


def _bounded_sentences(text: str) -> List[str]:
    """The sentences of ``text`` within the first ``MAX_PARSED_CHARS`` characters (the parser's
    bound): a statement's structure is in its first sentences; a quoted text stays inside its
    sentence."""
    sentences, total = [], 0
    for sentence in quote_whole_sentences(text[:MAX_PARSED_CHARS]):
        total += len(sentence)
        if total > MAX_PARSED_CHARS:
            break
        sentences.append(sentence)
    return sentences


def _grammar_issues(reading: _Reading, parsed: Dict[str, Parse]) -> Set[str]:
    """The codes of the statement's own parse (``grammar_issues``, ``unfilled_preposition``)."""
    parses = [parsed[sentence] for sentence in reading.sentences]
    stranded = {"preposition_stranded"} if unfilled_preposition(parses, reading.proper) else set()
    return stranded | grammar_issues(parses,
                          {word.lower() for word in _WORD.findall(reading.question)},
                          _bare_answer_words(reading.claims), reading.has_context,
                          _inner_capitals(reading.question, reading.answer),
                          _word_pairs(reading.question), _opening_words(f"{reading.question}\n{reading.answer}"),
                          {sentence.split()[0] for sentence in split_sentences(reading.claims[:MAX_PARSED_CHARS])
                           if sentence.split()})


def _question_issues(reading: _Reading, grammar: Set[str]) -> Set[str]:
    """``grammar`` with the codes that read the question's parse too: an instruction the question
    asked to complete, a verb-led query or a prompt echoed, a fronted "be" misplaced. The question
    is parsed (``parse``) only when a test's strings leave it to decide."""
    found = set(grammar)
    question = functools.partial(parse, reading.proper)
    if "imperative_sentence" in found and _completes_instruction(reading.proper, question, reading.text):
        found.discard("imperative_sentence")
    if "echoed_question" not in reading.found and _echoes_query(reading.proper, question, reading.text, reading.claims):
        found.add("echoed_question")
    if "echoed_question" not in reading.found and _echoes_prompt(reading.proper, question, reading.text,
                                                                 reading.claims):
        found.add("echoed_question")
    if _auxiliary_misplaced(reading.proper, question, reading.text):
        found.add("auxiliary_misplaced")
    return found


def _opening_words(text: str) -> Set[str]:
    """The words the text writes in lower case and also capitalised to open a line, a sentence or
    an option ("(C) Plankton release oxygen" and "called plankton"), lower-cased (of its first
    ``MAX_CODE_CHARS`` characters)."""
    text = text[:MAX_CODE_CHARS]
    lower = {word for word in _WORD.findall(text) if word.islower()}
    return {match.group(1).lower() for match in _OPENING.finditer(text)} & lower


# A capitalised word opening a line, a sentence or an option ("(B) Water", "B. Water"): not after
# a list's number ("1. Soil texture": items are capitalised in place) or an initial ("v. Ohio").
_OPENING = re.compile(r"(?:^|\)\s|(?<![\d\s.][a-zA-Z.])(?<!\d)[.!?:—–]\s)\s*+([A-Z][a-z]+)\b", re.MULTILINE)


def _word_pairs(text: str) -> Set[tuple]:
    """The text's pairs of adjacent words, lower-cased, without the punctuation around them."""
    words = [word.strip(_PUNCTUATION).lower() for word in text.split()[:MAX_WORDS * 2]]
    return set(zip(words, words[1:]))


def _completes_instruction(proper: str, words: Callable[[], Parse], text: str) -> bool:
    """An exam stem that is itself an instruction, completed ("To help a seedling grow, give it" ->
    "To help a seedling grow, give it sunlight."): the statement's instruction is the question's."""
    stem = normalize_statement(strip_trailing(proper))
    return proper.rstrip()[-1:] not in ".?!" and bool(stem) and normalize_statement(text).startswith(
        stem) and is_imperative(words())


def _echoes_prompt(proper: str, question: Callable[[], Parse], text: str, claims: str) -> bool:
    """A prompt that is a full clause before its colon ("These goods are ... purchase risk:") with
    the answer tacked on: not one that ends open, in a preposition, a determiner or a verb that
    wants its object ("... depictions of:", "... once every:", "... resembled:")."""
    if not proper.rstrip().endswith(":"):
        return False
    asked = normalize_statement(strip_trailing(proper))
    answered = " ".join(normalize_statement(claims).split()[:3])
    if not answered or f" {asked} {answered} " not in f" {normalize_statement(text)} ":
        return False
    words = question()
    last = next((word for word in reversed(words) if word.tag not in (":", ".", ",")), None)
    return len(words) >= 4 and not (last is None or last.lower in _OPEN_ENDINGS or last.tag in (
        "IN", "DT", "TO", "VB", "VBD", "VBP", "VBZ", "MD", "PDT", "PRP$", "WDT", "CC"))


def _auxiliary_misplaced(proper: str, question: Callable[[], Parse], text: str) -> bool:
    """The question fronts "be" before its subject and a participle or adjective after it ("How
    long was swimmer Michelle Smith-de Bruin banned ...?", "What are BSkyB's broadcasts compliant
    with?"); in the statement that predicate word must follow a form of "be" (or an adverb after
    one): "... banned was 4 years long" and "broadcasts compliant are with" do not."""
    # The parse's first six tokens lie in the first six words: without a form of "be" written
    # in them (as a part of a word, as "isn't" is) the question fronts none.
    if not any(be in word for word in proper.lower().split()[:6] for be in _BE_STEMS):
        return False
    predicate = _fronted_be_predicate(question())
    if predicate is None:
        return False
    said = [word.strip(_PUNCTUATION).lower() for word in text.split()][:MAX_WORDS * 2]
    if predicate not in said:
        return False
    index = said.index(predicate)
    before = [word for word in said[max(0, index - 4):index] if not _adverb(word)]
    return not before or before[-1] not in _BE_FORMS


def _adverb(word: str) -> bool:
    """An adverb that may stand between "be" and its predicate ("is commonly called", "was no
    longer considered", "is so salty")."""
    if word in _ADVERBS_BEFORE_PREDICATE or (word.endswith("ly") and len(word) > 4):
        return True
    lemmas = lemmas_of(word)
    return bool(lemmas) and set(lemmas) <= {"ADV"}


def _fronted_be_predicate(words) -> Optional[str]:
    """The participle or adjective of a question that fronts "be" before its subject, lower-cased."""
    for be in words[:6]:
        # "When was Uluru (...) in the Northern Territory declared ...?": the parser may hang "was" on the
        # participle as a clause of its own (advcl), its subject with it
        if be.lower not in _BE_FORMS or be.dep not in ("aux", "auxpass", "ROOT", "advcl"):
            continue
        if be.dep == "advcl" and (be.head < be.i or words[be.head].tag not in ("VBN", "VBD")):
            continue
        head = be.i if be.dep == "ROOT" else be.head
        subject = next((word for word in words if word.head in (be.i, head) and word.dep in ("nsubj", "nsubjpass")),
                       None)
        if subject is None or subject.i < be.i:
            return None
        if be.dep != "ROOT" and words[head].tag in ("VBN", "VBD", "JJ") and head > subject.i:
            return words[head].lower
        predicate = next((word for word in words if word.head == be.i and word.dep in ("acomp", "advcl")
                          and word.tag in ("VBN", "JJ") and word.i > subject.i), None)
        return predicate.lower if predicate is not None else _stranded_predicate(words, subject.i)
    return None


def _stranded_predicate(words, subject: int) -> Optional[str]:
    """The adjective or adverb after the subject that heads the preposition the question strands
    ("What is the kitchen east of?": "east"), lower-cased: the predicate the copula goes before."""
    content = [word for word in words if word.text[:1].isalnum()]
    last = content[-1] if content else None
    if last is None or last.dep != "prep" or last.tag != "IN" or last.head == last.i:
        return None
    head = words[last.head]
    return head.lower if head.tag in ("RB", "JJ") and head.i == last.i - 1 and head.i > subject else None


_BE_FORMS = frozenset(("is", "are", "was", "were", "be", "been", "being", "am"))
_BE_STEMS = ("is", "are", "was", "were", "be", "am")  # every form of _BE_FORMS has one of them in it
_ADVERBS_BEFORE_PREDICATE = frozenset("most more least less not no never longer also first still already often usually "
                                      "best well very only so too as".split())


def _inner_capitals(question: str, answer: str) -> Set[str]:
    """Capitalised words the question or answer has inside a sentence ("units In the building",
    "stands for Not in Education"), and a short answer's words ("Them"): theirs, not pasted. The
    answer's first word is one when it opens a name ("Lincoln Park in ..."), not a sentence ("Many
    collisions that ..."): a capital or a number after it."""
    inner = set()
    for given in (question, answer):
        words = given.split()[:2000]
        inner |= {word.strip(_PUNCTUATION) for previous, word in zip(words, words[1:])
                  if word[:1].isupper() and previous[-1:] not in ".!?:" and previous[:1].islower()}
    said = answer.split()[:4]
    opening = set()
    if len(said) <= 3:
        opening = {word.strip(_PUNCTUATION) for word in said}
    elif said[1][:1].isupper() or said[1][:1].isdigit():
        opening = {said[0].strip(_PUNCTUATION)}
    # A determiner or preposition opening the answer ("Every 300 miles") opens no name.
    return inner | {word for word in opening if word.lower() not in DETERMINERS and word.lower() not in PREPOSITIONS}


_PUNCTUATION = "\"'“”‘’()[],.;:!?*"


def _bare_answer_words(claims: str) -> Set[str]:
    """The head noun of an answer that is a bare noun phrase of two or three words ("indian
    ocean", "working fluid"; one bare word is too often a mass noun or a name: "peace", "duff", unless
    it is a noun only ever counted: "thermometer")."""
    phrase = strip_trailing(claims)
    words = phrase.lower().split()
    if len(words) == 1 and phrase.islower() and is_count_noun(phrase):
        return {phrase}
    if len(words) < 2 or not is_bare_noun_phrase(phrase) or any(word in AUXILIARIES for word in words):
        return set()
    # A participle after the first word ("panels collecting sunlight", "sorrow regarding ...")
    # leaves the head unsure: not judged. A last "-ing" word is the head itself ("apartment building").
    if any(word.endswith("ing") and "VERB" in lemmas_of(word) for word in words[1:-1]):
        return set()
    cut = next((index for index, word in enumerate(words) if word in PREPOSITIONS), len(words))
    return {words[cut - 1]} if cut else set()


def _echoes_query(proper: str, question: Callable[[], Parse], text: str, claims: str) -> bool:
    """A query or goal led by a verb ("convert int to string", "Make outdoor pillow.", "Kill fruit
    flies easily.") repeated at the statement's start, after "the" or "one": a statement says
    "You can convert ..." or "To make ..., you ..."."""
    asked = normalize_statement(strip_trailing(proper))
    said = normalize_statement(text)
    if not any(said.startswith(f"{opening}{asked} ") or said == f"{opening}{asked}" for opening in ("", "the ", "one ")):
        return False
    words = question()
    verb = next((word for word in words if word.tag not in ("RB", "``", "''", ":")), None)
    if verb is not None and verb.i == 0 and lemmas_of(verb.lower) == {"VERB": (verb.lower,)} and len(words) >= 3:
        return True  # "Undo last commit?": a word that is only a verb opens a task, whatever the tagger makes of it
    if verb is None or verb.head != verb.i or verb.tag not in ("VB", "VBD", "VBP") or verb.i > 1:
        return False
    return verb.tag == "VB" or any(word.head == verb.i and word.dep == "dobj" for word in words)


# A currency's sign and its name both given ("spent $243 dollars"); a comparative the question
# gives its noun ("more band members") left bare at a sentence's end ("UB40 has more.").
_CURRENCY_DOUBLED = re.compile(r"[$€£¥]\s?+\d[\d,.]*+\s++(?:dollars?|euros?|pounds?|yen)\b", re.IGNORECASE)
_COMPARED_NOUN = re.compile(r"\b(?:more|fewer|less)\s++(?!than\b|of\b|or\b)[a-z]", re.IGNORECASE)
_COMPARATIVE_ENDS = re.compile(r"\b(?:more|fewer|less)[.!?](?:\s|$)", re.IGNORECASE)
# A superlative the question gives a noun ("the highest per capita rate", "the lowest life expectancy"),
# and one left bare at a sentence's end ("Mexico had the lowest."): group 1 the superlative.
_SUPERLATIVE_NOUN = re.compile(r"\bthe\s++(most|least|fewest|\w{2,}est)\s++(?!of\b|than\b|in\b|on\b|at\b|"
                               r"to\b|among\b|and\b|or\b)[a-z]", re.IGNORECASE)
_SUPERLATIVE_ENDS = re.compile(r"\bthe\s++(most|least|fewest|\w{2,}est)[.!?](?:\s|$)", re.IGNORECASE)


def _superlative_bare(question: str, text: str) -> bool:
    """A superlative the question gives its noun stated bare at a sentence's end ("Which country had the
    lowest life expectancy?" -> "Mexico had the lowest."): the lowest what is left out."""
    asked = {match.group(1).lower() for match in _SUPERLATIVE_NOUN.finditer(question[:MAX_CODE_CHARS])}
    return bool(asked) and any(match.group(1).lower() in asked for match in _SUPERLATIVE_ENDS.finditer(text))


# A question that asks for a share in percent ("How many people, in percent, were ...?"): group 1 the
# noun "how many" counts.
_ASKS_PERCENT = re.compile(r"\bhow many (\w+)\b(?=.*\b(?:in percent|in percentage|as a percent(?:age)?)\b)",
                           re.IGNORECASE)


def _bare_count_answer(claims: str, text: str) -> bool:
    """A one-word answer that is a noun only ever counted ("thermometer") opening a sentence with
    no article: "Thermometer measures ..." (the parse tags such a noun a name there, so the words
    are read). After a copula it may be a role or a name of the thing ("... is writer"): not judged."""
    answer = strip_trailing(claims)
    if " " in answer or not answer.islower() or not is_count_noun(answer):
        return False
    word = re.escape(answer)
    pattern = rf"(?:^|[.!?] )(?i:{word[:1]}){word[1:]} (?!is\b|are\b)"
    return bool(re.search(pattern, text))


def _surface_issues(question: str, answer: str, text: str, parts, proper: str, claims: str, rest: str) -> Set[str]:
    """The codes read from the statement's words as they stand."""
    found = set()
    words = text.split()
    first, second = _bare(words[0]), _bare(words[1]) if len(words) > 1 else ""
    given_first = {_bare(answer.split()[0])} if answer.split() else set()
    lead = question.split(",", 1)[0]
    if "," in question and text.startswith(lead.strip()):
        given_first.add(first)  # "Had war not intervened, Berlin would have ...": the question's lead
    found |= _form_issues(text, words, first, second, given_first)
    if text.startswith(_FALLBACK):
        found.add("fallback_form")
    elif _echoes(proper, text, claims, bool(code_tokens(answer[:MAX_CODE_CHARS]))):
        found.add("echoed_question")
    if _semicolon_join(proper, claims, text):
        found.add("semicolon_join")
    if _answer_missing(claims, text, question):
        found.add("answer_missing")
    if any(blank.group() != "_" or not _code_has_underscore(answer) for blank in _BLANK.finditer(text)):
        found.add("blank_left")  # a lone "_" the answer's code has ("for _ in range(n)") is a name, no blank
    if without_doubled_joins(text, answer) != text or _CURRENCY_DOUBLED.search(text):
        found.add("doubled_word")  # "because because", "so therefore": a function word said twice at a join
    if _bare_count_answer(claims, text):
        found.add("determiner_missing")
    found |= _word_issues(words, f"{question} {answer}")
    if _doubled_phrase(text, question, answer) or _DOUBLED_RATE.search(text) or _unit_doubled(words):
        found.add("doubled_word")
    if _answer_in_frame(text, claims, proper) or _equation_continued(answer, text):
        found.add("answer_in_frame")
    if _starts_with_pronoun(rest, question, claims):
        found.add("pronoun_start")
    if _inverted_as_asked(proper, text):
        found.add("inverted_order")
    if _NEGATIVE_AS_THING.search(text) or _ARTICLE_NEGATIVE.search(text) or _ELLIPTICAL_DENIAL.search(text):
        found.add("negative_as_thing")
    if (_HOW_MANY.search(question) and any(match.group(1) in answer for match in _MANY_LEFT.finditer(text))) or (
            _how_word_left(question, answer, text) or _QUESTION_INSIDE.search(text)):
        found.add("wh_in_place")
    if _person_not_swapped(question, text) or _speaker_not_swapped(question, answer, text):
        found.add("person_not_swapped")
    return found


def _content_issues(question: str, answer: str, text: str, parts, proper: str, claims: str, rest: str) -> Set[str]:
    """What the statement keeps of the question and the answer, and their formatting it leaves."""
    found = set()
    if code_altered(answer, text) or _code_recased(f"{question}\n{answer}", text):
        found.add("code_altered")
    if question_missing(proper, rest, claims) or _numeral_dropped(question, text) or (
            # the question's frame kept with its time left out; an answer given as it is may say it otherwise
            normalize_statement(rest) != normalize_statement(claims) and time_dropped(proper, rest, claims)):
        found.add("question_missing")
    if not parts.context and _short_options(parts.options) and frame_lost(proper, rest, claims):
        found.add("frame_lost")
    if _COMPARED_NOUN.search(proper) and _COMPARATIVE_ENDS.search(text):
        found.add("frame_lost")  # "Which band has more members?" -> "UB40 has more.": more of what is left out
    if _superlative_bare(proper, text):
        found.add("frame_lost")  # "... had the highest per capita rate?" -> "the US had the highest."
    if _percent_counted(proper, claims, text):
        found.add("frame_lost")
    if _SPLIT_POSSESSIVE.search(text):
        found.add("split_possessive")
    if preposition_moved(proper, rest, claims):
        found.add("missing_preposition")
    if _hyphen_spaced(f"{question}\n{answer}", text):
        found.add("word_split")
    if lines_joined(answer, text):
        found.add("lines_joined")
    if markup_left(text, "\n".join((question,) + code_chunks(answer[:MAX_CODE_CHARS]))) or fence_tag_left(answer, text):
        found.add("markup_left")
    if label_left(text):
        found.add("label_left")
    if formula_in_frame(answer, rest):
        found.add("formula_in_frame")
    if quote_asserted(question, rest):
        found.add("quote_asserted")
    sentences = split_sentences(" ".join(question.split()[:400]))
    listed = sentences[-1] if len(sentences) > 1 and "_" not in sentences[-1] else ""
    if options_left(text, parts.options, listed, proper, claims):
        found.add("options_left")
    return found


# An equation's result with a lower-case word after it in the same sentence ("100 - 4.3 = 95.7 percent
# of people ..."): group 1 the equation's end as written, group 2 the word.
_EQUATION_RESULT = re.compile(r"(=\s*+[-$€£]?\d(?:[\d.,]*\d)?%?)\s++([a-z]\w*)")
# A call, index or attribute opening the statement with its first letter capitalised ("Len([1, ...").
_CODE_OPENING = re.compile(r"^[A-Z]\w*+[(\[.](?=\S)")


def _equation_continued(answer: str, text: str) -> bool:
    """The answer's working pasted as the frame's subject or object: an equation of the answer,
    ending there, goes on into the question's words in the statement ("How many percent were not
    Asian?" "100 - 4.3 = 95.7" -> "100 - 4.3 = 95.7 percent of people were not Asian.")."""
    for match in _EQUATION_RESULT.finditer(text):
        result = match.group(1)
        if result in answer and not re.search(re.escape(result) + r"\s++" + re.escape(match.group(2)), answer):
            return True
    return False


def _code_recased(given: str, text: str) -> bool:
    """Code the question or answer writes in lower case capitalised to open the statement
    ("What does len([1, 2, 3]) return?" -> "Len([1, 2, 3]) returns 3."): code is case-sensitive,
    so the sentence's capital changes it."""
    match = _CODE_OPENING.match(text)
    if match is None:
        return False
    opening = match.group(0)
    return opening[0].lower() + opening[1:] in given and opening not in given


def _percent_counted(question: str, answer: str, text: str) -> bool:
    """A share the question asks for in percent said as a count of the question's noun ("How many
    people, in percent, were not Hispanic?" "81.4" -> "81.4 people, in percent, were ..."): the
    answer's number is a percentage, and the statement counts the things with it."""
    asked = _ASKS_PERCENT.search(question)
    if asked is None:
        return False
    noun = asked.group(1).lower()
    return any(re.search(rf"(?<![\w.,]){re.escape(number)} {re.escape(noun)}\b", text, re.IGNORECASE)
               for number in re.findall(r"\d+(?:\.\d+)?", answer))


def _hyphen_spaced(given: str, text: str) -> bool:
    """A hyphenated word of the question or answer written with spaces around its hyphen in the
    statement ("whole-number" -> "whole - number"): a word split apart."""
    said = [word.strip(_PUNCTUATION) for word in text.split()[:MAX_WORDS * 2]]
    split = {(before, after) for before, hyphen, after in zip(said, said[1:], said[2:]) if hyphen == "-"}
    return bool(split) and any(match.groups() in split for match in _HYPHENATED.finditer(given[:MAX_CODE_CHARS]))


_HYPHENATED = re.compile(r"\b([A-Za-z]+)-([A-Za-z]+)\b")


def _short_options(options: Dict[str, str]) -> bool:
    """No options, or options that are names or numbers of a word or two ("14%", "Chile"): the
    question's frame says what the chosen one is; an option that is a sentence may say it alone."""
    return all(len(option.split()) <= 2 for option in options.values())


def _person_not_swapped(question: str, text: str) -> bool:
    """The questioner's "I" or "my" kept with the question's next word ("How do I remove
    wrinkles ...?" -> "I remove wrinkles ..."; a context "I have 10 liters ..." kept as it is):
    for the reader the questioner is "you"."""
    asked = question.split()[:MAX_WORDS]
    said = _QUOTED_TEXT.sub(" ", text).split()  # 'The tweet "I love ..." is sarcastic': a quotation's "I" is its own
    pairs = set(zip(said, said[1:]))
    speaking = [index for index, word in enumerate(asked) if word == "I" and not _regnal(asked, index)]
    return bool(speaking) and any(word in ("I", "my", "My") and not _regnal(asked, index) and (word, following) in pairs
                                  for index, (word, following) in enumerate(zip(asked, asked[1:]))
                                  if following[:1].isalpha())


_QUOTED_TEXT = re.compile(r"\"[^\"]*\"|“[^”]*”")
_READER_SUBJECT = re.compile(r"(?:^|(?<=[.!?]\s))You(?:['’](?:re|ve|d|ll))?\s", re.MULTILINE)


def _speaker_not_swapped(question: str, answer: str, text: str) -> bool:
    """A sentence whose subject is "You" where the question addressed the system as "you" and the
    answer speaks as "I", saying no "you" of its own ("Do you have a body?" + "No, I am a program"
    -> "You do not have a body."): the speaker is "I"."""
    return speaks_to_system(question, answer) and not says_you(answer) and bool(_READER_SUBJECT.search(text))


def _numeral_dropped(question: str, text: str) -> bool:
    """A name's numeral "I" of the question ("World War I", "Richard I") cut off in the statement,
    its name kept ("The main causes of World War are ..."): read as the questioner's "I" and dropped."""
    asked = [word.strip(_PUNCTUATION) for word in question.split()[:MAX_WORDS]]
    said = [word.strip(_PUNCTUATION) for word in text.split()[:MAX_WORDS * 2]]
    for index, word in enumerate(asked):
        name = asked[index - 1] if index else ""
        if word == "I" and _regnal(asked, index) and name in said and not any(
                before == name and after == "I" for before, after in zip(said, said[1:])):
            return True
    return False


def _regnal(words: List[str], index: int) -> bool:
    """Whether the "I" at ``index`` is a numeral after a name ("Richard I", "World War I"), not the
    pronoun."""
    return words[index] == "I" and index > 0 and words[index - 1][:1].isupper() and words[index - 1][-1:].isalpha()


def _answer_in_frame(text: str, claims: str, question: str) -> bool:
    """A full-sentence answer put inside the question's frame: after a copula or a preposition
    ("The Saxon Garden in Polish is in Polish the Saxon Garden is called Ogród Saski"), or with
    the question's words after it ("... portrayed by Troian Bellisario are the head a in pretty
    little liars"). The answer counts as a sentence when it is written as one: a capital first,
    and a verb of its own within its first ten words, before any relative word. A lower-case
    answer that opens with a determiner and an auxiliary of its own ("the area is 40 square cm") is a
    sentence too where it follows the frame's copula ("its area is the area is ...")."""
    first = split_sentences(claims[:MAX_PARSED_CHARS])
    if not first or not _opens_clause(first[0].split()[:10]):
        return False
    lowered = not first[0][:1].isupper()
    if lowered and (first[0].split()[0] not in DETERMINERS or not any(
            word in AUXILIARIES for word in first[0].split()[1:6])):
        return False  # "a highly developed economy" has no verb: "developed" qualifies its noun
    claim = " ".join(normalize_statement(first[0]).split())
    if len(claim.split()) < 4:
        return False
    asked = set(normalize_statement(question).split())
    for sentence in split_sentences(text[:MAX_PARSED_CHARS * 2]):
        said = f" {normalize_statement(sentence)} "
        position = said.find(f" {claim} ")
        if position < 0:
            continue
        before, after = said[:position].split(), said[position + len(claim) + 2:].split()
        if before and before[-1] == "to":
            return False  # "The best way to X is to take lessons ...": an imperative answer made an infinitive
        if lowered:
            return bool(before) and before[-1] in _FRAME_ENDINGS and sum(word in asked for word in before) >= 2
        if before and (before[-1] in _FRAME_ENDINGS or before[-1] in PREPOSITIONS) and sum(
                word in asked for word in before) >= 2:
            return True
        if after and (after[0] in CONDITION_WORDS or after[0] in PREPOSITIONS):
            return False  # "You can eat 48 grams if ...": the question's condition or complement goes on the sentence
        return len(after) >= 3 and sum(word in asked for word in after[:6]) >= 3
    return False


def _opens_clause(words: List[str]) -> bool:
    """Whether the words have a verb of their own (an auxiliary, or a verb that is not also a
    noun, in lower case) before any relative word; an infinitive after "to" is none ("Social
    licence to operate" is a noun phrase)."""
    for previous, word in zip(words, words[1:]):
        bare = word.strip(_PUNCTUATION)
        if bare.lower() in _RELATIVE_WORDS:
            return False
        if previous.lower() == "to":
            continue
        if bare.islower() and (bare in AUXILIARIES or (is_finite_verb(bare) and not {"NOUN", "ADJ"} & set(
                lemmas_of(bare)))):
            return True
    return False


_RELATIVE_WORDS = frozenset("that which who whom whose where when".split())
_FRAME_ENDINGS = frozenset("is are was were include includes".split())


def _doubled_phrase(text: str, question: str, answer: str) -> bool:
    """A phrase written twice in one sentence: in a row ("to fool hunters to fool hunters", "In
    Greek mythology, in Greek mythology"); five words twice, more often than the question or the
    answer has them (a full-sentence answer put into the question's frame: "In the UK series
    'Doctor Who', the name ... is in the UK series 'Doctor Who', the name ..."); or three words of
    content twice, more often than the question and the answer together have them."""
    given_text, long_given, short_given = zip(*(_phrases(part) for part in (question, answer)))
    for sentence in split_sentences(text[:MAX_PARSED_CHARS * 2]):
        words = normalize_statement(sentence).split()
        for size in (2, 3, 4, 5):
            for start in range(len(words) - 2 * size + 1):
                if words[start] != words[start + size]:
                    continue  # the cheap test first: a run repeated starts with its first word repeated
                run = words[start:start + size]
                if run == words[start + size:start + 2 * size] and any(
                        word not in _UNCLAIMED and len(word) > 2 for word in run):
                    return not any(" ".join(run * 2) in part for part in given_text)
        for gram, count in _ngrams(words, 5).items():
            if count > 1 and count > max(counts.get(gram, 0) for counts in long_given):
                return True
        for gram, count in _ngrams(words, 3).items():
            if count > 1 and sum(word not in _UNCLAIMED for word in gram) >= 2 and count > sum(
                    counts.get(gram, 0) for counts in short_given):
                return True
    return False


@functools.lru_cache(maxsize=16384)
def _phrases(text: str) -> tuple:
    """(normalised text, its 5-gram counts, its 3-gram counts), kept by text: the question's are
    read for each of its answers."""
    words = normalize_statement(text).split()
    return " ".join(words), _ngrams(words, 5), _ngrams(words, 3)


def _ngrams(words: List[str], size: int) -> Dict[tuple, int]:
    """Each run of ``size`` words, counted, in the order first met."""
    return collections.Counter(zip(*(words[start:] for start in range(size))))


def _after_context(text: str, context: List[str]) -> str:
    """The statement after the question's context sentences, when it starts with them."""
    for sentence in context:
        sentence = " ".join(sentence.split())
        if not text.startswith(sentence):
            break
        text = text[len(sentence):].lstrip()
    return text


def _starts_with_pronoun(text: str, question: str, claims: str) -> bool:
    """A pronoun opens the statement (after the question's context) that the question does not
    contain: unless an expletive ("It is unknown who ...", "It depends ..."), a possessive when
    the question names someone ("His last statement ..." for "... written by Luther?"), a short
    answer that is a title ("Her (2013)"), or an answer that is itself a pronoun ("she did")."""
    text = _after_fronted_phrase(text)
    first = _bare(text.split()[0]) if text.split() else ""
    if first not in _PRONOUNS or first in {_bare(word) for word in question.split()} or _EXPLETIVE.match(text):
        return False
    if first in _POSSESSIVES and any(word[:1].isupper() for word in question.split()[1:]):
        return False
    said = claims.split()
    if len(said) <= 4 and _bare(said[0]) == first and not any(
            _bare(word) in AUXILIARIES or is_finite_verb(_bare(word)) for word in said[1:]):
        return False  # a title ("Her (2013)")
    return not (len(said) <= 3 and _bare(said[0]) == first and len(said) > 1 and _bare(said[1]) in AUXILIARIES)


_POSSESSIVES = frozenset(("his", "her", "its", "their"))
# A short prepositional phrase fronted before the subject ("In 1983, he released ...", "At the start, she ..."):
# one that names no one (no capital after its first word) and has no clause of its own ("When two waves meet,
# their amplitudes add": the waves are named there) leaves the subject's pronoun unresolved.
_FRONTED = re.compile(r"^([A-Z][a-z]*+)\b[^,A-Z;:.!?]{0,60}, (?=[a-z])")


def _after_fronted_phrase(text: str) -> str:
    """``text`` from its subject on, past a short fronted phrase that names no one."""
    match = _FRONTED.match(text)
    if match is None or match.group(1).lower() not in PREPOSITIONS or len(match.group(0).split()) > 8 or any(
            _bare(word) in AUXILIARIES or is_finite_verb(_bare(word)) for word in match.group(0).split()[1:]):
        return text
    return text[match.end():]


def _inverted_as_asked(question: str, text: str) -> bool:
    """The question's inverted auxiliary still before its subject's first words ("In which city
    have Gary Ayres and Neil Craig both been ...?" -> "Adelaide has Gary Ayres and Neil Craig
    both been ..."): do-support and the modals before a base verb, have before a participle, the
    question's first auxiliary and not a verb of its wh-subject ("Which comedian had a hit ...")."""
    asked = normalize_statement(question).split()[:40]
    if len(asked) < 4 or (asked[0] not in _WH and asked[0] not in AUXILIARIES):
        return False
    position = next((index for index, word in enumerate(asked[:7]) if word in AUXILIARIES), None)
    if position is None or asked[position] not in _INVERTING or (position == 0 and asked[0] in _WH) or any(
            is_finite_verb(word) for word in asked[1:position]):
        return False  # "who sings i can't take my eyes ...": a title's auxiliary, after the question's verb
    rest = [word for word in asked[position + 1:position + 8] if word != "not"]
    if len(rest) < 3 or rest[0] in AUXILIARIES or not _nominal(rest[0]) or is_base_verb(rest[0]):
        return False  # "Who will host ...": the wh-word is the subject
    if asked[position] in ("have", "has", "had") and (rest[0].isdigit() or rest[0] in NUMBER_WORDS):
        return False  # "Which genus has 5 known species": a count opens have's object, not its subject
    expected = is_participle if asked[position] in ("have", "has", "had") else is_base_verb
    if not any(expected(word) for word in rest[1:]):
        return False
    said = f" {normalize_statement(text)} "
    subject = " ".join(rest[:2])
    forms = _AUXILIARY_FORMS.get(asked[position], (asked[position],))
    return any(f" {form} {subject} " in said or f" {form} not {subject} " in said for form in forms)


def _nominal(word: str) -> bool:
    """A word that can open a subject: a determiner, a pronoun, a name, a noun, a number."""
    if word in DETERMINERS or word in PRONOUNS or word.isdigit():
        return True
    lemmas = lemmas_of(word)
    return not lemmas or "NOUN" in lemmas or "PROPN" in lemmas


_INVERTING = frozenset("do does did have has had can could will would shall should may might must".split())
_AUXILIARY_FORMS = {"do": ("do", "does", "did"), "does": ("do", "does", "did"), "did": ("do", "does", "did"),
                    "have": ("have", "has", "had"), "has": ("have", "has", "had"), "had": ("have", "has", "had")}
# The "many" or "much" of the question's "how many" left after the number that replaced "how"
# ("In total, 4 many values", "2000 calories many calories fulfill ..."): no number takes it. The
# number must be the answer's ("In 2010 many people moved" keeps the question's year).
_MANY_LEFT = re.compile(r"\b(\d[\d,.]*+)(?: [a-z]+)? (?:many|much)\b")
_HOW_MANY = re.compile(r"\bhow (?:many|much)\b", re.IGNORECASE)
# A question of its own inside the statement, after a colon: "The SQL query for: What position does
# the player play is ...": a capitalised wh-word with an auxiliary within four words.
_QUESTION_INSIDE = re.compile(r":\s++(?:" + "|".join(sorted(word.capitalize() for word in _WH))
                              + r")\b(?:\s++[^\s:;]++){0,3}?\s++(?:" + "|".join(sorted(_AUXILIARIES - {"am"})) + r")\b")
_HOW_ADJECTIVE = re.compile(r"\bhow ([a-z]+)\b", re.IGNORECASE)


def _how_word_left(question: str, answer: str, text: str) -> bool:
    """The adjective or adverb of the question's "how old", "how far" right after the answer's
    number put for "how" ("The boy was ten old"): a number measures nothing without its unit
    ("ten years old"). "How many" and "how much" are ``_MANY_LEFT``'s."""
    said = [_bare(word) for word in text.split()[:MAX_WORDS * 2]]
    numbers = {word for word in (_bare(word) for word in answer.split()[:MAX_WORDS])
               if word in NUMBER_WORDS or word.replace(",", "").replace(".", "").isdigit()}
    for match in _HOW_ADJECTIVE.finditer(question[:MAX_PARSED_CHARS]):
        adjective = match.group(1).lower()
        if adjective in ("many", "much") or adjective in _AUXILIARIES:
            continue
        if any(word in numbers and following == adjective for word, following in zip(said, said[1:])):
            return True
    return False


# A negative answer put where a thing goes: "... is none", "is a nothing in common", "appeared in None".
_NEGATIVE_AS_THING = re.compile(r"(?<!\bthere )\b(?:is|are|was|were|include|includes|a|an|the|in|of)\s++(?:none|nothing|"
                                r"nobody|no one)\b(?! of\b| but\b| else\b| more\b| less\b| like\b)", re.IGNORECASE)
# "A neither signed ...": a negative answer given an article as if it named one thing.
_ARTICLE_NEGATIVE = re.compile(r"\b(?:a|an|the)\s++neither\b", re.IGNORECASE)
# A denial left elliptical at a sentence's opening: "Vikings didn't; horned helmets ...", "Australia hasn't."
# (its subject's few words, then the negated auxiliary and nothing of the predicate it denies).
_ELLIPTICAL_DENIAL = re.compile(r"(?:^|(?<=[.!?;:]\s))(?:(?:[\w'’-]++\s++){1,5}?(?:(?:is|are|am|was|were|do|does|did|has|"
                                r"have|had|could|would|should)(?:n[’']t|\s++not)|can[’']t|cannot|can\s++not|won[’']t)|"
                                r"there\s++(?:is|are|was|were)(?:n[’']t|\s++not)\s++(?:one|any))\s*+(?:[;!]|\.(?!\w)|$)",
                                re.IGNORECASE)


def _bare(word: str) -> str:
    """The word lower-cased without punctuation around it or a contraction after it ("They're")."""
    word = word.strip("\"'“”‘’()[],.;:!?").lower()
    return re.split(r"['’]", word, maxsplit=1)[0] if ("'" in word or "’" in word) and not word.endswith(
        ("n't", "n’t")) else word


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


def _echoes(question: str, text: str, answer: str, code_answer: bool) -> bool:
    """Whether the statement repeats the question or an instruction as it was asked (see
    ``_asked_forms``). A statement that keeps the question's words in declarative order ("The
    character who dies in ... is Snape") does not."""
    said = f" {normalize_statement(text)} "
    answered = " ".join(normalize_statement(answer).split()[:3])
    for asked, anywhere in _asked_forms(question, code_answer):
        if said.startswith(f" {asked} ") or (anywhere and f" {asked} " in said) or (
                answered and f" {asked} {answered} " in said + " "):
            return True
    return False


def _asked_forms(question: str, code_answer: bool) -> List[tuple]:
    """(normalised text, found anywhere counts) of what a statement must not repeat: the
    question, and each clause of it that asks (a wh-word before an auxiliary, an inverted
    auxiliary, an instruction: "If their total age is 162, calculate Allen's age ...") anywhere;
    with a code answer, the query as the subject ("The filter array is
    arr.filter(...)"); a prompt that ends in a colon after a full clause, before its answer."""
    asked = normalize_statement(strip_trailing(question))
    words = asked.split()
    if len(words) < 2 or "_" in question:
        return []
    forms = []
    if len(words) >= 3 and (words[0] in _WH or words[0] in _AUXILIARIES or words[0] in _IMPERATIVES) and not (
            words[0] in _SUBORDINATING_WH and words[1] not in _AUXILIARIES and not question.rstrip().endswith("?")):
        forms.append((asked, False))
    clauses = question.split(", ")[:20] if question.rstrip().endswith("?") else []
    for position, clause in enumerate(clauses):
        clause_words = normalize_statement(strip_trailing(clause)).split()
        if len(clause_words) >= 4 and _asks(clause_words, position == 0):
            forms.append((" ".join(clause_words), True))
    if not clauses:
        forms += _instruction_clauses(question)
    if code_answer and words[0] not in _WH and words[0] not in _AUXILIARIES:
        forms += [(f"{article}{asked} {link}", True) for article in ("", "the ", "one ") for link in _LINKS]
    return forms


def _instruction_clauses(question: str) -> List[tuple]:
    """The instructions inside a task that asks no question, after its premises: a clause or
    sentence led by an instruction verb and its object, after a condition ("If $n \\equiv 2$, then
    find the remainder when ..."). A statement says the result;
    repeating the instruction leaves it an instruction."""
    forms = []
    for position, clause in enumerate(_CLAUSE_BREAK.split(question)[:20]):
        words = normalize_statement(strip_trailing(clause)).split()
        if words[:1] == ["then"]:
            words = words[1:]
        elif not position:
            continue  # a task led by its instruction is the question's own form (see ``_asked_forms``)
        if len(words) >= 4 and words[0] in _IMPERATIVES and (words[1] in _IMPERATIVE_OBJECTS | _WH or (
                words[2] == "s")):
            forms.append((" ".join(words), True))  # "..., calculate Allen's age 10 years from now"
    return forms


_CLAUSE_BREAK = re.compile(r", |(?<=[.!?]) ")


def _asks(words: List[str], first: bool) -> bool:
    """A clause that asks: an instruction verb ("calculate Allen's age ..."), "what" or "how"
    with an auxiliary within four words ("what is the value of", "how many sheep do ..."), or
    another wh-word before do-support or "which N" before an auxiliary ("which method could ...").
    A wh-word opening a relative clause ("..., which was developed by ...") does not ask."""
    if first and words[0] in _IMPERATIVES and words[1] in _IMPERATIVE_OBJECTS | {"the", "a", "an"} | _WH:
        return True
    if words[0] in ("what", "how"):
        return any(word in _AUXILIARIES for word in words[1:5])
    return words[0] in _WH and (words[1] in ("do", "does", "did") or (
        words[0] == "which" and words[2] in _AUXILIARIES and words[1] not in _AUXILIARIES))


# A query answered with code, read as the subject of a copula: "The convert decimal to hex is hex(255)".
_LINKS = ("is", "are", "include", "includes")
_OPEN_ENDINGS = frozenset("of to as for with by from in on at into about than the a an and or is are was were be "
                          "that which who whom whose every each all some any no many most few several".split())


def _answer_text(answer: str, options: Dict[str, str]) -> str:
    """The answer's claims (fillers, disclaimers and offers left out) with an option letter read
    as its option's text ("B" -> "Mars")."""
    option = _OPTION.match(answer.strip())
    if option and option.group(1).lower() in options and normalize_statement(option.group(2) or "") in (
            "", normalize_statement(options[option.group(1).lower()])):
        return options[option.group(1).lower()]  # "B" or "B. Mars": the letter and its own text
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
    Words the question has too are not the answer's to give ("Treaties of 1899: The Hague ..."),
    nor are its hedges ("I get 366", ", though I'm not certain of the dates") or a heading that
    restates the question ("Aviemore location: ...")."""
    asked = set(_WORD.findall(question.lower()))
    claimed = " ".join(without_hedges(strip_trailing(without_topic_label(sentence, question)))
                       for sentence in split_sentences(answer))
    words = [word for word in _content_words(claimed) if word not in asked]
    if not words:
        return False
    said = set(_WORD.findall(text.lower()))
    negated = bool(said & _NEGATION_WORDS)
    present = sum(word in said or _number_word(word, said) or (negated and word in NEGATIVE_ANSWER_WORDS)
                  for word in words)
    if len(words) <= 2:
        return present < len(words)
    return present * 2 < len(words)


# A negative answer's words ("none", "not any") are said by the statement's negation ("Venus has no moons").
_NEGATION_WORDS = NEGATIONS | NEGATIVE_ANSWER_WORDS - {"any"}


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
        elif previous in ARTICLES and word in ARTICLES:
            found.add("doubled_word")
        elif (previous in _LINKING and _is_verb_after_copula(words[index], word)) or (
                previous == "doing" and _is_gerund(word)):
            found.add("copula_before_verb")  # "by doing absorbing them": the question's "doing what" kept
        elif previous in ARTICLES and (word in _VERBS_NOT_NOUNS or word in _PERSONAL_PRONOUNS) and words[
                index].islower() and words[index].isalpha() and (index == 1 or words[index - 1].islower()):
            # a capital "A" inside a sentence names ("Town A had fewer bees"), no article
            found.add("article_before_verb")  # "The me a list of ...": an instruction's verb swapped for "the"
        elif previous in ("a", "an") and word[:1].isalpha() and indefinite_article(
                words[index].strip("\"'“”‘’()[],.;:!?")) != previous:
            found.add("article_mismatch")
    return found


_SUBORDINATING_WH = frozenset(("when", "where", "whenever"))
_LINKING = frozenset("is are was were include includes".split())
# Finite verbs that are never nouns: after an article they are a verb where a noun should be.
# Personal pronouns no article stands before ("i" and "it" apart: "the I-beam", "the it girl").
_PERSONAL_PRONOUNS = frozenset("me him us them you he she we they".split())
_VERBS_NOT_NOUNS = frozenset("is are was were does did has have had should would could shall".split())
_AFTER_COPULA = MODALS | frozenset("is are was were am do does did has have had".split())


def _unit_doubled(words: List[str]) -> bool:
    """A number's unit said again after an adverb ("signed 16 years later years after the siege"):
    the answer's measure and the question's both kept."""
    bare = [_bare(word) for word in words[:MAX_WORDS]]
    for index in range(len(bare) - 3):
        number, unit, between, again = bare[index:index + 4]
        if (unit == again and unit.isalpha() and (number in NUMBER_WORDS or number.replace(",", "").isdigit())
                and between not in PREPOSITIONS and "ADV" in lemmas_of(between)):
            return True
    return False


def _is_gerund(word: str) -> bool:
    """An -ing form of a verb the lexicon knows ("absorbing"), not a noun in -ing alone ("ceiling")."""
    return word.endswith("ing") and "VERB" in lemmas_of(word) and word != "doing"


def _is_verb_after_copula(written: str, word: str) -> bool:
    """Whether ``word`` (after a copula or "include") is a finite verb: a modal or auxiliary in
    lower case ("is can", not "is Will"), or an -s form the lexicon knows only as a verb ("is
    ceases"); a base form that is a noun too ("are help") is not judged."""
    if not written[:1].islower():
        return False
    if word in _AFTER_COPULA:
        return True
    lemmas = lemmas_of(word)
    return word.endswith("s") and set(lemmas) == {"VERB"} and inflect(lemmas["VERB"][0], "VBZ") == word
