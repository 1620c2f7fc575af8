"""Very long texts tokenised in flat time: a text is cut to a window of characters that holds its
token budget many times over before the tokenizer sees it (the NLI pairs, ``capqa.engine.pairs``,
and the statement model's inputs).
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

# Texts per tokenizer call: enough for the tokenizer's own batching, few enough that the full
# token lists of long texts are held for a handful of texts at a time.
TEXTS_PER_CALL = 64
# A side longer than this many characters per token of its budget (and than MIN_WINDOW_CHARS)
# is tokenised only up to a whitespace inside the window: ordinary text has 3-6 characters per
# token, so the window holds the budget many times over, and tokenising it takes flat time.
WINDOW_CHARS_PER_TOKEN = 32
MIN_WINDOW_CHARS = 8192
# Tokens beyond the budget that a window must yield to be trusted: the last word before the cut
# may tokenise differently without what followed it.
MARGIN_TOKENS = 16
CUT_AT = (" ", "\n", "\t")


def windowed_texts(tokenizer: "PreTrainedTokenizerBase", texts: list, max_tokens: int) -> list:
    """``texts`` with each very long one replaced by its whitespace-cut window when that window
    has ``max_tokens`` tokens and a margin, so that ``tokenizer(..., truncation=True,
    max_length=max_tokens)`` gives the same tokens in flat time (the statement generator's input)."""
    window = max(max_tokens * WINDOW_CHARS_PER_TOKEN, MIN_WINDOW_CHARS)
    prefixes = [whitespace_prefix(text, window) for text in texts]
    cut = [i for i, (text, prefix) in enumerate(zip(texts, prefixes)) if prefix is not text]
    lengths, _ = tokenize_heads(tokenizer, [prefixes[i] for i in cut], 0)
    windowed = list(texts)
    for i, length in zip(cut, lengths):
        if length >= max_tokens + MARGIN_TOKENS:
            windowed[i] = prefixes[i]
    return windowed


def whitespace_prefix(text: str, window: int) -> str:
    """``text`` itself if it fits ``window`` characters or has no whitespace in it, else its
    part before the last whitespace in the window."""
    if len(text) <= window:
        return text
    cut = max(text.rfind(space, 0, window) for space in CUT_AT)
    return text[:cut] if cut > 0 else text


def tokenize_heads(tokenizer, texts: list, budget: int) -> tuple:
    lengths, heads = [], []
    for start in range(0, len(texts), TEXTS_PER_CALL):
        # verbose=False: an over-long side is expected here, it is cut by the caller.
        ids = tokenizer(texts[start:start + TEXTS_PER_CALL], add_special_tokens=False, verbose=False,
                        return_attention_mask=False, return_token_type_ids=False)["input_ids"]
        lengths += [len(side) for side in ids]
        heads += [side[:budget] for side in ids]
    return lengths, heads
