"""Input checks at the boundary: every error names the argument and says what was expected.

Everything behind these checks may assume clean input (lists of non-empty strings, finite
floats in range), the way scikit-learn validates once and then works on plain arrays.
"""

import math
import numbers

import numpy as np


def check_unit_interval(value, name):
    """A real number in [0, 1] (alpha, neutral_weight, ...)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a number in [0, 1], got {type(value).__name__} {value!r}")
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"`{name}` must be in [0, 1], got {value!r}")
    return float(value)


def check_positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"`{name}` must be a positive integer, got {value!r}")
    return int(value)


def check_bool(value, name):
    """True or False, nothing truthy in between (quantize, ...)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def check_folder(value, name):
    """A folder path (str or os.PathLike), not necessarily existing yet."""
    import os

    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise TypeError(f"`{name}` must be a folder path (str or Path), got {type(value).__name__} {value!r}")
    return value


def check_text(value, name, index=None):
    """A non-empty, non-blank string."""
    where = f"`{name}`" if index is None else f"`{name}[{index}]`"
    if not isinstance(value, str):
        raise TypeError(f"{where} must be a string, got {type(value).__name__} {value!r}")
    if not value.strip():
        raise ValueError(f"{where} is an empty string; every entry must contain text")
    return str(value)  # numpy.str_ and other str subclasses become plain strings


def _is_sequence(values):
    """A list, tuple, numpy array, pandas Series or datasets column: anything with a length that
    iterates, except a string (which would be scored character by character)."""
    return (not isinstance(values, (str, bytes, dict)) and hasattr(values, "__len__")
            and hasattr(values, "__iter__") and getattr(values, "ndim", 1) == 1)


def check_text_list(values, name):
    """A sequence of non-empty strings; returns a list."""
    if not _is_sequence(values):
        raise TypeError(f"`{name}` must be a list of strings, got {type(values).__name__}")
    return [check_text(value, name, i) for i, value in enumerate(values)]


def check_references(references, name="references"):
    """Each reference is a string or a non-empty list of strings (several gold answers).

    Returns a list of lists of strings.
    """
    if not _is_sequence(references):
        raise TypeError(f"`{name}` must be a list of strings or of lists of strings, "
                        f"got {type(references).__name__}")
    golds = []
    for i, reference in enumerate(references):
        if _is_sequence(reference):
            if not reference:
                raise ValueError(f"`{name}[{i}]` is an empty list; give at least one gold answer")
            golds.append([check_text(gold, f"{name}[{i}]", j) for j, gold in enumerate(reference)])
        else:
            golds.append([check_text(reference, name, i)])
    return golds


def check_same_length(first, first_name, second, second_name):
    if len(first) != len(second):
        raise ValueError(f"`{first_name}` and `{second_name}` must have the same length, "
                         f"got {len(first)} and {len(second)}")


def check_finite_scores(values, name):
    """A 1-d array of finite floats."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"`{name}` must be a list of numbers: {error}") from None
    if array.ndim != 1:
        raise ValueError(f"`{name}` must be one-dimensional, got shape {array.shape}")
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise ValueError(f"`{name}` must be finite; entry {bad[0]} is {array[bad[0]]!r} "
                         f"({bad.size} non-finite in all)")
    return array
