"""``python -m capqa COMMAND ...``: one entry point, each command in its own module of this package.

The command line is the only code of capqa that prints: each subcommand's module
(``capqa.cli.score``, ``capqa.cli.diagnose``, ...) holds its ``build_parser()`` and ``main(argv)``,
calls the library and prints what it returns; the library logs (``logging.getLogger(__name__)``).
Commands are imported lazily so that ``python -m capqa diagnose`` never pays for torch.
User mistakes (a missing file, a wrong column, a bad option, a model that cannot be loaded)
end as one ``error: ...`` line and exit status 1, Ctrl-C as one line and 130, never a traceback;
``CAPQA_TRACEBACK=1`` shows the traceback for debugging.
"""

import argparse
import importlib
import os
import sys
from typing import List, Optional

from capqa.quoting import bounded_message, quote

# What a user's input can raise: validation (ValueError/TypeError), files and models (OSError),
# a missing optional dependency (ImportError), a column or key that is not there (KeyError).
USER_ERRORS = (ValueError, TypeError, OSError, ImportError, KeyError)
EXIT_USER_ERROR = 1
EXIT_INTERRUPTED = 130  # the shell's convention for SIGINT

# command -> (module, function, one-line help). Each function takes argv (a list) and returns
# an exit code.
COMMANDS = {
    "score": ("capqa.cli.score", "main", "score a CSV/JSONL file of (question, gold, answer) rows"),
    "compare": ("capqa.cli.compare", "main", "compare systems' scores: CIs, paired significance, breakdowns"),
    "diagnose": ("capqa.cli.diagnose", "main", "monotonicity diagnostic of metric scores against labels"),
    "train-statements": ("capqa.cli.train_statements", "main", "fine-tune the statement model"),
    "eval-statements": ("capqa.cli.eval_statements", "main", "evaluate generated statements"),
    "build-datasets": ("capqa.cli.build_datasets", "main", "build the CAP-Correctness/CAP-Statements repos"),
    "publish": ("capqa.cli.publish", "main", "publish datasets, model or the Space to the Hub"),
    "bench": ("capqa.cli.bench", "main", "throughput benchmark of the NLI engine"),
    "fit": ("capqa.cli.fit", "main", "refit CAP+ and the relation classifier"),
    "fit-verdicts": ("capqa.cli.fit_verdicts", "main", "refit the verdict thresholds on labelled scores"),
    "docs": ("capqa.cli.docs", "main", "write or check the generated tables of the docs"),
}


class HelpFormatter(argparse.HelpFormatter):
    """Every subcommand's help formatter: an option's help ends with its default, unless the help
    names it already or there is none to name (None, a flag's off state)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text.lower() or action.default in (None, argparse.SUPPRESS) or not action.option_strings:
            return text
        if isinstance(action, argparse.BooleanOptionalAction):  # --x / --no-x: name the one in force
            flags = [flag for flag in action.option_strings if flag.startswith("--no-") != bool(action.default)]
            return f"{text} (default: {flags[0]})"
        if action.default is False or action.nargs == 0:  # a flag is off until given
            return text
        return f"{text} (default: %(default)s)"


def _usage() -> str:
    lines = ["usage: python -m capqa COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<18}{help_}" for name, (_, _, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"error: unknown command {quote(command)}; the commands are {', '.join(COMMANDS)} "
              f"(python -m capqa --help)", file=sys.stderr)
        return 2
    try:
        return _run(command, rest)
    except KeyboardInterrupt:
        print(f"interrupted: {command} was stopped (Ctrl-C)", file=sys.stderr)
        return EXIT_INTERRUPTED
    except USER_ERRORS as error:
        if os.environ.get("CAPQA_TRACEBACK"):
            raise
        print(f"error: {error_line(error)}", file=sys.stderr)
        return EXIT_USER_ERROR


def _run(command: str, rest: List[str]) -> int:
    module_name, function_name, _ = COMMANDS[command]
    function = getattr(importlib.import_module(module_name), function_name)
    return int(function(rest) or 0)


def error_line(error: BaseException) -> str:
    """The error's message on one line of bounded length (KeyError's repr quotes are dropped):
    a message that quotes a huge input is cut in the middle, never printed whole."""
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return " ".join(bounded_message(text).split()) or type(error).__name__
