"""Verdicts in the Space: the verdict of one scored answer, and the test-split verdict table.

Both come from ``capqa.verdicts`` (the policies, their validation-chosen thresholds and the
binary report). This module is the Space's only contact with it: a build without that package
shows "not available" here instead of failing, and everything else keeps working.
"""

import logging
from pathlib import Path
from typing import Any, Dict, Optional

from capqa.space.text import escape_markdown

LOGGER = logging.getLogger(__name__)

UNAVAILABLE = ("The verdict table needs `capqa.verdicts` (the verdict policies, their thresholds "
               "and the test-split report), which this build of the Space does not include.")


def verdict_line(details: Dict[str, Any], policy: Optional[str]) -> Optional[str]:
    """One Markdown line with the answer's verdict, or None when the scorer gave none."""
    if policy is None or "correct" not in details:
        return None
    verdict = "**correct**" if details["correct"] else "**incorrect**"
    credit = details.get("credit")
    credit_text = f", expected credit {credit:.3f}" if isinstance(credit, float) else ""
    return f"- **Verdict** (`{policy}` policy): {verdict}{credit_text}"


def _benchmark_verdict_markdown():
    """``capqa.verdicts.benchmark.benchmark_verdict_markdown``, or None in a build without it."""
    try:
        from capqa.verdicts.benchmark import benchmark_verdict_markdown
    except ImportError:
        return None
    return benchmark_verdict_markdown


def verdict_view(path: str) -> str:
    """The test-split verdict table (Markdown) of the published scores at ``path``.

    Thresholds are chosen on the validation split, per policy and metric, by ``capqa.verdicts``
    (which caches the table: the published scores do not change while the app runs).
    """
    table = _benchmark_verdict_markdown()
    return UNAVAILABLE if table is None else table(str(path))


def verdict_view_or_note(path: str) -> str:
    """``verdict_view``, with any failure of the table turned into a note (the tab stays usable)."""
    try:
        return verdict_view(str(path))
    except OSError:  # its message would show the server's path
        LOGGER.exception("the verdict table could not be computed")
        return (f"The verdict table could not be computed: `{escape_markdown(Path(path).name)}` could not "
                "be read. Set `CAP_BENCHMARK_SCORES` to the CSV of the paper's per-row scores.")
    except (ValueError, KeyError) as error:
        LOGGER.exception("the verdict table could not be computed")
        return f"The verdict table could not be computed: {escape_markdown(error)}"
