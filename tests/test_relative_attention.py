"""The engine's speed-ups that must not change a score: compact relative attention, precision."""

import warnings

import evaluate
import numpy as np
import pytest
import torch

from capqa.dev.bench import benchmark
from capqa.engine.nli import NLIScorer
from capqa.engine.relative_attention import compact_relative_attention

SHORT = [("Sofia is a city in Bulgaria.", "Burgas is a city in Bulgaria."),
         ("Water begins to boil at 100°C.", "Water begins to boil at 212°F."),
         ("The Berlin Wall fell in 1989.", "The Berlin Wall fell.")]
# Past 128 tokens DeBERTa's relative positions fall into log buckets: the window must follow them.
LONG = [("The long statement says " + "that plants make food using sunlight and water " * 12,
         "Plants make food using photosynthesis.")]


def tiny_deberta(**overrides):
    """A random DeBERTa-v2 classifier built in memory, the shape of the tests' models."""
    from transformers import DebertaV2ForSequenceClassification

    from capqa.dev.offline_models import build_tokenizer, deberta_config

    config = deberta_config(build_tokenizer(), {0: "entailment", 1: "neutral", 2: "contradiction"})
    for name, value in overrides.items():
        setattr(config, name, value)
    torch.manual_seed(0)
    return DebertaV2ForSequenceClassification(config).eval()


def logits(model, input_ids, attention_mask):
    with torch.inference_mode():
        return model(input_ids=input_ids, attention_mask=attention_mask).logits


@pytest.mark.parametrize("overrides", [{}, {"share_att_key": False}, {"pos_att_type": ["c2p"]},
                                       {"position_buckets": 32, "max_relative_positions": 64}])
def test_compact_attention_gives_the_stock_logits(overrides):
    model, stock = tiny_deberta(**overrides), tiny_deberta(**overrides)
    assert compact_relative_attention(model) == model.config.num_hidden_layers
    generator = torch.Generator().manual_seed(1)
    input_ids = torch.randint(5, 300, (3, 170), generator=generator)
    attention_mask = torch.ones_like(input_ids)
    attention_mask[1, 40:] = 0  # a padded row, as in every length-ordered batch
    for length in (170, 12):
        np.testing.assert_allclose(logits(model, input_ids[:, :length], attention_mask[:, :length]),
                                   logits(stock, input_ids[:, :length], attention_mask[:, :length]), atol=1e-5)


def test_engine_scores_are_those_of_the_stock_model(random_nli_model):
    premises, hypotheses = map(list, zip(*(SHORT + LONG)))
    compact = NLIScorer(random_nli_model, device="cpu", batch_size=2)
    stock = NLIScorer(random_nli_model, device="cpu", batch_size=2, compact_attention=False)
    assert compact.compact_attention and not stock.compact_attention
    assert len(compact.tokenizer(LONG[0][0], LONG[0][1])["input_ids"]) > 128
    np.testing.assert_allclose(compact.predict(premises, hypotheses), stock.predict(premises, hypotheses), atol=1e-6)


def test_a_model_it_does_not_fit_is_left_alone():
    from transformers import BertConfig, BertForSequenceClassification

    bert = BertForSequenceClassification(BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=1,
                                                    num_attention_heads=2, intermediate_size=32))
    assert compact_relative_attention(bert) == 0


def test_an_attention_that_differs_from_the_check_keeps_its_own_code():
    """A transformers whose attention computes something else must not get the compact one."""
    from transformers.models.deberta_v2.modeling_deberta_v2 import DisentangledSelfAttention

    class ChangedAttention(DisentangledSelfAttention):
        def disentangled_attention_bias(self, *args):
            return super().disentangled_attention_bias(*args) * 2

    model = tiny_deberta()
    for module in model.modules():
        if isinstance(module, DisentangledSelfAttention):
            module.__class__ = ChangedAttention
    with pytest.warns(UserWarning, match="stock computation is kept"):
        assert compact_relative_attention(model) == 0
    assert "disentangled_attention_bias" not in vars(next(m for m in model.modules() if isinstance(m, ChangedAttention)))


def test_bfloat16_on_cpu_is_close_to_float32_and_named(random_nli_model):
    premises, hypotheses = map(list, zip(*SHORT))
    full = NLIScorer(random_nli_model, device="cpu")
    half = NLIScorer(random_nli_model, device="cpu", precision="bfloat16")
    assert (full.precision, half.precision) == ("float32", "bfloat16")
    assert full.compact_attention and half.compact_attention  # the check allows bf16 rounding
    difference = np.abs(full.predict(premises, hypotheses) - half.predict(premises, hypotheses)).max()
    assert 0 < difference < 0.05
    np.testing.assert_allclose(half.predict(premises, hypotheses).sum(axis=1), 1.0, atol=1e-6)


@pytest.mark.parametrize("options, message", [
    (dict(precision="fp64"), "`precision` must be"),
    (dict(precision="float16"), "needs a GPU"),
    (dict(precision=None), "`precision` must be"),
    (dict(precision="bfloat16", quantize=True), "`quantize=True`"),
])
def test_bad_precision_is_refused_by_engine_and_metric(random_nli_model, metric_path, options, message):
    with pytest.raises(ValueError, match=message):
        NLIScorer(random_nli_model, device="cpu", **options)
    with pytest.raises(ValueError, match=message):
        evaluate.load(metric_path, nli_model=random_nli_model, device="cpu", **options)


def test_the_metric_scores_in_bfloat16_when_asked(random_nli_model, metric_path):
    statements = dict(predictions=["Burgas is a city in Bulgaria."], references=["Sofia is a city in Bulgaria."])
    full = evaluate.load(metric_path, nli_model=random_nli_model, device="cpu").compute(**statements)
    half = evaluate.load(metric_path, nli_model=random_nli_model, device="cpu", precision="bfloat16").compute(**statements)
    assert abs(full["cap"] - half["cap"]) < 0.05


def test_the_benchmark_runs_and_its_scorers_agree(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(size="tiny", rows=24, runs=1, batch_size=4, bf16=True, ablation=True, statements=False,
                           models_dir=tmp_path)
    scorers = result["scorers"]
    assert set(scorers) == {"reference", "reference + dedup", "engine", "engine, stock attention", "engine, bf16"}
    assert result["pairs"] == 48 and result["compact_attention"]
    assert result["max_abs_probability_difference"] < 1e-5
    assert scorers["engine"]["tokens_computed"] < scorers["reference"]["tokens_computed"]
    assert scorers["engine"]["padding_fraction"] < scorers["reference"]["padding_fraction"]
    assert result["speedup"] > 0 and 0 < result["bf16_largest_cap_difference"] < 0.1
