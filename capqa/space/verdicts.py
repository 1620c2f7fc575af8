"""Verdicts in the Space: the verdict of one scored answer, and the test-split verdict table.

Both come from ``capqa.verdicts`` (the policies, their validation-chosen thresholds and the
binary report). This module is the Space's only contact with it: a build without that package
shows "not available" here instead of failing, and everything else keeps working.
"""

import logging
from pathlib import Path
from typing import Any, Dict, Optional

from capqa.space.text import escape_markdown
from capqa.verdicts.benchmark import benchmark_verdict_markdown

LOGGER = logging.getLogger(__name__)

UNAVAILABLE = ("The verdict table needs `capqa.verdicts` (the verdict policies, their thresholds "
               "and the test-split report), which this build of the Space does not include.")


_SCORE_NAMES = {"cap": "CAP", "cap_plus": "CAP+"}


def verdict_line(details: Dict[str, Any], policy: Optional[str]) -> Optional[str]:
    """One Markdown line with the answer's verdict and what decided it (the score judged against
    its threshold), or None when the scorer gave none. Under partial credit the expected credit
    follows, said to be another number: a credit above one half beside "incorrect" is no contradiction."""
    if policy is None or "correct" not in details:
        return None
    verdict = "**correct**" if details["correct"] else "**incorrect**"
    judged = details.get("verdict") if isinstance(details.get("verdict"), dict) else {}
    score = details.get(judged.get("score"))
    decided = ""
    if isinstance(score, float) and isinstance(judged.get("threshold"), float):
        name = _SCORE_NAMES.get(judged["score"], judged["score"])
        decided = f": {name} {score:.4f} {'≥' if details['correct'] else '<'} {judged['threshold']:.4f}, its threshold"
    credit = details.get("credit")
    credit_text = (f"; expected credit {credit:.3f} (the policy's credits weighted by the relation's class "
                   f"probabilities)" if isinstance(credit, float) else "")
    return f"- **Verdict** (`{policy}` policy): {verdict}{decided}{credit_text}"


def verdict_view(path: str) -> str:
    """The test-split verdict table (Markdown) of the published scores at ``path``.

    Thresholds are chosen on the validation split, per policy and metric, by ``capqa.verdicts``
    (which caches the table: the published scores do not change while the app runs).
    """
    return benchmark_verdict_markdown(str(path))


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
