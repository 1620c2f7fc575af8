"""Prompts that ask a verdict on a text, and their answers, where the verdict may not be truth.

A verdict of truth ("Is the following statement true?", "Is this claim supported?") judges what
the text says: the prompt is read as the claim ("True or false: X"). Every other predicate
("plausible", "grammatical", "sarcastic", "deductively valid", "toxic", "paraphrases",
"positive or negative") is a property of the text, so the statement says it of the text quoted:

- "Is the following sentence plausible? X" + no -> 'The sentence "X" is not plausible.'
- "Tweet: X Is this tweet sarcastic or not sarcastic?" + sarcastic -> 'The tweet "X" is sarcastic.'
- "Sentence 1: A Sentence 2: B Are these two sentences paraphrases?" -> 'The sentences "A" and "B" are ...'
- "Claim: X Does the evidence support or refute the claim?" + refutes -> 'The evidence refutes the claim "X".'

``judged_text_prompt`` reads the prompt into such a claim ('True or false: the sentence "X" is
plausible', its alternatives kept: '... is positive or negative'); ``text_verdict_statement`` reads
an answer's verdict on it ("no", "implausible", "Yes — this sentence is plausible because ...",
"Answer: valid") and states the chosen predicate.
"""

import re
from typing import List, NamedTuple, Optional, Tuple

from capqa.statements.rules.lexicon import (JUDGED_TEXT_NOUNS, NEGATIVE_ANSWERS, PROPERTY_ADVERBS, PROPERTY_ANTONYMS,
                                            TRUTH_PREDICATES, YES_NO, strip_trailing)

_NOUNS = "|".join(sorted(JUDGED_TEXT_NOUNS, key=len, reverse=True))
_QUOTE = r"[\"“][^\"”]+[\"”]"
# "Is the following sentence plausible?", "Is this sentence grammatically acceptable?", "Are these two
# questions duplicates?", "Is the sentiment of the following review positive or negative?",
# 'Is the sentence "X" grammatical?'; what follows its "?" in the same sentence is the text (after "Q:").
_ASPECT = r"the\s+(?:overall\s+)?(?:sentiment|tone|stance|polarity)"  # "Is the sentiment of X positive?"
_COPULAR_QUESTION = re.compile(
    rf"^(?:q\s*:\s*)?(?P<copula>is|are)\s+(?P<head>{_ASPECT}\s+of\s+)?"
    r"(?P<det>the\s+following|this|that|these|those|the)(?:\s+(?P<count>two|2))?\s+"
    rf"(?P<noun>{_NOUNS})(?P<plural>s)?(?:\s+(?P<place>below|above))?\s*(?P<quote>{_QUOTE})?\s+"
    r"(?P<predicate>[^?\"“”]+?)\s*\?\s*(?P<after>.*)$", re.IGNORECASE)
# "Do these two sentences mean the same thing?": a pair's verb phrase, said with "do not" when denied.
_DO_QUESTION = re.compile(
    r"^(?:q\s*:\s*)?(?P<copula>do)\s+(?P<head>)(?P<det>the\s+following|these|those|the)(?:\s+(?P<count>two|2))?\s+"
    rf"(?P<noun>{_NOUNS})(?P<plural>s)(?P<place>)(?P<quote>)\s+(?P<predicate>[^?\"“”]+?)\s*\?\s*(?P<after>.*)$",
    re.IGNORECASE)
# "What is the sentiment of the following review?": the aspect asked of a text.
_OPEN = "…"  # the predicate of a claim whose predicate the answer gives ('the sentiment of the review "X" is …')
_ASPECT_QUESTION = re.compile(
    rf"^(?:q\s*:\s*)?(?P<wh>what|which)\s+is\s+(?P<head>{_ASPECT})\s+of\s+(?P<det>the\s+following|this|that|the)\s+"
    rf"(?P<noun>{_NOUNS})(?:\s+(?P<place>below|above))?\s*\?\s*(?P<after>.*)$", re.IGNORECASE)
