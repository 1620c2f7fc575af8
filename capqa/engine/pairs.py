"""Tokenising (premise, hypothesis) pairs in memory bounded by ``max_length``, whatever the text length.

A tokenizer called on a pair with ``truncation=True`` builds overflow pieces for both sides, and
for a pair those pieces combine: memory grows with the square of the text length (0.7 / 1.1 /
2.6 GB at 500 / 1,000 / 2,000 words per side, killed at 21 GB at 10,000). Here each side is
tokenised alone, without special tokens (linear in its length), cut on its token ids to its share
of ``max_length`` by the longest-first rule, and only then joined with the tokenizer's own special
tokens. Where nothing is cut, the tokens are exactly those of ``tokenizer(premise, hypothesis)``.

The special tokens come from the tokenizer itself: one probe pair, encoded by the tokenizer with
its special-tokens mask, gives the pair's layout (e.g. ``[CLS] A [SEP] B [SEP]``, with the token
type of every part), which is then filled with the cut ids of each pair.
"""

import logging
from typing import NamedTuple

logger = logging.getLogger(__name__)

# Two short texts whose tokens show where the tokenizer puts its special tokens around a pair.
_PROBE_PAIR = ("premise", "hypothesis")
# What the layout fills in; any other key in the tokenizer's output means an unknown layout.
_FILLED_KEYS = {"input_ids", "token_type_ids", "attention_mask"}


class PairLayout(NamedTuple):
    """A tokenizer's pair template: parts in order, each ("special", token id, type id) or
    ("first" / "second", None, type id); ``keys``: what the tokenizer returns for a pair."""

    parts: tuple
    keys: tuple


def longest_first_lengths(first_length: int, second_length: int, budget: int) -> tuple:
    """Token counts kept on each side so that together they fit ``budget``.

    The longest-first rule of Hugging Face's fast tokenizers: the shorter side is kept whole if the
    longer one can give up enough; otherwise both get half, the longer side (the second on a tie)
    the odd token.
    """
    if first_length + second_length <= budget:
        return first_length, second_length
    shorter, longer = sorted((first_length, second_length))
    if shorter + shorter <= budget:
        kept_shorter, kept_longer = shorter, budget - shorter
    else:
        kept_shorter, kept_longer = budget // 2, budget // 2 + budget % 2
    if first_length > second_length:
        return kept_longer, kept_shorter
    return kept_shorter, kept_longer


def pair_layout(tokenizer) -> PairLayout | None:
    """The tokenizer's pair template, read from one probe pair; None if it is not a plain
    ``special* first special* second special*`` layout (then the caller uses the tokenizer)."""
    first, second = (tokenizer(text, add_special_tokens=False)["input_ids"] for text in _PROBE_PAIR)
    probe = tokenizer(*_PROBE_PAIR, return_special_tokens_mask=True)
    mask = probe.pop("special_tokens_mask")
    keys = tuple(probe.keys())
    if not set(keys) <= _FILLED_KEYS or "input_ids" not in keys:
        return None
    types = probe.get("token_type_ids", [0] * len(mask))
    parts, position, sides = [], 0, iter((("first", first), ("second", second)))
    while position < len(mask):
        if mask[position]:
            parts.append(("special", probe["input_ids"][position], types[position]))
            position += 1
            continue
        side = next(sides, None)
        if side is None or probe["input_ids"][position:position + len(side[1])] != side[1]:
            return None
        parts.append((side[0], None, types[position]))
        position += len(side[1])
    if [part[0] for part in parts if part[0] != "special"] != ["first", "second"]:
        return None
    return PairLayout(tuple(parts), keys)


def _fill(layout: PairLayout, first_ids: list, second_ids: list) -> dict:
    ids, types = [], []
    for kind, token_id, type_id in layout.parts:
        piece = [token_id] if kind == "special" else first_ids if kind == "first" else second_ids
        ids += piece
        types += [type_id] * len(piece)
    feature = {"input_ids": ids, "token_type_ids": types, "attention_mask": [1] * len(ids)}
    return {key: feature[key] for key in layout.keys}


def encode_pairs(tokenizer, premises: list, hypotheses: list, max_length: int) -> list:
    """One feature dict per pair (``input_ids`` and what the tokenizer adds), at most
    ``max_length`` tokens each, without overflow pieces."""
    layout = pair_layout(tokenizer)
    if layout is None:
        logger.warning("%s has an unusual pair layout: pairs are truncated by the tokenizer itself, "
                       "whose memory grows with text length", type(tokenizer).__name__)
        encoded = tokenizer(premises, hypotheses, truncation=True, max_length=max_length)
        return [dict(zip(encoded.keys(), values)) for values in zip(*encoded.values())]
    budget = max_length - sum(kind == "special" for kind, _, _ in layout.parts)
    # verbose=False: an over-long side is expected here, it is cut below.
    first_sides = tokenizer(premises, add_special_tokens=False, verbose=False)["input_ids"]
    second_sides = tokenizer(hypotheses, add_special_tokens=False, verbose=False)["input_ids"]
    features = []
    for first_ids, second_ids in zip(first_sides, second_sides):
        kept_first, kept_second = longest_first_lengths(len(first_ids), len(second_ids), budget)
        features.append(_fill(layout, first_ids[:kept_first], second_ids[:kept_second]))
    return features
