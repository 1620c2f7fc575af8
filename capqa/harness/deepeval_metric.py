"""CAP in DeepEval: a ``BaseMetric`` of an ``LLMTestCase``'s ``input`` (the question),
``actual_output`` (the answer) and ``expected_output`` (the gold answer), with no LLM judge and no
API key; usable in ``evaluate()`` and in ``assert_test`` (pytest / ``deepeval test run``).

After ``measure`` (or the async ``a_measure``): ``score`` is CAP (CAP+ with ``variant="plus"``),
``success`` is the CAP verdict (score >= ``threshold``, compared as the metric does), ``reason``
is the relation's one-sentence explanation, ``relation`` its class, and ``evaluation_model`` the
scorer's hashcode (what produced the score; DeepEval reports it beside each score). The default
``threshold`` is the shipped strict verdict's; ``threshold=x`` or ``verdict="lenient"`` (any CAP
verdict) choose another. The scorer is shared per process and options (``capqa.harness.shared``);
``a_measure`` scores off the event loop, the test cases in flight together
(``capqa.harness.batching``).
"""

from typing import Any, Dict, Mapping, Optional

from capqa.harness.batching import shared_queue
from capqa.harness.shared import generation_text, gold_list, harness_options, needs_extra, score_samples, shared_scorer
from capqa.verdicts.judge import resolve_verdict

DEFAULT_VERDICT = "strict"

try:
    from deepeval.metrics import BaseMetric
    from deepeval.metrics.utils import check_llm_test_case_params
    from deepeval.test_case import LLMTestCase, SingleTurnParams
except ImportError as error:  # capqa imports without the extra (shared.needs_extra)
    _IMPORT_ERROR: Optional[ImportError] = error
else:
    _IMPORT_ERROR = None


def verdict_of(threshold: Optional[float], verdict: Any, variant: str) -> Any:
    """The CAP verdict a threshold and a verdict name say; both only when they agree (DeepEval
    rebuilds a metric from its attributes for each test case, passing both)."""
    if threshold is None:
        return DEFAULT_VERDICT if verdict is None else verdict
    if verdict is not None and resolve_verdict(verdict, variant).threshold != threshold:
        raise ValueError(f"give `threshold` or `verdict`, not both: threshold={threshold!r} is not the "
                         f"threshold of verdict={verdict!r} ({resolve_verdict(verdict, variant).threshold})")
    return verdict if verdict is not None else threshold


if _IMPORT_ERROR is None:
    class CAPMetric(BaseMetric):
        """CAP as a DeepEval metric. threshold: success when CAP >= it (default: the shipped strict
        verdict's); verdict: a CAP verdict instead of a bare threshold ('strict', 'lenient',
        'graded', {class: credit}); questions: False when the texts already are statements;
        options: CAP metric options, merged over ``CAP_HARNESS_OPTIONS`` (keyword options may be
        given directly too: ``CAPMetric(device="cuda")``)."""

        _required_params = [SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT, SingleTurnParams.EXPECTED_OUTPUT]

        def __init__(self, threshold: Optional[float] = None, verdict: Any = None, questions: bool = True,
                     options: Optional[Mapping[str, Any]] = None, async_mode: bool = True,
                     include_reason: bool = True, verbose_mode: bool = False, **more_options: Any) -> None:
            options = {**(options or {}), **more_options}
            if "verdict" in options:
                raise ValueError("give the verdict as CAPMetric(verdict=...), not among the options")
            self.options: Dict[str, Any] = options
            self.questions, self.async_mode = questions, async_mode
            self.include_reason, self.verbose_mode = include_reason, verbose_mode
            # Kept resolved (never None): DeepEval's copy of the metric passes it back with the threshold.
            self.verdict = verdict_of(threshold, verdict, harness_options(**options).get("variant", "cap"))
            self._scoring = {"verdict": self.verdict, **options}
            _, scorer = shared_scorer(**self._scoring)
            self.threshold = scorer.verdict.threshold
            self._score_name = scorer.verdict.score  # "cap", or "cap_plus" with variant="plus"
            self._queue = shared_queue(**self._scoring)
            # What produced the scores, where DeepEval reports the judge (statements only with questions).
            self.evaluation_model = scorer.identity_for(questions).hashcode()
            self.relation: Optional[str] = None

        @property
        def __name__(self) -> str:
            return "CAP"

        def _inputs(self, test_case: "LLMTestCase") -> tuple:
            required = self._required_params if self.questions else self._required_params[1:]
            check_llm_test_case_params(test_case, required, None, None, self, None, test_case.multimodal)
            # Checked by the test case's own field names (a sample that fails fails alone).
            return (generation_text(test_case.actual_output, "actual_output"),
                    gold_list(test_case.expected_output, "expected_output"),
                    test_case.input if self.questions else None)

        def _record(self, record: dict) -> float:
            self.score = float(record[self._score_name])
            self.success = bool(record["correct"])
            self.relation = record["relation"]
            self.reason = record["explanation"] if self.include_reason else None
            self.error = None
            return self.score

        def measure(self, test_case: "LLMTestCase", *args: Any, **kwargs: Any) -> float:
            answer, gold, question = self._inputs(test_case)
            record = score_samples([answer], [gold], None if question is None else [question], relations=True,
                                   **self._scoring)[0]
            return self._record(record)

        async def a_measure(self, test_case: "LLMTestCase", *args: Any, **kwargs: Any) -> float:
            answer, gold, question = self._inputs(test_case)
            return self._record(await self._queue.score(answer, gold, question))

        def is_successful(self) -> bool:
            if self.error is not None or self.success is None:
                self.success = False
            return self.success
else:
    CAPMetric = needs_extra("deepeval", "deepeval", _IMPORT_ERROR)
