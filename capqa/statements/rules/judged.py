"""Prompts that give a statement and ask for a verdict on it, read as the claim they judge.

- A verdict question after the claim ("The sun is a planet. True or false?", "Claim: X. Is this
  claim supported, refuted or not enough info?", "Statement: X. Is this statement true?") and one
  before it ("Is the following statement correct? X") judge that sentence: "True or false: X".
- An inference prompt ("Premise: P Hypothesis: H Does the premise entail the hypothesis?") judges
  "the premise entails that H"; its labels' answers are verdicts (``verdict``).
- An answer's verdict: true/false and their kin ("supported", "refutes", "fiction", "valid",
  "entailment"), a verdict said of the claim ("The statement is false.", "It is refuted; ..."),
  a contradiction, or a verdict that the prompt does not settle ("not enough info", "neutral").
"""

import re
from typing import List, NamedTuple, Optional, Set, Tuple

from capqa.statements.rules.lexicon import (CLAIM_NOUNS_PATTERN, CONTRADICTING_VERDICTS, DETERMINERS, NEGATIVE_VERDICTS,
                                            POSITIVE_VERDICTS, PRONOUNS)
from capqa.statements.rules.morphology import lemmas_of
from capqa.statements.rules.text_verdicts import judged_text_prompt

_VERDICT_WORDS = "|".join(re.escape(word).replace(r"\ ", r"\s+") for word in sorted(
    POSITIVE_VERDICTS | NEGATIVE_VERDICTS | CONTRADICTING_VERDICTS, key=len, reverse=True))
# A question that judges the sentence before it: "True or false?", "Is this claim supported or
# refuted?", "Supported, refuted, or not enough info?", "Is the hypothesis true?".
_JUDGES_BEFORE = re.compile(
    rf"^(?:(?:is|does)\s+(?:this|that|the|the\s+above)\s+(?:{CLAIM_NOUNS_PATTERN})\s+(?:(?:hold|seem)\s+)?|"
    rf"(?:is\s+)?(?:it|this)\s+)?(?:{_VERDICT_WORDS})\b(?:[\s,/]+(?:or\s+)?(?:{_VERDICT_WORDS}|not\s+enough\s+info(?:rmation)?|"
    rf"undetermined|neutral|not))*(?:\s+(?:by|given|according\s+to)\s+(?:the\s+)?\w+)?\W*$", re.IGNORECASE)
# A question that judges the sentence after it: "Is the following statement correct?".
_JUDGES_AFTER = re.compile(
    rf"^(?:is|are)\s+the\s+following\s+(?:{CLAIM_NOUNS_PATTERN})s?\s+(?:{_VERDICT_WORDS})"
    rf"(?:\s+or\s+(?:{_VERDICT_WORDS}|not))?\W*$", re.IGNORECASE)
_FOLLOWING = re.compile(rf"\bthe\s+following\s+({CLAIM_NOUNS_PATTERN})\b", re.IGNORECASE)
_COPULAR_FOLLOWING = re.compile(rf"^(?P<copula>is|are)\s+the\s+following\s+(?P<noun>{CLAIM_NOUNS_PATTERN})s?\s+"
                                r"(?P<predicate>[^?]+?)\s*\?$", re.IGNORECASE)
# An instruction after a claim to judge, and a list of the verdicts to choose from.
_INSTRUCTION = re.compile(r"^(?:briefly\s+)?(?:explain|justify)(?:\s+(?:briefly|why|your\s+(?:answer|reasoning|choice)))?"
                          r"\W*$", re.IGNORECASE)