_INFERENCE = re.compile(r"\b(?:entail|contradict|neutral)", re.IGNORECASE)
# A predicate that is no property of the text: "Is the passage about dogs?", "Is the claim that X true?"
_NO_PROPERTY = re.compile(r"^(?:about|in|on|at|from|for|with|of|to|like|than|within|under|over|that|which|who|"
                          r"whether|if|what|when|where|how|why)\b", re.IGNORECASE)
# "Determine whether the following sentence is grammatical.", "Tell me if this tweet is sarcastic or not: X"
_VERDICT_TASK = re.compile(
    r"^(?:please\s+)?(?:decide|determine|say|state|indicate|tell\s+me|judge|check|classify|predict|identify)\s+"
    rf"(?:whether|if)\s+(?P<subject>(?:{_ASPECT}\s+of\s+)?(?:the\s+following|this|these|the)(?:\s+(?:two|2))?\s+"
    rf"(?:{_NOUNS})s?(?:\s+(?:below|above))?)\s+(?P<copula>is|are)\s+(?P<predicate>[^.:?!\"“]+?)(?:\s+or\s+not)?"
    r"\s*[.:?!]\s*(?P<after>.*)$", re.IGNORECASE)
_VERB = r"support|refute|contradict"
# "Does the evidence support or refute the claim?", "Does the passage support the statement?"
_VERB_QUESTION = re.compile(
    r"^(?:q\s*:\s*)?does\s+(?P<subject>the\s+(?:evidence|passage|text|context|article|paragraph|premise|document|"
    rf"source|story|report|abstract))\s+(?P<verbs>(?:{_VERB})(?:\s*,?\s*(?:or\s+)?(?:{_VERB}))*)\s+"
    rf"(?P<object>the\s+(?P<noun>{_NOUNS}))\s*\?\s*(?P<after>.*)$", re.IGNORECASE)
# A sentence that opens with its label: 'Tweet: "X"', "Sentence 1: X", "Ending: X".
_LABELLED = re.compile(r"^(?P<label>[A-Za-z]+(?:\s+(?:\d|[A-Z]))?)\s*:\s*(?P<text>\S.*)$")
# The answer's format after the prompt: "Answer with yes or no.", "Options: - yes - no", "Explain briefly."
_FORMAT = re.compile(r"^(?:(?:please\s+)?(?:answer|respond|reply)\b(?:\s+(?:only\s+)?(?:with|using|in))?[^.?!]{0,40}"
                     r"|(?:options|choices|answers?)\s*:.*|(?:briefly\s+)?(?:explain|justify)\b[^.?!]{0,40}|a\s*:)\W*$",
                     re.IGNORECASE)
_TRAILING_FORMAT = re.compile(r"\s*(?:(?:options|choices)\s*:.*|(?:please\s+)?answer\s+(?:with\s+)?"
                              r"(?:yes|no|true|false)\b.*)$", re.IGNORECASE)
_PAIR_LABEL = re.compile(r"^(?:\w+\s+)?(?:1|2|a|b)$", re.IGNORECASE)
_TRUTH_MODIFIERS = frozenset("factually really actually historically scientifically".split())
# What an answer says before its verdict word: "The argument is", "this sentence is", "It's", "Answer:".
_SAID = re.compile(r"^(?:answer\s*:\s*|verdict\s*:\s*|(?:i'd|i would)\s+say\s+)?(?:(?:(?:the|this|that|these|both)"
                   rf"(?:\s+(?:two|2))?\s+(?:{_NOUNS})s?|{_ASPECT}(?:\s+of\s+(?:the|this)\s+(?:{_NOUNS}))?|"
                   r"it|this|that|they)\s+(?:is|are)\s+|(?:it|that|this)'s\s+|they're\s+)?", re.IGNORECASE)
# What an answer says before a verb's verdict, and the object after it: "The evidence refutes the claim".
_AGENT = re.compile(r"^(?:answer\s*:\s*)?(?:(?:the|this)\s+\w+|it|this|they)\s+(?=(?:does|do|clearly|" + _VERB + r"))",
                    re.IGNORECASE)
