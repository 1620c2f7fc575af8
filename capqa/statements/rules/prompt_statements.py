"""Prompts that are not plain questions: claims to judge, embedded questions, imperatives and noun
phrases.

- A claim ("True or false: Bats are blind.") is stated, or negated when the answer is false;
  what the answer adds after its verdict follows as a sentence ("False, sharks are fish.").
- An embedded question ("Tell me when the war ended", "Explain why ice floats") is in
  declarative order already: its clause takes the answer as the question's builders place it.
- An imperative ("Name a city in Bulgaria.", "List two noble gases.", "Define photosynthesis.")
  states its object: "One city in Bulgaria is Sofia.", "Two noble gases are helium and neon.".
- A noun phrase ("Capital of France?") is the subject: "The capital of France is Paris.".
"""

import re
from typing import List, Optional, Tuple

from capqa.statements.rules.analysis import Frame, render, verb_index, wh_phrase_end
from capqa.statements.rules.answer_cleaning import elliptical_polarity
from capqa.statements.rules.contractions import WH_WORDS, expanded
from capqa.statements.rules.declarative import join
from capqa.statements.rules.judged import (Verdict, contradicted_statement, echoes_verdict, lowered_clause,
                                           unsettled_statement, verdict)
from capqa.statements.rules.lexicon import (AUXILIARIES, COMPUTING_VERBS, DETERMINERS, FINITE_TAGS, LIST_ANSWER,
                                            NUMBER_WORDS, strip_trailing)
from capqa.statements.rules.morphology import is_plural_noun, lemmas_of, looks_like_clause, plural_phrase, with_article
from capqa.statements.rules.parser import Parse, parse
from capqa.statements.rules.polar import polarity
from capqa.statements.rules.question_forms import ADDRESSED_REQUEST, Form
from capqa.statements.rules.sentences import is_clause, may_be_sentence, negated_clause
from capqa.statements.rules.surface import list_or_single, list_verb
from capqa.statements.rules.text_verdicts import judged_claim, text_verdict_statement, verdict_said_again
from capqa.statements.rules.wh_equative import equative
from capqa.statements.rules.wh_inverted import inverted
from capqa.statements.rules.wh_subject import wh_subject

_EXAMPLE = re.compile(r"^(?:an? |one |some |two |three |several )?(examples?) of (.+)$", re.IGNORECASE)
_ONE = re.compile(r"^(?:one|a|an|any|a single) (.+)$", re.IGNORECASE)
_COUNT = re.compile(r"^(\d+|two|three|four|five|six|seven|eight|nine|ten) (.+)$", re.IGNORECASE)
_FORMULA_STOP = re.compile(r"\.\s*+(\$|\\\])$")  # a formula's own full stop at the end: "... = n.$"
_THE = re.compile(r"^(?:(the|some|all) )?(.+)$", re.IGNORECASE)
_LISTING_VERBS = frozenset(("name", "list", "give", "state", "identify", "mention", "cite", "provide",
                            "enumerate", "suggest", "recommend", "specify"))
# What "Solve" takes: an equation and its unknown, before it ("for x: 2x + 3 = 11") or after it ("3h = 9 for h")
_SOLVED = re.compile(r"^(?:for\s++(?P<before>\S{1,8}?)\s*+[:,]\s*+)?(?P<equation>[^=]*=.*?)(?:\s++for\s++(?P<after>\S{1,8}))?$")
_LIST_OF = re.compile(r"^(?:a |the )?(?:list|names|examples) of (.+)$", re.IGNORECASE)


def claim_texts(claim: str, content: str) -> List[str]:
    """The texts ``claim_statement(claim, content)`` parses: an answer without a verdict, or the
    claim an answer denies."""
    judged = judged_claim(claim)
    if judged:
        return [] if text_verdict_statement(judged, content) else [content]
    read = _verdict(content)
    if read is None:
        return [content]
    return [claim] if read.kind in ("false", "contradicts") else []


def claim_statement(claim: str, content: str) -> Tuple[Optional[str], List[str]]:
    """(the claim affirmed, negated or said unsettled by the answer, sentences to follow)."""
    judged = judged_claim(claim)
    if judged:  # 'the sentence "X" is plausible': the answer chooses the predicate said of the text
        return _text_verdict(judged, content)
    read = _verdict(content)
    if read is None:
        return (content if is_clause(parse(content)) else claim), []
    statement = claim
    if read.kind == "unsettled":
        statement = unsettled_statement(claim)
    elif read.kind != "true":
        statement = (read.kind == "contradicts" and contradicted_statement(claim)) or negated_clause(parse(claim)) or (
            f"it is not true that {lowered_clause(claim)}")
    # "No, it is not." / "Yes, that's correct.": a sentence that only says the verdict again is no explanation
    explanation = "" if echoes_verdict(read.explanation) or elliptical_polarity(read.explanation) else read.explanation
    return statement, [explanation] if len(explanation.split()) >= 2 else []