_VERDICT_OPTIONS = re.compile(r"^(?:options|choices|answers?)\s*+:\s*+\S.*$", re.IGNORECASE)
_CLAIM_LABEL = re.compile(rf"^(?:{CLAIM_NOUNS_PATTERN}|premise)\s*+:\s*+", re.IGNORECASE)
_HYPOTHESIS = re.compile(r"^(?P<label>hypothesis|sentence\s*2)\s*+:\s*+(?P<claim>\S.*)$", re.IGNORECASE)
# "Does the premise entail the hypothesis?", "Entailment or non-entailment?", "... neutral or contradiction?"
_ASKS_ENTAILMENT = re.compile(r"\b(?:entail(?:s|ed|ment)?|contradict(?:s|ed|ion)?)\b", re.IGNORECASE)
# What an answer says of the claim before its verdict word: "The statement is false", "It is refuted".
_SAID_OF_CLAIM = re.compile(rf"^(?:(?:i'd|i would)\s+say\s+|(?:the|this|that)\s+(?:{CLAIM_NOUNS_PATTERN})\s+is\s+|"
                            r"(?:it|this|that)\s+is\s+|(?:it|that)'s\s+)", re.IGNORECASE)
# A concession before the verdict: "That's a common myth, but it's false: ...".
_CONCEDED = re.compile(r"^[^.;:!?]{1,60}?,?\s+but\s+", re.IGNORECASE)
_POSITIVE_WORDS = "|".join(sorted(POSITIVE_VERDICTS, key=len, reverse=True))
_VERDICT = re.compile(rf"^(?P<word>{_VERDICT_WORDS}|not\s+enough\s+info(?:rmation)?|not\s+(?:{_POSITIVE_WORDS})|"
                      r"(?:it\s+is\s+)?not\s+possible\s+to\s+tell|undetermined|neutral|unknown|uncertain|"
                      r"(?:it\s+)?cannot\s+be\s+determined)\b[\s,.;:!—–-]*(?P<rest>.*)$",
                      re.IGNORECASE)
_QUOTED = re.compile(r'^(?:["“](?P<inner>[^"”]+?)[.!]?["”]|[\'‘](?P<single>[^\'‘’]+?)[.!]?[\'’])$')


class Verdict(NamedTuple):
    kind: str         # "true", "false", "contradicts" or "unsettled"
    explanation: str  # what the answer says after its verdict
    word: str = ""    # the verdict word, lower-case ("plausible", "not plausible")


def judged_prompt(context: List[str], proper: str) -> Optional[Tuple[List[str], str]]:
    """(context, "True or false: CLAIM") for a prompt that asks for a verdict on a sentence of its
    own, or None."""
    judged_text = judged_text_prompt(list(context) + [proper])
    if judged_text:  # "Is the following sentence plausible? X": truth reads X, a property quotes it
        return judged_text
    context, asked = list(context), proper
    if context and (_INSTRUCTION.match(proper) or (_VERDICT_OPTIONS.match(proper) and context[-1].endswith("?"))):
        proper = context.pop()  # "True or false: X. Explain briefly.", "Does P entail H? Options: yes, no"
    following = next((index for index in range(len(context) - 1, -1, -1) if _FOLLOWING.search(context[index])
                      and context[index].endswith("?")), None)
    if following is not None and not (following == len(context) - 1 and _JUDGES_AFTER.match(context[-1])):
        judged = " ".join(_claim(sentence) + "." for sentence in context[following + 1:] + [proper])
        copular = _COPULAR_FOLLOWING.match(context[following])
        if copular:  # "Is the following argument valid? X" judges 'the argument is valid: "X"', the quote last
            # so that a "no" negates the claim's copula, never a verb inside the quote
            noun, copula, predicate = copular.group("noun", "copula", "predicate")
            return context[:following], f'True or false: the {noun.lower()} {copula.lower()} {predicate}: "{judged[:-1]}"'
        lead = _FOLLOWING.sub(lambda match: f'the {match.group(1)} "{judged[:-1]}"', context[following], count=1)
        return context[:following], lead  # "Does the sentence "He drank sand" make sense?"
    hypothesis = next((match for match in map(_HYPOTHESIS.match, reversed(context)) if match), None)
    if hypothesis and _ASKS_ENTAILMENT.search(proper) and proper.endswith(("?", ".")):
        kept = [sentence for sentence in context if sentence != hypothesis.string]
        premise = "sentence 1" if hypothesis.group("label").lower().startswith("sentence") else "the premise"
        return kept, f"True or false: {premise} entails that {lowered_clause(_claim(hypothesis.group('claim')))}"
    if context and _JUDGES_BEFORE.match(proper):
        return context[:-1], f"True or false: {_claim(_CLAIM_LABEL.sub('', context[-1]))}"
    if context and _JUDGES_AFTER.match(context[-1]) and not proper.endswith("?"):
        return context[:-1], f"True or false: {_claim(proper)}"
    return (context, proper) if proper != asked else None


