"""What an option takes, as data: constraint objects in the style of scikit-learn's ``_param_validation``.

An option declares the values it takes as a tuple of constraints (``Interval(Real, 0, 1)``,
``StrOptions(("cap", "plus"))``, ``None``, ...); ``capqa.common.settings.Setting`` checks a value
against them once, at the boundary, and every front end derives its part from the same objects:

- ``is_satisfied_by`` and ``convert``: the check, and the value made canonical (an int where a
  float is asked for becomes a float; a mapping is checked entry by entry);
- ``str(constraint)``: what was expected, in words, for the error text, the help and the docs;
- ``parse``: what a command-line flag's or an environment variable's text means;
- ``choices``: argparse's choices, where the values are a closed list;
- ``invalid_values``: values outside the constraint, from which the generated test takes one that
  every constraint of an option refuses.
"""

import math
import numbers
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Tuple

from capqa.common.json_text import json_option_text, loads_json
from capqa.common.quoting import quote

TRUE_WORDS, FALSE_WORDS = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


class InvalidOptionError(ValueError, TypeError):
    """A value an option does not take. Both a ValueError and a TypeError (as scikit-learn's
    ``InvalidParameterError``): a caller that catches either for a bad argument catches it."""


class Constraint:
    """One kind of value an option takes."""

    choices: Optional[Tuple[str, ...]] = None

    def is_satisfied_by(self, value: Any) -> bool:
        raise NotImplementedError

    def convert(self, value: Any, name: str) -> Any:
        """The value in canonical form (called only when ``is_satisfied_by``); may refuse what
        the type check cannot see (a mapping's entries) with its own, more precise error."""
        return value

    def parse(self, text: str) -> Any:
        """The value a flag's or variable's text stands for; ValueError when it stands for none of this kind."""
        raise ValueError(f"not {self}")

    def invalid_values(self) -> Tuple[Any, ...]:
        """Values this constraint refuses (for the generated test)."""
        return ()

    def text_form(self) -> str:
        """What it takes as text (a flag's, a variable's), where that reads otherwise than ``str``."""
        return str(self)


class NoneValue(Constraint):
    """None: the option's default behaviour (written ``None`` in a declaration)."""

    def is_satisfied_by(self, value: Any) -> bool:
        return value is None

    def __str__(self) -> str:
        return "None"

    def invalid_values(self) -> Tuple[Any, ...]:
        return (object(),)


class Synonym(Constraint):
    """A word that stands for a value: ``Synonym("none", None)`` lets ``verdict="none"`` mean
    ``verdict=None``, as the command line's ``--verdict none`` does (any case, spaces ignored)."""

    def __init__(self, word: str, value: Any) -> None:
        self.word, self.value = word, value

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, str) and value.strip().lower() == self.word

    def convert(self, value: Any, name: str) -> Any:
        return self.value

    def parse(self, text: str) -> Any:
        if text.strip().lower() != self.word:
            raise ValueError(f"not {self}")
        return self.value

    def __str__(self) -> str:
        return repr(self.word)


class Interval(Constraint):
    """A number of ``kind`` (``numbers.Integral`` or ``numbers.Real``) between ``left`` and
    ``right`` (None: unbounded); ``closed`` is "both", "left", "right" or "neither". Never a bool."""

    def __init__(self, kind: type, left: Optional[float], right: Optional[float], closed: str = "both") -> None:
        if kind not in (numbers.Integral, numbers.Real) or closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"Interval of {kind} closed {closed!r}")
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def is_satisfied_by(self, value: Any) -> bool:
        if isinstance(value, bool) or not isinstance(value, self.kind) or not math.isfinite(value):
            return False
        closed_left, closed_right = self.closed in ("both", "left"), self.closed in ("both", "right")
        above = self.left is None or (value >= self.left if closed_left else value > self.left)
        below = self.right is None or (value <= self.right if closed_right else value < self.right)
        return above and below

    def convert(self, value: Any, name: str) -> Any:
        return int(value) if self.kind is numbers.Integral else float(value)

    def parse(self, text: str) -> Any:
        value = int(text) if self.kind is numbers.Integral else float(text)
        if not self.is_satisfied_by(value):
            raise ValueError(f"{value!r} is not {self}")
        return value

    def __str__(self) -> str:
        kind = "an int" if self.kind is numbers.Integral else "a float"
        opening = "[" if self.closed in ("both", "left") and self.left is not None else "("
        closing = "]" if self.closed in ("both", "right") and self.right is not None else ")"
        left = "-inf" if self.left is None else f"{self.left:g}"
        right = "inf" if self.right is None else f"{self.right:g}"
        return f"{kind} in {opening}{left}, {right}{closing}"

    def invalid_values(self) -> Tuple[Any, ...]:
        bounds = [bound for bound in (None if self.left is None else self.left - 1,
                                      None if self.right is None else self.right + 1) if bound is not None]
        return (*bounds, float("nan"), True, "1")


class StrOptions(Constraint):
    """One of a closed list of strings (as given: the list is the declaration)."""

    def __init__(self, options: Sequence[str]) -> None:
        self.options = tuple(options)
        self.choices = self.options

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.options

    def parse(self, text: str) -> Any:
        if text not in self.options:
            raise ValueError(f"not {self}")
        return text

    def __str__(self) -> str:
        listed = ", ".join(map(repr, self.options))
        return f"one of {listed}" if len(self.options) > 1 else listed

    def invalid_values(self) -> Tuple[Any, ...]:
        return ("no-such-" + self.options[0], 1)


