"""The correctness sample joined to the paper's published per-row scores, for every one of its rows.

``data/cap_correctness_sample.csv`` is five contiguous blocks of the upstream CAP-Correctness
CSV; only the first block carries its ``row_id``. The other four were located by their label
sequences in ``data/paper_scores.csv`` (each matches at exactly one offset), and the match is
checked on the text: ROUGE-L recomputed from the answers equals the published ``rouge_l`` on
every one of the 1,375 rows (``tests/plus/test_plus.py``). With it, analyses that need the question
(the bootstrap by question of ``docs/verdicts.md``) can use the published scores.
"""

from functools import lru_cache

import numpy as np
import pandas as pd

from capqa.common.paths import DATA_DIR

# (first sample row, first upstream row_id, rows) of each block.
SAMPLE_BLOCKS = ((0, 0, 383), (383, 3595, 181), (564, 4380, 176), (740, 7441, 322), (1062, 8514, 313))


def sample_row_ids() -> np.ndarray:
    """The upstream row_id of each sample row, in the sample's order."""
    return np.concatenate([np.arange(start, start + rows) for _, start, rows in SAMPLE_BLOCKS])


@lru_cache(maxsize=1)
def scored_sample() -> pd.DataFrame:
    """Every sample row with its published scores (``split``, ``cap``, the six probabilities,
    ``bleu``, ``rouge_l``, ...); the published label must equal the sample's."""
    sample = pd.read_csv(DATA_DIR / "cap_correctness_sample.csv")
    scores = pd.read_csv(DATA_DIR / "paper_scores.csv").set_index("row_id")
    ids = sample_row_ids()
    if len(ids) != len(sample):
        raise ValueError(f"SAMPLE_BLOCKS cover {len(ids)} rows, the sample has {len(sample)}")
    joined = sample.drop(columns=["row_id"]).assign(row_id=ids).join(scores.drop(columns=["dataset"]), on="row_id")
    mismatched = np.flatnonzero(joined["label"].to_numpy() != joined["label_semantic"].to_numpy())
    if mismatched.size:
        raise ValueError(f"sample row {mismatched[0]}: its label differs from the published one; "
                         "SAMPLE_BLOCKS do not match the data")
    return joined
