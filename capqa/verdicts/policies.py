"""Verdict policies: which correctness classes count as correct, and with how much credit.

A policy maps each of the eight classes to a credit in [0, 1]:

* ``strict``: exact, equivalent and alternative_correct get 1, every other class 0;
* ``lenient``: strict plus overinclusive_valid;
* ``graded``: the paper's severity / 6 (exact 1, overinclusive_valid 5/6, partial 4/6, ...);
* a user mapping {class: credit}; classes it leaves out get 0.

For the binary verdict a class counts as correct when its credit is at least
``CORRECT_CREDIT`` (one half): under ``graded`` that accepts partial answers (4/6) and rejects
overinclusive_invalid (2/6). ``binary_meaning`` says so in words, and every verdict result and
table carries it: ``correct`` never means more or less than the classes it names.
"""

import numbers
from typing import Dict, Mapping, Union

import numpy as np
from numpy.typing import ArrayLike

from capqa.common.constants import LABELS, SEVERITY
from capqa.common.quoting import quote, quote_all

CORRECT_CREDIT = 0.5
STRICT_CLASSES = ("exact", "equivalent", "alternative_correct")
POLICIES = {
    "strict": {label: float(label in STRICT_CLASSES) for label in LABELS},
    "lenient": {label: float(label in (*STRICT_CLASSES, "overinclusive_valid")) for label in LABELS},
    "graded": {label: SEVERITY[label] / max(SEVERITY.values()) for label in LABELS},
}

Policy = Union[str, Mapping[str, float]]


def check_credits(mapping: Mapping, name: str = "verdict") -> Dict[str, float]:
    """A user's {class: credit} mapping, completed with 0 for the classes it leaves out."""
    unknown = [label for label in mapping if label not in LABELS]
    if unknown:
        raise ValueError(f"`{name}` maps unknown classes [{quote_all(unknown, 5)}]; the classes are "
                         f"{', '.join(LABELS)}")
    credits = {}
    for label in LABELS:
        value = mapping.get(label, 0.0)
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 <= value <= 1.0:
            raise ValueError(f"`{name}[{label!r}]` must be a credit in [0, 1], got {quote(value)}")
        credits[label] = float(value)
    if not any(credit >= CORRECT_CREDIT for credit in credits.values()):
        raise ValueError(f"`{name}` gives no class a credit of {CORRECT_CREDIT} or more: "
                         "no answer could be judged correct")
    if all(credit >= CORRECT_CREDIT for credit in credits.values()):
        raise ValueError(f"`{name}` gives every class a credit of {CORRECT_CREDIT} or more: "
                         "no answer could be judged incorrect")
    return credits


def policy_credits(policy: Policy, name: str = "policy") -> Dict[str, float]:
    """{class: credit} of a named policy or a user mapping."""
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ValueError(f"`{name}` must be one of {', '.join(map(repr, POLICIES))} or a mapping "
                             f"{{class: credit}}, got {quote(policy)}")
        return dict(POLICIES[policy])
    if isinstance(policy, Mapping):
        return check_credits(policy, name)
    raise TypeError(f"`{name}` must be a policy name ({', '.join(POLICIES)}) or a mapping "
                    f"{{class: credit}}, got {type(policy).__name__} {quote(policy)}")


def accepted_classes(credits: Mapping[str, float]) -> tuple:
    """The classes whose answers are correct in the binary verdict, taxonomy order."""
    return tuple(label for label in LABELS if credits[label] >= CORRECT_CREDIT)


def is_graded(credits: Mapping[str, float]) -> bool:
    """True when some class gets partial credit (strictly between 0 and 1)."""
    return any(0.0 < credit < 1.0 for credit in credits.values())


def binary_targets(labels: ArrayLike, credits: Mapping[str, float], name: str = "labels") -> np.ndarray:
    """Bool array: each labelled row's class counts as correct under ``credits``."""
    labels = np.asarray(labels, dtype=object)
    unknown = sorted(set(labels.tolist()) - set(credits))
    if unknown:
        raise ValueError(f"`{name}` has classes outside the taxonomy: {unknown}")
    accepted = set(accepted_classes(credits))
    return np.array([label in accepted for label in labels], dtype=bool)


def policy_name(policy: Policy) -> str:
    """How a policy is named in tables: its name, or 'custom' for a mapping."""
    return policy if isinstance(policy, str) else "custom"


def binary_meaning(credits: Mapping[str, float]) -> str:
    """What ``correct`` means under ``credits``, e.g. 'correct = exact, equivalent or
    alternative_correct (the classes with credit >= 0.5)'."""
    classes = accepted_classes(credits)
    listed = classes[0] if len(classes) == 1 else f"{', '.join(classes[:-1])} or {classes[-1]}"
    return f"correct = {listed} (the classes with credit >= {CORRECT_CREDIT:g})"
