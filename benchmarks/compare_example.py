"""Two systems made from the CAP-Correctness sample, for trying ``python -m capqa compare``.

Writes to OUT: ``sample.csv`` (the sample's 1,375 rows: question, gold answer, the sample's
answer, dataset, class) and ``dropped.csv`` (the same rows, each answer of two or more words
with a third of its words dropped, seeded), and a tiny random NLI model ``nli-tiny`` built
offline (``capqa.dev.offline_models``). Then prints the command that scores both and compares
them (the files of ``capqa.doctools.scale_example``, whose run of the same comparison docs/scale.md
shows). A random tiny model's numbers show the machinery, not the metric's quality.

    .venv/bin/python benchmarks/compare_example.py OUT
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from capqa.doctools.scale_example import write_example_systems  # noqa: E402


def main(out: Path) -> None:
    paths = write_example_systems(out)
    print(f"python -m capqa compare {paths['sample']} {paths['dropped']} --nli-model {out / 'nli-tiny'} "
          "--statement-model rules --device cpu --by dataset --by label_semantic "
          f"--plot {out / 'forest.png'}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "compare-example"))