_OBJECT = re.compile(rf"^(?:(?:(?:the|this|that)\s+(?:{_NOUNS})|it|this|that)\b)?", re.IGNORECASE)
_BARE_NOT = re.compile(r"^(not)\b\W*()$", re.IGNORECASE)  # "Probably not." with its hedge gone: a "no"
_DEGREE = frozenset("clearly definitely very quite highly probably likely somewhat fairly extremely totally "
                    "completely entirely mostly overall".split())
_NEGATING_PREFIXES = ("un", "in", "im", "il", "ir", "non-", "non")
_UNSETTLED = re.compile(r"^(?:not\s+enough\s+info(?:rmation)?|neutral|nei|unknown|uncertain|undetermined)\b",
                        re.IGNORECASE)
# "It's wrong to take ...": an extraposed clause is the subject, not the text judged.
_EXTRAPOSED = re.compile(r"^(?:to|that)\s", re.IGNORECASE)
_SUBORDINATOR = re.compile(r"^(?:because|since|as|given|for)\b", re.IGNORECASE)
_JUDGED_CLAIM = re.compile(r"^(?P<subject>[^\"]*?the\s+\w+\s+\"[^\"]*\"(?:\s+and\s+\"[^\"]*\")?)\s+"
                           r"(?P<copula>is|are|do)\s+(?P<predicate>[^\"]+)$|"
                           rf"^(?P<agent>the\s+\w+)\s+(?P<verbs>(?:{_VERB})s(?:\s+or\s+(?:{_VERB})s)*)"
                           r"\s+(?P<object>the\s+\w+\s+\"[^\"]*\")$")


class JudgedClaim(NamedTuple):
    subject: str             # 'the sentence "X"'; for a verb, its agent ("the evidence")
    copula: str              # "is" / "are"; "" for a verb
    alternatives: List[str]  # the predicates asked ("plausible"; "positive", "negative"; "supports", "refutes")
    object: str = ""         # a verb's object ('the claim "X"')


def judged_text_prompt(sentences: List[str]) -> Optional[Tuple[List[str], str]]:
    """(context, "True or false: CLAIM") for a prompt's sentences that ask a verdict on a text of
    their own, or None."""
    sentences = list(sentences)
    while len(sentences) > 1 and _FORMAT.match(sentences[-1]):
        sentences.pop()  # "Answer with yes or no.": the verdict's format, not the text judged
    for index in range(len(sentences) - 1, -1, -1):
        asked = _as_question(sentences[index])
        question = (_ASPECT_QUESTION.match(asked) or _COPULAR_QUESTION.match(asked) or _DO_QUESTION.match(asked)
                    or _VERB_QUESTION.match(asked))
        if question and _no_property(question):
            return None  # "Is the hypothesis entailed?": an inference (``judged``); "Is the passage about X?"
        if question and (index == len(sentences) - 1 or _follows(question, sentences[-1])):
            return _read(question, sentences[:index], sentences[index + 1:])
    return None


def _no_property(question: re.Match) -> bool:
    """Whether a copular question's predicate is an inference's or no property of the text."""
    predicate, copula = question.groupdict().get("predicate"), question.groupdict().get("copula")
    if not predicate or not copula:
        return False
    return bool((copula.lower() != "do" and _INFERENCE.search(predicate)) or _NO_PROPERTY.match(predicate))


def _read(question: re.Match, before: List[str], after: List[str]) -> Optional[Tuple[List[str], str]]:
    """(context, claim) of a verdict question found among the prompt's sentences."""
    after_text = _TRAILING_FORMAT.sub("", question.group("after"))  # 'Q: Is X plausible? "Y" Options: - yes'
    after = ([after_text] if after_text else []) + after
    groups = question.groupdict()
    pair = bool(groups.get("count") or groups.get("plural"))
    found = _judged_texts(before, after, question.group("noun").lower(), pair, groups.get("quote"))
    if found is None:
        return None
    context, texts = found
    if "wh" in groups:  # "What is the sentiment of this review?": the answer gives the predicate
        head = " ".join(question.group("head").lower().split())
        return context, f'True or false: {head} of the {question.group("noun").lower()} {_quoted(texts[0])} is {_OPEN}'
    copular = question if "copula" in groups else None
    return context, f"True or false: {_claim(copular, None if copular else question, texts)}"


