"""The pipeline benchmark's parts (``capqa.dev.pipeline``): the stand-in NLI stage's work is its
distinct pairs at its stated rate, and a measured job scores every row with and without workers."""

import numpy as np
import pandas as pd

from capqa.dev.pipeline import StandInNLI, job_pairs, measure_pipeline

from support.data import TEST_DATA_DIR


def test_the_stand_in_scores_distinct_pairs_at_its_rate():
    nli = StandInNLI(pairs_per_second=1e6)
    probabilities = nli.predict(["a", "a", "b"], ["x", "x", "y"])
    assert probabilities.shape == (3, 3) and np.allclose(probabilities.sum(axis=1), 1)
    assert nli.busy_seconds == 2 / 1e6  # two distinct pairs
    assert nli.identity.model == "stand-in-1e+06-pairs-per-second"


def test_a_measured_job_has_a_run_per_number_of_workers():
    table = pd.read_csv(TEST_DATA_DIR / "real_qa_answers.csv", keep_default_na=False).head(12)
    record = measure_pipeline(table, [1], pairs_per_second=1e6, chunk_size=5)
    assert [run["workers"] for run in record["runs"]] == [0, 1] and record["runs"][0]["speedup"] == 1.0
    assert record["statements_alone"]["pairs"] == len(job_pairs(table))
    assert all(run["rows_per_second"] > 0 for run in record["runs"])
