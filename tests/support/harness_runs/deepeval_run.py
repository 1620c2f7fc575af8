"""Run CAP through DeepEval's own ``evaluate()`` and ``assert_test``, with no LLM and no API key.

Run by tests/harness/test_harness_frameworks.py with the DeepEval venv's python:
    python deepeval_run.py WORKDIR EXAMPLES_JSONL KNOWN_NLI_MODEL
Each example has a question, its gold answers (an LLMTestCase has one expected output: the first)
and the ``actual_output`` to score. evaluate() runs every example under CAP_HARNESS_OPTIONS (a
random tiny NLI model, rule statements); assert_test runs under a tiny NLI model whose
probabilities are the same for every pair, so that CAP is known. Writes WORKDIR/deepeval_output.json.
"""

import json
import os
import sys
from pathlib import Path


def test_cases(rows):
    from deepeval.test_case import LLMTestCase

    return [LLMTestCase(input=row["question"], actual_output=row["response"], expected_output=row["answer"][0])
            for row in rows]


def assert_outcome(test_case, metric):
    """None when assert_test passes, else its AssertionError's message."""
    from deepeval import assert_test

    try:
        assert_test(test_case, [metric])
    except AssertionError as error:
        return str(error)
    return None


def main():
    workdir, examples, known_model = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    os.chdir(workdir)  # DeepEval keeps its test-run files in the working directory
    from batch_log import BatchSizes  # beside this script
    from deepeval import evaluate
    from deepeval.evaluate.configs import DisplayConfig

    from capqa.common.validation import is_blank
    from capqa.harness.deepeval_metric import CAPMetric

    rows = [json.loads(line) for line in examples.read_text().splitlines()]
    cases = test_cases(rows)
    with BatchSizes() as batch_sizes:  # DeepEval copies the metric per case: the copies share one queue
        result = evaluate(test_cases=cases, metrics=[CAPMetric()],
                          display_config=DisplayConfig(show_indicator=False, print_results=False))
    evaluated = [{"input": test.input, "actual_output": test.actual_output, "expected_output": test.expected_output,
                  "success": test.success, "metrics": [data.model_dump() for data in test.metrics_data]}
                 for test in result.test_results]
    known = {"nli_model": known_model, "statement_model": "rules", "device": "cpu"}
    answered = next(case for case in cases if not is_blank(case.actual_output))
    blank = next(case for case in cases if is_blank(case.actual_output))
    outcomes = {"answered_strict": assert_outcome(answered, CAPMetric(options=known)),
                "answered_lenient": assert_outcome(answered, CAPMetric(verdict="lenient", options=known)),
                "answered_threshold_0.7": assert_outcome(answered, CAPMetric(threshold=0.7, options=known)),
                "blank_lenient": assert_outcome(blank, CAPMetric(verdict="lenient", options=known))}
    direct = CAPMetric(options=known)
    direct.measure(answered)
    (workdir / "deepeval_output.json").write_text(json.dumps({
        "evaluated": evaluated, "batch_sizes": batch_sizes, "assert_test": outcomes,
        "measure": {"score": direct.score, "success": direct.success, "reason": direct.reason,
                    "relation": direct.relation, "threshold": direct.threshold}}, indent=1, default=str))


if __name__ == "__main__":
    main()
