"""Measuring whole runs for the benchmarks: wall time, peak memory (CUDA or the process's
resident set) and a description of the machine, so every benchmark reports the same figures."""

import ctypes
import ctypes.util
import gc
import platform
import statistics
import threading
import time
from pathlib import Path
from typing import Callable, Mapping

import psutil
import torch
from tqdm.auto import tqdm

# How often the resident set is read while a CPU run goes on.
_MEMORY_POLL_SECONDS = 0.005


class PeakMemory:
    """Peak memory above the level at entry while the block runs: CUDA allocations on a GPU,
    the process's resident set (polled every few ms) on CPU."""

    def __init__(self, device):
        self.device, self.peak_bytes = device, 0

    def __enter__(self):
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
            torch.cuda.reset_peak_memory_stats(self.device)
            self._base = torch.cuda.memory_allocated(self.device)
        else:
            _release_free_memory()
            self._process, self._stop = psutil.Process(), threading.Event()
            self._base = self.peak_bytes = self._process.memory_info().rss
            self._thread = threading.Thread(target=self._poll, daemon=True)
            self._thread.start()
        return self

    def _poll(self):
        while not self._stop.wait(_MEMORY_POLL_SECONDS):
            self.peak_bytes = max(self.peak_bytes, self._process.memory_info().rss)

    def __exit__(self, *exc):
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
            self.peak_bytes = torch.cuda.max_memory_allocated(self.device)
        else:
            self._stop.set()
            self._thread.join()
            self.peak_bytes = max(self.peak_bytes, self._process.memory_info().rss)
        self.peak_mib = (self.peak_bytes - self._base) / 2**20


def _release_free_memory():
    """Hand memory freed by earlier scorers back to the OS (glibc keeps it otherwise), so that each
    scorer's resident-set growth is its own."""
    gc.collect()
    libc_name = ctypes.util.find_library("c")
    if platform.system() == "Linux" and libc_name:
        libc = ctypes.CDLL(libc_name)
        if hasattr(libc, "malloc_trim"):
            libc.malloc_trim(0)


def timed(score: Callable[[], object], device: torch.device) -> tuple:
    """(result, seconds, peak MiB above the start) of ``score()``."""
    with PeakMemory(device) as memory:
        start = time.perf_counter()
        result = score()
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        seconds = time.perf_counter() - start
    return result, seconds, memory.peak_mib


def run_scorers(scorers: Mapping[str, Callable[[], object]], runs: int, device: torch.device, n_pairs: int) -> tuple:
    """Time every scorer ``runs`` times, interleaved (so a busy machine slows all alike)."""
    timings = {name: [] for name in scorers}
    outputs, peaks = {}, {name: 0.0 for name in scorers}
    for run in tqdm(range(runs), desc="bench runs", unit="run"):
        for name, score in scorers.items():
            outputs[name], seconds, peak = timed(score, device)
            timings[name].append(seconds)
            peaks[name] = max(peaks[name], peak)
    return {name: {"seconds": timings[name], "median_seconds": statistics.median(timings[name]),
                   "pairs_per_second": n_pairs / statistics.median(timings[name]),
                   "peak_memory_mib": peaks[name]} for name in scorers}, outputs


def machine_description(device: torch.device) -> dict:
    described = {"cpu": platform.processor() or platform.machine(), "cores": psutil.cpu_count(logical=True),
                 "memory_gib": round(psutil.virtual_memory().total / 2**30, 1), "torch_threads": torch.get_num_threads(),
                 "torch": torch.__version__, "device": str(device)}
    if device.type == "cuda":
        described["gpu"] = torch.cuda.get_device_name(device)
    return described


def cpu_model() -> str:
    """The CPU's model name and its vector extensions that matter to torch (Linux), else the platform's."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or platform.machine()
    name = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("model name")),
                platform.machine())
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), [])
    extensions = [flag for flag in ("avx2", "avx512f", "avx512_bf16", "amx_bf16") if flag in flags]
    return f"{name} ({', '.join(extensions) or 'no AVX2'})"
