"""``python -m capqa``: every user mistake in every subcommand is one ``error:`` line, never a traceback."""

import os
import subprocess
import sys

import pytest

from capqa.cli import COMMANDS, main

from support.data import REPO_ROOT

TABLE = "question,gold_answer,answer\nName a city in Bulgaria.,Sofia,Burgas\nWhat is 2+2?,4,five\n"


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (tmp_path / "rows.csv").write_text(TABLE, encoding="utf-8")
    return tmp_path


def run_cli(argv, capsys):
    """(exit status, stderr lines) of ``python -m capqa ARGV`` run in this process."""
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's own errors: usage, then one "prog: error: ..." line
        status = exit_.code
    return status, capsys.readouterr().err.strip().splitlines()


def assert_one_error_line(status, lines, expected):
    assert status != 0
    assert not any("Traceback" in line for line in lines), lines
    errors = [line for line in lines if "error:" in line]
    assert len(errors) == 1, lines
    assert expected in errors[0], errors[0]


BAD_INPUTS = {
    "score": [(["missing.csv", "--out", "out.csv"], "`missing.csv`: no such file"),
              (["rows.csv", "--out", "out.csv", "--gold-column", "gold"], "has no column 'gold'"),
              (["rows.csv", "--out", "out.csv", "--alpha", "2"],
               "argument --alpha: must be a float in [0, 1], got '2'"),
              (["rows.csv", "--out", "out.csv", "--nli-modle", "x"],
               "unrecognized argument: --nli-modle (did you mean --nli-model?)")],
    "compare": [(["missing.csv", "rows.csv"], "`missing.csv`: no such file"),
                (["rows.csv"], "compare needs at least two input files"),
                (["rows.csv", "rows.csv", "--nli-modle", "x"],
                 "unrecognized argument: --nli-modle (did you mean --nli-model?)")],
    "diagnose": [(["missing.csv", "--metrics", "cap", "--out", "diag"], "not found"),
                 (["rows.csv", "--metrics", "cap", "--label-column", "question", "--out", "diag"], "cap")],
    "train-statements": [(["--csv", "missing.csv", "--output-dir", "model"], "missing.csv")],
    "eval-statements": [(["--model", "rules", "--csv", "missing.csv"], "missing.csv")],
    "build-datasets": [(["--statements", "missing.csv", "--out", "hub"], "missing.csv")],
    "publish": [(["model", "--folder", "missing"], "missing"), (["nothing"], "invalid choice")],
    "bench": [(["--size", "tiny", "--rows", "0"], "`rows` must be a positive integer"),
              (["--size", "tiny", "--data", "missing.csv"], "missing.csv")],
    "fit": [(["--scores", "missing.csv", "--out", "params"], "missing.csv")],
    "fit-verdicts": [(["--scores", "missing.csv", "--out", "thresholds.json"], "missing.csv")],
    "agreement": [(["--data", "missing.csv"], "`missing.csv`: no such file"),
                  (["--questions", "0"], "must be a positive integer, got 0"),
                  (["--sources", "nosuch"], "names 'nosuch'"),
                  (["--folds", "1"], "must be an integer from 2")],
    "docs": [(["--check", "--only", "no-such-table"], "--only must name registered tables"),
             (["--check", "--root", "missing"], "missing")],
    "tiny-model": [(["rows.csv"], "`rows.csv` already exists and is not an empty folder"),
                   (["model", "--seed", "0"], "`--seed` must be a positive integer")],
}


def test_every_subcommand_has_bad_input_cases():
    assert set(BAD_INPUTS) == set(COMMANDS)


@pytest.mark.parametrize("command, argv, expected",
                         [(command, argv, expected) for command, cases in BAD_INPUTS.items()
                          for argv, expected in cases])
def test_user_mistakes_are_one_error_line(workdir, capsys, command, argv, expected):
    status, lines = run_cli([command, *argv], capsys)
    assert_one_error_line(status, lines, expected)


def test_unknown_command_is_one_error_line(capsys):
    status, lines = run_cli(["scroe"], capsys)
    assert status == 2 and lines == [line for line in lines if line.startswith("error: unknown command 'scroe'")]
    assert "score" in lines[0]


def test_model_that_cannot_load_names_the_way_forward(workdir, capsys, random_nli_model):
    status, lines = run_cli(["score", "rows.csv", "--out", "out.csv", "--nli-model", random_nli_model,
                             "--device", "cpu", "--statement-model", "./no-such-model"], capsys)
    assert_one_error_line(status, lines, "there is no such local folder: './no-such-model'")
    assert "--statement-model rules" in lines[-1] and "train-statements" in lines[-1]


def test_resume_with_another_variant_is_one_error_line(workdir, capsys, random_nli_model):
    common = ["score", "rows.csv", "--out", "out.csv", "--nli-model", random_nli_model, "--device", "cpu",
              "--statement-model", "rules"]
    assert run_cli(common, capsys)[0] == 0
    status, lines = run_cli([*common, "--variant", "plus"], capsys)
    assert_one_error_line(status, lines, "holds rows of another job; changed since: variant")


def test_a_real_process_prints_no_traceback(tmp_path):
    result = subprocess.run([sys.executable, "-m", "capqa", "score", "missing.csv", "--out", "out.csv"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1"})
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("error: ") and "Traceback" not in result.stderr


def test_tiny_model_builds_a_model_that_the_printed_command_scores_with(workdir, capsys):
    """Issue 36, item 18: the README's way to try every command with no model downloaded."""
    assert main(["tiny-model", "tiny-nli"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert "random" in printed[0] and "say nothing" in printed[0]
    score = next(line.split() for line in printed if " score " in line)
    (workdir / "answers.csv").write_text(TABLE, encoding="utf-8")
    assert main(score[3:]) == 0  # `python -m capqa` ... as printed
    scored = (workdir / "answers-cap.csv").read_text(encoding="utf-8").splitlines()
    assert len(scored) == 3 and scored[0].split(",")[3] == "cap"


def _misspelt(flag):
    """``--nli-model`` -> ``--lni-model``: the first two different letters swapped (the last two
    would make ``--thresholds`` as near ``--threshold`` as itself)."""
    i = min(i for i in range(3, len(flag)) if flag[i] != flag[i - 1])
    return flag[:i - 1] + flag[i] + flag[i - 1] + flag[i + 1:]


def _long_flags(parser):
    """The parser's own long flags, and those of its subcommands (``publish space --repo``, ...)."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _long_flags(child)
        yield from (flag for flag in action.option_strings if flag.startswith("--") and flag != "--help")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_misspelt_flag_is_two_lines_with_the_nearest_flag(workdir, capsys, command):
    """Issue 36, item 8: ``--nli-modle`` printed 22 lines of usage and no "did you mean". Every
    subcommand's every flag, misspelt, is now two lines that name the flag meant, whatever else
    of the command line is missing."""
    import importlib

    parser = importlib.import_module(COMMANDS[command][0]).build_parser()
    flags = sorted(set(_long_flags(parser)))
    assert flags, command
    for flag in flags:
        status, lines = run_cli([command, _misspelt(flag), "value"], capsys)
        assert status == 2 and len(lines) <= 2, (flag, lines)
        assert f"unrecognized argument: {_misspelt(flag)} (did you mean {flag}?)" in lines[0], (flag, lines)
        assert "--help" in lines[-1]
