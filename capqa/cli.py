"""``python -m capqa COMMAND ...``: one entry point, each command in the module that owns it.

Commands are imported lazily so that ``python -m capqa diagnose`` never pays for torch.
"""

import importlib
import sys

# command -> (module, function, one-line help). Each function takes argv (a list) and returns
# an exit code.
COMMANDS = {
    "score": ("capqa.score_file", "main", "score a CSV/JSONL file of (question, gold, answer) rows"),
    "diagnose": ("capqa.diagnostics.report", "main", "monotonicity diagnostic of metric scores against labels"),
    "train-statements": ("capqa.statements.training", "train_main", "fine-tune the statement model"),
    "eval-statements": ("capqa.statements.training", "evaluate_main", "evaluate generated statements"),
    "build-datasets": ("capqa.hub.datasets", "main", "build the CAP-Correctness/CAP-Statements repos"),
    "publish": ("capqa.hub.publish", "main", "publish datasets, model or the Space to the Hub"),
    "bench": ("capqa.dev.bench", "main", "throughput benchmark of the NLI engine"),
    "fit": ("capqa.plus.calibration", "main", "refit CAP+ and the relation classifier"),
    "fit-verdicts": ("capqa.verdicts.thresholds", "main", "refit the verdict thresholds on labelled scores"),
}


def _usage():
    lines = ["usage: python -m capqa COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<18}{help_}" for name, (_, _, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"unknown command {command!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, function_name, _ = COMMANDS[command]
    function = getattr(importlib.import_module(module_name), function_name)
    return int(function(rest) or 0)