def _as_question(sentence: str) -> str:
    """A task that asks a verdict put as the question it asks ("Determine whether the following
    sentence is grammatical: X" -> "Is the following sentence grammatical? X"), else the sentence."""
    task = _VERDICT_TASK.match(sentence)
    if not task:
        return sentence
    return f'{task.group("copula")} {task.group("subject")} {task.group("predicate")}? {task.group("after")}'.strip()


def _follows(question: re.Match, last: str) -> bool:
    """Whether the question says the text comes after it, and nothing after asks another question:
    "the following", "the sentence below"; "this" before a text ("Is this sentence grammatical? X",
    not "Is this review positive? Why?"); a claim not named yet ("Does the passage support or
    refute the claim? Claim: X")."""
    if last.endswith("?") and not _LABELLED.match(last):
        return False
    determiner = (question.groupdict().get("det") or "").lower()
    return not determiner or determiner.startswith("the following") or determiner in ("this", "these") or (
        question.groupdict().get("place") == "below")


def _judged_texts(before: List[str], after: List[str], noun: str, pair: bool,
                  quote: Optional[str]) -> Optional[Tuple[List[str], List[str]]]:
    """(the context, the texts judged): the quote inside the question, the text after it (from
    its label on: "Ending: X" after "Context: C"), or the labelled text before it ('Tweet: "X"',
    "Sentence 1: A Sentence 2: B")."""
    if quote:
        return before + after, [quote]
    if pair:
        labelled = [(index, match) for index, match in enumerate(map(_LABELLED.match, before + after))
                    if match and _PAIR_LABEL.match(match.group("label"))]
        if len(labelled) != 2:
            return None
        kept = [sentence for index, sentence in enumerate(before + after) if index not in dict(labelled)]
        return kept, [match.group("text") for _, match in labelled]
    if after:
        start = next((index for index, sentence in enumerate(after) if _labelled_as(sentence, noun)), 0)
        return before + after[:start], [_unlabelled(after[start:])]
    labelled = next((index for index in range(len(before) - 1, -1, -1) if _LABELLED.match(before[index])), None)
    if labelled is not None:
        return before[:labelled], [_unlabelled(before[labelled:])]
    if before and re.match(_QUOTE + r"$", before[-1].strip()):
        return before[:-1], [before[-1]]
    return None


def _unlabelled(sentences: List[str]) -> str:
    """The text of sentences without the label of the first ("Tweet: X" -> "X")."""
    label = _LABELLED.match(sentences[0])
    return " ".join([label.group("text") if label else sentences[0]] + sentences[1:])


def _labelled_as(sentence: str, noun: str) -> bool:
    label = _LABELLED.match(sentence)
    return bool(label) and label.group("label").lower() == noun


def _claim(copular: Optional[re.Match], verb: Optional[re.Match], texts: List[str]) -> str:
    quoted = [_quoted(text) for text in texts]
    if verb:  # 'the evidence supports or refutes the claim "X"'
        verbs = " or ".join(word.lower() + "s" for word in re.findall(_VERB, verb.group("verbs"), re.IGNORECASE))
        return f'{verb.group("subject").lower()} {verbs} {verb.group("object").lower()} {quoted[0]}'
    predicate = " ".join(copular.group("predicate").split())
    if is_truth_predicate(predicate) and not copular.group("head") and len(texts) == 1:
        return _unquoted(texts[0]).rstrip(".!")  # "Is the following statement true? X" judges X
    noun = copular.group("noun").lower() + ("s" if len(texts) > 1 else "")
    head = (copular.group("head") or "").lower()
    return f'{head}the {noun} {" and ".join(quoted)} {copular.group("copula").lower()} {predicate}'