def verdict(answer: str) -> Optional[Verdict]:
    """The verdict an answer gives a claim, or None when it opens with none."""
    text = answer.strip()
    match = _VERDICT.match(_SAID_OF_CLAIM.sub("", text)) or _VERDICT.match(_SAID_OF_CLAIM.sub("", _CONCEDED.sub("", text)))
    if not match:
        return None
    word = " ".join(match.group("word").lower().split())
    if word in POSITIVE_VERDICTS:
        kind = "true"
    elif word in NEGATIVE_VERDICTS or word.startswith("not ") and word[4:] in POSITIVE_VERDICTS:
        kind = "false"
    elif word in CONTRADICTING_VERDICTS:
        kind = "contradicts"
    else:
        kind = "unsettled"
    return Verdict(kind, match.group("rest").strip(), word)


def predicate_verdict(answer: str, predicate: Set[str]) -> Optional[Verdict]:
    """The verdict of an answer that says the question's own predicate or denies it ("Is the
    argument valid?" + "valid" / "invalid"; "Is it plausible that X?" + "It is not plausible
    because ..."), or None."""
    read = verdict(answer)
    if read is None:
        return None
    word = read.word.split()[-1]
    stem = word[2:] if word[:2] in ("in", "im", "un") and word[2:] in POSITIVE_VERDICTS else word
    return read if stem in predicate and stem not in ("yes", "no") else None


def unsettled_statement(claim: str) -> str:
    """A verdict that the claim is not settled: "the premise neither entails nor contradicts that H",
    "there is not enough information to tell whether X"."""
    entails = _PREMISE_ENTAILS.match(claim)
    if entails:
        return f"{entails.group(1)} neither entails nor contradicts{claim[entails.end():]}"
    return f"there is not enough information to tell whether {lowered_clause(claim)}"


def contradicted_statement(claim: str) -> Optional[str]:
    """"the premise contradicts that H" for "the premise entails that H"; None for another claim."""
    entails = _PREMISE_ENTAILS.match(claim)
    return f"{entails.group(1)} contradicts{claim[entails.end():]}" if entails else None


def echoes_verdict(sentence: str) -> bool:
    """Whether a sentence after the verdict only says it again ("That's correct.", "The premise
    entails the hypothesis.")."""
    return bool(_ECHO.match(sentence.strip()))


def lowered_clause(clause: str) -> str:
    """A clause put after "that" or "whether": its opening capital goes unless it is a name's
    ("The man" -> "the man", "Product and geography" -> "product and geography", "Ernest Jones" stays)."""
    first, _, rest = clause.partition(" ")
    word = first.lower()
    if not first[:1].isupper() or (first[1:] and not first[1:].islower()) or (
            rest[:1].isupper() and word not in DETERMINERS):
        return clause  # "Ernest Jones"; "The Grameen Bank" is still "the Grameen Bank"
    common = word in DETERMINERS or word in PRONOUNS or bool(lemmas_of(word))  # a name has no lemma of its own
    return word + (" " + rest if rest else "") if common else clause


_PREMISE_ENTAILS = re.compile(r"^(the premise|sentence 1) entails\b")
_ECHO = re.compile(rf"^(?:(?:the|this|that|it)(?:\s+(?:premise|{CLAIM_NOUNS_PATTERN}))?(?:\s+is|'s)?\s+)?"
                   rf"(?:{_VERDICT_WORDS})(?:\s+the\s+(?:premise|{CLAIM_NOUNS_PATTERN}))?\W*$", re.IGNORECASE)


def _claim(sentence: str) -> str:
    quoted = _QUOTED.match(sentence.strip())
    return (quoted.group("inner") or quoted.group("single") if quoted else sentence).strip().rstrip(".!")


