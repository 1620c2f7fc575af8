"""Where models run: device resolution and the dtype each device computes in best."""

import functools
import logging
import platform
import warnings
from pathlib import Path
from typing import Optional, Union

import torch

from capqa.common.constants import PRECISIONS
from capqa.common.validation import check_bool

logger = logging.getLogger(__name__)

# CPU flags (Linux /proc/cpuinfo) of units that compute bf16 matrix products natively: Intel AMX,
# AVX512-BF16 (Intel Cooper Lake+, AMD Zen 4+), and Arm's BF16 extension.
BF16_CPU_FLAGS = ("amx_bf16", "avx512_bf16", "bf16")
_CPUINFO = Path("/proc/cpuinfo")
# Model types of the T5 family (T5, mT5 and the statement model): their activations overflow
# float16's range, giving inf and NaN, so they never run in it.
T5_FAMILY = ("t5", "mt5", "umt5", "longt5", "switch_transformers")


def resolve_device(device: Union[str, torch.device, None] = "auto") -> torch.device:
    """"auto" picks cuda, then mps, then cpu; anything else must name a usable torch device."""
    if device is None or device == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    try:
        resolved = torch.device(device)
    except (RuntimeError, TypeError) as error:
        raise ValueError(f"`device` must be 'auto', 'cpu', 'cuda', 'cuda:N' or 'mps', got {device!r} ({error})") from None
    if resolved.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"`device` is {device!r} but CUDA is not available on this machine; use 'auto' or 'cpu'")
    if resolved.type == "cuda" and resolved.index is not None and resolved.index >= torch.cuda.device_count():
        raise ValueError(f"`device` is {device!r} but only {torch.cuda.device_count()} CUDA device(s) exist")
    if resolved.type == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise ValueError(f"`device` is {device!r} but MPS is not available on this machine")
    if resolved.type not in ("cpu", "cuda", "mps"):
        raise ValueError(f"`device` must be 'auto', 'cpu', 'cuda', 'cuda:N' or 'mps', got {device!r}")
    return resolved


# The precisions a caller may ask for, by name.
# The dtype of each precision name (the names are capqa.common.constants.PRECISIONS).
DTYPES = {name: getattr(torch, name) for name in PRECISIONS}


def inference_dtype(device: torch.device, precision: str = "auto") -> torch.dtype:
    """The dtype the NLI model computes in on ``device``: every dtype is resolved here.

    "auto": bf16 where the GPU supports it (fp16 otherwise), float32 on CPU and MPS: half
    precision halves memory traffic on GPUs; on CPU float32 keeps scores reproducible to ~1e-7.
    "bfloat16" on CPU: CPUs with AMX/AVX512-BF16 run it ~2x faster, at ~1e-3 of probability;
    on a CPU without such units it is ~7x slower than float32 (emulated), so float32 is used
    instead, with a warning (see ``cpu_has_native_bf16``). "float16" needs a GPU.
    Callers resolve once and pass the result on as a dtype name (``dtype_name``), so the
    warning is given once per scorer.
    """
    if precision == "auto":
        if device.type == "cuda":
            return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.float32
    if not isinstance(precision, str) or precision not in PRECISIONS:
        raise ValueError(f"`precision` must be 'auto', {', '.join(repr(name) for name in PRECISIONS)}, "
                         f"got {precision!r}")
    if precision == "float16" and device.type == "cpu":
        raise ValueError("`precision='float16'` needs a GPU; on CPU use 'bfloat16' or 'float32'")
    if precision == "bfloat16" and device.type == "cuda" and not torch.cuda.is_bf16_supported():
        raise ValueError("`precision='bfloat16'` is not supported by this GPU; use 'float16' or 'auto'")
    if precision == "bfloat16" and device.type == "cpu" and cpu_has_native_bf16() is False:
        warnings.warn(f"`precision='bfloat16'`: this CPU has no native bf16 units (none of the CPU flags "
                      f"{', '.join(BF16_CPU_FLAGS)}), where bf16 runs ~7x slower than float32; float32 is "
                      f"used instead (scores within ~1e-3 of bf16's)", stacklevel=2)
        return torch.float32
    return DTYPES[precision]


def statement_dtype(device: torch.device, precision: str = "auto", model_type: Optional[str] = None) -> torch.dtype:
    """The dtype the statement model generates in: float32 for "auto" (beam search on half
    precision can change a statement's words), else as ``inference_dtype``, but never float16
    for a T5-family model (``T5_FAMILY``): float32 then, with a warning."""
    if precision == "auto":
        return torch.float32
    dtype = inference_dtype(device, precision)
    if dtype == torch.float16 and model_type in T5_FAMILY:
        logger.warning("`precision='float16'`: the statement model is a %s model, whose activations overflow "
                       "float16 (inf/NaN); it runs in float32 instead", model_type)
        return torch.float32
    return dtype


def dtype_name(dtype: torch.dtype) -> str:
    """"float32", "bfloat16", "float16": a dtype as ``precision`` names it."""
    return str(dtype).replace("torch.", "")


@functools.lru_cache(maxsize=1)
def cpu_has_native_bf16(cpuinfo: Path = _CPUINFO) -> Optional[bool]:
    """True/False from the CPU flags in /proc/cpuinfo (``BF16_CPU_FLAGS``); None where they
    cannot be read (not Linux): then the caller's bfloat16 is trusted."""
    try:
        text = Path(cpuinfo).read_text()
    except OSError:
        logger.debug("no %s on %s: bfloat16 support of the CPU unknown", cpuinfo, platform.system())
        return None
    flags = set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() in ("flags", "features"):  # x86 says flags, Arm says Features
            flags.update(value.split())
    return any(flag in flags for flag in BF16_CPU_FLAGS)


def check_quantize(quantize: bool, device: torch.device, dtype: torch.dtype) -> bool:
    """``quantize`` (CPU dynamic int8) as a bool, refused where it cannot run: on a GPU, or on a
    model asked for in another precision than float32."""
    quantize = check_bool(quantize, "quantize")
    if quantize and device.type != "cpu":
        raise ValueError(f"`quantize=True` is CPU dynamic int8 quantisation, but the device is {device.type!r}; "
                         f"use device='cpu' or quantize=False (GPUs run in bf16/fp16 already)")
    if quantize and dtype != torch.float32:
        raise ValueError(f"`quantize=True` quantises a float32 model, but `precision` asks for {dtype}; "
                         f"use precision='float32' (or 'auto') with quantize=True")
    return quantize
