"""The engine's speed-ups that must not change a score: compact relative attention, precision."""

import warnings

import numpy as np
import pytest

from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")
torch = lazy_module("torch")
bench = lazy_module("capqa.dev.bench")
nli = lazy_module("capqa.engine.nli")
capqa_engine_relative_attention = lazy_module("capqa.engine.relative_attention")

SHORT = [("Sofia is a city in Bulgaria.", "Burgas is a city in Bulgaria."),
         ("Water begins to boil at 100°C.", "Water begins to boil at 212°F."),
         ("The Berlin Wall fell in 1989.", "The Berlin Wall fell.")]
# Past 128 tokens DeBERTa's relative positions fall into log buckets: the window must follow them.
LONG = [("The long statement says " + "that plants make food using sunlight and water " * 24,
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
    assert capqa_engine_relative_attention.compact_relative_attention(model) == model.config.num_hidden_layers
    generator = torch.Generator().manual_seed(1)
    input_ids = torch.randint(5, 300, (3, 170), generator=generator)
    attention_mask = torch.ones_like(input_ids)
    attention_mask[1, 40:] = 0  # a padded row, as in every length-ordered batch
    for length in (170, 12):
        np.testing.assert_allclose(logits(model, input_ids[:, :length], attention_mask[:, :length]),
                                   logits(stock, input_ids[:, :length], attention_mask[:, :length]), atol=1e-5)


def test_engine_scores_are_those_of_the_stock_model(random_nli_model):
    premises, hypotheses = map(list, zip(*(SHORT + LONG)))
    compact = nli.NLIScorer(random_nli_model, device="cpu", batch_size=2)
    stock = nli.NLIScorer(random_nli_model, device="cpu", batch_size=2, compact_attention=False)
    assert compact.compact_attention and not stock.compact_attention
    assert len(compact.tokenizer(LONG[0][0], LONG[0][1])["input_ids"]) > 128
    np.testing.assert_allclose(compact.predict(premises, hypotheses), stock.predict(premises, hypotheses), atol=1e-6)


def test_a_model_it_does_not_fit_is_left_alone():
    from transformers import BertConfig, BertForSequenceClassification

    bert = BertForSequenceClassification(BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=1,
                                                    num_attention_heads=2, intermediate_size=32))
    assert capqa_engine_relative_attention.compact_relative_attention(bert) == 0


def test_an_attention_that_differs_from_the_check_keeps_its_own_code():
    """A transformers whose attention computes something else, in the last layer only, must not
    get the compact one in any layer: every layer is checked, not just the first."""
    from transformers.models.deberta_v2.modeling_deberta_v2 import DisentangledSelfAttention

    class ChangedAttention(DisentangledSelfAttention):
        def disentangled_attention_bias(self, *args):
            return super().disentangled_attention_bias(*args) * 2

    model = tiny_deberta()
    attention_modules = [module for module in model.modules() if isinstance(module, DisentangledSelfAttention)]
    assert len(attention_modules) > 1
    attention_modules[-1].__class__ = ChangedAttention
    with pytest.warns(UserWarning, match="stock computation is kept"):
        assert capqa_engine_relative_attention.compact_relative_attention(model) == 0
    assert all("disentangled_attention_bias" not in vars(module) for module in attention_modules)


def _attention_with_a_new_required_argument(monkeypatch):
    """Simulate a transformers release whose attention-bias method takes one more argument
    (and whose forward passes it): the check's call with the old signature raises TypeError."""
    import inspect
    import textwrap

    from transformers.models.deberta_v2 import modeling_deberta_v2

    attention = modeling_deberta_v2.DisentangledSelfAttention
    stock_bias = attention.disentangled_attention_bias
    source = textwrap.dedent(inspect.getsource(attention.forward))
    old_call = "query_layer, key_layer, relative_pos, rel_embeddings, scale_factor\n"
    assert source.count(old_call) == 1, "transformers' forward changed: update this simulation"
    namespace = {}
    exec(source.replace(old_call, "query_layer, key_layer, relative_pos, rel_embeddings, scale_factor, hidden_states\n"),
         vars(modeling_deberta_v2), namespace)

    def bias_with_hidden_states(self, query_layer, key_layer, relative_pos, rel_embeddings, scale_factor, hidden_states):
        return stock_bias(self, query_layer, key_layer, relative_pos, rel_embeddings, scale_factor)

    monkeypatch.setattr(attention, "forward", namespace["forward"])
    monkeypatch.setattr(attention, "disentangled_attention_bias", bias_with_hidden_states)


def test_an_api_change_loads_with_the_stock_attention_and_its_probabilities(random_nli_model, monkeypatch):
    premises, hypotheses = map(list, zip(*(SHORT + LONG)))
    expected = nli.NLIScorer(random_nli_model, device="cpu", compact_attention=False).predict(premises, hypotheses)
    _attention_with_a_new_required_argument(monkeypatch)
    with pytest.warns(UserWarning, match="could not be installed.*TypeError.*stock computation is kept") as caught:
        changed = nli.NLIScorer(random_nli_model, device="cpu")
    assert len([w for w in caught if "compact relative attention" in str(w.message)]) == 1
    assert not changed.compact_attention
    np.testing.assert_allclose(changed.predict(premises, hypotheses), expected, atol=MODEL_ATOL, rtol=0)


def test_an_unverified_transformers_keeps_the_stock_attention_with_one_info_line(monkeypatch, caplog):
    """A newer transformers is what users have, not a fault: stock attention, one info line per
    process (not a warning), however many models load."""
    import transformers

    from capqa.engine import relative_attention

    monkeypatch.setattr(transformers, "__version__", "5.99.0")
    relative_attention.note_unverified_transformers.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        with caplog.at_level("INFO", logger=relative_attention.__name__):
            assert capqa_engine_relative_attention.compact_relative_attention(tiny_deberta()) == 0
            assert capqa_engine_relative_attention.compact_relative_attention(tiny_deberta()) == 0
    notes = [record for record in caplog.records if "verified on transformers" in record.getMessage()]
    assert [record.levelname for record in notes] == ["INFO"]
    assert "5.99.0" in notes[0].getMessage() and relative_attention.VERIFIED_TRANSFORMERS in notes[0].getMessage()


@pytest.mark.parametrize("pos_att_type", [[], None])
def test_a_config_without_relative_attention_types_scores_with_the_stock_code(pos_att_type):
    model, stock = tiny_deberta(pos_att_type=pos_att_type), tiny_deberta(pos_att_type=pos_att_type)
    assert capqa_engine_relative_attention.compact_relative_attention(model) == 0
    input_ids = torch.randint(5, 300, (2, 20), generator=torch.Generator().manual_seed(1))
    attention_mask = torch.ones_like(input_ids)
    np.testing.assert_allclose(logits(model, input_ids, attention_mask), logits(stock, input_ids, attention_mask),
                               atol=MODEL_ATOL, rtol=0)


def test_the_int8_engine_is_checked_and_scores_like_its_stock_attention(random_nli_model):
    premises, hypotheses = map(list, zip(*(SHORT + LONG)))
    compact = nli.NLIScorer(random_nli_model, device="cpu", quantize=True)
    stock = nli.NLIScorer(random_nli_model, device="cpu", quantize=True, compact_attention=False)
    assert compact.compact_attention and not stock.compact_attention
    # int8 activations are quantised per tensor, so a window instead of all 512 rows moves them a little.
    np.testing.assert_allclose(compact.predict(premises, hypotheses), stock.predict(premises, hypotheses), atol=2e-2)


@pytest.fixture
def native_bf16(monkeypatch):
    """Run bf16 as asked even on a CPU without bf16 units (slow there, but the same numbers)."""
    from capqa.loading import devices

    monkeypatch.setattr(devices, "cpu_has_native_bf16", lambda: True)


def test_bfloat16_on_cpu_is_close_to_float32_and_named(random_nli_model, native_bf16):
    premises, hypotheses = map(list, zip(*SHORT))
    full = nli.NLIScorer(random_nli_model, device="cpu")
    half = nli.NLIScorer(random_nli_model, device="cpu", precision="bfloat16")
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
def test_bad_precision_is_refused_by_engine_and_metric(random_nli_model, metric_path, options, message, native_bf16):
    with pytest.raises(ValueError, match=message):
        nli.NLIScorer(random_nli_model, device="cpu", **options)
    with pytest.raises(ValueError, match=message):
        evaluate.load(metric_path, nli_model=random_nli_model, device="cpu", **options)


def test_the_metric_scores_in_bfloat16_when_asked(random_nli_model, metric_path, native_bf16):
    statements = dict(predictions=["Burgas is a city in Bulgaria."], references=["Sofia is a city in Bulgaria."])
    full = evaluate.load(metric_path, nli_model=random_nli_model, device="cpu").compute(**statements)
    half = evaluate.load(metric_path, nli_model=random_nli_model, device="cpu", precision="bfloat16").compute(**statements)
    assert abs(full["cap"] - half["cap"]) < 0.05


@pytest.mark.slow
def test_the_benchmark_runs_and_its_scorers_agree(tmp_path, native_bf16):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = bench.benchmark(size="tiny", rows=24, runs=1, batch_size=4, bf16=True, ablation=True, statements=False,
                           models_dir=tmp_path)
    scorers = result["scorers"]
    assert set(scorers) == {"reference", "reference + dedup", "engine", "engine, stock attention", "engine, bf16"}
    assert result["pairs"] == 48 and result["compact_attention"]
    assert result["max_abs_probability_difference"] < 1e-5
    assert scorers["engine"]["tokens_computed"] < scorers["reference"]["tokens_computed"]
    assert scorers["engine"]["padding_fraction"] < scorers["reference"]["padding_fraction"]
    # The report's ratio is the engine's throughput over the reference's (no speed target here:
    # speed is the benchmark's to report, not a test's to assert).
    assert result["speedup"] == pytest.approx(
        scorers["engine"]["pairs_per_second"] / scorers["reference"]["pairs_per_second"])
    assert 0 < result["bf16_largest_cap_difference"] < 0.1


def test_the_check_covers_every_layer_and_every_length_up_to_max_length():
    from capqa.engine.relative_attention import check_plan, deberta_v2_attention_modules

    modules = deberta_v2_attention_modules(tiny_deberta(position_buckets=32, max_relative_positions=64))
    for max_length in (512, 40, 5):
        plan = check_plan(modules, max_length)
        assert [module for module, _ in plan] == modules
        checked = {length for _, lengths in plan for length in lengths}
        assert max(checked) == max_length and plan[0][1] == sorted(checked)
        assert all(lengths for _, lengths in plan)
    # Short, past the log-bucket boundary (position_buckets / 2 = 16) and max_length.
    assert check_plan(modules, 512)[0][1] == [7, 16 + 22, 512]
