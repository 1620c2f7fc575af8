"""CAP in RAGAS (0.4.x): a single-turn metric of ``user_input`` (the question), ``response`` (the
answer) and ``reference`` (the gold answer), with no LLM, no embeddings and no API key.

``ragas.evaluate(dataset, metrics=[CAPMetric()])`` writes CAP per row in the ``cap`` column. The
relation, the reason of the score, is where RAGAS keeps what a metric found on the way: the row's
trace, ``result.traces[row]["cap"]["cap_relation"]["output"]`` (``reason``, ``relation``,
``hashcode``, and ``correct`` with a verdict). Called directly (``await metric.ascore(...)``, the
collections-style interface), the metric returns a ``MetricResult`` whose ``reason`` is the
relation's explanation; ``abatch_score`` scores a list of rows in one batch, and there the reference
may be a list of gold answers (the best one counts). The scorer is shared per process and options
(``capqa.harness.shared``); scoring runs off the event loop, the rows in flight together
(``capqa.harness.batching``).
"""

import asyncio
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from capqa.harness.batching import shared_queue
from capqa.harness.shared import generation_text, gold_list, needs_extra, score_samples, shared_scorer

RELATION_TRACE = "cap_relation"

try:
    from ragas.callbacks import ChainType, new_group
    from ragas.dataset_schema import SingleTurnSample
    from ragas.metrics.base import MetricType, SingleTurnMetric
    from ragas.metrics.result import MetricResult
    from ragas.run_config import RunConfig
except ImportError as error:  # capqa imports without the extra (shared.needs_extra)
    _IMPORT_ERROR: Optional[ImportError] = error
else:
    _IMPORT_ERROR = None


def _trace_output(record: dict) -> dict:
    output = {"reason": record["explanation"], "relation": record["relation"], "hashcode": record.get("cap_hashcode")}
    return {**output, **{key: record[key] for key in ("cap_plus", "correct", "credit") if key in record}}


def _text(value: Any, column: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"`{column}` must be a string, got {type(value).__name__} {value!r}")
    return value


if _IMPORT_ERROR is None:
    @dataclass
    class CAPMetric(SingleTurnMetric):
        """CAP as a RAGAS metric. questions: False when the texts already are statements (then
        ``user_input`` is not needed); options: CAP metric options (``verdict="strict"`` adds
        ``correct`` to the trace), merged over ``CAP_HARNESS_OPTIONS``."""

        name: str = "cap"
        questions: bool = True
        options: Dict[str, Any] = field(default_factory=dict)
        _required_columns: Dict["MetricType", set] = field(
            default_factory=lambda: {MetricType.SINGLE_TURN: {"user_input", "response", "reference"}})

        def __post_init__(self) -> None:
            super().__post_init__()
            if not self.questions:
                self._required_columns = {MetricType.SINGLE_TURN: {"response", "reference"}}
            self._queue = shared_queue(**self.options)

        def init(self, run_config: "RunConfig") -> None:
            # evaluate() calls this before any row: the model loads here, not within a row's timeout.
            shared_scorer(**self.options)

        def _question(self, user_input: Optional[str]) -> Optional[str]:
            return _text(user_input, "user_input") if self.questions else None

        async def _single_turn_ascore(self, sample: "SingleTurnSample", callbacks: Any) -> float:
            record = await self._queue.score(generation_text(sample.response, "response"),
                                             gold_list(sample.reference, "reference"),
                                             self._question(sample.user_input))
            relation_run, _ = new_group(RELATION_TRACE, inputs={"data": {"response": sample.response}},
                                        callbacks=callbacks, metadata={"type": ChainType.RAGAS_PROMPT})
            relation_run.on_chain_end({"output": _trace_output(record)})
            return record["cap"]

        async def ascore(self, response: str, reference: Union[str, Sequence[str]],
                         user_input: Optional[str] = None) -> "MetricResult":
            """CAP of one row, with the relation's explanation as ``reason``."""
            record = await self._queue.score(generation_text(response, "response"), gold_list(reference, "reference"),
                                             self._question(user_input))
            return MetricResult(value=record["cap"], reason=record["explanation"])

        async def abatch_score(self, inputs: List[Mapping[str, Any]]) -> List["MetricResult"]:
            """CAP of every row (dicts of ``response``, ``reference`` and ``user_input``) in one batch."""
            questions = [self._question(row.get("user_input")) for row in inputs] if self.questions else None
            records = await asyncio.to_thread(
                score_samples, [generation_text(row.get("response"), f"inputs[{i}]['response']")
                                for i, row in enumerate(inputs)],
                [gold_list(row.get("reference"), f"inputs[{i}]['reference']") for i, row in enumerate(inputs)],
                questions, relations=True, **self.options)
            return [MetricResult(value=record["cap"], reason=record["explanation"]) for record in records]
else:
    CAPMetric = needs_extra("ragas", "ragas", _IMPORT_ERROR)
