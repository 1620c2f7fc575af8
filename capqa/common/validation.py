"""Input checks at the boundary: every error names the argument and says what was expected.

Everything behind these checks may assume clean input (lists of non-empty strings, finite
floats in range), the way scikit-learn validates once and then works on plain arrays.
"""

import collections.abc
import math
import numbers
import os
import re
import unicodedata
from typing import Any, List, Optional, Sized, Tuple, Union

import numpy as np

from capqa.common.quoting import quote

# The smallest NLI ``max_length`` accepted: room for a pair's special tokens and a few tokens of
# each side. Below it truncation keeps (almost) nothing, or the tokenizer silently ignores it.
MIN_MAX_LENGTH = 16
# A tokenizer's model_max_length at or above this is transformers' "no limit" placeholder.
_NO_TOKENIZER_LIMIT = 10**9
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# Unicode categories that print nothing: format (zero-width space and joiners, BOM, soft hyphen,
# bidi marks) and control characters. Text made only of these and whitespace counts as empty.
_INVISIBLE_CATEGORIES = ("Cf", "Cc")


def check_unit_interval(value: Any, name: str) -> float:
    """A real number in [0, 1] (alpha, neutral_weight, ...)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a number in [0, 1], got {type(value).__name__} {value!r}")
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"`{name}` must be in [0, 1], got {value!r}")
    return float(value)


def check_seed(value: Any, name: str) -> int:
    """A random seed: a non-negative integer (what numpy's generators take)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"`{name}` must be a non-negative integer (a random seed), got {value!r}")
    return int(value)


def check_positive_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"`{name}` must be a positive integer, got {value!r}")
    return int(value)


# How far outside [0, 1] a score of CAP may lie by rounding alone: a float32 softmax gives
# P(entail) = 1 beside a P(neutral) of 1e-8, so D = P(entail) + 0.3 P(neutral) = 1 + 3e-9.
SCORE_ROUNDING = 1e-6


def outside_unit_interval(values: np.ndarray) -> np.ndarray:
    """Where ``values`` are not finite or lie outside [0, 1] by more than ``SCORE_ROUNDING``."""
    with np.errstate(invalid="ignore"):
        return ~(np.isfinite(values) & (values >= -SCORE_ROUNDING) & (values <= 1 + SCORE_ROUNDING))


# The most digits ``parse_count`` reads: any count a text can mean fits, and ``int`` stays far from
# its 4,300-digit limit (past which it raises).
MAX_COUNT_DIGITS = 18


def parse_count(text: str, ascii_only: bool = False) -> Optional[int]:
    """The whole number ``text`` writes in decimal digits, or None when it is not one.

    ``str.isdigit`` is not the test: it is true of superscripts and circled digits ("³", "①"),
    which ``int`` refuses. Decimal digits of any script ("١٢") are read, unless ``ascii_only``."""
    if not (text.isdecimal() and len(text) <= MAX_COUNT_DIGITS) or (ascii_only and not text.isascii()):
        return None
    return int(text)


def check_max_length(value: int, name: str = "max_length") -> int:
    """An NLI token budget per pair: an integer of at least ``MIN_MAX_LENGTH``."""
    value = check_positive_int(value, name)
    if value < MIN_MAX_LENGTH:
        raise ValueError(f"`{name}` must be at least {MIN_MAX_LENGTH} tokens (special tokens and "
                         f"some of each text of a pair), got {value}")
    return value


def check_max_length_fits(max_length: int, model_name: str, config: Any, tokenizer: Any,
                          name: str = "max_length") -> int:
    """Refuse a ``max_length`` beyond the model's position limit (a tensor-size error mid-job
    otherwise): the smaller of config.max_position_embeddings and tokenizer.model_max_length."""
    limits = {"config.max_position_embeddings": getattr(config, "max_position_embeddings", None),
              "tokenizer.model_max_length": getattr(tokenizer, "model_max_length", None)}
    known = {source: int(limit) for source, limit in limits.items()
             if isinstance(limit, numbers.Integral) and 0 < limit < _NO_TOKENIZER_LIMIT}
    if not known:
        return max_length
    source, limit = min(known.items(), key=lambda item: item[1])
    if max_length > limit:
        raise ValueError(f"`{name}` must be at most {limit}, the position limit of {model_name} "
                         f"({source}), got {max_length}")
    return max_length


def check_bool(value: Any, name: str) -> bool:
    """True or False, nothing truthy in between (quantize, ...)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def check_folder(value: Any, name: str) -> Union[str, os.PathLike]:
    """A folder path (str or os.PathLike), not necessarily existing yet."""
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise TypeError(f"`{name}` must be a folder path (str or Path), got {type(value).__name__} {value!r}")
    return value


def _is_visible(character):
    return not character.isspace() and unicodedata.category(character) not in _INVISIBLE_CATEGORIES


def visible_text(text: str) -> str:
    """``text`` without the characters that print nothing (``is_blank``'s invisible ones: zero-width
    spaces and joiners, BOM, bidi marks, control characters), whitespace kept."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(character for character in text if character.isspace() or _is_visible(character))


