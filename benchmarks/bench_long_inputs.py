"""Benchmark: peak memory and time of scoring one very long pair, at several lengths per side.

Each size runs in a fresh process (``benchmarks/long_input_probe.py``), so each peak RSS is that size's
own. Since each side is cut to its share of ``max_length`` before the pair is built, both peak
RSS and time must stay flat from 100 to 100,000 words per side (before the fix: 0.7 / 1.1 / 2.6 GB
at 500 / 1,000 / 2,000 words, killed at 21 GB at 10,000). The model is a tiny DeBERTa-v2 built
offline (``capqa.dev.offline_models``), unless ``--nli-model`` names another folder.

    .venv/bin/python benchmarks/bench_long_inputs.py [--words 100 1000 10000 100000] [--nli-model DIR]
"""

import argparse
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from capqa.dev.long_inputs import measure_in_subprocess  # noqa: E402

DEFAULT_WORDS = (100, 1_000, 10_000, 100_000)


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", type=int, nargs="+", default=list(DEFAULT_WORDS), help="words per side")
    parser.add_argument("--nli-model", help="NLI model folder (default: a tiny offline model)")
    parser.add_argument("--max-length", type=int, default=512)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cap-long-inputs-") as scratch:
        model = args.nli_model
        if model is None:
            from capqa.dev.offline_models import build_nli_model

            model = str(build_nli_model(Path(scratch) / "nli"))
        print(f"{'words/side':>10} {'tokens':>7} {'seconds':>8} {'RSS after load MB':>18} {'peak RSS MB':>12}")
        for words in args.words:
            result = measure_in_subprocess(words, nli_model=model, max_length=args.max_length)
            print(f"{words:>10,} {result['tokens']:>7} {result['seconds']:>8.3f} "
                  f"{result['loaded_rss_mb']:>18.0f} {result['peak_rss_mb']:>12.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
