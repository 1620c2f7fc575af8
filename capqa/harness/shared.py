"""What every harness adapter shares: one scorer per process and options, and one sample's record.

A harness calls its metric once per generated answer; loading the NLI and statement models for
each call would dominate the run, so scorers are kept per distinct set of metric options.
"""

import collections.abc
import json
import logging
import os
import threading
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

from capqa.common.constants import HARNESS_OPTIONS_VARIABLE
from capqa.common.json_text import loads_json
from capqa.common.quoting import quote
from capqa.common.validation import check_example_golds, check_text, is_blank
from capqa.metric.options import MetricOptions
from capqa.metric.scorer import CAPScorer
from capqa.records.results import harness_records

logger = logging.getLogger(__name__)

OPTIONS_ENVIRONMENT_VARIABLE = HARNESS_OPTIONS_VARIABLE
_SCORERS: Dict[str, tuple] = {}
# One model call at a time per process: the async adapters score in worker threads, and a scorer
# (its models, its cache) is not made to be called from two threads at once. Re-entrant, so that a
# batch drained under it may call score_samples.
SCORING_LOCK = threading.RLock()


def needs_extra(framework: str, extra: str, error: ImportError) -> Callable[..., NoReturn]:
    """The stand-in for an adapter whose framework is not installed: capqa imports without the
    extra, and calling the adapter says what to install."""
    def missing(*args: Any, **kwargs: Any) -> NoReturn:
        raise ImportError(f"this adapter needs {framework}: pip install 'cap-eval[{extra}]'") from error

    return missing


def options_key(options: dict) -> str:
    # Options may hold a {class: credit} mapping: a JSON text is a stable, hashable key.
    return json.dumps(options, sort_keys=True, default=str)


def harness_options(**options: Any) -> dict:
    """The options in ``CAP_HARNESS_OPTIONS`` (a JSON object), overridden by those given.

    A task file fixes what belongs to the task (say the verdict); the environment chooses what
    belongs to the machine (the NLI model, the device) without editing the task.
    """
    text = os.environ.get(OPTIONS_ENVIRONMENT_VARIABLE, "").strip()
    try:
        from_environment = loads_json(text) if text else {}
    except json.JSONDecodeError as error:
        raise ValueError(f"`{OPTIONS_ENVIRONMENT_VARIABLE}` must be a JSON object of CAP metric options: {error}") from None
    if not isinstance(from_environment, dict):
        raise ValueError(f"`{OPTIONS_ENVIRONMENT_VARIABLE}` must be a JSON object, got {quote(text)}")
    return {**from_environment, **options}


def shared_scorer(**options: Any) -> Tuple[MetricOptions, CAPScorer]:
    """(MetricOptions, CAPScorer) for these options, built once per process."""
    options = harness_options(**options)
    key = options_key(options)
    if key not in _SCORERS:
        checked = MetricOptions(**options)
        logger.info("loading the CAP scorer for the harness (NLI model %s)", checked.nli_model)
        _SCORERS[key] = (checked, checked.build_scorer())
    return _SCORERS[key]


def gold_list(golds: Any, field: str = "gold answers") -> List[str]:
    """A harness's gold field (named ``field`` in messages) as a list of its non-blank answers,
    checked as the metric checks references: a string or a list of strings, nothing else (a
    SQuAD-style dict, bytes, None or a number would be scored as its text, or its keys)."""
    if isinstance(golds, collections.abc.Mapping):
        hint = " (SQuAD-style answers? give their 'text' list)" if "text" in golds else ""
        raise TypeError(f"`{field}` must be a string or a list of strings, got a dict{hint}: {quote(golds)}")
    try:
        checked = check_example_golds(golds, field, allow_blank=True)
    except TypeError as error:
        raise TypeError(f"{error} (a sample's gold answers are a string or a list of strings)") from None
    kept = [gold for gold in checked if not is_blank(gold)]
    if not kept:
        raise ValueError(f"a sample has no gold answer: `{field}` is {quote(golds)}, with no visible text")
    return kept


def generation_text(generation: Any, field: str = "generation") -> str:
    """A model's answer as the metric scores it: a string, or None for a model that gave none (a
    blank answer: CAP 0, incorrect). Anything else is refused by ``field``, never scored as its
    text ("None", "b'Sofia'")."""
    if generation is None:
        return ""
    return check_text(generation, field, allow_blank=True)


def score_samples(predictions: Sequence[str], golds: Sequence[Union[str, Sequence[str]]],
                  questions: Optional[Sequence[str]] = None, relations: bool = False,
                  **options: Any) -> List[dict]:
    """One record per sample: the harness fields of the result schema (``cap``, ``cap_plus``
    with variant "plus", ``correct`` and ``credit`` with a verdict; ``capqa.records.results``) and
    ``cap_hashcode``, the result's hashcode; with ``relations``, also ``relation`` (the most
    likely class against the gold that counted) and its one-sentence ``explanation``.

    A blank generation (a model that stopped at once) states nothing: the scorer gives it CAP 0,
    incorrect and the relation ``invalid``, without a model call, as everywhere.
    """
    if len(golds) != len(predictions) or (questions is not None and len(questions) != len(predictions)):
        raise ValueError(f"got {len(predictions)} predictions, {len(golds)} gold lists and "
                         f"{'no' if questions is None else len(questions)} questions: one of each per sample")
    # Checked before any model loads.
    gold_lists = [gold_list(gold, f"golds[{i}]") for i, gold in enumerate(golds)]
    answers = [generation_text(prediction, f"predictions[{i}]").strip() for i, prediction in enumerate(predictions)]
    _, scorer = shared_scorer(**options)
    with SCORING_LOCK:
        result = scorer.score(answers, gold_lists, questions, return_details=relations)
    records = harness_records(result, scorer.variant, scorer.verdict)
    if relations:
        for record, relation in zip(records, result["relation"]):
            record.update(relation=relation["label"], explanation=relation["explanation"])
    return records
