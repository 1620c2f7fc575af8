"""CAP in lm-evaluation-harness: a ``process_results`` function a task YAML names with ``!function``.

lm-eval passes each document and the model's generation to the task's ``process_results``; the
function made here scores the generation against the document's gold answers with CAP (one shared
scorer per process, ``capqa.harness.shared``) and returns ``cap``, ``correct`` (with a verdict)
and ``cap_hashcode`` (the result's hashcode): lm-eval writes these into every
logged sample and aggregates them per task (``mean`` of ``correct`` is the accuracy).

The example task ``lm_eval_tasks/cap_open_qa`` (Natural Questions open, gold answer lists) shows
the YAML; ``lm_eval_tasks_path()`` is the folder to give ``lm_eval --include_path``.
"""

from pathlib import Path
from typing import Any, Callable, Optional

from capqa.harness.shared import score_samples

TASKS_DIR = Path(__file__).resolve().parent / "lm_eval_tasks"


def lm_eval_tasks_path() -> str:
    """The folder of the example task configs, for ``lm_eval --include_path``."""
    return str(TASKS_DIR)


def make_process_results(question_field: Optional[str] = "question", answers_field: str = "answers",
                         **options: Any) -> Callable[[dict, list], dict]:
    """A ``process_results(doc, results)`` for a ``generate_until`` task.

    question_field: the document field holding the question (None: the texts are statements);
    answers_field: the field holding the gold answer or the list of gold answers;
    options: CAP metric options (``MetricOptions``), e.g. ``verdict="strict"``.
    """
    def process_results(doc: dict, results: list) -> dict:
        for field in (question_field, answers_field):
            if field and field not in doc:
                raise KeyError(f"the task's documents have no field {field!r} (fields: {sorted(doc)}); "
                               "pass question_field / answers_field to make_process_results")
        generation = results[0] if isinstance(results, (list, tuple)) else results
        questions = [doc[question_field]] if question_field else None
        return score_samples([generation], [doc[answers_field]], questions, **options)[0]

    return process_results


def single_value(values: list) -> Any:
    """Aggregation of a per-sample constant (the hashcode): the one value all share."""
    distinct = sorted(set(values))
    if len(distinct) != 1:
        raise ValueError(f"samples were scored with different CAP options: hashcodes {distinct}")
    return distinct[0]
