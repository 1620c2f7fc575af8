"""Where models run: device resolution and the dtype each device computes in best."""

import torch


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


def inference_dtype(device):
    """bf16 where the GPU supports it (fp16 otherwise), full precision on CPU and MPS.

    Half precision halves memory traffic on GPUs; on CPU it is slower and less accurate.
    """
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    return torch.float32
