"""The metric in a venv at one end of the declared version range (tests/project/test_dependency_range.py).

Run with that venv's python from the repository root: ``version_range_run.py NLI_MODEL OUT.json``.
It scores answered questions with rule statements through ``CAPScorer.score``, with compact
attention asked for and not, and through ``evaluate.load("cap_metric.py").compute``, and writes
what ran (the versions, whether compact attention was installed, the hashcodes, the scores, the
warnings and the compact-attention log lines) to OUT.json for the test to check.
"""

import importlib.metadata
import json
import logging
import sys
import warnings

QUESTIONS = ["Name a city in Bulgaria.", "At what temperature does water begin to boil?",
             "Who wrote the play Romeo and Juliet?", "When did the Berlin Wall fall?"]
GOLDS = [["Sofia"], ["100°C", "212 degrees Fahrenheit"], ["William Shakespeare"], ["in 1989"]]
PREDICTIONS = ["Burgas", "212°F", "It was written by Shakespeare.", "1991"]
STACK = ("transformers", "tokenizers", "huggingface-hub", "datasets", "evaluate", "torch")


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append(f"{record.levelname}: {record.getMessage()}")


def score_with_the_scorer(nli_model, compact):
    from capqa.metric.options import MetricOptions

    scorer = MetricOptions(nli_model=nli_model, statement_model="rules", device="cpu", variant="plus",
                           compact_attention=compact).build_scorer()
    result = scorer.score(PREDICTIONS, GOLDS, QUESTIONS, return_details=True)
    return {"installed": scorer.nli.compact_attention, "hashcode": result["hashcode"], "scores": result["scores"],
            "cap_plus": result["cap_plus"], "hypotheses": result["hypotheses"]}


def score_with_evaluate(nli_model):
    import evaluate

    metric = evaluate.load("cap_metric.py", statement_model="rules", nli_model=nli_model, device="cpu",
                           variant="plus")
    result = metric.compute(predictions=PREDICTIONS, references=GOLDS, questions=QUESTIONS)
    return {"hashcode": result["hashcode"], "scores": result["scores"]}


def main(nli_model, out):
    lines = Lines()
    logging.getLogger("capqa.engine.relative_attention").addHandler(lines)
    logging.getLogger("capqa.engine.relative_attention").setLevel(logging.INFO)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        record = {"versions": {name: importlib.metadata.version(name) for name in STACK},
                  "compact": score_with_the_scorer(nli_model, True),
                  "stock": score_with_the_scorer(nli_model, False),
                  "metric": score_with_evaluate(nli_model)}
    record["attention_lines"] = lines.lines
    record["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught
                          if "compact relative attention" in str(w.message)]
    with open(out, "w") as file:
        json.dump(record, file, indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:])
