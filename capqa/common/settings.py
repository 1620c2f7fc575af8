"""A setting declared once, with its constraints, and what every front end derives from it.

A ``Setting`` is an option's one declaration: its name, default, constraints
(``capqa.common.constraints``), meaning, and whether it changes scores. From it come the check
(``validate``: once, at the boundary, with an error that names the option and what it takes), the
meaning of a flag's or an environment variable's text (``parse``), the command line's flags
(``add_arguments``), the environment's variables (``read_environment``, ``CAP_<NAME>``, with the
misspelt ones named) and the docs (``markdown_table``, ``docstring``). The metric's options are
``capqa.metric.options.OPTIONS``; the Space adds its own settings in the same style.
"""

import argparse
import difflib
import logging
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Sequence, Tuple

from capqa.common.constraints import Boolean, Constraint, InvalidOptionError, described, make_constraint
from capqa.common.quoting import quote

logger = logging.getLogger(__name__)

ENVIRONMENT_PREFIX = "CAP_"


@dataclass(frozen=True)
class Setting:
    """One option, declared once.

    constraints: what it takes (``None`` in the declaration for None).
    meaning: what it does, in words (the help, the docs' meaning column).
    affects_scores: False for what changes only speed, memory or where things are kept (a job may
        resume with another value); everything else must be in the scorer's identity.
    affects_nli: True for what changes the NLI probabilities themselves, and so the score cache's key.
    default_text: the default in words, where its value says less (None standing for a model).
    """

    name: str
    default: Any
    constraints: Tuple[Constraint, ...]
    meaning: str
    affects_scores: bool = True
    affects_nli: bool = False
    default_text: Optional[str] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "constraints", tuple(map(make_constraint, self.constraints)))

    @property
    def flag(self) -> str:
        """The command line's flag: ``nli_model`` -> ``--nli-model``."""
        return "--" + self.name.replace("_", "-")

    @property
    def variable(self) -> str:
        """The environment variable: ``nli_model`` -> ``CAP_NLI_MODEL``."""
        return ENVIRONMENT_PREFIX + self.name.upper()

    @property
    def is_flag(self) -> bool:
        """True for an on/off option (``--x`` / ``--no-x`` on the command line)."""
        return any(isinstance(constraint, Boolean) for constraint in self.constraints)

    def expected(self, as_text: bool = False) -> str:
        """What it takes, in words ("a float in [0, 1]"); ``as_text``: as a flag's or an
        environment variable's text (JSON for a mapping; no None, which leaving it out gives)."""
        return described(self.constraints, as_text)

    def default_words(self) -> str:
        return self.default_text or repr(self.default)

    def validate(self, value: Any) -> Any:
        """``value`` in canonical form, or ``InvalidOptionError`` naming the option and what it takes."""
        for constraint in self.constraints:
            if constraint.is_satisfied_by(value):
                return constraint.convert(value, self.name)
        kind = "" if isinstance(value, (str, int, float)) or value is None else f"{type(value).__name__} "
        raise InvalidOptionError(f"`{self.name}` must be {self.expected()}, got {kind}{quote(value)}")

    def parse(self, text: str, source: Optional[str] = None) -> Any:
        """The value ``text`` stands for (a flag's or an environment variable's), validated; an
        ``InvalidOptionError`` naming ``source`` (the flag or variable) otherwise."""
        what, reasons = source or f"`{self.name}`", []
        for constraint in self.constraints:
            try:
                value = constraint.parse(text)
            except ValueError as error:  # not this kind of value (a JSONDecodeError is one)
                reasons.append(str(error))
                continue
            try:
                return self.validate(value)
            except (ValueError, TypeError) as error:  # of this kind, but refused (a mapping's entries)
                raise InvalidOptionError(f"{what}: {error}") from None
        # Why text that looks like JSON is not (a word is simply none of the values).
        decode = next((reason for reason in reasons if "line 1 column" in reason), None) if text.lstrip()[:1] in (
            "{", "[") else None
        raise InvalidOptionError(f"{what} must be {self.expected(as_text=True)}, got {quote(text)}"
                                 + (f" (not JSON: {decode})" if decode else ""))

    @property
    def choices(self) -> Optional[Tuple[str, ...]]:
        """argparse's choices: the strings, when the option takes only a closed list of them."""
        if len(self.constraints) == 1 and self.constraints[0].choices:
            return self.constraints[0].choices
        return None

    def invalid_value(self) -> Any:
        """A value that every constraint refuses (the generated test gives it and expects an error)."""
        for constraint in self.constraints:
            for value in constraint.invalid_values():
                if not any(other.is_satisfied_by(value) for other in self.constraints):
                    return value
        raise ValueError(f"{self.name}: no value found outside its constraints")


