"""The task's CAP scoring: lm-eval loads this file next to the YAML for its ``!function`` entries.

Task-level options go in the call below; machine-level ones (nli_model, device, ...) can come from
the CAP_HARNESS_OPTIONS environment variable (a JSON object) without editing this file.
"""

from capqa.harness.lm_evaluation_harness import make_process_results

process_results = make_process_results(question_field="question", answers_field="answer", verdict="strict")