def is_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: empty, whitespace, or only invisible characters (zero-width
    spaces and joiners, BOM, control characters)."""
    return not any(map(_is_visible, text))


def check_text(value: Any, name: str, index: Optional[int] = None, allow_blank: bool = False,
               where: Optional[str] = None) -> str:
    """A string with visible text (any string when ``allow_blank``) and no lone surrogate (which
    no encoder can write). Messages name it `name[index]`, or ``where`` (a file's row and column)."""
    where = where or (f"`{name}`" if index is None else f"`{name}[{index}]`")
    if not isinstance(value, str):
        raise TypeError(f"{where} must be a string, got {type(value).__name__} {quote(value)}")
    if not allow_blank and not value.strip():
        raise ValueError(f"{where} is an empty string; every entry must contain text")
    if not allow_blank and is_blank(value):
        raise ValueError(f"{where} is an empty string once invisible characters are removed "
                         "(only whitespace, zero-width, BOM or control characters); every entry must contain text")
    surrogate = _LONE_SURROGATE.search(value)
    if surrogate:
        raise ValueError(f"{where} has a lone surrogate U+{ord(surrogate.group()):04X} at character "
                         f"{surrogate.start()}: not valid Unicode text (was it decoded with errors='surrogateescape'?)")
    return str(value)  # numpy.str_ and other str subclasses become plain strings


def _is_sequence(values):
    """A list, tuple, numpy array, pandas Series or datasets column: anything with a length that
    iterates, except a string (which would be scored character by character)."""
    return (not isinstance(values, (str, bytes, dict)) and hasattr(values, "__len__")
            and hasattr(values, "__iter__") and getattr(values, "ndim", 1) == 1)


def _refuse_unordered(values, name, why="its entries cannot be paired with the other arguments'"):
    """A set iterates in hash order, which changes between runs: refuse it."""
    if isinstance(values, collections.abc.Set):
        raise TypeError(f"`{name}` is a {type(values).__name__}, which has no order, so {why}; give a list")


def check_text_list(values: Any, name: str, allow_blank: bool = False) -> List[str]:
    """A sequence of non-empty strings (or of any strings, when ``allow_blank``); returns a list."""
    _refuse_unordered(values, name)
    if not _is_sequence(values):
        raise TypeError(f"`{name}` must be a list of strings, got {type(values).__name__}")
    return [check_text(value, name, i, allow_blank) for i, value in enumerate(values)]


def check_references(references: Any, name: str = "references") -> List[List[str]]:
    """Each reference is a string or a non-empty list of strings (several gold answers).

    Returns a list of lists of strings. Sets are refused at both levels: a set of references
    would pair golds with the wrong predictions, and a set of one example's golds would make
    ``best_reference`` (an index) change between runs.
    """
    _refuse_unordered(references, name)
    if not _is_sequence(references):
        raise TypeError(f"`{name}` must be a list of strings or of lists of strings, "
                        f"got {type(references).__name__}")
    return [check_example_golds(reference, name, i) for i, reference in enumerate(references)]


def check_example_golds(reference: Any, name: str, index: Optional[int] = None,
                        allow_blank: bool = False) -> List[str]:
    """One example's gold answers: a string (one gold answer) or a non-empty list of strings,
    as a list; ``name[index]`` in messages. A set is refused (``best_reference`` could not say
    which gold counted), and so is anything else that is not text: bytes, a dict, None, a number."""
    where = name if index is None else f"{name}[{index}]"
    _refuse_unordered(reference, where, "`best_reference` could not say which gold counted")
    if not _is_sequence(reference):
        return [check_text(reference, name, index, allow_blank)]
    if not reference:
        raise ValueError(f"`{where}` is an empty list; give at least one gold answer")
    return [check_text(gold, where, j, allow_blank) for j, gold in enumerate(reference)]


def validate_inputs(predictions: Any, references: Any, questions: Any = None
                    ) -> Tuple[List[str], List[List[str]], Optional[List[str]]]:
    """The checks of every scoring entry point; returns (predictions, golds as lists of lists,
    questions or None). A blank prediction is an answer (it scores 0); a blank gold answer or
    question is refused, naming its position. A string is one gold answer, never a list of them."""
    predictions = check_text_list(predictions, "predictions", allow_blank=True)
    golds = check_references(references, "references")
    check_same_length(predictions, "predictions", golds, "references")
    if questions is not None:
        questions = check_text_list(questions, "questions")
        check_same_length(predictions, "predictions", questions, "questions")
    return predictions, golds, questions


def check_same_length(first: Sized, first_name: str, second: Sized, second_name: str) -> None:
    if len(first) != len(second):
        raise ValueError(f"`{first_name}` and `{second_name}` must have the same length, "
                         f"got {len(first)} and {len(second)}")


def check_finite_scores(values: Any, name: str) -> np.ndarray:
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
