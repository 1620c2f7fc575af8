"""Surface agreement between generated and gold statements: one implementation for everything.

Used by the rule converter's benchmark and by ``python -m capqa eval-statements``. Exact match
and token F1 follow the SQuAD convention (lower-case, punctuation removed, whitespace collapsed)
except that articles are kept: for a statement "is a cell" and "is the cell" are different.
"""

import collections
import functools
import re
import unicodedata
from types import ModuleType
from typing import Sequence

from capqa.common.extras import import_extra
from capqa.common.validation import check_same_length, check_text_list

_WHITESPACE = re.compile(r"\s+")


class _PunctuationToSpace(dict):
    """``str.translate``'s table: a punctuation character (Unicode category P*) to a space, any
    other to itself, each character's entry made when first met (a table of every code point
    would cost a pass over 1.1 million at import)."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        self[code] = " " if unicodedata.category(char).startswith("P") else char
        return self[code]


_PUNCTUATION_TO_SPACE = _PunctuationToSpace()


@functools.lru_cache(maxsize=65536)
def normalize_statement(text: str) -> str:
    """Lower-cased, punctuation (Unicode category P*) removed, whitespace collapsed. Kept by
    text: the statement check normalises the same question and answer for every test."""
    return _WHITESPACE.sub(" ", text.lower().translate(_PUNCTUATION_TO_SPACE)).strip()


def exact_match(prediction: str, reference: str) -> float:
    return float(normalize_statement(prediction) == normalize_statement(reference))


def token_f1(prediction: str, reference: str) -> float:
    """Harmonic mean of token precision and recall over the normalised bags of tokens."""
    return bag_f1(normalize_statement(prediction).split(), normalize_statement(reference).split())


def bag_f1(predicted_tokens: Sequence[str], reference_tokens: Sequence[str]) -> float:
    """Harmonic mean of precision and recall of two bags of tokens (1 when both are empty, 0 when
    one is); token F1 under any normalisation."""
    if not predicted_tokens or not reference_tokens:
        return float(not predicted_tokens and not reference_tokens)
    common = collections.Counter(predicted_tokens) & collections.Counter(reference_tokens)
    overlap = sum(common.values())
    if overlap == 0:
        return 0.0
    precision = overlap / len(predicted_tokens)
    recall = overlap / len(reference_tokens)
    return 2 * precision * recall / (precision + recall)


def surface_scores(predictions: Sequence[str], references: Sequence[str]) -> dict:
    """Mean exact match and token F1 of two equally long lists of statements."""
    predictions = check_text_list(predictions, "predictions")
    references = check_text_list(references, "references")
    check_same_length(predictions, "predictions", references, "references")
    if not predictions:
        raise ValueError("`predictions` is empty; give at least one statement")
    count = len(predictions)
    return {
        "exact_match": sum(map(exact_match, predictions, references)) / count,
        "token_f1": sum(map(token_f1, predictions, references)) / count,
    }


def sacrebleu_module() -> ModuleType:
    """sacreBLEU, which comes with the train extra (it is needed only to evaluate statements)."""
    return import_extra("sacrebleu", "train", "eval-statements' corpus BLEU and chrF")


def corpus_bleu_chrf(predictions: Sequence[str], references: Sequence[str]) -> dict:
    """sacreBLEU corpus BLEU and chrF (0-100) of predictions against one reference each."""
    sacrebleu = sacrebleu_module()

    return {
        "bleu": sacrebleu.corpus_bleu(predictions, [references]).score,
        "chrf": sacrebleu.corpus_chrf(predictions, [references]).score,
    }
