"""Run CAP through RAGAS's own ``evaluate()`` on a 5-row dataset, with no LLM and no API key.

Run by tests/harness/test_harness_frameworks.py with the RAGAS venv's python:
    python ragas_run.py WORKDIR EXAMPLES_JSONL
Each example has a question, its gold answers (RAGAS takes one reference: the first) and the
``response`` to score. CAP's options (local NLI model, rule statements) come from
CAP_HARNESS_OPTIONS. Writes WORKDIR/ragas_output.json: evaluate()'s per-row CAP, the relation each
row's trace holds, and, through the collections-style interface, ``ascore`` with every gold answer
and ``abatch_score`` of all rows.
"""

import asyncio
import json
import sys
from pathlib import Path

from ragas import EvaluationDataset, evaluate

from capqa.harness.ragas_metric import RELATION_TRACE, CAPMetric


def main():
    workdir, examples = Path(sys.argv[1]), Path(sys.argv[2])
    rows = [json.loads(line) for line in examples.read_text().splitlines()]
    dataset = EvaluationDataset.from_list([{"user_input": row["question"], "response": row["response"],
                                            "reference": row["answer"][0]} for row in rows])
    metric = CAPMetric(options={"verdict": "strict"})
    result = evaluate(dataset, metrics=[metric], show_progress=False, raise_exceptions=True)
    table = result.to_pandas()
    relations = [trace[metric.name][RELATION_TRACE]["output"] for trace in result.traces]
    direct = [asyncio.run(metric.ascore(response=row["response"], reference=row["answer"],
                                        user_input=row["question"])) for row in rows]
    batch = asyncio.run(metric.abatch_score([{"user_input": row["question"], "response": row["response"],
                                               "reference": row["answer"]} for row in rows]))
    (workdir / "ragas_output.json").write_text(json.dumps({
        "rows": [{"user_input": record["user_input"], "response": record["response"],
                  "reference": record["reference"], "cap": record["cap"]} for record in table.to_dict("records")],
        "relations": relations,
        "ascore": [{"value": r.value, "reason": r.reason} for r in direct],
        "abatch_score": [{"value": r.value, "reason": r.reason} for r in batch]}, indent=1, default=str))


if __name__ == "__main__":
    main()
