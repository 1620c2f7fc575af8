"""CAP end to end: statements, NLI in both directions, the formula, the best of several golds.

``CAPScorer`` is what the evaluate metric, the Space, the harnesses and the command line all
call. ``score`` validates its input once (``capqa.common.validation.validate_inputs``); the layers
below work on clean lists. Its result follows the schema of ``capqa.records.results`` and carries the
``hashcode`` of the scorer's identity (``capqa.records.identity``) as it ran for that result.

Several golds: every gold answer of an example is scored, and one gold is chosen per example,
the best by the variant's headline score (CAP, or CAP+ with ``variant="plus"``; the first on
ties). Every per-example field (CAP, CAP+, the verdict, the relation, the statements,
``best_reference``) comes from that one gold.

A blank prediction (empty, whitespace or only invisible characters) states nothing: it scores
CAP 0, CAP+ 0, incorrect, relation "invalid", with no model call (``capqa.records.results``).
"""

import logging
from typing import TYPE_CHECKING, Any, Dict, Optional, Protocol, Sequence, Union

import numpy as np

from capqa.common.constants import ALPHA, NEUTRAL_WEIGHT, NLI_LABELS, VARIANTS
from capqa.common.validation import check_bool, check_unit_interval, is_blank, validate_inputs
from capqa.metric.formula import cap_from_probabilities
from capqa.plus.calibration import cap_plus, diagnose_relation, params_hash
from capqa.plus.features import answer_overlap
from capqa.records.identity import (FITTED_NLI_MODEL, NO_STATEMENTS, NONE, ScorerIdentity, StatementIdentity,
                                    installed_versions)
from capqa.records.results import HASHCODE, assemble, result_fields, verdict_meaning
from capqa.statements.check import statements_issues
from capqa.verdicts.judge import judge

if TYPE_CHECKING:
    from capqa.engine.nli import NLIScorer
    from capqa.statements.generator import MadeStatements
    from capqa.verdicts.judge import Verdict

logger = logging.getLogger(__name__)

_DIRECTIONS = ("forward", "reverse")


class StatementEngine(Protocol):
    """What the scorer needs from its statements: ``capqa.statements.generator.StatementGenerator``
    (any registered engine, with the fallback to rules) is one."""

    @property
    def identity(self) -> StatementIdentity:
        """The engine as loaded, for the hashcode."""

    def make(self, questions: Sequence[str], answers: Sequence[str], check_input: bool = True,
             with_issues: bool = False) -> "MadeStatements":
        """One statement per pair, the engine that wrote each, whether each is a rule statement
        standing in for one the engine's guard refused, and their issue codes when the engine
        checked them (``capqa.statements.generator.MadeStatements``)."""

    def prefetch(self, questions: Sequence[str], answers: Sequence[str], with_issues: bool = False) -> None:
        """Start writing these statements ahead of ``make`` (a no-op for an engine that cannot)."""


