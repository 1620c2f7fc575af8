"""Peak memory and time of scoring one very long pair, each measurement in its own process.

``python -m capqa.dev.long_inputs --nli-model DIR --words N`` scores one pair of N words per side
with ``NLIScorer`` (``--part generator --statement-model DIR``: makes one statement from a question
and an answer of N words each) and prints one JSON line: words, tokens kept, seconds, and the peak
resident memory of the process. A fresh process per size makes the peak belong to that size.
Used by ``benchmarks/bench_long_inputs.py`` and ``tests/test_long_inputs.py``.
"""

import argparse
import json
import resource
import subprocess
import sys
import time


def long_text(words: int, salt: str = "") -> str:
    """``words`` distinct-ish words (97 different ones), so that tokenizers do real work."""
    return " ".join(f"word{salt}{index % 97}" for index in range(words))


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports kB


def _score_pair(nli_model: str, words: int, max_length: int) -> dict:
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
    from capqa.statements.generator import StatementGenerator

    generator = StatementGenerator(model=statement_model, device="cpu")
    loaded_mb = _peak_rss_mb()
    start = time.perf_counter()
    statement = generator.generate([long_text(words) + "?"], [long_text(words, "a")])[0]
    return {"seconds": time.perf_counter() - start, "loaded_rss_mb": loaded_mb,
            "statement_chars": len(statement)}


def measure_in_subprocess(words: int, nli_model: str | None = None, statement_model: str | None = None,
                          max_length: int = 512, timeout: float = 1800) -> dict:
    """Run one measurement in a fresh interpreter and return its JSON result."""
    command = [sys.executable, "-m", "capqa.dev.long_inputs", "--words", str(words), "--max-length", str(max_length)]
    command += ["--nli-model", nli_model] if nli_model else ["--statement-model", statement_model]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if finished.returncode != 0:
        raise RuntimeError(f"measurement at {words} words failed (exit {finished.returncode}):\n{finished.stderr[-2000:]}")
    return json.loads(finished.stdout.strip().splitlines()[-1])


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m capqa.dev.long_inputs", description=__doc__)
    parser.add_argument("--words", type=int, required=True, help="words per side")
    parser.add_argument("--nli-model", help="NLI model folder: score one pair")
    parser.add_argument("--statement-model", help="seq2seq folder: make one statement")
    parser.add_argument("--max-length", type=int, default=512)
    args = parser.parse_args(argv)
    if (args.nli_model is None) == (args.statement_model is None):
        parser.error("give exactly one of --nli-model and --statement-model")
    if args.nli_model:
        result = _score_pair(args.nli_model, args.words, args.max_length)
    else:
        result = _make_statement(args.statement_model, args.words)
    print(json.dumps({"words": args.words, **result, "peak_rss_mb": _peak_rss_mb()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
