"""What every harness adapter shares: one scorer per process and options, and one sample's record.

A harness calls its metric once per generated answer; loading the NLI and statement models for
each call would dominate the run, so scorers are kept per distinct set of metric options.
"""

import json
import logging
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from capqa.json_text import loads_json
from capqa.metric_options import MetricOptions
from capqa.quoting import quote
from capqa.scorer import CAPScorer

logger = logging.getLogger(__name__)

OPTIONS_ENVIRONMENT_VARIABLE = "CAP_HARNESS_OPTIONS"
_SCORERS: Dict[str, tuple] = {}


def _options_key(options: dict) -> str:
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
    key = _options_key(options)
    if key not in _SCORERS:
        checked = MetricOptions(**options)
        logger.info("loading the CAP scorer for the harness (NLI model %s)", checked.nli_model)
        _SCORERS[key] = (checked, checked.build_scorer())
    return _SCORERS[key]


def options_hashcode(options: MetricOptions) -> Optional[str]:
    """The options' hashcode when ``MetricOptions`` offers one (``hashcode()``), else None."""
    hashcode = getattr(options, "hashcode", None)
    return hashcode() if callable(hashcode) else None


def gold_list(golds: Union[str, Sequence[str]]) -> List[str]:
    """A harness's gold field as a list of non-blank answers."""
    golds = [golds] if isinstance(golds, str) else list(golds)
    kept = [str(gold) for gold in golds if str(gold).strip()]
    if not kept:
        raise ValueError(f"a sample has no gold answer: got {golds!r}")
    return kept


def score_samples(predictions: Sequence[str], golds: Sequence[Union[str, Sequence[str]]],
                  questions: Optional[Sequence[str]] = None, **options: Any) -> List[dict]:
    """One record per sample: ``cap`` (and ``cap_plus``), ``correct`` (with a verdict) and
    ``cap_hashcode`` (when the options have one).

    A blank generation (a model that stopped at once) has no statement to compare: it scores 0
    and is incorrect, without a model call.
    """
    if len(golds) != len(predictions) or (questions is not None and len(questions) != len(predictions)):
        raise ValueError(f"got {len(predictions)} predictions, {len(golds)} gold lists and "
                         f"{'no' if questions is None else len(questions)} questions: one of each per sample")
    gold_lists = [gold_list(gold) for gold in golds]  # checked before any model loads
    checked, scorer = shared_scorer(**options)
    records = [_blank_record(checked, scorer) for _ in predictions]
    answered = [i for i, prediction in enumerate(predictions) if str(prediction).strip()]
    if answered:
        result = scorer.score([str(predictions[i]).strip() for i in answered], [gold_lists[i] for i in answered],
                              [questions[i] for i in answered] if questions is not None else None)
        for position, i in enumerate(answered):
            records[i]["cap"] = result["scores"][position]
            for key in ("cap_plus", "correct", "credit"):
                if key in result:
                    records[i][key] = result[key][position]
    hashcode = options_hashcode(checked)
    if hashcode is not None:
        for record in records:
            record["cap_hashcode"] = hashcode
    return records


def _blank_record(options: MetricOptions, scorer) -> dict:
    record = {"cap": 0.0}
    if options.variant == "plus":
        record["cap_plus"] = 0.0
    if scorer.verdict is not None:
        record["correct"] = False
        if scorer.verdict.graded:
            record["credit"] = 0.0
    return record