class CAPScorer:
    """CAP for (prediction, gold answers[, question]) examples.

    nli: a ``capqa.engine.nli.NLIScorer``. statements: a ``StatementEngine``, needed only when
    questions are given (without questions the texts already are statements).
    """

    def __init__(self, nli: "NLIScorer", statements: Optional[StatementEngine] = None, alpha: float = ALPHA,
                 neutral_weight: float = NEUTRAL_WEIGHT, variant: str = "cap",
                 verdict: Optional["Verdict"] = None) -> None:
        self.nli = nli
        self.statements = statements
        self.alpha = check_unit_interval(alpha, "alpha")
        self.neutral_weight = check_unit_interval(neutral_weight, "neutral_weight")
        self.variant = check_variant(variant)
        # A capqa.verdicts.judge.Verdict (or None): adds `correct` and `accuracy` to each result.
        self.verdict = verdict
        self._calibration_checked = False

    def __repr__(self) -> str:
        """What the scorer is, in one line (as bert_score's scorer): its engines and its formula."""
        verdict = "None" if self.verdict is None else self.verdict.identity_fields()[0]
        return (f"CAPScorer(nli={self.nli!r}, statements={self.statements!r}, alpha={self.alpha}, "
                f"neutral_weight={self.neutral_weight}, variant={self.variant!r}, verdict={verdict})")

    @property
    def identity(self) -> ScorerIdentity:
        """What produces this scorer's results with questions (``identity_for``); a scorer
        without a statement engine records "none"."""
        return self.identity_for(questions=self.statements is not None)

    def identity_for(self, questions: bool) -> ScorerIdentity:
        """The record of what produces a result scored with (or without) questions: without,
        no statements are made, and the record says "none"."""
        statements = self.statements.identity if questions and self.statements is not None else NO_STATEMENTS
        verdict, verdict_thresholds = (NONE, NONE) if self.verdict is None else self.verdict.identity_fields()
        return ScorerIdentity(installed_versions(), self.nli.identity, statements, self.alpha, self.neutral_weight,
                              self.variant, params_hash(), verdict, verdict_thresholds)

    @property
    def hashcode(self) -> str:
        """``identity``'s one line; a result scored without questions carries its own, with
        statements=none (``result["hashcode"]``)."""
        return self.identity.hashcode()

    def score(self, predictions: Sequence[str], golds: Sequence[Union[str, Sequence[str]]],
              questions: Optional[Sequence[str]] = None, return_details: bool = False,
              check_input: bool = True) -> Dict[str, Any]:
        """predictions: list of str (blank ones score 0); golds: per example a str or a list of
        str; questions: list of str or None. The result's fields: ``capqa.records.results``.

        check_input: False for a caller that validated the lists already (``validate_inputs``:
        golds as lists of lists), as the metric does when examples are added.
        """
        if check_input:
            predictions, golds, questions = validate_inputs(predictions, golds, questions)
        return_details = check_bool(return_details, "return_details")
        if questions is not None and self.statements is None:
            raise ValueError("`questions` were given but this scorer has no statement engine")
        fields = result_fields(self.variant, self.verdict, return_details)
        answered = [i for i, prediction in enumerate(predictions) if not is_blank(prediction)]
        if len(answered) < len(predictions):
            logger.warning("%d of %d predictions are blank (no visible text): each scores CAP 0, CAP+ 0, incorrect, "
                           "relation 'invalid', without a model call", len(predictions) - len(answered),
                           len(predictions))
        lists = {}
        if answered:
            lists = self._score_answered([predictions[i] for i in answered], [golds[i] for i in answered],
                                         None if questions is None else [questions[i] for i in answered],
                                         return_details)
        result = {**assemble(lists, answered, len(predictions), fields), **verdict_meaning(self.verdict)}
        result[HASHCODE] = self.identity_for(questions is not None).hashcode()
        return result

    def _score_answered(self, predictions, golds, questions, return_details):
        """The per-example lists of examples with a non-blank prediction."""
        # One row per (example, gold): every gold answer is scored, one per example counts.
        example_of_row = np.repeat(np.arange(len(golds)), [len(g) for g in golds])
        gold_rows = [gold for example_golds in golds for gold in example_golds]
        prediction_rows = [predictions[i] for i in example_of_row]
        premises, hypotheses, fallback_rows, engine_rows, issue_rows = self._statements(
            gold_rows, prediction_rows, questions, example_of_row, return_details)
        self._warn_if_calibration_is_elsewhere(return_details)

        # Forward (gold -> prediction) and reverse pairs in one call: shared batches, shared dedup.
        probabilities = self.nli.predict(premises + hypotheses, hypotheses + premises, check_input=False)
        forward_probs, reverse_probs = probabilities[: len(premises)], probabilities[len(premises):]
        cap_rows, forward, reverse = cap_from_probabilities(forward_probs, reverse_probs,
                                                            self.alpha, self.neutral_weight)
        # CAP+ and the relation also use BLEU and ROUGE-L of the answer texts, computed exactly
        # as in the data their parameters were fitted on; at most once per row.
        overlap_rows = plus_rows = None
        if self.variant == "plus":
            overlap_rows = answer_overlap(gold_rows, prediction_rows)
            plus_rows = cap_plus(forward_probs, reverse_probs, *overlap_rows)
        chosen = _best_row_per_example(cap_rows if plus_rows is None else plus_rows, example_of_row,
                                       len(predictions))
        lists = {"scores": cap_rows[chosen].tolist()}
        if plus_rows is not None:
            lists["cap_plus"] = plus_rows[chosen].tolist()
        chosen_inputs = _ChosenInputs(forward_probs[chosen], reverse_probs[chosen], overlap_rows, chosen,
                                      [gold_rows[row] for row in chosen], predictions)
        if self.verdict is not None:
            lists.update(judge(self.verdict, lists, chosen_inputs))
        if return_details:
            lists.update(_details(chosen, example_of_row, premises, hypotheses, forward, reverse,
                                  forward_probs, reverse_probs, fallback_rows, engine_rows))
            lists["statement_issues"] = _statement_issues(chosen, example_of_row, questions, gold_rows,
                                                          predictions, premises, hypotheses, issue_rows)
            # Why the answer scored as it did, against the gold that counted.
            lists["relation"] = diagnose_relation(*chosen_inputs())
        return lists

    def _statements(self, gold_rows, prediction_rows, questions, example_of_row, with_issues):
        """(premises, hypotheses, per row whether a rule statement stood in for a refused one, per
        row which engines wrote its two statements, per row the two statements' issue codes when
        the engine checked them, else None)."""
        if questions is None:
            return (list(gold_rows), list(prediction_rows), [False] * len(gold_rows), [NONE] * len(gold_rows),
                    None)
        question_rows = [questions[i] for i in example_of_row]
        made = self.statements.make(question_rows + question_rows, gold_rows + prediction_rows, check_input=False,
                                    with_issues=with_issues)
        n_rows = len(gold_rows)
        fallback, engines = made.fallback, made.engines
        issue_rows = None if made.issues is None else list(zip(made.issues[:n_rows], made.issues[n_rows:]))
        return (made.statements[:n_rows], made.statements[n_rows:],
                [a or b for a, b in zip(fallback[:n_rows], fallback[n_rows:])],
                [statement_engines(gold, prediction) for gold, prediction in zip(engines[:n_rows], engines[n_rows:])],
                issue_rows)

    def prefetch(self, predictions: Sequence[str], golds: Sequence[Sequence[str]], questions: Sequence[str],
                 with_issues: bool = True) -> None:
        """Start writing the statements of examples that ``score`` will get next (their texts
        checked, golds as lists), so that an engine with workers makes them while the NLI model
        scores what came before (``capqa.jobs.chunks``). Blank predictions make no statement."""
        if self.statements is None:
            return
        question_rows, answers = [], []
        for prediction, example_golds, question in zip(predictions, golds, questions):
            texts = list(example_golds) + ([] if is_blank(prediction) else [prediction])
            question_rows.extend([question] * len(texts))
            answers.extend(texts)
        self.statements.prefetch(question_rows, answers, with_issues)

    def _warn_if_calibration_is_elsewhere(self, return_details):
        """Once per scorer: CAP+, the relation and the verdict thresholds were fitted on one NLI
        model's probabilities; on another model they run, but mean less."""
        if self._calibration_checked or not (return_details or self.variant == "plus" or self.verdict is not None):
            return
        self._calibration_checked = True
        identity = self.nli.identity
        if not identity.is_fitted_model:
            logger.warning("CAP+, the relation and the verdict thresholds were fitted on the probabilities of %s@%s; "
                           "this scorer's NLI model is %s@%s, so they run on probabilities they were not fitted on "
                           "(refit them with `python -m capqa fit` and `fit-verdicts`, or ignore this for a copy "
                           "of that model)", *FITTED_NLI_MODEL, identity.model, identity.revision)


