"""``python -m capqa``'s help, as a new user reads it: every option of every subcommand says what
it is and its default, ``--verdict none`` works, and the metric has one load name everywhere."""

import argparse
import importlib
import re
from pathlib import Path

import pytest

from capqa.cli import COMMANDS, HelpFormatter, main
from capqa.common.constants import metric_space_id

from support.data import REPO_ROOT


def _parsers():
    """(command, parser) for every subcommand and every sub-subcommand (``publish space``, ...)."""
    for command, (module, _, _) in COMMANDS.items():
        stack = [(command, importlib.import_module(module).build_parser())]
        while stack:
            name, parser = stack.pop()
            yield name, parser
            for action in parser._actions:
                if isinstance(action, argparse._SubParsersAction):
                    stack += [(f"{name} {sub}", child) for sub, child in action.choices.items()]


def _options(parser):
    return [action for action in parser._actions
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))]


def test_every_option_of_every_subcommand_says_what_it_is_and_its_default():
    undocumented, no_default = [], []
    for name, parser in _parsers():
        assert issubclass(parser.formatter_class, HelpFormatter), name
        formatter = parser._get_formatter()
        for action in _options(parser):
            flag = f"{name} {'/'.join(action.option_strings) or action.dest}"
            if not action.help or action.help == argparse.SUPPRESS:
                undocumented.append(flag)
                continue
            shown = formatter._expand_help(action)
            assert "(default: [])" not in shown and "(default: ())" not in shown, flag  # nothing to name
            has_default = action.default not in (None, False, argparse.SUPPRESS, []) and (
                action.nargs != 0 or isinstance(action, argparse.BooleanOptionalAction))
            if has_default and action.option_strings and "default" not in shown.lower():
                no_default.append(f"{flag} ({action.default!r})")
    assert not undocumented, f"options without help: {undocumented}"
    assert not no_default, f"options whose help hides their default: {no_default}"


@pytest.mark.parametrize("flag, default", [("--gold-column", "gold_answer"), ("--answer-column", "answer"),
                                           ("--chunk-size", "1000")])
def test_score_help_shows_the_column_and_chunk_defaults(flag, default):
    from capqa.cli.score import build_parser

    help_text = " ".join(build_parser().format_help().split())
    assert re.search(rf"{flag} \S+ .*?\(default: {default}\)", help_text), help_text


def test_score_help_shows_every_metric_options_default_and_compare_no_empty_one():
    """Issue 36, item 12: ``--variant`` showed no default (its help said "the default NLI model",
    which the formatter took for its default), and ``--by`` showed ``(default: [])``."""
    from capqa.cli.compare import build_parser as compare_parser
    from capqa.cli.score import build_parser
    from capqa.metric.options import OPTIONS

    parser = build_parser()
    help_text = " ".join(parser.format_help().split())
    assert re.search(r"--variant \{cap,plus\} one of 'cap', 'plus': 'plus' adds CAP\+ [^-]*\(default: cap\)",
                     help_text), help_text
    formatter, actions = parser._get_formatter(), {action.dest: action for action in parser._actions}
    for setting in OPTIONS:
        shown = setting.default_text or (setting.flag if setting.default is True else f"--no-{setting.flag[2:]}"
                                         if setting.default is False else str(setting.default))
        assert formatter._expand_help(actions[setting.name]).endswith(f"(default: {shown})"), setting.name
    compare_help = " ".join(compare_parser().format_help().split())
    assert "--by COLUMN also break mean CAP down by this column (repeatable)" in compare_help
    assert "(default: [])" not in compare_help


def test_diagnose_help_shows_the_label_column_and_bootstrap_defaults():
    from capqa.cli.diagnose import build_parser

    help_text = " ".join(build_parser().format_help().split())
    assert "(default: label)" in help_text and "(default: 10000)" in help_text


def test_verdict_none_is_accepted_and_its_help_reads_as_a_sentence():
    from capqa.cli.score import build_parser

    parser = build_parser()
    for text in ("none", "None", " NONE "):
        assert parser.parse_args(["in.csv", "--out", "out.csv", "--verdict", text]).verdict is None
    assert parser.parse_args(["in.csv", "--out", "out.csv", "--verdict", "graded"]).verdict == "graded"
    assert parser.parse_args(["in.csv", "--out", "out.csv", "--verdict", "0.5"]).verdict == 0.5
    assert parser.parse_args(["in.csv", "--out", "out.csv", "--verdict", '{"exact": 1}']).verdict["exact"] == 1.0
    verdict = next(action for action in parser._actions if "--verdict" in action.option_strings)
    assert not verdict.help.startswith("None") and "'none'" in verdict.help


# Names a doc, help text or message may load the metric by: the published one, a placeholder
# namespace ("<ns>/cap"), or the sibling monotonicity module. A checkout's file name only where
# the line says it is the checkout's.
_LOAD = re.compile(r"""evaluate\.load\(\s*\\?["']([^"'\\]+)\\?["']""")


def _documents():
    yield from [REPO_ROOT / "README.md", REPO_ROOT / "cap_metric.py", REPO_ROOT / "app.py"]
    for folder in ("docs", "dataset_cards", "statement_model_card", "space_card"):
        yield from sorted((REPO_ROOT / folder).rglob("*.md"))
    yield from sorted((REPO_ROOT / "capqa").rglob("*.py"))


def test_the_metric_has_one_load_name_everywhere():
    wrong = []
    for path in _documents():
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            for name in _LOAD.findall(line):
                checkout = "checkout" in line or (number > 1 and "checkout" in lines[number - 2])
                allowed = (name in (metric_space_id(), "{metric_space_id()}") or re.fullmatch(r"<[^>]+>/cap", name)
                           or "monotonicity" in name or (name == "cap_metric.py" and checkout))
                if not allowed:
                    wrong.append(f"{path.relative_to(REPO_ROOT)}:{number}: {name}")
    assert not wrong, f"load the metric as evaluate.load({metric_space_id()!r}, ...): {wrong}"
    from capqa.metric.options import options_docstring

    assert f'evaluate.load("{metric_space_id()}", **options)' in options_docstring()


def test_build_datasets_without_inputs_points_to_the_samples(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as refused:
        main(["build-datasets", "--out", str(tmp_path / "hub")])
    assert refused.value.code != 0
    error = capsys.readouterr().err
    assert "--samples" in error and "cap_correctness_sample.csv" in error
    from capqa.cli.build_datasets import build_parser

    assert "--samples" in build_parser().format_help()
    # The way it points to works: the samples in data/ build both repos.
    assert main(["build-datasets", "--samples", "--out", str(tmp_path / "hub")]) == 0
    out = capsys.readouterr().out
    assert "CAP-Correctness" in out and "CAP-Statements" in out and "samples" in out
    assert any(Path(tmp_path / "hub").rglob("*.parquet"))
