"""The NLI engine against a straightforward scorer: ``python benchmarks/bench_engine.py --help``.

The same as ``python -m capqa bench``; see capqa/cli/bench.py, capqa/dev/bench.py and the README's Performance section.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from capqa.cli.bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
