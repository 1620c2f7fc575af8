"""Long inputs: each side is cut to its share of max_length before the pair is built, so memory
stays flat with text length, and short pairs keep exactly their tokens and scores."""

import random

import numpy as np
import pytest

from capqa.dev.long_inputs import long_text, measure_in_subprocess
from capqa.dev.offline_models import build_tokenizer
from capqa.engine import pairs
from capqa.engine.pairs import encode_pairs, longest_first_lengths, pair_layout
from capqa.loading import windows

from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
nli = lazy_module("capqa.engine.nli")

WORDS = "the capital of France Paris is a city in Bulgaria Sofia water boils 1989 x zq".split()
# Peak memory may grow this much from 100 to 100,000 words per side; before the fix it grew by
# ~1 GB (quadratic overflow pieces; +280 MB already at 1,000 words with the tiny tokenizer).
MAX_RSS_GROWTH_MB = 100


def _random_text(rng, longest):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, longest)))


def _tokenizer_pairs(tokenizer, premises, hypotheses, max_length):
    """Today's tokenisation: the tokenizer truncating the pair itself."""
    encoded = tokenizer(premises, hypotheses, truncation=True, max_length=max_length)
    return [dict(zip(encoded.keys(), values)) for values in zip(*encoded.values())]


@pytest.fixture(scope="module")
def typed_tokenizer():
    """A tokenizer that also returns token_type_ids (BERT-style segments)."""
    tokenizer = build_tokenizer()
    tokenizer.model_input_names = ["input_ids", "token_type_ids", "attention_mask"]
    return tokenizer


@pytest.mark.parametrize("with_types", [False, True])
def test_tokens_are_the_tokenizers_own_for_short_medium_and_cut_pairs(with_types, typed_tokenizer):
    tokenizer = typed_tokenizer if with_types else build_tokenizer()
    rng = random.Random(0)
    premises = [_random_text(rng, 60) for _ in range(300)]
    hypotheses = [_random_text(rng, 60) for _ in range(300)]
    for max_length in (16, 37, 64, 512):
        mine = encode_pairs(tokenizer, premises, hypotheses, max_length)
        assert mine == _tokenizer_pairs(tokenizer, premises, hypotheses, max_length)
        assert max(len(feature["input_ids"]) for feature in mine) <= max_length
    assert "token_type_ids" in mine[0] if with_types else "token_type_ids" not in mine[0]


def _whole_side_pairs(tokenizer, premises, hypotheses, max_length, monkeypatch):
    """The exact cut, from every side tokenised whole: ``encode_pairs`` without its window,
    which the test above holds equal to the tokenizer's own. (The tokenizer's own cut of two long
    sides is the quadratic one this module avoids: it would take gigabytes here.)"""
    with monkeypatch.context() as patch:
        patch.setattr(pairs, "MIN_WINDOW_CHARS", 10**12)
        return encode_pairs(tokenizer, premises, hypotheses, max_length)


def test_a_long_side_beside_a_short_one_keeps_the_exact_tokens(monkeypatch):
    tokenizer = build_tokenizer()
    rng = random.Random(2)
    shorts = [_random_text(rng, 30) for _ in range(8)]
    longs = [long_text(rng.randint(3_000, 20_000), str(i)) for i in range(8)]
    for max_length in (64, 512):
        for premises, hypotheses in ((shorts, longs), (longs, shorts)):
            assert encode_pairs(tokenizer, premises, hypotheses, max_length) == \
                _whole_side_pairs(tokenizer, premises, hypotheses, max_length, monkeypatch)


def test_two_long_sides_differ_from_the_exact_cut_by_at_most_the_odd_token(monkeypatch):
    tokenizer = build_tokenizer()
    premises = [long_text(20_000, "a"), long_text(30_000, "b") + " tail"]
    hypotheses = [long_text(30_000, "c"), long_text(20_000, "d")]
    for max_length in (64, 65, 512):
        mine = encode_pairs(tokenizer, premises, hypotheses, max_length)
        exact = _whole_side_pairs(tokenizer, premises, hypotheses, max_length, monkeypatch)
        for my_feature, exact_feature in zip(mine, exact):
            assert len(my_feature["input_ids"]) == len(exact_feature["input_ids"]) == max_length
            # The first side's kept tokens agree but for one at most; the rest follows shifted by one.
            kept = min(len(_first_side(my_feature)), len(_first_side(exact_feature)))
            assert _first_side(my_feature)[:kept] == _first_side(exact_feature)[:kept]
            odd_budget = (max_length - 3) % 2  # 3 special tokens; an even budget leaves no odd token
            assert abs(len(_first_side(my_feature)) - len(_first_side(exact_feature))) <= odd_budget


def _first_side(feature):
    """The tiny tokenizer's layout is <s> A </s> B </s> (</s> is id 1): the ids of A."""
    ids = feature["input_ids"]
    return ids[1:ids.index(1, 1)]


def test_a_long_text_without_whitespace_is_tokenised_whole_and_still_cut(monkeypatch):
    tokenizer = build_tokenizer()
    premises, hypotheses = ["x" * 50_000], ["Sofia"]
    assert encode_pairs(tokenizer, premises, hypotheses, 64) == \
        _whole_side_pairs(tokenizer, premises, hypotheses, 64, monkeypatch)