class _ChosenInputs:
    """(probabilities_forward, probabilities_reverse, bleu, rouge_l) of each example's chosen
    gold, for CAP+'s relation and the graded credit; BLEU/ROUGE-L computed on first use."""

    def __init__(self, forward, reverse, overlap_rows, chosen, chosen_golds, predictions):
        self._probabilities = (forward, reverse)
        self._overlap = None if overlap_rows is None else tuple(values[chosen] for values in overlap_rows)
        self._golds, self._predictions = chosen_golds, predictions

    def __call__(self) -> tuple:
        if self._overlap is None:
            self._overlap = tuple(answer_overlap(self._golds, self._predictions))
        return (*self._probabilities, *self._overlap)


def statement_engines(gold: str, prediction: str) -> str:
    """Which engine wrote an example's two statements: one name when it wrote both, else
    "gold:NAME prediction:NAME"."""
    return gold if gold == prediction else f"gold:{gold} prediction:{prediction}"


def _details(chosen, example_of_row, premises, hypotheses, forward, reverse, forward_probs, reverse_probs,
             fallback_rows, engine_rows):
    first_row = np.searchsorted(example_of_row, np.arange(len(chosen)))
    details = {
        "premises": [premises[row] for row in chosen],
        "hypotheses": [hypotheses[row] for row in chosen],
        "best_reference": (chosen - first_row).tolist(),
        "forward": forward[chosen].tolist(),
        "reverse": reverse[chosen].tolist(),
        "statement_fallback": [fallback_rows[row] for row in chosen],
        "statement_engine": [engine_rows[row] for row in chosen],
    }
    for direction, probs in zip(_DIRECTIONS, (forward_probs, reverse_probs)):
        for column, label in enumerate(NLI_LABELS):
            details[f"p_{label}_{direction}"] = probs[chosen, column].tolist()
    return details


def _statement_issues(chosen, example_of_row, questions, gold_rows, predictions, premises, hypotheses, issue_rows):
    """Per example, the issues of the two statements of its chosen gold ("gold:CODE",
    "prediction:CODE"): as the statement engine found them when it wrote them, or all checked
    here in one batch (one batch for the parser); none without questions, where the answers are
    compared as they are."""
    if questions is None:
        return [[] for _ in chosen]
    if issue_rows is not None:
        found = [issue_rows[row] for row in chosen]
    else:
        rows = [(questions[example_of_row[row]], gold_rows[row], premises[row], predictions[example],
                 hypotheses[row]) for example, row in enumerate(chosen)]
        codes = statements_issues([row[0] for row in rows] * 2, [row[1] for row in rows] + [row[3] for row in rows],
                                  [row[2] for row in rows] + [row[4] for row in rows])
        found = list(zip(codes[:len(rows)], codes[len(rows):]))
    return [[f"gold:{code}" for code in gold] + [f"prediction:{code}" for code in prediction]
            for gold, prediction in found]


def check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise ValueError(f"`variant` must be one of {', '.join(map(repr, VARIANTS))}, got {variant!r}")
    return variant


def _best_row_per_example(row_scores, example_of_row, n_examples):
    """Index of the highest-scoring row of each example (the first on ties: stable)."""
    # Sort by example, then by descending score; the first row of each example is its best.
    order = np.lexsort((-row_scores, example_of_row))
    first = np.searchsorted(example_of_row[order], np.arange(n_examples))
    return order[first]
