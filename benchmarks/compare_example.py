"""Two systems made from the CAP-Correctness sample, for trying ``python -m capqa compare``.

Writes to OUT: ``sample.csv`` (the sample's 1,375 rows: question, gold answer, the sample's
answer, dataset, class) and ``dropped.csv`` (the same rows, each answer of two or more words
with a third of its words dropped, seeded), and a tiny random NLI model ``nli-tiny`` built
offline (``capqa.dev.offline_models``). Then prints the command that scores both and compares
them. A random tiny model's numbers show the machinery, not the metric's quality.

    .venv/bin/python benchmarks/compare_example.py OUT
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from capqa.dev.offline_models import build_nli_model  # noqa: E402
from capqa.paths import DATA_DIR  # noqa: E402

COLUMNS = ["question", "gold_answer", "answer", "dataset", "label_semantic"]
DROPPED_SHARE = 1 / 3


def drop_words(answer: str, rng: np.random.Generator) -> str:
    """``answer`` without a third of its words (at least one word kept, order kept)."""
    words = answer.split()
    if len(words) < 2:
        return answer
    dropped = set(rng.choice(len(words), size=max(1, round(DROPPED_SHARE * len(words))), replace=False))
    return " ".join(word for i, word in enumerate(words) if i not in dropped)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    sample = pd.read_csv(DATA_DIR / "cap_correctness_sample.csv", keep_default_na=False, dtype=str)[COLUMNS]
    rng = np.random.default_rng(0)
    sample.to_csv(out / "sample.csv", index=False)
    sample.assign(answer=[drop_words(answer, rng) for answer in sample["answer"]]).to_csv(out / "dropped.csv",
                                                                                          index=False)
    if not (out / "nli-tiny" / "config.json").exists():
        build_nli_model(out / "nli-tiny", seed=1)
    print(f"python -m capqa compare {out / 'sample.csv'} {out / 'dropped.csv'} --nli-model {out / 'nli-tiny'} "
          "--statement-model rules --device cpu --cluster question --by dataset --by label_semantic "
          f"--plot {out / 'forest.png'}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "compare-example"))
