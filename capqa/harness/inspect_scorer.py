"""CAP in inspect-ai: a ``@scorer`` whose metrics are mean CAP, its standard error and the accuracy
of the verdict.

Each sample's ``Score`` has the value ``{"cap": CAP, "correct": CORRECT or INCORRECT}`` (with a
verdict; ``cap_plus`` with ``variant="plus"``, ``credit`` with partial credit), the relation's
one-sentence explanation as ``explanation``, the answer scored as ``answer``, and in ``metadata``
the result's ``hashcode`` and the ``relation`` class. Every string of ``target.target`` is a gold
answer (the best one counts). The scorer is shared per process and options
(``capqa.harness.shared``), and scoring runs in a worker thread, with the samples that finish
generating at the same time scored together (``capqa.harness.batching``): inspect calls a scorer
once per sample and has no batch-scoring interface.
"""

from typing import Any, Optional

from capqa.common.validation import is_blank
from capqa.harness.batching import shared_queue
from capqa.harness.shared import needs_extra, shared_scorer

# Where the question for the statement converter comes from: the sample's input text ("input"),
# a key of the sample's metadata, or None (the answer and the targets already are statements).
INPUT = "input"

try:
    import anyio.to_thread
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, mean, scorer, stderr
    from inspect_ai.solver import TaskState
except ImportError as error:  # capqa imports without the extra (shared.needs_extra)
    _IMPORT_ERROR: Optional[ImportError] = error
else:
    _IMPORT_ERROR = None


def _question(state: "TaskState", question_field: Optional[str]) -> Optional[str]:
    if question_field is None:
        return None
    if question_field == INPUT:
        return state.input_text
    metadata = state.metadata or {}
    if question_field not in metadata:
        raise KeyError(f"the sample has no metadata[{question_field!r}] (keys: {sorted(metadata)}): "
                       f"pass question_field={INPUT!r} (the sample's input) or None (statements)")
    return str(metadata[question_field])


if _IMPORT_ERROR is None:
    # A key that no score value carries (cap_plus without variant="plus", say) gets no metric.
    _MEAN_AND_STDERR = [mean(), stderr()]
    _METRICS = {"cap": _MEAN_AND_STDERR, "cap_plus": _MEAN_AND_STDERR, "credit": _MEAN_AND_STDERR,
                "correct": [accuracy(), stderr()]}

    @scorer(metrics=_METRICS, name="cap")
    def cap_scorer(question_field: Optional[str] = INPUT, verdict: Any = "strict", **options: Any) -> Scorer:
        """CAP of the model's completion against every target.

        question_field: 'input' (the sample's input text is the question), a key of the sample's
        metadata holding the question, or None (the texts are statements); verdict: 'strict'
        (default), 'lenient', 'graded', a threshold or {class: credit}, or None for CAP alone;
        options: the other CAP metric options, merged over ``CAP_HARNESS_OPTIONS``.
        """
        queue = shared_queue(verdict=verdict, **options)
        # Loaded at task creation: a bad option or a missing model fails before any generation.
        shared_scorer(verdict=verdict, **options)

        async def score(state: TaskState, target: Target) -> Score:
            answer = state.output.completion
            record = await queue.score(answer, list(target.target), _question(state, question_field),
                                       run_in_thread=anyio.to_thread.run_sync)
            value = {key: record[key] for key in ("cap", "cap_plus", "credit") if key in record}
            if "correct" in record:
                value["correct"] = CORRECT if record["correct"] else INCORRECT
            return Score(value=value, answer=answer, explanation=record["explanation"],
                         reason="no_response" if is_blank(answer) else None,
                         metadata={"hashcode": record["cap_hashcode"], "relation": record["relation"]})

        return score
else:
    cap_scorer = needs_extra("inspect-ai", "inspect", _IMPORT_ERROR)
