"""Run a 5-sample task through inspect-ai's own ``eval()``, CAP as its scorer.

Run by tests/harness/test_harness_frameworks.py with the inspect-ai venv's python:
    python inspect_run.py WORKDIR EXAMPLES_JSONL VERDICT_JSON
Each example has a question, its gold answers and the ``response`` that the model under
evaluation gives: inspect's mock provider (``mockllm/model``), answering each question from that
table. CAP's options (local NLI model, rule statements) come from CAP_HARNESS_OPTIONS. Writes
WORKDIR/inspect_output.json: the log's status, its metrics, each sample's score, and the sizes of
the batches CAP scored.
"""

import json
import sys
from pathlib import Path

from batch_log import BatchSizes  # beside this script
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate

from capqa.harness.inspect_scorer import cap_scorer


def mock_model(responses):
    def respond(messages, tools, tool_choice, config):
        question = next(message.text for message in reversed(messages) if message.role == "user")
        output = ModelOutput.from_content(model="mockllm", content=responses[question])
        # Given, so that mockllm does not count tokens with tiktoken's o200k_base encoding, which
        # tiktoken downloads on first use (no network here).
        words = (len(question.split()), len(output.completion.split()))
        output.usage = ModelUsage(input_tokens=words[0], output_tokens=words[1], total_tokens=sum(words))
        return output

    return get_model("mockllm/model", custom_outputs=respond)


def main():
    workdir, examples, verdict = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
    rows = [json.loads(line) for line in examples.read_text().splitlines()]
    task = Task(dataset=[Sample(input=row["question"], target=row["answer"], id=i) for i, row in enumerate(rows)],
                solver=generate(), scorer=cap_scorer(verdict=verdict))
    with BatchSizes() as batch_sizes:
        (log,) = eval(task, model=mock_model({row["question"]: row["response"] for row in rows}),
                      log_dir=str(workdir / "logs"), display="none", max_samples=len(rows))
    scores = log.results.scores if log.results else []
    samples = [{"question": sample.input, "targets": sample.target, "completion": sample.output.completion,
                "score": {name: s.model_dump() for name, s in sample.scores.items()}} for sample in log.samples or []]
    (workdir / "inspect_output.json").write_text(json.dumps({
        "status": log.status, "error": str(log.error) if log.error else None,
        "scorer": scores[0].scorer if scores else None,
        "metrics": {score.name: {name: metric.value for name, metric in score.metrics.items()} for score in scores},
        "samples": samples, "batch_sizes": batch_sizes}, indent=1, default=str))


if __name__ == "__main__":
    main()
