"""Shapes that are not wh-questions: answers that are sentences, blanks, wh-words in situ,
imperatives ("Name one X."), completions and yes/no questions."""

import re

from capqa.statements.text_metrics import normalize_statement
from capqa.statements.rules.lexicon import (
    _AUX_START, _BLANK, _COPULAS, _IMPERATIVE_START, _IN_SITU, _LIST_ANSWER, _NEGATIVE_ANSWERS,
    _NUMBER_WORDS, _QUESTION_START, _TRAILING_PUNCTUATION, _WH_START, _YES_NO,
)
from capqa.statements.rules.morphology import (
    _capitalize, _indefinite_article, _is_clause, _is_finite_verb, _plural_phrase, _with_article,
)
from capqa.statements.rules.answers import without_elliptical_sentences
from capqa.statements.rules.clauses import _affirm, _echoes, list_verb

_EXAMPLE = re.compile(r"^(?:give|provide|name|state|identify|mention|list|cite) (?:an? |one |some |two |"
                      r"three |several )?(examples?) of (.+)$", re.IGNORECASE)
_NAME_ONE = re.compile(r"^(?:name|give|list|state|identify|mention|cite) (?:one|a|an|any|a single) (.+)$",
                       re.IGNORECASE)
_NAME_COUNT = re.compile(r"^(?:name|give|list|state|identify|mention|cite) (\d+|two|three|four|five|six|"
                         r"seven|eight|nine|ten) (.+)$", re.IGNORECASE)
_NAME_THE = re.compile(r"^(?:name|give|list|state|identify|mention|cite) (?:(the|some|all) )?(.+)$",
                       re.IGNORECASE)
# A negated auxiliary in front ("Isn't", "Won't"): the answer's polarity is that of the positive
# question ("Isn't the tomato a fruit?" + yes -> "The tomato is a fruit.").
_NEGATED_AUXILIARY = re.compile(r"^(is|are|was|were|do|does|did|could|would|should|must|has|have|had|ca|wo|sha)"
                                r"n[’']t\b", re.IGNORECASE)
_CONTRACTED = {"ca": "can", "wo": "will", "sha": "shall"}


def positive_auxiliary(question: str) -> str:
    """``question`` with a fronted negated auxiliary made positive ("Don't bats" -> "Do bats")."""
    match = _NEGATED_AUXILIARY.match(question)
    if not match:
        return question
    auxiliary = _CONTRACTED.get(match.group(1).lower(), match.group(1))
    return _capitalize(auxiliary) + question[match.end():]


_YES_NO_QUESTION = re.compile(r"^(is|are|was|were|do|does|did|can|could|will|would|shall|should|may|"
                              r"might|must|has|have|had) (.+)$", re.IGNORECASE)


def _answer_is_sentence(question, answer, raw_answer):
    """The answer (its content, ``answer``), when ``raw_answer`` is a full sentence answering a
    question (not completing one); not "Yes, it is." to a yes/no question."""
    if _BLANK.search(question) or not (question.rstrip().endswith("?") or _QUESTION_START.match(question)):
        return None
    if _YES_NO_QUESTION.match(positive_auxiliary(question)) and _YES_NO.match(answer):
        return None
    if question[:4].lower() == "why ":
        return None  # "It hit an iceberg." is the reason: "The Titanic sank because it hit an iceberg."
    words = answer.split()
    if len(words) < 3 or not answer[0].isupper() or not raw_answer.rstrip().endswith((".", "!")):
        return None
    if not any(_is_finite_verb(word.strip(",;:")) for word in words[1:]):
        return None
    return answer


def _blank(question, answer):
    blank = _BLANK.search(question)
    if not blank:
        return None
    if _repeats_stem(question[:blank.start()], answer):
        return answer
    return _BLANK.sub(lambda _: answer, question, count=1)


def _repeats_stem(stem, answer):
    """Whether the answer already starts with the (at least three-word) stem: it is the sentence."""
    if answer[:1].lower() != stem.lstrip()[:1].lower():  # the cheap test first: most answers differ here
        return False
    stem_words = normalize_statement(stem).split()
    return len(stem_words) >= 3 and normalize_statement(answer).split()[:len(stem_words)] == stem_words


def _join_overlapping(stem_words, answer):
    """Stem and answer joined, without the words the answer repeats from the stem's end
    ("... is the concept of" + "the concept of autonomy")."""
    answer_words = answer.split()
    lowered_stem = [word.lower() for word in stem_words]
    lowered_answer = [word.lower() for word in answer_words]
    overlap = next((size for size in range(min(len(stem_words), len(answer_words) - 1), 1, -1)
                    if lowered_stem[-size:] == lowered_answer[:size]), 0)
    return " ".join(stem_words + answer_words[overlap:])


