"""CAP end to end: statements, NLI in both directions, the formula, the best of several golds.

``CAPScorer`` is what the evaluate metric, the Space and the command line all call.
Inputs are validated by the caller (``validate_inputs``), so the scorer works on clean lists.
"""

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from capqa.constants import ALPHA, NEUTRAL_WEIGHT, NLI_LABELS
from capqa.plus.features import answer_overlap
from capqa.formula import cap_from_probabilities
from capqa.validation import (check_references, check_same_length, check_text_list,
                              check_unit_interval)

if TYPE_CHECKING:
    from capqa.engine.nli import NLIScorer
    from capqa.verdicts.judge import Verdict

_DIRECTIONS = ("forward", "reverse")
# "cap": the paper's CAP; "plus": also CAP+, calibrated on CAP-Correctness (capqa.plus.calibration).
VARIANTS = ("cap", "plus")
_PROBABILITY_NAMES = {"entailment": "p_entailment", "neutral": "p_neutral", "contradiction": "p_contradiction"}


def validate_inputs(predictions: Sequence[str], references: Sequence[Union[str, Sequence[str]]],
                    questions: Optional[Sequence[str]] = None
                    ) -> Tuple[List[str], List[List[str]], Optional[List[str]]]:
    """Check the user's lists; return (predictions, golds as lists of lists, questions or None)."""
    predictions = check_text_list(predictions, "predictions")
    golds = check_references(references, "references")
    check_same_length(predictions, "predictions", golds, "references")
    if questions is not None:
        questions = check_text_list(questions, "questions")
        check_same_length(predictions, "predictions", questions, "questions")
    return predictions, golds, questions


