"""precision="bfloat16" on a CPU without native bf16 units: one warning, then float32."""

import warnings

import pytest
import torch

from capqa.engine import devices
from capqa.engine.devices import cpu_has_native_bf16, inference_dtype
from capqa.engine.nli import NLIScorer
from capqa.metric_options import MetricOptions

CPU = torch.device("cpu")


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
    assert cpu_has_native_bf16(path) is native


def test_unreadable_cpu_flags_trust_the_caller(tmp_path):
    assert cpu_has_native_bf16(tmp_path / "missing") is None


@pytest.fixture
def cpu_without_bf16(monkeypatch):
    monkeypatch.setattr(devices, "cpu_has_native_bf16", lambda: False)
    monkeypatch.setattr(devices, "_bf16_fallback_warned", False)


def test_bfloat16_without_bf16_units_warns_once_and_computes_in_float32(cpu_without_bf16, random_nli_model):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options = MetricOptions(nli_model=random_nli_model, device="cpu", precision="bfloat16")
        scorer = options.build_scorer()
        NLIScorer(random_nli_model, device="cpu", precision="bfloat16")
    fallbacks = [w for w in caught if "no native bf16 units" in str(w.message)]
    assert len(fallbacks) == 1
    assert scorer.nli.precision == "float32"


def test_auto_stays_float32_on_every_cpu(cpu_without_bf16, monkeypatch):
    assert inference_dtype(CPU, "auto") == torch.float32
    monkeypatch.setattr(devices, "cpu_has_native_bf16", lambda: True)
    assert inference_dtype(CPU, "auto") == torch.float32
    assert inference_dtype(CPU, "bfloat16") == torch.bfloat16
