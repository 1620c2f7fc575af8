"""How good the rule converter's statements are: exact match, token F1 and "one sentence that
contains the answer" against gold statements, per group and overall, beside the naive baseline.

Used by ``benchmarks/bench_rules.py`` (which prints the table of docs/rules.md) and by the tests
that hold the converter to its targets.
"""

from typing import Callable, Iterable

import pandas as pd

from capqa.statements.rules.answer_sentences import split_sentences
from capqa.statements.text_metrics import exact_match, normalize_statement, token_f1

FALLBACK_OPENING = 'The answer to "'
# Answers that a statement states as a polarity or a negation, not verbatim.
_REPLACED_PRONOUNS = frozenset("it they this that he she".split())
_UNQUOTED_ANSWERS = frozenset("yes no true false correct incorrect none never nobody nothing".split())


def clause_count(text: str) -> int:
    """How many sentences ``text`` has, a "; " counting as a sentence break: the converter writes
    two claims as two sentences where older gold statements join them with a semicolon."""
    return sum(1 + sentence.count("; ") for sentence in split_sentences(text))


def one_sentence_with_answer(statement: str, gold: str, answer_span: str) -> bool:
    """Whether ``statement`` has as many sentences as ``gold`` (the gold keeps the question's
    context sentences in front, then one per claim of the answer; ``clause_count``), ends with
    one full stop and contains the words of ``answer_span`` in their order (an empty span:
    nothing to contain)."""
    if not statement.endswith(".") or statement.endswith(".."):
        return False
    if clause_count(statement) != clause_count(gold):
        return False
    remaining = iter(normalize_statement(statement).split())
    # The answer's words in their order: a phrase after its comma may follow the clause
    # ("Plants take in carbon dioxide during photosynthesis, which enters through pores").
    return all(word in remaining for word in normalize_statement(answer_span).split())


def default_answer_span(answer: str) -> str:
    """The part of a plain answer a statement must contain: all of it, unless the answer is a
    polarity or a negative word, which the statement expresses instead of quoting; an opening
    pronoun is left out ("it decreases"), as the statement names its referent instead."""
    words = normalize_statement(answer).split()
    if words and words[0] in _UNQUOTED_ANSWERS:
        return ""
    return " ".join(words[1:]) if words and words[0] in _REPLACED_PRONOUNS else answer


def score_converter(frame: pd.DataFrame, converter: Callable[[str, str], str]) -> pd.DataFrame:
    """``frame`` (question, answer, statement and optionally answer_span) with the converter's
    output and, per row, exact_match, token_f1, one_sentence and fallback (0/1)."""
    spans: Iterable[str] = frame["answer_span"] if "answer_span" in frame else map(default_answer_span, frame.answer)
    outputs = [converter(question, answer) for question, answer in zip(frame.question, frame.answer)]
    scored = frame.assign(output=outputs)
    scored["exact_match"] = [exact_match(out, gold) for out, gold in zip(outputs, frame.statement)]
    scored["token_f1"] = [token_f1(out, gold) for out, gold in zip(outputs, frame.statement)]
    scored["one_sentence"] = [float(one_sentence_with_answer(out, gold, span))
                              for out, gold, span in zip(outputs, frame.statement, spans)]
    scored["fallback"] = [float(out.startswith(FALLBACK_OPENING)) for out in outputs]
    return scored


def quality_table(rules: pd.DataFrame, naive: pd.DataFrame, group: str) -> pd.DataFrame:
    """Per ``group`` value and overall: rows, EM/F1/one-sentence of the rules and of the naive
    baseline, and how many rule outputs used the fallback form."""
    columns = ["exact_match", "token_f1", "one_sentence"]

    def means(scored: pd.DataFrame) -> pd.DataFrame:
        table = scored.groupby(group)[columns].mean()
        table.loc["overall"] = scored[columns].mean()
        return table

    rules_means, naive_means = means(rules), means(naive)
    table = pd.DataFrame({"rows": rules.groupby(group).size()})
    table.loc["overall"] = len(rules)
    for column, short in zip(columns, ("EM", "F1", "1-sent")):
        table[f"{short} rules"] = rules_means[column]
        table[f"{short} naive"] = naive_means[column]
    fallbacks = rules.groupby(group).fallback.sum()
    table["fallback"] = list(fallbacks) + [rules.fallback.sum()]
    return table.astype({"rows": int, "fallback": int})
