"""CAP in lighteval: a sample-level metric grouping (``cap``, ``correct``, ...) with corpus
aggregation (the mean: of ``correct`` it is the accuracy).

lighteval calls the metric once per sample with the ``Doc`` and the ``ModelResponse``; the scorer
is shared per process and options (``capqa.harness.shared``). The gold answers are the doc's golds
(``Doc.get_golds()``: every listed answer), the question is ``doc.specific["question"]`` (None:
the texts are statements). lighteval aggregates every metric into its suite average by summing, so
the result's hashcode (a string) cannot be a metric: it is written into each sample's
``doc.specific["cap_hashcode"]``, which lighteval's details files keep beside the metrics.

The example task ``lighteval_tasks/cap_open_qa.py`` (Natural Questions open) shows the use;
``lighteval_tasks_path()`` is the file to give ``--custom-tasks``.
"""

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import numpy as np

from capqa.common.quoting import quote
from capqa.harness.shared import gold_list, score_samples, shared_scorer
from capqa.records.results import harness_names

if TYPE_CHECKING:
    from lighteval.metrics.utils.metric_utils import SampleLevelMetricGrouping
    from lighteval.models.model_output import ModelResponse
    from lighteval.tasks.requests import Doc

TASK_FILE = Path(__file__).resolve().parent / "lighteval_tasks" / "cap_open_qa.py"


def lighteval_tasks_path() -> str:
    """The example custom-task file, for ``lighteval accelerate ... --custom-tasks``."""
    return str(TASK_FILE)


class CAPSampleScoring:
    """One sample's CAP record against every gold answer of the doc (lighteval's
    ``SampleLevelComputation`` interface; ``cap_metric`` mixes in lighteval's base class)."""

    def __init__(self, question_key: Optional[str] = "question", **options: Any) -> None:
        self.question_key = question_key
        self.options = options

    def compute(self, doc: "Doc", model_response: "ModelResponse", **kwargs: Any) -> dict:
        specific = doc.specific if doc.specific is not None else {}
        if self.question_key and self.question_key not in specific:
            raise KeyError(f"the task's docs have no specific[{self.question_key!r}] (the plain question): "
                           "set it in the prompt function, or pass question_key=None for statements")
        questions = [specific[self.question_key]] if self.question_key else None
        texts = model_response.final_text
        if not isinstance(texts, (list, tuple)) or not texts:
            raise ValueError(f"`model_response.final_text` must be a list of the model's generations, got "
                             f"{quote(texts)}: there is no answer to score")
        golds = gold_list(doc.get_golds(), "doc.get_golds()")
        record = score_samples([texts[0]], [golds], questions, **self.options)[0]
        hashcode = record.pop("cap_hashcode", None)
        if hashcode is not None and doc.specific is not None:
            doc.specific["cap_hashcode"] = hashcode
        return {name: float(value) for name, value in record.items()}


def metric_names(**options: Any) -> List[str]:
    """The per-sample values these options give: cap, cap_plus (variant plus), correct (a verdict),
    credit (partial credit)."""
    _, scorer = shared_scorer(**options)
    return harness_names(scorer.variant, scorer.verdict)


@lru_cache(maxsize=1)
def _lighteval_classes() -> tuple:
    # Deferred: lighteval, an optional extra; capqa imports without it, and says what to install.
    try:
        from lighteval.metrics.metrics_sample import SampleLevelComputation
        from lighteval.metrics.utils.metric_utils import SampleLevelMetricGrouping
        from lighteval.tasks.requests import SamplingMethod
    except ImportError as error:
        raise ImportError("the lighteval adapter needs lighteval: pip install 'cap-eval[lighteval]'") from error
    # lighteval accepts only subclasses of its own SampleLevelComputation.
    sample_score = type("CAPSampleScore", (CAPSampleScoring, SampleLevelComputation), {})
    return sample_score, SampleLevelMetricGrouping, SamplingMethod


def cap_metric(question_key: Optional[str] = "question", **options: Any) -> "SampleLevelMetricGrouping":
    """The lighteval metric (a ``SampleLevelMetricGrouping``): options are CAP metric options (e.g.
    ``verdict="strict"``), merged over the ``CAP_HARNESS_OPTIONS`` environment variable; every
    value is averaged over the corpus."""
    sample_score, metric_grouping, sampling_method = _lighteval_classes()
    names = metric_names(**options)
    return metric_grouping(
        metric_name=names, higher_is_better=dict.fromkeys(names, True), category=sampling_method.GENERATIVE,
        sample_level_fn=sample_score(question_key, **options), corpus_level_fn=dict.fromkeys(names, np.mean))
