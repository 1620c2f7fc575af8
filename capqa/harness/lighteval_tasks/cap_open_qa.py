"""Free-form open QA scored with CAP in lighteval: Natural Questions (open), each question with its
list of gold answers. Run:
    lighteval accelerate "model_name=..." "cap_open_qa|0" \
        --custom-tasks $(python -c "import capqa.harness.lighteval_metric as m; print(m.lighteval_tasks_path())")
Machine-level CAP options (nli_model, device, ...) come from CAP_HARNESS_OPTIONS (a JSON object).
"""

from lighteval.tasks.lighteval_task import LightevalTaskConfig
from lighteval.tasks.requests import Doc

from capqa.harness.lighteval_metric import cap_metric


def cap_open_qa_prompt(line: dict, task_name: str = None) -> Doc:
    answers = list(line["answer"])
    return Doc(task_name=task_name, query=f"Question: {line['question']}\nAnswer:", choices=answers,
               gold_index=list(range(len(answers))), specific={"question": line["question"]})


cap_open_qa = LightevalTaskConfig(
    name="cap_open_qa",
    prompt_function=cap_open_qa_prompt,
    hf_repo="google-research-datasets/nq_open",
    hf_subset="nq_open",
    hf_avail_splits=["validation"],
    evaluation_splits=["validation"],
    generation_size=32,
    stop_sequence=["\n", "Question:"],
    metrics=[cap_metric(verdict="strict")],
    version=1,
)

TASKS_TABLE = [cap_open_qa]
