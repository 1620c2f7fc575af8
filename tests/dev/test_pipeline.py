"""The pipeline benchmark's parts (``capqa.dev.pipeline``): the stand-in NLI stage's work is its
distinct pairs at its stated rate, and a measured job scores every row with and without workers."""

import numpy as np
import pandas as pd

from capqa.dev.pipeline import (EIGHT_RANKS, SECOND_SYSTEM, TWO_SYSTEMS, StandInNLI, job_pairs, measure_pipeline,
                                ranks_ratio, second_system_ratio, target_lines)

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


def _two_systems_table(questions: int) -> pd.DataFrame:
    table = pd.read_csv(TEST_DATA_DIR / "real_qa_answers.csv", keep_default_na=False)
    table = table[table["system"].isin(TWO_SYSTEMS)]
    return table[table["question"].isin(table["question"].drop_duplicates().head(questions))]


def test_a_second_system_takes_the_gold_statements_from_the_cache():
    table = _two_systems_table(6)
    record = second_system_ratio(table, *TWO_SYSTEMS)
    first, second = (record["runs"][system] for system in TWO_SYSTEMS)
    assert record["questions"] == 6 and first["rows"] == second["rows"] == 6
    first_pairs, second_pairs = (set(job_pairs(table[table["system"] == system])) for system in TWO_SYSTEMS)
    assert first["from_cache"] == 0
    # The golds, and any answer both systems gave word for word, were written by the first.
    assert second["from_cache"] == len(first_pairs & second_pairs) >= 6


def test_the_ranks_figure_splits_the_job_by_question():
    record = ranks_ratio(_two_systems_table(5), world_size=3, repeats=1)
    assert record["world_size"] == 3 and record["one_rank_cpu_seconds"] > 0 and record["ranks_cpu_seconds"] > 0
    # A question's rows on one rank: its parse is made once, not once per rank holding its answers.
    assert record["ranks_texts_parsed"] == record["one_rank_texts_parsed"] > 0


def test_each_target_is_printed_with_its_figure_and_verdict():
    record = {"runs": [{"workers": 0, "speedup": 1.0}, {"workers": 2, "speedup": 1.8}],
              "second_system": {"ratio": 0.62}, "ranks": {"ratio": 1.04}}
    lines = target_lines(record)
    assert [met for _, met in lines] == [True, False, True]
    assert lines[1][0].endswith(f"<= {SECOND_SYSTEM.bound:g}: 0.62 (NOT met)")
    assert lines[2][0].startswith(f"target {EIGHT_RANKS.name}:")
    assert target_lines({"runs": [{"workers": 0, "speedup": 1.0}]}) == []
