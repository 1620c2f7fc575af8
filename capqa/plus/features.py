"""BLEU and ROUGE-L between gold and predicted answer, computed exactly as the published data.

The paper's ``paper_scores.csv`` holds ``bleu`` and ``rouge_l`` per row; CAP+ and the relation
classifier were fitted on those columns, so at scoring time they must be recomputed the same way:

* BLEU: NLTK ``sentence_bleu`` (default 4-gram weights) with smoothing ``method1``, on lower-cased
  ``word_tokenize(text, preserve_line=True)`` tokens, gold answer as the single reference.
  ``preserve_line=True`` skips NLTK's sentence splitter, so no ``punkt`` download is needed.
* ROUGE-L: the F-measure of rouge-score's ``RougeScorer(["rougeL"], use_stemmer=True)`` with the
  gold answer as target and the predicted answer as prediction.

Both take the raw answers (not the statements made from them).
"""

from functools import lru_cache
from typing import Sequence, Tuple

import numpy as np


@lru_cache(maxsize=1)
def _bleu_tools():
    # Deferred: nltk is heavy, imported on first use.
    from nltk.tokenize import word_tokenize
    # Deferred: nltk is heavy, imported on first use.
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    return word_tokenize, sentence_bleu, SmoothingFunction().method1


# Texts and words whose tokens are kept: a benchmark's gold answers recur on every row of their
# question and its words recur everywhere (the Porter stemmer was a third of the overlap's time).
TOKENS_KEPT = 1 << 16


class RememberedRougeTokens:
    """rouge-score's own tokenizer (``DefaultTokenizer(use_stemmer=True)``: its tokens, exactly)
    with each word's Porter stem and each text's tokens remembered."""

    def __init__(self) -> None:
        # Deferred: rouge_score and nltk are heavy, imported on first use.
        from nltk.stem import porter
        from rouge_score import tokenize

        self._split = tokenize.tokenize
        self.stem = lru_cache(maxsize=TOKENS_KEPT)(porter.PorterStemmer().stem)
        self._tokens = lru_cache(maxsize=TOKENS_KEPT)(lambda text: tuple(self._split(text, self)))

    def tokenize(self, text: str) -> list:
        return list(self._tokens(text))


@lru_cache(maxsize=1)
def _rouge_scorer():
    # Deferred: rouge_score is heavy, imported on first use.
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True, tokenizer=RememberedRougeTokens())


@lru_cache(maxsize=TOKENS_KEPT)
def _remembered_bleu_tokens(text):
    word_tokenize, _, _ = _bleu_tools()
    return tuple(word_tokenize(text.lower(), preserve_line=True))


def _bleu_tokens(text):
    return list(_remembered_bleu_tokens(text))


def sentence_bleu_score(gold: str, prediction: str) -> float:
    """Smoothed sentence BLEU of ``prediction`` against the single reference ``gold``, in [0, 1]."""
    _, sentence_bleu, smoothing = _bleu_tools()
    return float(sentence_bleu([_bleu_tokens(gold)], _bleu_tokens(prediction),
                               smoothing_function=smoothing))


def rouge_l_score(gold: str, prediction: str) -> float:
    """ROUGE-L F-measure (Porter stemming) between ``gold`` and ``prediction``, in [0, 1]."""
    return float(_rouge_scorer().score(gold, prediction)["rougeL"].fmeasure)


def answer_overlap(golds: Sequence[str], predictions: Sequence[str]) -> Tuple[np.ndarray, np.ndarray]:
    """(bleu, rouge_l): two float arrays, one value per (gold answer, predicted answer) pair.

    The texts are the scorer's, checked where they entered (``capqa.common.validation.validate_inputs``)."""
    bleu = np.array([sentence_bleu_score(g, p) for g, p in zip(golds, predictions)], dtype=float)
    rouge_l = np.array([rouge_l_score(g, p) for g, p in zip(golds, predictions)], dtype=float)
    return bleu, rouge_l
