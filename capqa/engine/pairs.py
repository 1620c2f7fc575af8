"""Tokenising (premise, hypothesis) pairs in memory bounded by ``max_length``, whatever the text length.

A tokenizer called on a pair with ``truncation=True`` builds overflow pieces for both sides, and
for a pair those pieces combine: memory grows with the square of the text length (0.7 / 1.1 /
2.6 GB at 500 / 1,000 / 2,000 words per side, killed at 21 GB at 10,000). Here each side is
tokenised alone, without special tokens (linear in its length), cut on its token ids to its share
of ``max_length`` by the longest-first rule, and only then joined with the tokenizer's own special
tokens. A very long side is tokenised only up to a whitespace in a window of characters that
holds its budget many times over, so time and memory stay flat up to any length.

The tokens are exactly those of ``tokenizer(premise, hypothesis, truncation=True)`` whenever at
least one side is shorter than the window. When both sides are longer, their true token counts
are unknown; with an odd budget, the one token that longest-first gives to the longer side goes
by the windows' counts, so it may sit at the end of the other side.

The special tokens come from the tokenizer itself: one probe pair, encoded by the tokenizer with
its special-tokens mask, gives the pair's layout (e.g. ``[CLS] A [SEP] B [SEP]``, with the token
type of every part), which is then filled with the cut ids of each pair.
"""

import logging
from typing import TYPE_CHECKING, NamedTuple, Optional

from capqa.loading.windows import (MARGIN_TOKENS, MIN_WINDOW_CHARS, WINDOW_CHARS_PER_TOKEN, tokenize_heads,
                                   whitespace_prefix)

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

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


def pair_layout(tokenizer: "PreTrainedTokenizerBase") -> Optional[PairLayout]:
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


def encode_pairs(tokenizer: "PreTrainedTokenizerBase", premises: list, hypotheses: list, max_length: int) -> list:
    """One feature dict per pair (``input_ids`` and what the tokenizer adds), at most
    ``max_length`` tokens each, without overflow pieces."""
    layout = pair_layout(tokenizer)
    if layout is None:
        logger.warning("%s has an unusual pair layout: pairs are truncated by the tokenizer itself, "
                       "whose memory grows with text length", type(tokenizer).__name__)
        encoded = tokenizer(premises, hypotheses, truncation=True, max_length=max_length)
        return [dict(zip(encoded.keys(), values)) for values in zip(*encoded.values())]
    budget = max_length - sum(kind == "special" for kind, _, _ in layout.parts)
    first_lengths, first_heads = _side_heads(tokenizer, premises, budget)
    second_lengths, second_heads = _side_heads(tokenizer, hypotheses, budget)
    features = []
    for first_length, first_ids, second_length, second_ids in zip(first_lengths, first_heads,
                                                                  second_lengths, second_heads):
        kept_first, kept_second = longest_first_lengths(first_length, second_length, budget)
        features.append(_fill(layout, first_ids[:kept_first], second_ids[:kept_second]))
    return features


def _side_heads(tokenizer, texts: list, budget: int) -> tuple:
    """Each text's token count and its first ``budget`` token ids.

    A text longer than the character window is tokenised only up to its last whitespace inside
    the window: if that prefix has ``budget`` tokens and a margin, its first ``budget`` are the
    text's own (tokenizers split at whitespace first), and the count is the prefix's, at least
    ``budget``. Otherwise (no whitespace, very long tokens) the whole text is tokenised. Texts go
    ``TEXTS_PER_CALL`` at a time and only the heads are kept, so time and memory stay flat.
    """
    window = max(budget * WINDOW_CHARS_PER_TOKEN, MIN_WINDOW_CHARS)
    prefixes = [whitespace_prefix(text, window) for text in texts]
    lengths, heads = tokenize_heads(tokenizer, prefixes, budget)
    short = [i for i, (text, prefix) in enumerate(zip(texts, prefixes))
             if prefix is not text and lengths[i] < budget + MARGIN_TOKENS]
    for i, length, head in zip(short, *tokenize_heads(tokenizer, [texts[i] for i in short], budget)):
        lengths[i], heads[i] = length, head
    return lengths, heads