def is_truth_predicate(predicate: str) -> bool:
    """Whether a verdict's predicate says that the text holds ("true", "factually accurate", "true,
    false, or uncertain based on the premises") rather than a property of the text ("plausible",
    "grammatically correct", "morally wrong")."""
    words = predicate.lower().replace(",", " ").split()
    if not words or any(word in PROPERTY_ADVERBS for word in words):
        return False
    words = [word for word in words if word not in _TRUTH_MODIFIERS] or words
    return words[0] in TRUTH_PREDICATES or " ".join(words[:2]) in TRUTH_PREDICATES


def _unquoted(text: str) -> str:
    text = text.strip()
    quoted = len(text) > 1 and text[0] in "\"“'‘" and text[-1] in "\"”'’"
    if quoted and not re.search(r"[\"“”]", text[1:-1]):
        return text[1:-1].strip()
    return text


def _quoted(text: str) -> str:
    inner = re.sub(r"[\"“”]", "'", _unquoted(text))
    return f'"{inner}"'


def judged_claim(claim: str) -> Optional[JudgedClaim]:
    """The parts of a claim ``judged_text_prompt`` made of a property or a verb said of a text, or None."""
    match = _JUDGED_CLAIM.match(claim)
    if not match:
        return None
    if match.group("verbs"):
        return JudgedClaim(match.group("agent"), "", match.group("verbs").split(" or "), match.group("object"))
    alternatives = [part.strip() for part in re.split(r"\s*,\s*(?:or\s+)?|\s+or\s+", match.group("predicate"))]
    return JudgedClaim(match.group("subject"), match.group("copula"), [part for part in alternatives if part])


def text_verdict_statement(judged: JudgedClaim, answer: str) -> Optional[Tuple[str, str]]:
    """(the statement of the predicate the answer chose, what the answer says after its verdict),
    or None when the answer gives no verdict on the claim."""
    read = _chosen(judged, answer)
    if read is None:
        return None
    predicate, rest = read
    if _SUBORDINATOR.match(rest):  # "Yes, it is plausible because X": the reason is the verdict's
        predicate, rest = f"{predicate} {rest.rstrip('.!')}", ""
    if judged.copula == "do":  # "the sentences ... mean the same thing" / "... do not mean the same thing"
        return f"{judged.subject}{' do' if predicate.startswith('not ') else ''} {predicate}", rest
    if judged.copula:
        return f"{judged.subject} {judged.copula} {predicate}", rest
    return f"{judged.subject} {predicate} {judged.object}", rest


def verdict_said_again(judged: JudgedClaim, statement: str, sentence: str) -> Optional[Tuple[str, str]]:
    """(the statement, what is left of the sentence after it) when an answer's next sentence says
    the statement's verdict again ("Yes — this sentence is plausible because Y." -> '... is plausible
    because Y', ""; "The argument is valid: the premises ..." -> the statement, "the premises ..."), or None."""
    said = _said(judged, sentence.strip())
    if said is None or not strip_trailing(statement).endswith(" " + said[0]):
        return None
    rest = said[1]
    if _SUBORDINATOR.match(rest):
        return f"{strip_trailing(statement)} {strip_trailing(rest)}", ""
    return statement, rest


def _chosen(judged: JudgedClaim, answer: str) -> Optional[Tuple[str, str]]:
    """(the predicate the answer chose, the rest of the answer): its verdict word ("implausible",
    "Answer: valid", "The review is negative"), or its yes or no to the one predicate asked."""
    text = answer.strip().lstrip("*_#> ").replace("**", "")
    if _UNSETTLED.match(text) and not judged.copula and len(judged.alternatives) > 1:
        first, second = judged.alternatives[:2]
        return f"neither {first} nor {second}", _rest(text, _UNSETTLED.match(text).end())
    if judged.alternatives == [_OPEN]:  # "What is the sentiment of X?": the answer says what it is
        opening = _SAID.match(text)
        words = strip_trailing(text[opening.end():] if opening else text)
        return (words[:1].lower() + words[1:] if words[1:2].islower() else words), ""
    said = _said(judged, text)
    if said:
        return said
    polar = YES_NO.match(text) or _BARE_NOT.match(text)
    if not polar or len(judged.alternatives) != 1:
        return None
    rest = polar.group(2).strip()
    again = _said(judged, rest)  # "Yes, it is toxic: it insults the reader.", "No, the review is negative."
    if again:
        return again
    negative = polar.group(1).lower() in NEGATIVE_ANSWERS | {"not"}
    return (_negated(judged, judged.alternatives[0]) if negative else judged.alternatives[0]), rest