def setting_names(settings: Iterable[Setting]) -> Tuple[str, ...]:
    return tuple(setting.name for setting in settings)


def unknown_names_message(unknown: Sequence[str], known: Sequence[str], what: str = "option") -> str:
    """``'nli_modle' (did you mean 'nli_model'?)`` for each unknown name."""
    hints = []
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=1)
        hints.append(quote(name) + (f" (did you mean {close[0]!r}?)" if close else ""))
    return f"unknown {what}{'s' if len(unknown) > 1 else ''} {', '.join(hints)}"


# --- The command line ---------------------------------------------------------------------------

def help_text(setting: Setting) -> str:
    """A flag's help: what it takes, what it does, and its default where the value alone says little."""
    default = f" (default: {setting.default_text})" if setting.default_text else ""
    takes = "" if setting.is_flag else f"{setting.expected(as_text=True)}: "
    return f"{takes}{setting.meaning}{default}".replace("%", "%%")


def add_arguments(group: Any, settings: Iterable[Setting]) -> None:
    """One flag per setting (``nli_model`` -> ``--nli-model``): its help, choices and default, its
    text read by the declaration (``Setting.parse``); an on/off setting is ``--x`` / ``--no-x``."""
    for setting in settings:
        if setting.is_flag:
            group.add_argument(setting.flag, action=argparse.BooleanOptionalAction, default=setting.default,
                               help=help_text(setting))
            continue
        group.add_argument(setting.flag, type=_flag_parser(setting), default=setting.default,
                           choices=setting.choices, help=help_text(setting),
                           metavar=None if setting.choices else setting.name.upper())


def _flag_parser(setting: Setting) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            return setting.parse(text, setting.flag)
        except InvalidOptionError as error:  # argparse says "argument --flag: " before it
            message = str(error)
            raise argparse.ArgumentTypeError(message[len(setting.flag):].lstrip(": ")) from None

    parse.__name__ = setting.name  # argparse names the type in its own messages
    return parse


# --- The environment -----------------------------------------------------------------------------

def read_environment(settings: Iterable[Setting], environ: Mapping[str, str],
                     also_known: Iterable[str] = ()) -> Dict[str, Any]:
    """{name: value} of the settings whose ``CAP_<NAME>`` variable is set (blank counts as unset),
    each read by its declaration; a ``CAP_*`` variable that is no setting (nor in ``also_known``)
    is logged as a warning with the nearest name, since it would otherwise be ignored in silence."""
    settings = list(settings)
    values = {}
    for setting in settings:
        text = environ.get(setting.variable, "").strip()
        if text:
            values[setting.name] = setting.parse(text, setting.variable)
    known = [setting.variable for setting in settings] + list(also_known)
    for variable in sorted(name for name in environ if name.startswith(ENVIRONMENT_PREFIX) and name not in known):
        close = difflib.get_close_matches(variable, known, n=1)
        logger.warning("%s is not a setting, so it is ignored%s (the settings are %s)", variable,
                       f"; did you mean {close[0]}?" if close else "", ", ".join(known))
    return values


# --- The docs ------------------------------------------------------------------------------------

def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(settings: Iterable[Setting], name: Callable[[Setting], str] = lambda setting: setting.name,
                   name_header: str = "option", values: Optional[Callable[[Setting], str]] = None,
                   value_header: str = "", as_text: bool = False) -> str:
    """The settings as a Markdown table: name, default, what it takes (``as_text``: as a flag's
    or variable's text), what it does; with ``values``, a last column of the values in use."""
    header = [name_header, "default", "takes", "meaning"]
    header += [value_header] if values else []
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for setting in settings:
        cells = [f"`{name(setting)}`", _cell(setting.default_text or f"`{setting.default!r}`"),
                 _cell(setting.expected(as_text)), _cell(setting.meaning)]
        cells += [_cell(values(setting))] if values else []
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def docstring(settings: Iterable[Setting], heading: str) -> str:
    """The settings as an indented docstring section under ``heading``."""
    lines = [heading]
    for setting in settings:
        lines.append(f"    {setting.name} ({setting.expected()}; default {setting.default_words()}): {setting.meaning}")
    return "\n".join(lines) + "\n"

