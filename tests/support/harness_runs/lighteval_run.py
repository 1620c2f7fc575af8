"""Run the shipped example task through lighteval's own ``Pipeline`` on local data and models.

Run by tests/harness/test_harness.py with the harness venv's python:
    python lighteval_run.py WORKDIR EXAMPLES_JSONL CAUSAL_MODEL_DIR
CAP's options (local NLI model, rule statements) come from CAP_HARNESS_OPTIONS. Writes
WORKDIR/lighteval_output.json: the task's aggregated results and each sample's details.
"""

import json
import shutil
import sys
from pathlib import Path

import requests

# lighteval 0.13.0 imports every built-in task when its registry starts, and its tiny_benchmarks
# module fetches a pickle from GitHub at import; with no network that raises and no task can run.
# Here GitHub's raw files answer "503" (which that module already handles by skipping the file);
# every other request, and everything lighteval and CAP do, is untouched.
_GITHUB_RAW = "https://raw.githubusercontent.com/"
_real_get = requests.get


def _get_without_github_raw(url, *args, **kwargs):
    if str(url).startswith(_GITHUB_RAW):
        response = requests.models.Response()
        response.status_code, response.url = 503, str(url)
        return response
    return _real_get(url, *args, **kwargs)


requests.get = _get_without_github_raw

from lighteval.logging.evaluation_tracker import EvaluationTracker  # noqa: E402
from lighteval.models.transformers.transformers_model import TransformersModelConfig  # noqa: E402
from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters  # noqa: E402

from capqa.harness.lighteval_metric import lighteval_tasks_path  # noqa: E402

TASK = "cap_open_qa|0"


def local_task(workdir: Path, examples: Path) -> Path:
    """The shipped task file, copied, with its Hub dataset swapped for a local folder of the examples."""
    data = workdir / "data"
    data.mkdir()
    shutil.copy(examples, data / "validation.jsonl")
    task_file = workdir / "cap_open_qa_local.py"
    text = Path(lighteval_tasks_path()).read_text()
    for old, new in (('hf_repo="google-research-datasets/nq_open"', f"hf_repo={str(data)!r}"),
                     ('hf_subset="nq_open"', 'hf_subset="default"')):
        if old not in text:
            raise SystemExit(f"the shipped task file has no {old}")
        text = text.replace(old, new)
    task_file.write_text(text)
    return task_file


def main():
    workdir, examples, generator = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    pipeline = Pipeline(
        tasks=TASK,
        pipeline_parameters=PipelineParameters(launcher_type=ParallelismManager.NONE,
                                               custom_tasks_directory=str(local_task(workdir, examples))),
        evaluation_tracker=EvaluationTracker(output_dir=str(workdir / "lighteval"), save_details=False),
        model_config=TransformersModelConfig(model_name=generator, batch_size=5, device="cpu"))
    pipeline.evaluate()
    results = pipeline.get_results()["results"]
    details = pipeline.get_details()
    task_details = next(iter(details.values())) if len(details) == 1 else details[TASK]
    samples = [{"specific": detail.doc.specific, "golds": detail.doc.get_golds(),
                "generation": detail.model_response.final_text[0], "metric": detail.metric}
               for detail in task_details]
    (workdir / "lighteval_output.json").write_text(json.dumps(
        {"results": results, "samples": samples}, indent=1, default=str))


if __name__ == "__main__":
    main()
