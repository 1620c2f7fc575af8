"""Length-sorted batching of tokenised inputs, shared by the NLI engine and the statement generator."""

from typing import Mapping, Optional, Sequence

import numpy as np


def padding_batches(lengths: Sequence[int], batch_size: int, max_tokens: Optional[int] = None) -> list:
    """Split positions into batches of similar length: sorted by length, at most ``batch_size``
    pairs and, if ``max_tokens`` is set, at most that many padded tokens per batch."""
    order = np.argsort(np.asarray(lengths), kind="stable")
    batches, current, longest = [], [], 0
    for position in order:
        length = int(lengths[position])
        over_budget = max_tokens is not None and current and max(longest, length) * (len(current) + 1) > max_tokens
        if len(current) == batch_size or over_budget:
            batches.append(current)
            current, longest = [], 0
        current.append(int(position))
        longest = max(longest, length)
    if current:
        batches.append(current)
    return batches


def batched_features(encoded: Mapping, batch_size: int, max_tokens: Optional[int] = None) -> tuple:
    """A tokenizer's output split per input, and the length-sorted batches they run in."""
    features = [dict(zip(encoded.keys(), values)) for values in zip(*encoded.values())]
    return features, padding_batches([len(f["input_ids"]) for f in features], batch_size, max_tokens)
