"""precision="bfloat16" on a CPU without native bf16 units: one warning, then float32."""

import warnings

import pytest

from capqa.metric.options import MetricOptions

from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
torch = lazy_module("torch")
nli = lazy_module("capqa.engine.nli")
devices = lazy_module("capqa.loading.devices")
capqa_statements_generator = lazy_module("capqa.statements.generator")

CPU = "cpu"  # resolved by devices.resolve_device in each test


@pytest.mark.parametrize("cpuinfo, native", [
    ("processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f amx_bf16 amx_tile\n", True),   # Intel Sapphire Rapids
    ("processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512_bf16\n", True),         # AMD Zen 4
    ("processor\t: 0\nFeatures\t: fp asimd sve bf16 i8mm\n", True),                   # Arm Neoverse V1
    ("processor\t: 0\nflags\t\t: fpu sse2 avx2 fma\n", False),                          # AMD Zen 2/3, AVX2 only
    ("processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512bw\n", False),            # Skylake-SP
])
def test_native_bf16_is_read_from_the_cpu_flags(tmp_path, cpuinfo, native):
    path = tmp_path / "cpuinfo"
    path.write_text(cpuinfo)
    assert devices.cpu_has_native_bf16(path) is native


def test_unreadable_cpu_flags_trust_the_caller(tmp_path):
    assert devices.cpu_has_native_bf16(tmp_path / "missing") is None


@pytest.fixture
def cpu_without_bf16(monkeypatch):
    monkeypatch.setattr(devices, "cpu_has_native_bf16", lambda: False)


def fallback_warnings(caught):
    return [w for w in caught if "no native bf16 units" in str(w.message)]


def test_bfloat16_without_bf16_units_warns_once_and_computes_in_float32(cpu_without_bf16, random_nli_model,
                                                                         tiny_seq2seq_model):
    # The options resolve the dtype once, for the NLI model and the statement model: one warning.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options = MetricOptions(nli_model=random_nli_model, statement_model=tiny_seq2seq_model, device="cpu",
                                precision="bfloat16")
        scorer = options.build_scorer()
        identity = scorer.identity
    assert len(fallback_warnings(caught)) == 1
    assert scorer.nli.precision == "float32" and identity.nli.dtype == "float32"
    assert dict(identity.statements.details)["dtype"] == "float32"
    # An engine built directly resolves its own, and says so once too.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nli.NLIScorer(random_nli_model, device="cpu", precision="bfloat16")
    assert len(fallback_warnings(caught)) == 1


def test_auto_stays_float32_on_every_cpu(cpu_without_bf16, monkeypatch):
    assert devices.inference_dtype(devices.resolve_device(CPU), "auto") == torch.float32
    monkeypatch.setattr(devices, "cpu_has_native_bf16", lambda: True)
    assert devices.inference_dtype(devices.resolve_device(CPU), "auto") == torch.float32
    assert devices.inference_dtype(devices.resolve_device(CPU), "bfloat16") == torch.bfloat16


def test_the_statement_model_follows_precision_in_float32_by_default(tiny_seq2seq_model, monkeypatch):
    from capqa.loading.devices import statement_dtype

    assert statement_dtype(devices.resolve_device(CPU), "auto", "t5") == torch.float32
    monkeypatch.setattr(devices, "cpu_has_native_bf16", lambda: True)
    assert statement_dtype(devices.resolve_device(CPU), "bfloat16", "mt5") == torch.bfloat16
    generator = capqa_statements_generator.StatementGenerator(tiny_seq2seq_model, device="cpu", max_new_tokens=4)
    assert next(generator.model.parameters()).dtype == torch.float32
    assert dict(generator.identity.details)["dtype"] == "float32"
    halved = capqa_statements_generator.StatementGenerator(tiny_seq2seq_model, device="cpu", max_new_tokens=4, precision="bfloat16")
    assert dict(halved.identity.details)["dtype"] == "bfloat16"


def test_a_t5_statement_model_never_runs_in_float16(monkeypatch, caplog):
    """float16 on a GPU: the NLI model may use it, a T5-family statement model stays float32."""
    from capqa.loading.devices import statement_dtype

    cuda = torch.device("cuda")
    monkeypatch.setattr(devices, "inference_dtype", lambda device, precision: torch.float16)
    with caplog.at_level("WARNING", logger="capqa.loading.devices"):
        assert statement_dtype(cuda, "float16", "mt5") == torch.float32
    assert "overflow" in caplog.text
    assert statement_dtype(cuda, "float16", "bart") == torch.float16