def test_windowed_texts_keep_the_tokens_of_single_sequence_truncation():
    tokenizer = build_tokenizer()
    texts = [long_text(20_000, "q"), "x" * 20_000, _random_text(random.Random(3), 50), long_text(1_500)]
    windowed = windows.windowed_texts(tokenizer, texts, 512)
    assert len(windowed[0]) < len(texts[0]) and windowed[1:] == texts[1:]  # no whitespace / short: kept
    assert tokenizer(windowed, truncation=True, max_length=512)["input_ids"] == \
        tokenizer(texts, truncation=True, max_length=512)["input_ids"]


@pytest.mark.parametrize("first, second, budget, kept", [
    (3, 4, 10, (3, 4)),        # fits: nothing cut
    (3, 100, 10, (3, 7)),      # only the longer side is cut
    (100, 3, 10, (7, 3)),
    (50, 60, 11, (5, 6)),      # both cut: halves, the odd token to the longer side
    (60, 50, 11, (6, 5)),
    (50, 50, 11, (5, 6)),      # a tie gives the odd token to the second side
])
def test_longest_first_keeps_the_shorter_side_whole_when_it_can(first, second, budget, kept):
    assert longest_first_lengths(first, second, budget) == kept


def test_another_pair_layout_is_filled_as_the_tokenizer_fills_it():
    tokenizer = build_tokenizer(pair_template="eos")  # A </s> B </s>, no leading special token
    rng = random.Random(4)
    premises = [_random_text(rng, 60) for _ in range(100)]
    hypotheses = [_random_text(rng, 60) for _ in range(100)]
    for max_length in (16, 41):
        assert encode_pairs(tokenizer, premises, hypotheses, max_length) == \
            _tokenizer_pairs(tokenizer, premises, hypotheses, max_length)


def test_the_pair_layout_comes_from_the_tokenizer():
    layout = pair_layout(build_tokenizer())  # <s> A </s> B </s>
    assert [kind for kind, _, _ in layout.parts] == ["special", "first", "special", "second", "special"]


def test_scores_of_short_and_medium_pairs_do_not_change(random_nli_model):
    scorer = nli.NLIScorer(random_nli_model, device="cpu", batch_size=8)
    rng = random.Random(1)
    pairs = [(_random_text(rng, 40), _random_text(rng, 40)) for _ in range(24)]
    pairs += [(_random_text(rng, 400), _random_text(rng, 400)) for _ in range(4)]  # cut at 512
    expected = np.concatenate([scorer._forward(_tokenizer_pairs(scorer.tokenizer, [p], [h], scorer.max_length))
                               for p, h in pairs])
    got = scorer.predict([p for p, _ in pairs], [h for _, h in pairs])
    np.testing.assert_allclose(got, expected, atol=MODEL_ATOL, rtol=0)


def test_a_pair_of_100000_words_per_side_is_cut_to_max_length(random_nli_model):
    scorer = nli.NLIScorer(random_nli_model, device="cpu", max_length=64)
    premise, hypothesis = long_text(100_000), long_text(100_000, "x")
    features, batches = scorer.plan([(premise, hypothesis)])
    assert len(features[0]["input_ids"]) == 64 and batches == [[0]]
    short = scorer.predict([premise[:2000]], [hypothesis[:2000]])  # the same first tokens
    np.testing.assert_allclose(scorer.predict([premise], [hypothesis]), short, atol=MODEL_ATOL, rtol=0)


@pytest.mark.slow  # two fresh interpreters that import torch and transformers: 10-15 s
def test_peak_memory_does_not_grow_with_text_length(random_nli_model):
    """Each size in its own process, so that its peak RSS is its own."""
    small, large = (measure_in_subprocess(words, nli_model=random_nli_model) for words in (100, 100_000))
    assert small["tokens"] == large["tokens"] == 512
    growth = large["peak_rss_mb"] - small["peak_rss_mb"]
    assert growth < MAX_RSS_GROWTH_MB, f"peak RSS grew by {growth:.0f} MB from 100 to 100,000 words per side"


@pytest.mark.slow  # two fresh interpreters, as above
def test_the_statement_generator_takes_a_10000_word_input(tiny_seq2seq_model):
    result = measure_in_subprocess(10_000, statement_model=tiny_seq2seq_model)
    small = measure_in_subprocess(100, statement_model=tiny_seq2seq_model)
    assert result["statement_chars"] > 0
    assert result["peak_rss_mb"] - small["peak_rss_mb"] < MAX_RSS_GROWTH_MB


def test_max_length_beyond_the_models_position_limit_is_refused_at_load(random_nli_model):
    with pytest.raises(ValueError, match=r"`max_length` must be at most 512, the position limit"):
        nli.NLIScorer(random_nli_model, device="cpu", max_length=513)


@pytest.mark.parametrize("max_length", [1, 15])
def test_a_max_length_too_small_to_hold_a_pair_is_refused(max_length):
    from capqa.metric.options import MetricOptions

    with pytest.raises(ValueError, match=rf"`max_length` must be an int in \[16, inf\), got {max_length}"):
        MetricOptions(max_length=max_length, device="cpu")