class CAPScorer:
    """CAP for (prediction, gold answers[, question]) examples.

    nli: a ``capqa.engine.nli.NLIScorer``. statements: a ``capqa.statements.generator.StatementGenerator``,
    needed only when questions are given (without questions the texts already are statements).
    """

    def __init__(self, nli: "NLIScorer", statements: Optional[Any] = None, alpha: float = ALPHA,
                 neutral_weight: float = NEUTRAL_WEIGHT, variant: str = "cap",
                 verdict: Optional["Verdict"] = None) -> None:
        self.nli = nli
        self.statements = statements
        self.alpha = check_unit_interval(alpha, "alpha")
        self.neutral_weight = check_unit_interval(neutral_weight, "neutral_weight")
        self.variant = check_variant(variant)
        # A capqa.verdicts.judge.Verdict (or None): adds `correct` and `accuracy` to each result.
        self.verdict = verdict

    def score(self, predictions: Sequence[str], golds: Sequence[Sequence[str]],
              questions: Optional[Sequence[str]] = None, return_details: bool = False) -> Dict[str, Any]:
        """predictions: list of str; golds: list of lists of str; questions: list of str or None."""
        if not predictions:
            return empty_result(return_details, self.variant, self.verdict)
        # One row per (example, gold): every gold answer is scored, the best one counts.
        example_of_row = np.repeat(np.arange(len(golds)), [len(g) for g in golds])
        gold_rows = [gold for example_golds in golds for gold in example_golds]
        prediction_rows = [predictions[i] for i in example_of_row]
        premises, hypotheses = self._statements(gold_rows, prediction_rows, questions, example_of_row)

        # Forward (gold -> prediction) and reverse pairs in one call: shared batches, shared dedup.
        probabilities = self.nli.predict(premises + hypotheses, hypotheses + premises)
        forward_probs, reverse_probs = probabilities[: len(premises)], probabilities[len(premises):]
        cap_rows, forward, reverse = cap_from_probabilities(forward_probs, reverse_probs,
                                                            self.alpha, self.neutral_weight)
        best_rows = _best_row_per_example(cap_rows, example_of_row, len(predictions))
        scores = cap_rows[best_rows]
        result = {"cap": float(scores.mean()), "scores": scores.tolist()}
        # CAP+ and the relation also use BLEU and ROUGE-L of the answer texts, computed exactly
        # as in the data their parameters were fitted on; at most once per row.
        overlap = None
        if self.variant == "plus":
            from capqa.plus.calibration import cap_plus

            overlap = answer_overlap(gold_rows, prediction_rows)
            # Like CAP, CAP+ takes the gold answer that scores best.
            plus_rows = cap_plus(forward_probs, reverse_probs, *overlap)
            plus_scores = plus_rows[_best_row_per_example(plus_rows, example_of_row, len(predictions))]
            result["mean_cap_plus"] = float(plus_scores.mean())
            result["cap_plus"] = plus_scores.tolist()

        def best_overlap() -> Sequence[np.ndarray]:
            return ([values[best_rows] for values in overlap] if overlap is not None
                    else answer_overlap([gold_rows[row] for row in best_rows], predictions))

        if self.verdict is not None:
            from capqa.verdicts.judge import judge

            result.update(judge(self.verdict, result, lambda: (
                forward_probs[best_rows], reverse_probs[best_rows], *best_overlap())))
        if return_details:
            from capqa.plus.calibration import diagnose_relation

            result.update(self._details(best_rows, example_of_row, premises, hypotheses,
                                        forward, reverse, forward_probs, reverse_probs))
            # Why the answer scored as it did, against the gold that counted.
            result["relation"] = diagnose_relation(forward_probs[best_rows], reverse_probs[best_rows],
                                                   *best_overlap())
        return result

    def _statements(self, gold_rows, prediction_rows, questions, example_of_row):
        if questions is None:
            return list(gold_rows), list(prediction_rows)
        if self.statements is None:
            raise ValueError("`questions` were given but this scorer has no statement model")
        question_rows = [questions[i] for i in example_of_row]
        made = self.statements.generate(question_rows + question_rows, gold_rows + prediction_rows)
        return made[: len(gold_rows)], made[len(gold_rows):]

    @staticmethod
    def _details(best_rows, example_of_row, premises, hypotheses, forward, reverse,
                 forward_probs, reverse_probs):
        first_row = np.searchsorted(example_of_row, np.arange(len(best_rows)))
        details = {
            "premises": [premises[row] for row in best_rows],
            "hypotheses": [hypotheses[row] for row in best_rows],
            "best_reference": (best_rows - first_row).tolist(),
            "forward": forward[best_rows].tolist(),
            "reverse": reverse[best_rows].tolist(),
        }
        for direction, probs in zip(_DIRECTIONS, (forward_probs, reverse_probs)):
            for column, label in enumerate(NLI_LABELS):
                details[f"{_PROBABILITY_NAMES[label]}_{direction}"] = probs[best_rows, column].tolist()
        return details


def check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise ValueError(f"`variant` must be one of {', '.join(map(repr, VARIANTS))}, got {variant!r}")
    return variant


def _best_row_per_example(cap_rows, example_of_row, n_examples):
    """Index of the highest-CAP row of each example (the first on ties: stable)."""
    # Sort by example, then by descending CAP; the first row of each example is its best.
    order = np.lexsort((-cap_rows, example_of_row))
    first = np.searchsorted(example_of_row[order], np.arange(n_examples))
    return order[first]


def empty_result(return_details: bool = False, variant: str = "cap",
                 verdict: Optional["Verdict"] = None) -> Dict[str, Any]:
    """The result for no examples: no mean, no scores, empty detail lists."""
    from capqa.verdicts.judge import empty_verdict_fields

    result = {"cap": None, "scores": []}
    if variant == "plus":
        result.update({"mean_cap_plus": None, "cap_plus": []})
    result.update(empty_verdict_fields(verdict))
    if return_details:
        result.update({key: [] for key in _detail_keys()})
    return result


def _detail_keys():
    keys = ["premises", "hypotheses", "best_reference", "forward", "reverse", "relation"]
    return keys + [f"{_PROBABILITY_NAMES[label]}_{direction}" for direction in _DIRECTIONS for label in NLI_LABELS]
