"""Verdicts in the Space: the verdict of one scored answer, and the test-split verdict table.

Both come from ``capqa.verdicts`` (the policies, their validation-chosen thresholds and the
binary report). This module is the Space's only contact with it: a build without that package
shows "not available" here instead of failing, and everything else keeps working.
"""

import logging
from functools import lru_cache
from typing import Any, Dict, Optional

import pandas as pd

LOGGER = logging.getLogger(__name__)

# Benchmark column -> the name shown; CAP+ is added from the relation classifier when available.
VERDICT_METRICS = {"cap": "CAP", "cap_plus": "CAP+", "bleu": "BLEU", "rouge_l": "ROUGE-L",
                   "meteor": "METEOR", "bertscore": "BERTScore"}
VERDICT_POLICIES = ("strict", "lenient", "graded")
FIT_SPLIT, EVAL_SPLIT = "validation", "test"
UNAVAILABLE = ("The verdict table needs `capqa.verdicts` (the verdict policies and their thresholds), "
               "which this build of the Space does not include.")


def verdict_line(details: Dict[str, Any], policy: Optional[str]) -> Optional[str]:
    """One Markdown line with the answer's verdict, or None when the scorer gave none."""
    if policy is None or "correct" not in details:
        return None
    verdict = "**correct**" if details["correct"] else "**incorrect**"
    credit = details.get("credit")
    credit_text = f", expected credit {credit:.3f}" if isinstance(credit, float) else ""
    return f"- **Verdict** (`{policy}` policy): {verdict}{credit_text}"


def _verdict_package():
    """(policies, verdict_table, add_cap_plus or None), or None without ``capqa.verdicts``."""
    try:
        from capqa.verdicts.policies import POLICIES
        from capqa.verdicts.report import verdict_table
    except ImportError:
        return None
    try:
        from capqa.verdicts.thresholds import add_cap_plus
    except ImportError:
        add_cap_plus = None
    return POLICIES, verdict_table, add_cap_plus


@lru_cache(maxsize=2)
def verdict_view(path: str) -> tuple:
    """(Markdown note, table or None) of the test-split verdicts, thresholds chosen on validation.

    Point estimates only: the bootstrap intervals are in the docs, computing them here would
    keep a visitor waiting for minutes.
    """
    from capqa.space.benchmark import load_benchmark_scores

    package = _verdict_package()
    if package is None:
        return UNAVAILABLE, None
    policies, verdict_table, add_cap_plus = package
    benchmark = load_benchmark_scores(path)
    if add_cap_plus is not None:
        benchmark = add_cap_plus(benchmark.copy())
    columns = [column for column in VERDICT_METRICS if column in benchmark.columns]
    fit = benchmark[benchmark["split"] == FIT_SPLIT]
    evaluated = benchmark[benchmark["split"] == EVAL_SPLIT]
    records = verdict_table({column: fit[column].to_numpy() for column in columns}, fit["label"].to_numpy(),
                            {column: evaluated[column].to_numpy() for column in columns},
                            evaluated["label"].to_numpy(),
                            {name: policies[name] for name in VERDICT_POLICIES if name in policies},
                            n_resamples=0, progress=False)
    table = pd.DataFrame([{
        "policy": record["policy"], "metric": VERDICT_METRICS[record["metric"]],
        "threshold": f"{record['threshold']:.3f}",
        "accuracy (%)": f"{100 * record['accuracy']:.2f}",
        "balanced accuracy (%)": f"{100 * record['balanced_accuracy']:.2f}",
        "F1": f"{record['f1']:.3f}", "Cohen's kappa": f"{record['kappa']:.3f}",
        "AUROC": f"{record['auroc']:.3f}",
    } for record in records])
    note = (f"**Verdicts on the test split** ({len(evaluated):,} rows): each metric's threshold is "
            f"chosen on the {FIT_SPLIT} split, then accepted/rejected answers are compared with the "
            "policy's correct classes (strict: exact, equivalent, alternative_correct; lenient: also "
            "overinclusive_valid; graded: severity / 6, correct from one half). Point estimates; the "
            "bootstrap intervals are in the docs.")
    return note, table


def verdict_view_or_note(path: str) -> tuple:
    """``verdict_view``, with any failure of the table turned into a note (the tab stays usable)."""
    try:
        return verdict_view(str(path))
    except (FileNotFoundError, ValueError, KeyError) as error:
        LOGGER.exception("the verdict table could not be computed")
        return f"The verdict table could not be computed: {error}", None
