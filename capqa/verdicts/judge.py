"""The metric option ``verdict``: per-example ``correct`` and the aggregate ``accuracy``.

``verdict`` is None (nothing added), a policy name ("strict", "lenient", "graded": the shipped
threshold of that policy), a number (the threshold itself) or a {class: credit} mapping (its
threshold chosen on the same validation rows as the shipped ones). The score judged is CAP, or
CAP+ with ``variant="plus"``. When some class gets partial credit ("graded" or such a mapping),
``credit`` per example is the expected credit under CAP+'s class probabilities
(``capqa.plus.calibration.credit_probabilities``; for "graded" that is exactly CAP+), and
``mean_credit`` its mean. ``verdict`` (aggregate) says what ``correct`` means: the policy, the
score and threshold judged, and the classes that count as correct (under "graded" that includes
partial answers).
"""

import numbers
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Tuple, Union

import numpy as np

from capqa.common.constants import COMPARISON_DECIMALS, LABELS
from capqa.plus.calibration import credit_probabilities
from capqa.records.identity import NONE, canonical_hash, json_files_hash
from capqa.verdicts.policies import POLICIES, accepted_classes, binary_meaning, is_graded, policy_credits, policy_name
from capqa.verdicts.thresholds import THRESHOLDS_FILE, threshold_for

VerdictOption = Union[None, str, float, Mapping[str, float]]


def check_verdict(verdict: VerdictOption) -> VerdictOption:
    """The ``verdict`` option, checked: None, a policy name, a threshold in [0, 1] or a mapping."""
    if verdict is None:
        return None
    if isinstance(verdict, str):
        policy_credits(verdict, "verdict")   # an unknown name raises here
        return verdict
    if isinstance(verdict, bool) or not isinstance(verdict, (numbers.Real, Mapping)):
        raise TypeError(f"`verdict` must be None, one of {', '.join(map(repr, POLICIES))}, a threshold "
                        f"in [0, 1] or a mapping {{class: credit}}, got {type(verdict).__name__} {verdict!r}")
    if isinstance(verdict, Mapping):
        return policy_credits(dict(verdict), "verdict")
    if not np.isfinite(verdict) or not 0.0 <= verdict <= 1.0:
        raise ValueError(f"`verdict` as a threshold must be in [0, 1], got {verdict!r}")
    return float(verdict)


@dataclass(frozen=True)
class Verdict:
    """A resolved verdict: accept when ``score`` >= ``threshold``; ``credits`` None for a bare number.

    name: the policy ("strict", ...), "custom" for a {class: credit} mapping, None for a bare number.
    source: the thresholds file the threshold was read or fitted from (None for a bare number).
    """
    threshold: float
    score: str = "cap"
    credits: Optional[Mapping[str, float]] = None
    policy: Optional[str] = None     # "strict", "lenient", "graded", "custom"; None for a number
    source: Optional[str] = None     # the thresholds file the threshold came from (None for a number)

    @property
    def graded(self) -> bool:
        return self.credits is not None and is_graded(self.credits)

    def describe(self) -> dict:
        """The result's ``verdict`` field: what ``correct`` means."""
        score_name = {"cap": "CAP", "cap_plus": "CAP+"}.get(self.score, self.score)
        record = {"policy": self.policy, "score": self.score, "threshold": float(self.threshold),
                  "correct_classes": list(accepted_classes(self.credits)) if self.credits else None}
        meaning = f"{score_name} >= {self.threshold:.4f}"
        if self.credits:
            meaning += f", the threshold fitted on labelled answers where {binary_meaning(self.credits)}"
        return {**record, "meaning": meaning}

    def identity_fields(self) -> Tuple[str, str]:
        """(verdict, verdict_thresholds) of the scorer's identity: the policy, score and threshold,
        and a hash of the thresholds file the threshold came from ("none" for a bare threshold)."""
        name = self.policy or "threshold"
        credits = "" if self.credits is None or self.policy != "custom" else (
            f",credits={canonical_hash(dict(self.credits))}")
        described = f"{name}(score={self.score},threshold={self.threshold!r}{credits})"
        return described, (NONE if self.source is None else json_files_hash(self.source))


def resolve_verdict(verdict: VerdictOption, variant: str = "cap",
                    thresholds_path: Optional[str] = None) -> Optional[Verdict]:
    """The ``Verdict`` the scorer applies, or None; thresholds from the shipped file by default."""
    verdict = check_verdict(verdict)
    if verdict is None:
        return None
    score = "cap_plus" if variant == "plus" else "cap"
    if isinstance(verdict, float):
        return Verdict(verdict, score)
    return Verdict(threshold_for(verdict, score, thresholds_path), score, policy_credits(verdict, "verdict"),
                   policy_name(verdict), str(thresholds_path or THRESHOLDS_FILE))


def judge(verdict: Verdict, result: dict, credit_inputs: Callable[[], tuple]) -> dict:
    """The per-example verdict fields (``correct``, and ``credit`` when graded) for a scorer
    ``result``; their means are the result schema's (``capqa.records.results``).

    credit_inputs: returns (probabilities_forward, probabilities_reverse, bleu, rouge_l) of the
    example's chosen gold; called only when credit is needed.
    """
    # The scorer's per-example lists: CAP under "scores", CAP+ under "cap_plus".
    column = "scores" if verdict.score == "cap" else verdict.score
    scores = np.round(np.asarray(result[column], dtype=float), COMPARISON_DECIMALS)
    correct = scores >= verdict.threshold
    fields = {"correct": correct.tolist()}
    if verdict.graded:
        credit = (credit_probabilities(*credit_inputs()) @ np.array([verdict.credits[label] for label in LABELS])
                  if correct.size else np.zeros(0))
        fields["credit"] = credit.tolist()
    return fields
