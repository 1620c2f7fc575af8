"""The paper's monotonicity diagnostic as a Hugging Face `evaluate` module.

Does a metric's score respect the ordering of the eight correctness classes of CAP-Correctness?
The logic lives in `capqa.monotonicity.measures` (pip install cap-eval); this file is the evaluate face.
"""

import datasets
import evaluate

import capqa.common.constants
import capqa.monotonicity.measures

_CITATION = capqa.common.constants.CITATION

_DESCRIPTION = """\
The monotonicity diagnostic of "How Correct Is Your Answer?" (EMNLP 2026 Findings) checks whether the
scores of a metric respect the ordering of correctness classes. Each class has a severity (the paper's:
exact, equivalent, alternative_correct 6; overinclusive_valid 5; partial 4; overinclusive_invalid 2;
invalid 1; contradictory 0). Two examples are comparable when their severities differ; the metric wins
the pair when the more correct example has the strictly higher score (ties never win). Pairwise accuracy
= wins / comparable pairs, counted exactly in O(n log n). Scores are rounded to 10 decimals first.
Per class pair (25 for the eight classes) it reports accuracy, AUC = (wins + ties / 2) / pairs, the
class means and whether they are in the wrong order (a mean violation). Spearman and Kendall tau-b
correlate scores with severity. Bootstrap intervals and paired tests: `python -m capqa diagnose`.
"""

_KWARGS_DESCRIPTION = """
Diagnoses how well scores respect the ordering of correctness classes.
Args:
    predictions (`list` of `float`): the metric's score for each example (finite numbers).
    references (`list` of `str`): each example's correctness class, e.g. "exact" or "partial". Any
        subset of the classes may occur; absent classes are skipped.
Returns:
    pairwise_accuracy (`float`): wins / comparable_pairs.
    wins, ties, losses, comparable_pairs (`int`): counts over all pairs with different severity.
    spearman, kendall (`float`): Spearman and Kendall tau-b between score and severity.
    mean_violations (`int`): class pairs whose less correct class has the higher mean score,
        out of class_pairs (`int`).
    mean_violation_rate (`float`), row_level_violation_rate (`float`, losses / comparable_pairs).
    class_means (`dict`): mean score per class.
    pairs (`list` of `dict`): per class pair: better, worse, hard_pair, n_better, n_worse, pairs,
        wins, ties, losses, accuracy, auc, violation_rate, mean_better, mean_worse, mean_violation.
Init options (evaluate.load("monotonicity.py", **options)):
    severity (`dict`, default the paper's): {class name: severity}, for other classes or orderings.
    hard_pairs (`list` of (better, worse) pairs): pairs flagged hard_pair; default the paper's
        four, those of them whose classes `severity` has.
Examples:
    >>> mono = evaluate.load("monotonicity.py")
    >>> result = mono.compute(predictions=[0.9, 0.8, 0.75, 0.1],
    ...                       references=["exact", "partial", "overinclusive_valid", "invalid"])
    >>> result["comparable_pairs"], result["wins"], result["losses"], result["mean_violations"]
    (6, 5, 1, 1)
    >>> round(result["pairwise_accuracy"], 4)
    0.8333

    Custom severities:
    >>> mono = evaluate.load("monotonicity.py", severity={"good": 2, "ok": 1, "bad": 0})
    >>> mono.compute(predictions=[0.8, 0.5, 0.5], references=["good", "ok", "bad"])["ties"]
    1
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Monotonicity(evaluate.Metric):
    def __init__(self, severity=None, hard_pairs=None, **kwargs):
        # Checked now, so a wrong option fails at load time rather than after scoring.
        self.severity = capqa.monotonicity.measures.check_severity(severity)
        self.hard_pairs = capqa.monotonicity.measures.check_hard_pairs(hard_pairs, self.severity)
        super().__init__(**kwargs)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            homepage="https://huggingface.co/spaces/" + capqa.common.constants.metric_space_id(),
            inputs_description=_KWARGS_DESCRIPTION,
            # float64: float32 would merge nearby scores and change the exact pair counts.
            features=datasets.Features({
                "predictions": datasets.Value("float64"),
                "references": datasets.Value("string"),
            }),
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Diagnose the given examples, or those added with ``add_batch`` when none are given."""
        if predictions is not None or references is not None:
            # Clear errors (lengths, NaN, unknown classes) before evaluate stores the batch.
            capqa.monotonicity.measures.check_inputs(predictions, references, self.severity, self.hard_pairs,
                                            scores_name="predictions", labels_name="references")
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _compute(self, predictions, references):
        return capqa.monotonicity.measures.monotonicity_report(predictions, references, self.severity,
                                                      self.hard_pairs)
