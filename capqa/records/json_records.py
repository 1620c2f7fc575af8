"""Records as JSON and back, checked field by field, and what differs between two records.

The identity records (``capqa.records.identity``, ``capqa.records.job``) are frozen dataclasses
of strings, numbers, booleans and other records. ``to_json`` writes one as a JSON object;
``from_json`` reads it back and refuses, naming the field, anything that is not exactly what
the writer writes (a field missing or unknown, a string where a number belongs, a number that is
not finite), so a hand-edited or foreign file never becomes a record that compares wrongly.
``differences`` lists the fields two flat records disagree on: the resume check and compare
both say what changed from it.
"""

import dataclasses
import math
import typing
from typing import Any, Dict, List, Mapping, Tuple, Type, TypeVar, Union

Record = TypeVar("Record")
_MISSING = object()


class RecordError(ValueError):
    """JSON that is not a record the writer wrote; the message names the field."""


def to_json(value: Any) -> Any:
    """A record (or a value inside one) as JSON values: a record that says how it is written (a
    ``to_json`` of its own class) that way, any other field by field."""
    if dataclasses.is_dataclass(value):
        own = type(value).__dict__.get("to_json")
        return own(value) if own is not None else fields_to_json(value)
    return value


def fields_to_json(record: Any) -> Dict[str, Any]:
    """A record as a JSON object, field by field in declaration order."""
    return {spec.name: to_json(getattr(record, spec.name)) for spec in dataclasses.fields(record)}


def kind(value: Any) -> str:
    """How JSON calls a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else type(value).__name__


def from_json(cls: Type[Record], value: Any, where: str) -> Record:
    """The record ``cls`` of the JSON object ``value``, every field checked against its type;
    ``where`` names the object in messages (``summary.identity.scorer``, say)."""
    if "from_json" in cls.__dict__:  # a record read its own way
        return cls.from_json(value, where)
    return fields_from_json(cls, value, where)


def fields_from_json(cls: Type[Record], value: Any, where: str) -> Record:
    """``from_json`` for a record written field by field."""
    if not isinstance(value, dict):
        raise RecordError(f"{where} must be an object, got {kind(value)}")
    specs = dataclasses.fields(cls)
    unknown = [name for name in value if name not in {spec.name for spec in specs}]
    if unknown:
        raise RecordError(f"{where} has an unknown field {unknown[0]!r}")
    hints = typing.get_type_hints(cls)
    values = {}
    for spec in specs:
        item = value.get(spec.name, _MISSING)
        if item is _MISSING:
            raise RecordError(f"{where} has no field {spec.name!r}")
        values[spec.name] = typed(hints[spec.name], item, f"{where}.{spec.name}")
    return cls(**values)


def typed(hint: Any, value: Any, where: str) -> Any:
    """``value`` checked against the type ``hint`` (str, int, float, bool, Optional of one, a record)."""
    if dataclasses.is_dataclass(hint):
        return from_json(hint, value, where)
    if typing.get_origin(hint) is Union:
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        (hint,) = [option for option in options if option is not type(None)]
    if hint is bool and isinstance(value, bool):
        return value
    if hint is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if hint is float and isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    if hint is str and isinstance(value, str):
        return value
    expected = {bool: "a boolean", int: "an integer", float: "a finite number", str: "a string"}.get(hint, str(hint))
    raise RecordError(f"{where} must be {expected}, got {kind(value)}")


def differences(before: Mapping[str, Any], now: Mapping[str, Any]) -> List[Tuple[str, Any, Any]]:
    """(name, value before, value now) of every field two flat records disagree on, in the first
    record's order (then the second's new fields); a field one lacks is ``None`` there."""
    names = list(dict.fromkeys([*before, *now]))
    return [(name, before.get(name), now.get(name)) for name in names if before.get(name) != now.get(name)]
