"""capqa: the CAP answer-correctness metric (Context-Aware Precision) for open QA.

Shared by the ``evaluate`` modules (``cap_metric.py``, ``monotonicity.py``), the Gradio Space
(``app.py``) and the command line (``python -m capqa``).
"""

__version__ = "0.1.0"