def _text_verdict(judged, content: str) -> Tuple[Optional[str], List[str]]:
    """(the property or verb the answer chose said of the text, sentences to follow); an answer
    with no verdict on it stands when it is a clause of its own, else there is no statement."""
    read = text_verdict_statement(judged, content)
    if read is None:
        return (content if is_clause(parse(content)) else None), []
    statement, explanation = read
    explanation = "" if echoes_verdict(explanation) or elliptical_polarity(explanation) else explanation
    return statement, [explanation] if len(explanation.split()) >= 2 else []


def verdict_folded(claim: str, statement: str, extra: List[str]) -> Tuple[str, List[str]]:
    """The statement of a verdict on a text and the answer's further sentences, less a sentence
    that says the verdict again ("Yes — this sentence is plausible because Y": '... is plausible
    because Y.')."""
    judged = judged_claim(claim)
    again = judged and extra and verdict_said_again(judged, statement, extra[0])
    if not again:
        return statement, extra
    statement, rest = again
    return statement, ([rest] if len(rest.split()) >= 2 else []) + extra[1:]


def _verdict(content: str) -> Optional[Verdict]:
    """The answer's verdict on a claim: its verdict word, or its yes or no ("nope", "absolutely")."""
    read = verdict(content)
    if read is not None:
        return read
    polar_read = polarity(content)
    return None if polar_read is None else Verdict("false" if polar_read[0] else "true", polar_read[1])


def embedded_statement(clause: str, answer: str) -> Optional[str]:
    """The statement for an embedded question ("when the Second World War ended")."""
    words = expanded(parse(clause))
    if not words or words[0].lower not in WH_WORDS:
        return None
    end = wh_phrase_end(words, 0)
    if end > 1 and _phrase_is_subject(words, end):
        end = 1  # "what DNA stands for", "what bees make": the noun is the clause's subject
    wh, phrase, after = words[0].lower, words[1:end], words[end:]
    if not after:
        return None
    first = 1 if wh in ("why", "when", "where", "how") and not phrase else 0  # these are never the subject
    finite = next((index for index, word in enumerate(after) if index >= first and (
        word.tag in FINITE_TAGS or (word.lower in AUXILIARIES and word.tag.startswith("VB")))), None)
    if finite is None:
        finite = verb_index(after)  # "why leaves change colour": the tagger took "change" for a noun
    if finite is None:
        return None
    if finite == 0:
        return wh_subject(Frame((), "", wh, phrase, "", False, (), after), answer)
    subject, verb = after[:finite], after[finite]
    if verb.lower in AUXILIARIES or verb.tag == "MD":
        rest = after[finite + 1:]
        negated = bool(rest) and rest[0].lower in ("not", "n't")
        frame = Frame((), "", wh, phrase, verb.lower, negated, subject, rest[1:] if negated else rest)
        if verb.lower in ("do", "does", "did") and not negated:
            frame = frame._replace(auxiliary="")  # emphatic do is rare: "what X does" is the verb
    else:
        frame = Frame((), "", wh, phrase, "", False, subject, after[finite:])
    return equative(frame, answer) or inverted(frame, answer)


def _phrase_is_subject(words, end) -> bool:
    """Whether the noun after an embedded "what"/"which" is the clause's subject rather than the
    wh-phrase's: a name ("what DNA stands for"), or a verb right after it with nothing after
    but a stranded preposition ("what bees make", "what X stands for")."""
    if words[0].lower not in ("what",):
        return False
    if all(word.text[:1].isupper() for word in words[1:end]):
        return True
    rest = words[end:]
    return bool(rest) and rest[0].tag in ("VBZ", "VBD", "VBP") and (
        len(rest) == 1 or (len(rest) == 2 and rest[1].tag in ("IN", "RP", "TO")))


