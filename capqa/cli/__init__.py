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
import difflib
import importlib
import os
import sys
from typing import Any, List, NoReturn, Optional, Sequence

from capqa.common.quoting import bounded_message, quote

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
    "agreement": ("capqa.cli.agreement", "main", "how often CAP agrees with people on real systems' judged answers"),
    "diagnose": ("capqa.cli.diagnose", "main", "monotonicity diagnostic of metric scores against labels"),
    "train-statements": ("capqa.cli.train_statements", "main", "fine-tune the statement model"),
    "eval-statements": ("capqa.cli.eval_statements", "main", "evaluate generated statements"),
    "build-datasets": ("capqa.cli.build_datasets", "main", "build the CAP-Correctness/CAP-Statements repos"),
    "publish": ("capqa.cli.publish", "main", "publish datasets, model or the Space to the Hub"),
    "bench": ("capqa.cli.bench", "main", "throughput benchmark of the NLI engine"),
    "fit": ("capqa.cli.fit", "main", "refit CAP+ and the relation classifier"),
    "fit-verdicts": ("capqa.cli.fit_verdicts", "main", "refit the verdict thresholds on labelled scores"),
    "docs": ("capqa.cli.docs", "main", "write or check the generated tables of the docs"),
    "tiny-model": ("capqa.cli.tiny_model", "main", "save a tiny random NLI model, to try every command offline"),
}


class HelpFormatter(argparse.HelpFormatter):
    """Every subcommand's help formatter: an option's help ends with its default, unless the help
    gives it already ("(default: ...)") or there is none to name (None, an empty list, a flag's
    off state)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        nothing = action.default in (None, argparse.SUPPRESS) or (
            isinstance(action.default, (list, tuple)) and not action.default)
        if "(default" in text.lower() or "%(default)" in text or nothing or not action.option_strings:
            return text
        if isinstance(action, argparse.BooleanOptionalAction):  # --x / --no-x: name the one in force
            flags = [flag for flag in action.option_strings if flag.startswith("--no-") != bool(action.default)]
            return f"{text} (default: {flags[0]})"
        if action.default is False or action.nargs == 0:  # a flag is off until given
            return text
        return f"{text} (default: %(default)s)"


class ArgumentParser(argparse.ArgumentParser):
    """Every subcommand's parser: ``HelpFormatter``, and a mistake said in two lines (what is
    wrong, with the nearest flag for a misspelt one, and where the help is) instead of the usage
    text, which buried the one line that mattered."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        # Flags of the command that hands its other arguments to this parser (compare -> score).
        self.outer_flags: List[str] = []

    def parse_args(self, args: Optional[Sequence[str]] = None,
                   namespace: Optional[argparse.Namespace] = None) -> argparse.Namespace:
        args = list(sys.argv[1:] if args is None else args)
        # A misspelt flag first: it is often why a required argument seems to be missing.
        unknown = self.unknown_flags(args)
        if unknown:
            self.error(self.unrecognized(unknown))
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(self.unrecognized(extras))
        return parsed

    def unknown_flags(self, args: Sequence[str]) -> List[str]:
        """The ``--flags`` of ``args`` that are no flag of this parser, nor the start of one."""
        flags, unknown = self.flags(), []
        for arg in args:
            if arg == "--":  # what follows is positional
                break
            name = arg.split("=", 1)[0]
            if name.startswith("--") and not any(flag.startswith(name) for flag in flags):
                unknown.append(name)
        return unknown

    def flags(self) -> List[str]:
        """Every long flag of this parser and of its subcommands' parsers."""
        flags = []
        for action in self._actions:
            flags += [flag for flag in action.option_strings if flag.startswith("--")]
            if isinstance(action, argparse._SubParsersAction):
                for parser in action.choices.values():
                    flags += parser.flags() if isinstance(parser, ArgumentParser) else []
        return list(dict.fromkeys(flags + self.outer_flags))

    def unrecognized(self, extras: Sequence[str]) -> str:
        """"unrecognized argument: --nli-modle (did you mean --nli-model?)"."""
        words = []
        for extra in extras:
            flag = extra.split("=", 1)[0]
            close = difflib.get_close_matches(flag, self.flags(), n=1, cutoff=0.6) if flag.startswith("-") else []
            words.append(extra + (f" (did you mean {close[0]}?)" if close else ""))
        return f"unrecognized argument{'s' if len(extras) > 1 else ''}: {' '.join(words)}"

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n(`{self.prog} --help` lists the options)\n")


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
