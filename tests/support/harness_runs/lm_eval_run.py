"""Run the shipped example task through lm-eval's own ``simple_evaluate`` on local data and models.

Run by tests/harness/test_harness.py with the harness venv's python:
    python lm_eval_run.py WORKDIR EXAMPLES_JSONL GENERATOR_MODEL_DIR
CAP's options (local NLI model, rule statements) come from CAP_HARNESS_OPTIONS. Writes
WORKDIR/lm_eval_output.json: the task's aggregated results, the logged samples, the results
table lm-eval prints (``make_table``) and the lines lm-eval's logger emitted.
"""

import json
import logging
import shutil
import sys
from pathlib import Path

from lm_eval import simple_evaluate
from lm_eval.tasks import TaskManager
from lm_eval.utils import make_table, setup_logging

from capqa.harness.lm_evaluation_harness import lm_eval_tasks_path


def local_task(workdir: Path, examples: Path) -> Path:
    """The shipped task folder, copied, with its Hub dataset swapped for the local examples."""
    tasks = workdir / "tasks"
    shutil.copytree(Path(lm_eval_tasks_path()) / "cap_open_qa", tasks / "cap_open_qa")
    config_path = tasks / "cap_open_qa" / "cap_open_qa.yaml"
    text = config_path.read_text()
    text = text.replace("dataset_path: google-research-datasets/nq_open",
                        "dataset_path: json\ndataset_kwargs:\n  data_files:\n    validation: " + json.dumps(str(examples)))
    config_path.write_text(text)
    return tasks


class Lines(logging.Handler):
    """Every message lm-eval's logger shows (its own and its children's), as text."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def main():
    workdir, examples, generator = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    tasks = local_task(workdir, examples)
    # As the lm_eval command does: lm-eval's INFO lines (the hashcode among them) are shown;
    # simple_evaluate alone leaves its logger at the root's WARNING.
    setup_logging()
    log = Lines()
    logging.getLogger("lm_eval").addHandler(log)
    output = simple_evaluate(model="hf", model_args=f"pretrained={generator},backend=seq2seq",
                             tasks=["cap_open_qa"], task_manager=TaskManager(include_path=str(tasks)),
                             device="cpu", batch_size=5, log_samples=True)
    samples = [{key: value for key, value in sample.items() if key in ("doc", "resps", "filtered_resps",
                                                                      "cap", "correct", "cap_hashcode")}
               for sample in output["samples"]["cap_open_qa"]]
    (workdir / "lm_eval_output.json").write_text(json.dumps(
        {"results": output["results"]["cap_open_qa"], "samples": samples, "table": make_table(output),
         "log": log.lines}, indent=1, default=str))


if __name__ == "__main__":
    main()
