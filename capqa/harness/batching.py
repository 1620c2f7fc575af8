"""Scoring for the async harnesses (inspect-ai, RAGAS, DeepEval): off the event loop, in batches.

These frameworks call a metric once per sample, as a coroutine, with many samples in flight at
once. CAP is CPU/GPU-bound, so a call must not run on the event loop (it would stall every other
sample, model calls included), and one model call per sample wastes the batching the NLI engine
does. ``ScoringQueue`` does both: each request joins the queue, then waits in a worker thread for
the scoring lock (``shared.SCORING_LOCK``); whichever request takes the lock scores every request
queued at that moment in one ``score_samples`` call, and the others find their records done.
Under no concurrency a batch is one sample, as before; the scores do not depend on how requests
were grouped (up to float rounding, as for any batch size).
"""

import asyncio
import logging
import threading
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Union

from capqa.common.quoting import bounded_message
from capqa.common.validation import check_text
from capqa.harness.shared import SCORING_LOCK, generation_text, gold_list, options_key, score_samples, shared_scorer

logger = logging.getLogger(__name__)


class _Request:
    __slots__ = ("prediction", "golds", "question", "record", "error")

    def __init__(self, prediction: str, golds: List[str], question: Optional[str]) -> None:
        self.prediction, self.golds, self.question = prediction, golds, question
        self.record: Optional[dict] = None
        self.error: Optional[BaseException] = None


ThreadRunner = Callable[..., Awaitable[Any]]
_QUEUES: Dict[str, "ScoringQueue"] = {}
_QUEUES_LOCK = threading.Lock()


def shared_queue(**options: Any) -> "ScoringQueue":
    """The one queue of these options in this process: DeepEval, say, copies its metric for every
    test case, and the copies' samples must meet in the same queue to be batched together."""
    key = options_key(options)
    with _QUEUES_LOCK:
        if key not in _QUEUES:
            _QUEUES[key] = ScoringQueue(**options)
        return _QUEUES[key]


class ScoringQueue:
    """Per-sample async scoring with the shared scorer of ``options`` (``shared.shared_scorer``);
    the adapters take theirs from ``shared_queue``."""

    def __init__(self, **options: Any) -> None:
        self.options = options
        self._pending: List[_Request] = []
        self._pending_lock = threading.Lock()

    async def score(self, prediction: str, golds: Union[str, Sequence[str]], question: Optional[str] = None,
                    run_in_thread: ThreadRunner = asyncio.to_thread) -> dict:
        """The ``score_samples`` record (with the relation) of one sample.

        run_in_thread: how the framework's event loop awaits a function run in a worker thread:
        ``asyncio.to_thread`` (the default), or ``anyio.to_thread.run_sync`` where the loop may be trio's.
        """
        # Checked here, so that one bad sample fails alone and not the batch it would join.
        request = _Request(generation_text(prediction, "answer"), gold_list(golds),
                           None if question is None else check_text(question, "question"))
        with self._pending_lock:
            self._pending.append(request)
        await run_in_thread(self._score_until_done, request)
        if request.error is not None:
            raise request.error
        return request.record

    def _score_until_done(self, request: _Request) -> None:
        with SCORING_LOCK:
            if request.record is not None or request.error is not None:
                return  # scored in the batch of a request that took the lock first
            with self._pending_lock:
                batch, self._pending = self._pending, []
            logger.debug("scoring a batch of %d queued samples", len(batch))
            # The scorer takes questions for all examples or for none.
            for group in ([r for r in batch if r.question is not None], [r for r in batch if r.question is None]):
                if group:
                    self._score_group(group)

    def _score_group(self, group: List[_Request]) -> None:
        questions = [r.question for r in group] if group[0].question is not None else None
        try:
            shared_scorer(**self.options)  # a scorer that cannot be built fails every sample, with one load
        except Exception as error:
            for r in group:
                r.error = error
            return
        try:
            records = score_samples([r.prediction for r in group], [r.golds for r in group], questions,
                                    relations=True, **self.options)
        except Exception as error:
            if len(group) == 1:
                group[0].error = error
                return
            # One sample's error must not fail the others: each is scored again on its own, and
            # only those that fail alone fail (the scores do not depend on the grouping).
            logger.warning("a batch of %d queued samples failed (%s: %s); scoring each alone", len(group),
                           type(error).__name__, bounded_message(str(error), 300))
            for r in group:
                self._score_group([r])
            return
        for r, record in zip(group, records):
            r.record = record
