"""Where models run: device resolution and the dtype each device computes in best."""

import torch

from capqa.validation import check_bool


def resolve_device(device="auto"):
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
PRECISIONS = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def inference_dtype(device, precision="auto"):
    """The dtype a model computes in on ``device``.

    "auto": bf16 where the GPU supports it (fp16 otherwise), float32 on CPU and MPS: half
    precision halves memory traffic on GPUs; on CPU float32 keeps scores reproducible to ~1e-7.
    "bfloat16" on CPU is the user's choice: CPUs with AMX/AVX512-BF16 run it ~2x faster, at
    ~1e-3 of probability. "float16" needs a GPU (CPUs lack fast fp16 kernels).
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
    return PRECISIONS[precision]


def check_quantize(quantize, device, dtype):
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