class Boolean(Constraint):
    """True or False, nothing truthy in between (numpy's bool too); on a command line or in an
    environment variable 1/true/yes/on or 0/false/no/off."""

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, bool) or type(value).__name__ == "bool_"  # numpy.bool_

    def convert(self, value: Any, name: str) -> Any:
        return bool(value)

    def parse(self, text: str) -> Any:
        word = text.strip().lower()
        if word not in TRUE_WORDS + FALSE_WORDS:
            raise ValueError(f"not {self}")
        return word in TRUE_WORDS

    def __str__(self) -> str:
        return "True or False"

    def text_form(self) -> str:
        return "on or off (also 1/0, true/false, yes/no)"

    def invalid_values(self) -> Tuple[Any, ...]:
        return ("yes", 1)


class Text(Constraint):
    """A string with visible text (a Hub revision, a name)."""

    def __init__(self, description: str = "a non-empty string") -> None:
        self.description = description

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, str) and bool(value.strip())

    def parse(self, text: str) -> Any:
        if not self.is_satisfied_by(text):
            raise ValueError(f"not {self}")
        return text

    def __str__(self) -> str:
        return self.description

    def invalid_values(self) -> Tuple[Any, ...]:
        return ("", "   ", 7)


class PathText(Text):
    """A non-empty str or ``os.PathLike`` (a Hub id or a folder, a file): kept as a str, or as a
    ``Path`` with ``as_path``. ``check`` (optional) refuses what a type cannot say (a folder
    that cannot be created), with its own error."""

    def __init__(self, description: str, check: Optional[Callable[[Any], Any]] = None, as_path: bool = False) -> None:
        super().__init__(description)
        self.check, self.as_path = check, as_path

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, (str, os.PathLike)) and bool(str(value).strip())

    def convert(self, value: Any, name: str) -> Any:
        if self.check is not None:
            self.check(value)
        return Path(value) if self.as_path else str(value)

    def parse(self, text: str) -> Any:
        if not self.is_satisfied_by(text):
            raise ValueError(f"not {self}")
        return Path(text) if self.as_path else text


class Pattern(Text):
    """A string matching ``pattern`` in full; ``also`` accepts objects by their type's qualified
    name, kept as ``str(value)`` (a ``torch.device`` for a device, without importing torch)."""

    def __init__(self, pattern: str, description: str, also: Tuple[str, ...] = ()) -> None:
        super().__init__(description)
        self.pattern, self.also = re.compile(pattern), also

    def is_satisfied_by(self, value: Any) -> bool:
        if f"{type(value).__module__}.{type(value).__qualname__}" in self.also:
            return True
        return isinstance(value, str) and self.pattern.fullmatch(value) is not None

    def convert(self, value: Any, name: str) -> Any:
        return str(value)

    def invalid_values(self) -> Tuple[Any, ...]:
        return ("no such thing", 7)


class StrMapping(Constraint):
    """A mapping with string keys (``dict(...)`` of it is kept); on a command line or in an
    environment variable, a JSON object (inline, or a file's path). ``check`` (optional) checks
    the whole mapping and returns its canonical form, with its own errors (a verdict's classes)."""

    def __init__(self, description: str, text_description: str, check: Optional[Callable[[Any, str], Any]] = None,
                 refused_keys: Optional[dict] = None) -> None:
        self.description, self.text_description, self.check = description, text_description, check
        # key -> why it is refused here (the option that sets it instead, ...).
        self.refused_keys = dict(refused_keys or {})

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, Mapping)

    def convert(self, value: Any, name: str) -> Any:
        bad = [key for key in value if not isinstance(key, str)]
        if bad:
            raise InvalidOptionError(f"`{name}` must have string keys, got the key {quote(bad[0])}")
        refused = [key for key in value if key in self.refused_keys]
        if refused:
            raise InvalidOptionError(f"`{name}` may not set {refused[0]!r}: {self.refused_keys[refused[0]]}")
        return self.check(dict(value), name) if self.check is not None else dict(value)

    def parse(self, text: str) -> Any:
        value = loads_json(json_option_text(text.strip(), "the JSON object"))  # a JSONDecodeError is a ValueError
        if not isinstance(value, dict):
            raise ValueError(f"not {self}")
        return value

    def __str__(self) -> str:
        return self.description

    def text_form(self) -> str:
        return self.text_description

    def invalid_values(self) -> Tuple[Any, ...]:
        return ([("key", "value")], "{}", {1: "value"})


def make_constraint(declared: Any) -> Constraint:
    """A declaration's entry as a constraint: ``None`` stands for ``NoneValue()``."""
    if declared is None:
        return NoneValue()
    if not isinstance(declared, Constraint):
        raise TypeError(f"not a constraint: {declared!r}")
    return declared


def described(constraints: Sequence[Constraint], as_text: bool = False) -> str:
    """What the constraints accept, in words: "a float in [0, 1] or None"; ``as_text`` as a
    flag's or variable's text (None cannot be written there: leaving it out gives the default)."""
    words = [constraint.text_form() if as_text else str(constraint) for constraint in constraints
             if not (as_text and isinstance(constraint, NoneValue))]
    if len(words) == 1:
        return words[0]
    last = ", or " if any(" or " in word for word in words[:-1]) else " or "
    return f"{', '.join(words[:-1])}{last}{words[-1]}"
