"""CAP in lm-evaluation-harness: a ``process_results`` function a task YAML names with ``!function``.

lm-eval passes each document and the model's generation to the task's ``process_results``; the
function made here scores the generation against the document's gold answers with CAP (one shared
scorer per process, ``capqa.harness.shared``) and returns ``cap`` and ``correct`` (with a
verdict): lm-eval writes these into every logged sample and aggregates them per task (``mean`` of
``correct`` is the accuracy). Every key a ``process_results`` returns is a metric to lm-eval, a
row of its results table, so the hashcode is not one: it is logged once, among lm-eval's own
lines, when the first sample is scored (and again only if another hashcode appears).

The example task ``lm_eval_tasks/cap_open_qa`` (Natural Questions open, gold answer lists) shows
the YAML; ``lm_eval_tasks_path()`` is the folder to give ``lm_eval --include_path``.
"""

import logging
from pathlib import Path
from typing import Any, Callable, Optional, Set

from capqa.harness.shared import gold_list, score_samples
from capqa.records.results import HARNESS_HASHCODE

TASKS_DIR = Path(__file__).resolve().parent / "lm_eval_tasks"
# lm-eval shows the lines of its own logger only (``lm_eval``, which does not propagate, at INFO):
# the hashcode goes there, beside lm-eval's report of the run.
LM_EVAL_LOG = logging.getLogger("lm_eval.capqa")


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
    logged: Set[str] = set()

    def process_results(doc: dict, results: list) -> dict:
        for field in (question_field, answers_field):
            if field and field not in doc:
                raise KeyError(f"the task's documents have no field {field!r} (fields: {sorted(doc)}); "
                               "pass question_field / answers_field to make_process_results")
        questions = [doc[question_field]] if question_field else None
        golds = gold_list(doc[answers_field], f"doc[{answers_field!r}]")
        record = score_samples([first_generation(results)], [golds], questions, **options)[0]
        hashcode = record.pop(HARNESS_HASHCODE)
        if hashcode not in logged:
            logged.add(hashcode)
            LM_EVAL_LOG.info("CAP hashcode (what produced the cap scores; quote it with them): %s", hashcode)
        return record

    return process_results


def first_generation(results: Any) -> Any:
    """The generation of a ``generate_until`` request: lm-eval passes a list of one."""
    if isinstance(results, (list, tuple)):
        if not results:
            raise ValueError("`results` (the generations lm-eval passes to process_results) is an empty list: "
                             "a generate_until task gives one generation per document")
        return results[0]
    return results