def _said(judged: JudgedClaim, text: str) -> Optional[Tuple[str, str]]:
    """(predicate, rest) when ``text`` opens with one of the claim's predicates or its negation."""
    opening = (_SAID if judged.copula else _AGENT).match(text)
    words = text[opening.end():] if opening else text
    position, degree = 0, []
    while True:
        word = re.match(r"\s*(\w+)\s+", words[position:])
        if not word or word.group(1).lower() not in _DEGREE | PROPERTY_ADVERBS:
            break
        degree += [word.group(1)] if word.group(1).lower() in _DEGREE else []  # "clearly positive" keeps its adverb
        position += word.end()
    lowered = words[position:].lower()
    for surface, predicate in _surfaces(judged):
        if lowered.startswith(surface) and not lowered[len(surface):len(surface) + 1].isalnum() and (
                lowered[len(surface):len(surface) + 1] != "-"):
            rest = _rest(words, position + len(surface))
            rest = rest if judged.copula else _rest(rest, _OBJECT.match(rest).end())  # "refutes the claim: ..."
            return None if _EXTRAPOSED.match(rest) else (" ".join(degree + [predicate]), rest)
    return None


def _rest(text: str, end: int) -> str:
    return text[end:].lstrip(" ,.;:!—–-").strip()


def _surfaces(judged: JudgedClaim) -> List[Tuple[str, str]]:
    """(how an answer may say a predicate, the predicate stated), longest first: "not plausible",
    "implausible", "plausible"; "refutes", "refuted", "does not support"."""
    pairs: List[Tuple[str, str]] = []
    for predicate in judged.alternatives:
        if judged.copula == "do":
            continue  # a verb phrase's verdict is a yes or a no
        if not judged.copula:
            stem = predicate[:-1]
            pairs += [(form, predicate) for form in (predicate, stem, stem + "ed", stem + "d")]
            pairs += [(form, f"does not {stem}") for form in (f"does not {stem}", f"doesn't {stem}", f"not {stem}ed",
                                                              f"not {stem}d")]
            continue
        pairs += [(predicate.lower(), predicate), (f"not {predicate.lower()}", f"not {predicate}")]
        for index, word in enumerate(predicate.split()):
            for opposite in _opposites(word.lower()):
                words = predicate.split()
                words[index] = opposite
                pairs += [(opposite, " ".join(words))]
            if len(word) > 3 and word.lower() not in _DEGREE | PROPERTY_ADVERBS:
                pairs += [(word.lower(), predicate)]
    return sorted(dict.fromkeys(pairs), key=lambda pair: len(pair[0]), reverse=True)


def _opposites(word: str) -> List[str]:
    """"valid" -> "invalid", "unvalid", ...; "positive" -> "negative"; "ungrammatical" -> "grammatical"."""
    found = [prefix + word for prefix in _NEGATING_PREFIXES] + [f"not {word}"]
    found += [word[len(prefix):] for prefix in _NEGATING_PREFIXES if word.startswith(prefix) and len(word) > len(
        prefix) + 3]
    return found + ([PROPERTY_ANTONYMS[word]] if word in PROPERTY_ANTONYMS else [])


def _negated(judged: JudgedClaim, predicate: str) -> str:
    return f"not {predicate}" if judged.copula else f"does not {predicate[:-1]}"
