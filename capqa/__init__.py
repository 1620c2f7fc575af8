"""capqa: the CAP answer-correctness metric (Context-Aware Precision) for open QA.

Shared by the ``evaluate`` modules (``cap_metric.py``, ``monotonicity.py``), the Gradio Space
(``app.py``) and the command line (``python -m capqa``). The public API:

- ``CAPScorer``: CAP (and CAP+) of predictions against one or more gold answers per question.
- ``NLIScorer``: the NLI cross-encoder engine, P(entailment, neutral, contradiction) per pair.
- ``StatementGenerator``: (question, answer) -> declarative statement, by model or by rules.
- ``MetricOptions``: the metric's validated options; ``build_scorer()`` loads the models.
- ``rule_statement``: the rule-based statement for one (question, answer).

Everything else is internal. Names are imported on first use, so ``import capqa`` loads no
torch or transformers.
"""

import importlib

__version__ = "0.1.0"

_PUBLIC = {
    "CAPScorer": "capqa.metric.scorer",
    "NLIScorer": "capqa.engine.nli",
    "StatementGenerator": "capqa.statements.generator",
    "MetricOptions": "capqa.metric.options",
    "rule_statement": "capqa.statements.rules",
}
__all__ = [*_PUBLIC, "__version__"]


def __getattr__(name: str):
    if name in _PUBLIC:
        return getattr(importlib.import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'capqa' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(__all__)