def imperative_statement(form: Form, answer: str, first: str) -> Optional[str]:
    """The statement for "Name / List / Give / Define / Describe ... OBJECT"."""
    target = strip_trailing(form.text)
    verb = form.verb
    if verb in ("define",):
        return join(target, "is" if not plural_phrase(target) else "are", _clause_or_noun(answer, target))
    solved = _SOLVED.match(target) if verb == "solve" else None
    if solved:  # "Solve 3h - 12 = 9 for h." + "7" -> "The solution of 3h - 12 = 9 for h is 7."
        unknown = solved.group("before") or solved.group("after")
        return join("the solution of", solved.group("equation"), f"for {unknown}" if unknown else "", "is", answer)
    example = _EXAMPLE.match(target)
    if example and verb in _LISTING_VERBS:
        if example.group(1).lower() == "examples" or LIST_ANSWER.search(answer) and len(answer.split()) > 3:
            return f"examples of {example.group(2)} include {answer}"
        opening = "one example" if target.lower().startswith("one ") else "an example"
        return f"{opening} of {example.group(2)} is {_clause_or_noun(answer, example.group(2))}"
    one = _ONE.match(target)
    if one and verb in _LISTING_VERBS:
        return f"one {one.group(1)} is {_clause_or_noun(answer, one.group(1))}"
    count = _COUNT.match(target)
    if count and verb in _LISTING_VERBS:
        return f"{count.group(1)} {count.group(2)} are {answer}"
    match = _THE.match(target)
    determiner, subject = (match.group(1) or "the").lower(), match.group(2)
    listed = _LIST_OF.match(subject)
    if listed:
        subject = listed.group(1)
    plural = plural_phrase(subject) or _first_noun_plural(subject)
    if verb == ADDRESSED_REQUEST and plural:
        # "show me flights from A to B": they all are asked for; "my bookings" has its determiner; "give me
        # all X" asks for the whole set, as "Find all X" does: "The X are ..."
        determiner = "the" if determiner == "all" else determiner
        return join("" if subject.split()[0].lower() in DETERMINERS else determiner, subject, "are", answer)
    if verb in _LISTING_VERBS and plural:
        if any(word.lower() in NUMBER_WORDS or word.isdigit() for word in subject.split()):
            return f"the {subject} {list_verb(subject, answer)} {answer}"
        return f"some of the {subject} are {answer}"
    if (match.group(1) or "").lower() == "all" and verb in (*COMPUTING_VERBS, "find") and not (
            may_be_sentence(first, first)):
        # "Find all integers $n$ such that $f(n) = n.$" + "1,-2": the answer is the whole set
        return join("the", _FORMULA_STOP.sub(r"\1", subject), "are", answer)
    if not match.group(1) and verb in (*COMPUTING_VERBS, "write", "spell out", "translate"):
        expression = subject.rstrip("$") if subject.startswith("$") else subject  # a formula's closing "$" aside
        if answer.startswith(expression) and answer[len(expression):].lstrip().startswith("="):
            return answer  # "$(1+2i)6-3i = 6+9i$": the working-out states the object already
        return join(subject, "is", answer)
    if not match.group(1) and not subject[:1].islower():
        return join(subject, "is", _clause_or_noun(answer, subject))  # "Describe Ohm's law"
    if not match.group(1) and subject.split()[0].lower() in DETERMINERS:
        determiner = ""  # "Find a cheap flight to Rome": the object has its determiner, no "the" before it
    return join(determiner, subject, "is", _clause_or_noun(answer, subject))


def _first_noun_plural(phrase: str) -> bool:
    """"planets closer to the Sun than Earth": the first noun is the head, and it is plural."""
    for word in phrase.split():
        lemmas = lemmas_of(word.lower())
        if "NOUN" in lemmas and "ADJ" not in lemmas:
            return is_plural_noun(word)
    return False


def _clause_or_noun(answer: str, subject: str) -> str:
    if looks_like_clause(answer) and not answer.lower().startswith("that "):
        return f"that {answer}"
    return with_article(answer, subject)


def fragment_statement(words: Parse, answer: str) -> Optional[str]:
    """A noun phrase as the subject: "capital of France?" + Paris -> "The capital of France is Paris"."""
    phrase = fragment_subject(words)
    if phrase is None:
        return None
    if plural_phrase(phrase) or _lists(answer):
        return list_or_single(phrase, answer) if phrase.lower().startswith("the ") else join(
            phrase, list_verb(phrase, answer), answer)
    return join(phrase, "is", with_article(answer, phrase))


def _lists(answer: str) -> bool:
    """Whether an answer lists things for a singular noun phrase: "and", "or" or two commas, not
    a number's comma ("5,895 metres") nor one comma before a phrase that says more of the one
    thing ("very hot, around 40 degrees", "Spring, for the cherry blossoms")."""
    text = _NUMBER_COMMA.sub("", answer)
    return bool(LIST_ANSWER.search(text)) and (bool(_JOINED.search(text)) or text.count(",") + text.count(";") >= 2)


_NUMBER_COMMA = re.compile(r"(?<=\d),(?=\d)")
_JOINED = re.compile(r" (?:and|or) ")


def fragment_subject(words: Parse) -> Optional[str]:
    """A noun-phrase query as the statement's subject ("capital of France?" -> "the capital of
    France"), or None when the query has a finite verb of its own."""
    words = expanded(words)
    if not words or any(word.tag in FINITE_TAGS and word.dep == "ROOT" for word in words):
        return None
    phrase = render(words)
    listed = _LIST_OF.match(phrase)
    if listed:
        phrase = listed.group(1)
        words = words[len(words) - len(phrase.split()):] if len(phrase.split()) < len(words) else words
    first = words[0]
    common = "NOUN" in lemmas_of(first.lower) or "ADJ" in lemmas_of(first.lower)
    if (first.tag in ("NN", "NNS", "JJ", "JJS", "VBN") or (first.tag == "NNP" and common)) and first.lower != "list":
        if first.tag == "NNP" or (common and first.text[1:].islower()):
            phrase = phrase[:1].lower() + phrase[1:]  # "Side effects of X?": a title's capital, not a name's
        phrase = f"the {phrase}" if not phrase.lower().startswith(("different ", "other ")) else phrase
    return phrase
