"""numpy's OpenBLAS held to one thread while the parser multiplies, through OpenBLAS's own C API.

spaCy's small model multiplies matrices of a few thousand rows by 96 columns; OpenBLAS splits
those over every core, and the threads cost more CPU than they save (twice the converter's CPU
time on 2 cores). ``one_thread()`` sets OpenBLAS to one thread and puts the previous count back
when it ends: the pin lasts as long as one batch's parse (``parser.parse_many``), so the rest of
the process runs as the user set it up. OpenBLAS's count is the process's, so numpy's products
in other threads during that parse run on one thread too. The NLI model is not affected at any
time: torch multiplies with its own BLAS (MKL or its bundled OpenBLAS) and its own OpenMP pool.

Only numpy's OpenBLAS is looked for: the library that a pip wheel of numpy bundles (in
``numpy.libs`` or ``numpy/.dylibs``), or the one its build configuration names. When numpy uses
another BLAS (MKL, Accelerate), ``thread_control()`` is None and the parser keeps blis.
"""

import contextlib
import ctypes
import functools
import logging
from pathlib import Path
from typing import Iterator, List, NamedTuple, Optional

import numpy

logger = logging.getLogger(__name__)

_LIBRARY_PATTERNS = ("*openblas*.so*", "*openblas*.dylib", "*openblas*.dll")
# The prefixes and suffixes OpenBLAS builds give their symbols: scipy-openblas (numpy's wheels)
# prefixes "scipy_"; an ILP64 build appends "64_" (or "_64").
_PREFIXES = ("scipy_openblas", "openblas")
_SUFFIXES = ("64_", "_64", "")


class ThreadControl(NamedTuple):
    """OpenBLAS's thread count in numpy's copy of the library: where it is and its two calls."""
    path: str
    get: object
    set: object

    def threads(self) -> int:
        return int(self.get())


def _numpy_blas() -> dict:
    try:
        return numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except (TypeError, KeyError, AttributeError):  # numpy < 1.26 has no mode="dicts"
        return {}


def _candidate_libraries() -> List[Path]:
    package = Path(numpy.__file__).parent
    folders = [package.parent / "numpy.libs", package / ".dylibs", package / ".libs"]
    configured = _numpy_blas().get("lib directory")
    if configured:
        folders.append(Path(configured))
    found = []
    for folder in folders:
        if folder.is_dir():
            found += sorted(path for pattern in _LIBRARY_PATTERNS for path in folder.glob(pattern))
    return found


def _control(path: Path) -> Optional[ThreadControl]:
    try:
        library = ctypes.CDLL(str(path))  # the copy numpy loaded: the same file maps to the same handle
    except OSError:
        return None
    for prefix in _PREFIXES:
        for suffix in _SUFFIXES:
            getter = getattr(library, f"{prefix}_get_num_threads{suffix}", None)
            setter = getattr(library, f"{prefix}_set_num_threads{suffix}", None)
            if getter is not None and setter is not None:
                getter.restype, getter.argtypes = ctypes.c_int, []
                setter.restype, setter.argtypes = None, [ctypes.c_int]
                return ThreadControl(str(path), getter, setter)
    return None


@functools.lru_cache(maxsize=1)
def thread_control() -> Optional[ThreadControl]:
    """The thread count of numpy's OpenBLAS, or None when numpy does not use OpenBLAS (or the
    library cannot be found)."""
    if "openblas" not in str(_numpy_blas().get("name", "openblas")).lower():
        return None
    for path in _candidate_libraries():
        control = _control(path)
        if control is not None:
            return control
    logger.info("numpy's OpenBLAS was not found: its thread count cannot be set")
    return None


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """numpy's OpenBLAS on one thread for the block, its previous count restored after it (a
    no-op without ``thread_control()``)."""
    control = thread_control()
    before = control.threads() if control is not None else 1
    if before != 1:
        control.set(1)
    try:
        yield
    finally:
        if before != 1:
            control.set(before)
