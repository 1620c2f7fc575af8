"""One long-input measurement in this process, printed as one JSON line (``capqa.dev.long_inputs``).

    .venv/bin/python benchmarks/long_input_probe.py --words N --nli-model DIR
    .venv/bin/python benchmarks/long_input_probe.py --words N --statement-model DIR

``--nli-model`` scores one pair of N words per side with ``NLIScorer``; ``--statement-model`` makes
one statement from a question and an answer of N words each. The line holds words, tokens kept,
seconds, and the peak resident memory of the process: run one size per process (what
``capqa.dev.long_inputs.measure_in_subprocess`` and ``benchmarks/bench_long_inputs.py`` do), so
that the peak belongs to that size.
"""

import argparse
import json
import sys
from pathlib import Path
from typing import List, Optional

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from capqa.dev.long_inputs import measure  # noqa: E402


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python benchmarks/long_input_probe.py", description=__doc__)
    parser.add_argument("--words", type=int, required=True, help="words per side")
    parser.add_argument("--nli-model", help="NLI model folder: score one pair")
    parser.add_argument("--statement-model", help="seq2seq folder: make one statement")
    parser.add_argument("--max-length", type=int, default=512)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.nli_model is None) == (args.statement_model is None):
        parser.error("give exactly one of --nli-model and --statement-model")
    print(json.dumps(measure(args.words, args.nli_model, args.statement_model, args.max_length)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
