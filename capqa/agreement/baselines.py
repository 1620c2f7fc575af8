"""The lexical baselines of open-QA evaluation, computed on the same judged rows as CAP.

Every answer is compared with each of its gold answers after the SQuAD v1.1 normalisation
(lower case, ASCII punctuation removed, the articles a/an/the removed, whitespace collapsed),
and the best gold counts (the SQuAD convention):

- ``exact_match``: the normalised answer equals a normalised gold answer (a verdict);
- ``token_f1``: the F1 of their bags of tokens (a score, judged at a cross-validated threshold);
- ``contains``: a normalised gold answer is a run of whole tokens of the normalised answer
  (a verdict; "contains the gold answer", the lexical match that long answers are judged by).
"""

import re
import string
from dataclasses import dataclass
from typing import Dict, List, Sequence

import numpy as np

from capqa.statements.text_metrics import bag_f1

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


@dataclass(frozen=True)
class Baseline:
    """A baseline's name in tables, what it computes, and whether it is a score to threshold."""

    label: str
    meaning: str
    thresholded: bool


BASELINES: Dict[str, Baseline] = {
    "exact_match": Baseline("EM", "exact match after SQuAD normalisation", False),
    "token_f1": Baseline("token F1", "token F1 after SQuAD normalisation, at a cross-validated threshold", True),
    "contains": Baseline("contains gold", "a gold answer is a run of whole tokens of the answer, after SQuAD "
                                          "normalisation", False),
}


def squad_tokens(text: str) -> List[str]:
    """The tokens of ``text`` after the SQuAD v1.1 normalisation (``normalize_answer`` of its
    evaluation script): lower case, no punctuation, no articles, split on whitespace."""
    return _ARTICLES.sub(" ", text.lower().translate(_PUNCTUATION)).split()


def exact_match(answer: str, golds: Sequence[str]) -> bool:
    tokens = squad_tokens(answer)
    return any(tokens == squad_tokens(gold) for gold in golds)


def token_f1(answer: str, golds: Sequence[str]) -> float:
    tokens = squad_tokens(answer)
    return max(bag_f1(tokens, squad_tokens(gold)) for gold in golds)


def contains_gold(answer: str, golds: Sequence[str]) -> bool:
    """Whether a gold answer's tokens (at least one) appear in a row in the answer's tokens."""
    tokens = squad_tokens(answer)
    for gold in golds:
        wanted = squad_tokens(gold)
        if wanted and any(tokens[start:start + len(wanted)] == wanted
                          for start in range(len(tokens) - len(wanted) + 1)):
            return True
    return False


def baseline_values(answers: Sequence[str], golds: Sequence[Sequence[str]]) -> Dict[str, np.ndarray]:
    """{baseline: one value per row}: bools for the verdicts, floats for token F1."""
    return {"exact_match": np.array([exact_match(a, g) for a, g in zip(answers, golds)], dtype=bool),
            "token_f1": np.array([token_f1(a, g) for a, g in zip(answers, golds)], dtype=float),
            "contains": np.array([contains_gold(a, g) for a, g in zip(answers, golds)], dtype=bool)}
