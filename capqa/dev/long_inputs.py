"""Peak memory and time of scoring one very long pair, each measurement in its own process.

``measure(words, nli_model=DIR)`` scores one pair of N words per side with ``NLIScorer``
(``statement_model=DIR``: makes one statement from a question and an answer of N words each) and
returns words, tokens kept, seconds, and the peak resident memory of the process.
``measure_in_subprocess`` runs it in a fresh interpreter (``benchmarks/long_input_probe.py``, which
prints it as one JSON line), so that the peak belongs to that size.
Used by ``benchmarks/bench_long_inputs.py`` and ``tests/engine/test_long_inputs.py``.
"""

import json
import resource
import subprocess
import sys
import time
from typing import Optional

from capqa.common.paths import REPO_ROOT
from capqa.statements.generator import StatementGenerator

# The script that runs one measurement in its own process and prints it (benchmarks/ may print).
PROBE_SCRIPT = REPO_ROOT / "benchmarks" / "long_input_probe.py"


def long_text(words: int, salt: str = "") -> str:
    """``words`` distinct-ish words (97 different ones), so that tokenizers do real work."""
    return " ".join(f"word{salt}{index % 97}" for index in range(words))


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports kB


def _score_pair(nli_model: str, words: int, max_length: int) -> dict:
    # Deferred: torch is heavy, imported on first use.
    from capqa.engine.nli import NLIScorer

    scorer = NLIScorer(nli_model, device="cpu", max_length=max_length, show_progress=False)
    premise, hypothesis = long_text(words), long_text(words, "x") + " end"
    loaded_mb = _peak_rss_mb()
    start = time.perf_counter()
    probabilities = scorer.predict([premise], [hypothesis])
    seconds = time.perf_counter() - start
    features, _ = scorer.plan([(premise, hypothesis)])
    return {"seconds": seconds, "loaded_rss_mb": loaded_mb, "tokens": len(features[0]["input_ids"]),
            "entailment": float(probabilities[0, 0])}


def _make_statement(statement_model: str, words: int) -> dict:

    generator = StatementGenerator(model=statement_model, device="cpu")
    loaded_mb = _peak_rss_mb()
    start = time.perf_counter()
    statement = generator.generate([long_text(words) + "?"], [long_text(words, "a")])[0]
    return {"seconds": time.perf_counter() - start, "loaded_rss_mb": loaded_mb,
            "statement_chars": len(statement)}


def measure(words: int, nli_model: Optional[str] = None, statement_model: Optional[str] = None,
            max_length: int = 512) -> dict:
    """One measurement in this process: of ``nli_model`` (one pair of ``words`` words per side) or,
    without it, of ``statement_model`` (one statement); with the process's peak RSS after it."""
    if (nli_model is None) == (statement_model is None):
        raise ValueError("give exactly one of nli_model and statement_model")
    if nli_model:
        result = _score_pair(nli_model, words, max_length)
    else:
        result = _make_statement(statement_model, words)
    return {"words": words, **result, "peak_rss_mb": _peak_rss_mb()}


def measure_in_subprocess(words: int, nli_model: Optional[str] = None, statement_model: Optional[str] = None,
                          max_length: int = 512, timeout: float = 1800) -> dict:
    """Run one measurement in a fresh interpreter and return its JSON result."""
    command = [sys.executable, str(PROBE_SCRIPT), "--words", str(words), "--max-length", str(max_length)]
    command += ["--nli-model", nli_model] if nli_model else ["--statement-model", statement_model]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if finished.returncode != 0:
        raise RuntimeError(f"measurement at {words} words failed (exit {finished.returncode}):\n{finished.stderr[-2000:]}")
    return json.loads(finished.stdout.strip().splitlines()[-1])