def _in_situ(match, answer):
    question = match.string
    if _WH_START.match(question) or _AUX_START.match(question) or _IMPERATIVE_START.match(question):
        return None
    match = _IN_SITU.search(question)
    if not match or len(question[:match.start()].split()) < 2:
        return None
    return question[:match.start()] + answer + question[match.end():]


def _imperative(match, answer):
    question = match.string
    if not _IMPERATIVE_START.match(question):
        return None
    question = _TRAILING_PUNCTUATION.sub("", question)
    match = _EXAMPLE.match(question)
    if match:
        if match.group(1).lower() == "examples" or _LIST_ANSWER.search(answer) and len(answer.split()) > 3:
            return f"examples of {match.group(2)} include {answer}"
        return f"an example of {match.group(2)} is {_clause_or_noun(answer, match.group(2))}"
    match = _NAME_ONE.match(question)
    if match:
        return f"one {match.group(1)} is {_clause_or_noun(answer, match.group(1))}"
    match = _NAME_COUNT.match(question)
    if match:
        return f"{match.group(1)} {match.group(2)} are {answer}"
    match = _NAME_THE.match(question)
    if match:
        determiner, subject = match.group(1) or "the", match.group(2)
        if not _plural_phrase(subject):
            return f"{determiner} {subject} is {_clause_or_noun(answer, subject)}"
        if any(word.lower() in _NUMBER_WORDS or word.isdigit() for word in subject.split()):
            return f"the {subject} {list_verb(subject, answer)} {answer}"
        return f"some of the {subject} are {answer}"
    return None


def _clause_or_noun(answer, subject):
    if _is_clause(answer):
        return f"that {answer}"
    return _with_article(answer, subject)


def _completion(match, answer):
    question = match.string
    if question.rstrip().endswith("?") or _QUESTION_START.match(question):
        return None
    stem = _TRAILING_PUNCTUATION.sub("", question)
    if _repeats_stem(stem, answer):
        return answer
    if question.rstrip().endswith((".", "!")):
        # A complete sentence before the answer stays one: "X needs food." + "it hunts".
        return f"{stem}. {_capitalize(answer)}"
    words = stem.split()
    # A stem ending in an article agrees with the answer: "... is an" + "queue" -> "is a queue".
    if words and words[-1].lower() in ("a", "an") and answer[:1].isalnum():
        words[-1] = _indefinite_article(answer)
    return _join_overlapping(words, answer)



_TIME_OR_PLACE = re.compile(r"^(?:in|on|at|since|during|from|until|by) [\w'-]+", re.IGNORECASE)


def _choose_alternative(words, answer):
    """``words`` with "X or Y" replaced by the answer when the answer is X or Y; else None."""
    if "or" not in words:
        return None
    index, size = words.index("or"), len(answer.split())
    chosen = [word.lower().strip(",") for word in answer.split()]
    for start, end in ((index - size, index), (index + 1, index + 1 + size)):
        if start >= 0 and [word.lower().strip(",") for word in words[start:end]] == chosen:
            other = (index + 1, index + 1 + size) if start < index else (index - size, index)
            return words[:min(start, other[0])] + answer.split() + words[max(end, other[1]):]
    return None


def _yes_no(match, answer):
    auxiliary, rest = match.group(1).lower(), match.group(2)
    words = rest.split()
    polarity = _YES_NO.match(answer)
    if not polarity:
        chosen = _choose_alternative(words, answer)
        if chosen:
            # "Is Paris or London the capital of France?" + Paris -> "Paris is the capital of France"
            return _affirm(auxiliary, chosen, negative=False)
        # "Are noble gases reactive or unreactive?" + "highly reactive": the answer picks one.
        if "or" not in words[2:] or auxiliary not in _COPULAS:
            return None
        return " ".join(words[:words.index("or", 2) - 1] + [auxiliary, answer])
    negative = polarity.group(1).lower() in _NEGATIVE_ANSWERS
    explanation = without_elliptical_sentences(polarity.group(2).strip())
    explanation = explanation[:1].lower() + explanation[1:] if explanation[:4] in ("But ", "And ") else explanation
    statement = _affirm(auxiliary, words, negative)
    if statement is None:
        return None
    if explanation and not _echoes(explanation, match.string):
        # "Yes, in 1921." completes the clause; "No, only in the south." is a second thought.
        completes = _TIME_OR_PLACE.match(explanation) and len(explanation.split()) <= 4
        statement = f"{statement} {explanation}" if completes else f"{statement}; {explanation}"
    return statement
