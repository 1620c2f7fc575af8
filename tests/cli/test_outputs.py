"""What the commands write (issue 35 items 1, 2, 9): an output that is one of the inputs is refused
in every command, an output that is a named pipe is refused instead of waited on forever, and an
overwrite on a full disk leaves the old file whole."""

import os
import shutil
import signal

import pytest

from capqa.cli import main

from support.data import REPO_ROOT, data_path
from support.full_disk import run_on_full_disk

HANG_SECONDS = 60  # only ends a hang: each command here refuses in well under a second


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("CAPQA_TRACEBACK", raising=False)
    shutil.copy(data_path("paper_scores.csv"), tmp_path / "scores.csv")
    (tmp_path / "rows.csv").write_text("question,gold_answer,answer\nName a city in Bulgaria.,Sofia,Burgas\n"
                                       "What is 2+2?,4,five\n", encoding="utf-8")
    return tmp_path


@pytest.fixture
def hang_alarm():
    def hung(signum, frame):
        raise TimeoutError(f"the command still waited after {HANG_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG_SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def refused(argv, capsys):
    """(exit status, the one error line) of a command that must refuse."""
    try:
        status = main(argv)
    except SystemExit as exiting:  # argparse's usage errors
        status = exiting.code
    errors = capsys.readouterr().err
    assert status in (1, 2) and "Traceback" not in errors, errors
    lines = [line for line in errors.splitlines() if "error:" in line]
    assert len(lines) == 1, errors
    return lines[0]


# Each command with an output that is one of its inputs: (argv, the input that must survive).
SAME_FILE = {
    "score": (["score", "rows.csv", "--out", "rows.csv"], "rows.csv"),
    "fit-verdicts": (["fit-verdicts", "--scores", "scores.csv", "--out", "scores.csv"], "scores.csv"),
    "fit": (["fit", "--scores", "scores.csv", "--l2", "0.01", "--cap-plus-spec", "params", "--out", "params"],
            "params/cap_plus.json"),
    "diagnose": (["diagnose", "out/correlations.csv", "--metrics", "cap", "--bootstrap", "0", "--no-plots", "--out",
                  "out"], "out/correlations.csv"),
    "eval-statements": (["eval-statements", "--model", "rules", "--csv", "rows.csv", "--output-json", "rows.csv"],
                        "rows.csv"),
    "bench": (["bench", "--data", "rows.csv", "--json", "rows.csv"], "rows.csv"),
    "compare": (["compare", "scores.csv", "rows.csv", "--plot", "scores.csv"], "scores.csv"),
    "build-datasets": (["build-datasets", "--samples", "--out", "cards", "--cards", "cards", "--overwrite"],
                       "cards/CAP-Correctness/README.md"),
}


def _inputs_in_place(workdir):
    (workdir / "params").mkdir()
    shutil.copy(REPO_ROOT / "capqa" / "plus" / "params" / "cap_plus.json", workdir / "params" / "cap_plus.json")
    (workdir / "out").mkdir()
    shutil.copy(workdir / "scores.csv", workdir / "out" / "correlations.csv")
    shutil.copytree(REPO_ROOT / "dataset_cards", workdir / "cards")


def assert_refused_and_kept(workdir, capsys, argv, kept):
    before = (workdir / kept).read_bytes()
    line = refused(argv, capsys)
    assert "writing it would destroy the input" in line, line
    assert (workdir / kept).read_bytes() == before


@pytest.mark.parametrize("command", sorted(SAME_FILE))
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(workdir, capsys, command):
    _inputs_in_place(workdir)
    assert_refused_and_kept(workdir, capsys, *SAME_FILE[command])


# The commands whose output is a file the input can be under another name.
FILE_OUTPUTS = ["score", "fit-verdicts", "eval-statements", "bench", "compare"]


@pytest.mark.parametrize("command", FILE_OUTPUTS)
@pytest.mark.parametrize("link", [os.link, os.symlink], ids=["hard link", "symbolic link"])
def test_an_output_that_is_a_link_to_an_input_is_refused(workdir, capsys, command, link):
    argv, kept = SAME_FILE[command]
    link(workdir / kept, workdir / f"alias-{kept}")
    output = len(argv) - 1 - argv[::-1].index(kept)  # the last time the input is named: as the output
    assert_refused_and_kept(workdir, capsys, [*argv[:output], f"alias-{kept}", *argv[output + 1:]], kept)


@pytest.mark.parametrize("argv", [["score", "rows.csv", "--out", "pipe.csv"],
                                  ["fit-verdicts", "--scores", "scores.csv", "--out", "pipe.csv"],
                                  ["bench", "--data", "rows.csv", "--json", "pipe.csv"]])
def test_an_output_that_is_a_named_pipe_is_refused_not_waited_on(workdir, capsys, hang_alarm, argv):
    os.mkfifo(workdir / "pipe.csv")
    assert "is not a regular file (a named pipe" in refused(argv, capsys)


def test_fit_verdicts_on_a_full_disk_keeps_the_old_thresholds(workdir):
    old = workdir / "thresholds.json"
    shutil.copy(REPO_ROOT / "capqa" / "verdicts" / "params" / "thresholds.json", old)  # 52 kB
    before = old.read_bytes()
    done = run_on_full_disk(["fit-verdicts", "--scores", "scores.csv", "--out", "thresholds.json"], 8192, cwd=workdir)
    assert done.returncode == 1 and "error: [Errno 27] File too large" in done.stderr, done.stderr
    assert old.read_bytes() == before and sorted(os.listdir(workdir)) == ["rows.csv", "scores.csv", "thresholds.json"]


def test_docs_write_on_a_full_disk_keeps_the_old_readme(workdir):
    (workdir / "docs").mkdir()
    readme = workdir / "README.md"
    readme.write_text("# A long readme\n\n" + "A line of the readme that must not be lost.\n" * 320
                      + "<!-- generated: options -->\nstale\n<!-- /generated: options -->\n", encoding="utf-8")
    before = readme.read_bytes()  # 14 kB
    done = run_on_full_disk(["docs", "--write", "--only", "options", "--root", str(workdir)], 4096, cwd=workdir)
    assert done.returncode == 1 and "File too large" in done.stderr, done.stderr
    assert readme.read_bytes() == before and sorted(os.listdir(workdir)) == ["README.md", "docs", "rows.csv",
                                                                             "scores.csv"]


@pytest.mark.slow
def test_fit_on_a_full_disk_keeps_the_old_parameters(workdir):
    params = workdir / "params"
    shutil.copytree(REPO_ROOT / "capqa" / "plus" / "params", params)
    before = {path.name: path.read_bytes() for path in params.iterdir()}
    done = run_on_full_disk(["fit", "--scores", "scores.csv", "--l2", "0.01", "--cap-plus-spec", "shipped",
                             "--out", "params"], 8192, cwd=workdir)
    assert done.returncode == 1 and "File too large" in done.stderr, done.stderr
    assert {path.name: path.read_bytes() for path in params.iterdir()} == before
