"""evaluate's distributed mode: two real processes each add their share, process 0 computes."""

import json
import multiprocessing

import evaluate
import numpy as np
import pytest

from conftest import MODEL_ATOL
from parallel_workers import add_batch_and_compute

pytestmark = pytest.mark.slow

PREDICTIONS = ["Burgas is a city in Bulgaria.", "Water travels through the stem of a plant.",
               "Plastic is the best conductor of electricity.", "Water begins to boil at 212°F.",
               "The Berlin Wall fell in 1990.", "Sofia is the capital of Bulgaria."]
REFERENCES = [["Sofia is a city in Bulgaria."], ["Water and food travel through the stem of a plant."],
              ["Metal is the best conductor of electricity.", "Copper is the best conductor of electricity."],
              ["Water begins to boil at 100°C.", "Water begins to boil at 212 degrees Fahrenheit."],
              ["The Berlin Wall fell in 1989."], ["Sofia is the capital of Bulgaria."]]
# Process 0 adds the first examples, process 1 the rest; evaluate gathers them in process order.
SHARES = (slice(0, 4), slice(4, None))


def test_two_processes_give_the_single_process_result(random_nli_model, metric_path, tmp_path):
    options = {"nli_model": random_nli_model, "device": "cpu", "cache_dir": str(tmp_path / "evaluate")}
    context = multiprocessing.get_context("spawn")
    result_paths = [tmp_path / f"result-{process_id}.json" for process_id in range(2)]
    processes = [context.Process(target=add_batch_and_compute, args=(
        metric_path, options, process_id, 2,
        {"predictions": PREDICTIONS[share], "references": REFERENCES[share]}, result_paths[process_id]))
        for process_id, share in enumerate(SHARES)]
    for process in processes:
        process.start()
    # Wait for the results however long a loaded machine takes: a crashed worker still ends the
    # wait (with a non-zero exit code), so no wall-clock limit is needed.
    for process in processes:
        process.join()
    assert [process.exitcode for process in processes] == [0, 0]
    gathered, other = (json.loads(path.read_text()) for path in result_paths)

    single = evaluate.load(metric_path, nli_model=random_nli_model, device="cpu", cache_dir=str(tmp_path / "single"))
    expected = single.compute(predictions=PREDICTIONS, references=REFERENCES)
    assert other is None  # only process 0 computes
    # Different processes and batch compositions: equal up to float32 rounding (conftest.MODEL_ATOL).
    assert set(gathered) == set(expected)
    np.testing.assert_allclose(gathered["scores"], expected["scores"], atol=MODEL_ATOL, rtol=0)
    assert abs(gathered["cap"] - expected["cap"]) <= MODEL_ATOL
    assert len(gathered["scores"]) == len(PREDICTIONS)
