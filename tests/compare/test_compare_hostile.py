"""compare on hostile input (issue 35 items 1, 14, 17): scores outside [0, 1], colliding scored
files, options of `score` that compare cannot pass on, seeds, scored JSONL files, and cells whose
line breaks would break a table. Each is refused with one message that names it, or written as
the format shows it."""

import json
import re

import pandas as pd
import pytest

from capqa.cli import main
from capqa.compare.report import format_comparison, markdown_report
from capqa.compare.systems import ScoredSystem, compare_systems

from support.identity import job_identity

IDENTITY = job_identity()
QUESTIONS = ["What is the capital of France?", "Who wrote Hamlet?", "When did the Berlin Wall fall?"]


def scored(cap, questions=QUESTIONS):
    return pd.DataFrame({"question": questions, "gold_answer": ["Paris", "Shakespeare", "1989"],
                         "answer": ["Paris", "Marlowe", "1989"], "cap": [str(value) for value in cap]})


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return tmp_path


def error_of(argv, capsys):
    """The one `error:` line of a command that fails (exit status 1, no traceback)."""
    assert main(argv) == 1
    errors = capsys.readouterr().err
    assert "Traceback" not in errors
    lines = [line for line in errors.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, errors
    return lines[0]


# --- item 14: every metric of CAP lies in [0, 1] ----------------------------------------------------

@pytest.mark.parametrize("bad, shown", [(1.5, "1.5"), (-1, "-1"), (3.5, "3.5"), (1.00001, "1.00001")])
def test_a_score_outside_the_unit_interval_is_refused_with_its_row(bad, shown):
    systems = [ScoredSystem("A", scored([0.5, 0.7, 0.2]), IDENTITY),
               ScoredSystem("B", scored([0.6, bad, 0.1]), IDENTITY)]
    with pytest.raises(ValueError, match=rf"`B`: column 'cap' row 2 holds '{re.escape(shown)}', expected a number "
                                         r"in \[0, 1\] \(1 such row\(s\)\)"):
        compare_systems(systems)
    # 1 + 4.6e-9: P(entail) = 1 and P(neutral) = 1.5e-8 from a float32 softmax; a real score, kept.
    edges = [ScoredSystem("A", scored([0.0, 1.0, 0.5]), IDENTITY),
             ScoredSystem("B", scored([1.0000000045689936, 0, "0.5"]), IDENTITY)]
    result = compare_systems(edges, n_resamples=10, n_permutations=10)
    assert result.systems[1].metrics["cap"].mean == pytest.approx(0.5)
    with pytest.raises(ValueError, match="row 1 holds '1.000002'"):
        compare_systems([edges[0], ScoredSystem("B", scored(["1.000002", 0, 0]), IDENTITY)])


def test_the_command_refuses_a_scored_file_with_a_score_out_of_range(workdir, capsys):
    scored([0.5, 0.7, 0.2]).to_csv("a.csv", index=False)
    scored([0.5, 1.5, 0.2]).to_csv("b.csv", index=False)
    assert "`b`: column 'cap' row 2 holds '1.5'" in error_of(["compare", "a.csv", "b.csv", "--allow-mixed-settings"],
                                                              capsys)


# --- item 17: the plumbing says what is wrong ---------------------------------------------------

def test_two_inputs_scored_into_one_file_are_refused_before_any_scoring(workdir, capsys):
    for folder in ("x", "y"):
        (workdir / folder).mkdir()
        scored([0.5, 0.5, 0.5]).drop(columns="cap").to_csv(workdir / folder / "answers.csv", index=False)
    line = error_of(["compare", "x/answers.csv", "y/answers.csv", "--scored-dir", "scored"], capsys)
    assert ("two inputs would be scored into the same file scored/answers.cap.csv: x/answers.csv and "
            "y/answers.csv") in line
    assert not (workdir / "scored").exists()


def test_an_output_of_compare_that_is_an_input_is_refused(workdir, capsys):
    scored([0.5, 0.7, 0.2]).to_csv("a.csv", index=False)
    scored([0.5, 0.7, 0.2]).drop(columns="cap").to_csv("b.csv", index=False)
    scored([0.5, 0.7, 0.2]).drop(columns="cap").to_csv("c.csv", index=False)
    before = (workdir / "a.csv").read_bytes()
    assert "`--plot` a.csv is the file of `input 1`" in error_of(["compare", "a.csv", "b.csv", "--plot", "a.csv"],
                                                                  capsys)
    # b.csv would be scored into a.cap.csv... no: into b.cap.csv; an input named so is refused.
    (workdir / "b.cap.csv").write_bytes(before)
    line = error_of(["compare", "b.csv", "b.cap.csv", "--allow-mixed-settings"], capsys)
    assert "`the scored file of b.csv` b.cap.csv is the file of `input 2`" in line
    assert (workdir / "a.csv").read_bytes() == before == (workdir / "b.cap.csv").read_bytes()


def test_scores_own_out_is_refused_by_name(workdir, capsys):
    scored([0.5, 0.7, 0.2]).to_csv("a.csv", index=False)
    for given in (["--out", "x.csv"], ["--out=x.csv"], ["--ou", "x.csv"]):
        line = error_of(["compare", "a.csv", "a.csv", "--names", "a", "b", *given], capsys)
        assert "--out is an option of `score`, not of `compare`" in line and "--scored-dir" in line


@pytest.mark.parametrize("option, value, message", [
    ("--seed", "-1", "`--seed` must be a non-negative integer (a random seed), got -1"),
    ("--resamples", "0", "`--resamples` must be a positive integer, got 0"),
    ("--permutations", "-5", "`--permutations` must be a positive integer, got -5"),
])
def test_numbers_of_compare_are_refused_by_their_option(workdir, capsys, option, value, message):
    scored([0.5, 0.7, 0.2]).to_csv("a.csv", index=False)
    assert message in error_of(["compare", "a.csv", "a.csv", "--names", "a", "b", option, value], capsys)


def test_a_scored_jsonl_file_may_hold_numbers_and_booleans(workdir, capsys):
    rows = scored([0.5, 0.7, 0.2]).assign(cap=[0.5, 0.7, 0.2], correct=[False, True, False]).to_dict("records")
    (workdir / "a.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    scored([0.6, 0.7, 0.1]).assign(correct=["True", "True", "False"]).to_csv("b.csv", index=False)
    assert main(["compare", "a.jsonl", "b.csv", "--allow-mixed-settings", "--format", "json", "--resamples", "20",
                 "--permutations", "20"]) == 0
    systems = json.loads(capsys.readouterr().out)["systems"]
    assert systems[0]["metrics"]["cap"]["mean"] == pytest.approx(0.4667, abs=1e-4)
    assert systems[0]["metrics"]["accuracy"]["mean"] == pytest.approx(1 / 3)


LINE_BREAKS = ["\n", "\r\n", "\r", "\u2028", "\n\n| injected | row |\n"]


def comparison(line_break):
    questions = [f"What is the capital{line_break}of France?", "Who wrote | Hamlet?", "When did it fall?"]
    systems = [ScoredSystem(f"first{line_break}system", scored([0.5, 0.7, 0.2], questions), IDENTITY),
               ScoredSystem("second", scored([0.6, 0.9, 0.1], questions), IDENTITY)]
    return compare_systems(systems, by=["question"], n_resamples=20, n_permutations=20, allow_mixed_settings=True)


@pytest.mark.parametrize("line_break", LINE_BREAKS)
def test_line_breaks_in_cells_stay_inside_their_row_in_every_format(line_break):
    result, plain = comparison(line_break), comparison(" ")
    for format in ("text", "markdown", "latex"):
        assert format_comparison(result, format).count("\n") == format_comparison(plain, format).count("\n"), format
    markdown = format_comparison(result, "markdown")
    assert "What is the capital" + line_break.replace("|", "\\|") not in markdown
    assert re.search(r"What is the capital(<br>)+.*of France\?", markdown) and "Who wrote \\| Hamlet?" in markdown
    assert "What is the capital" + repr(line_break)[1:-1].replace("|", "|") in format_comparison(result, "text")
    # The Space escapes every Markdown mark first: a line break still stays in its cell.
    escaped = markdown_report(result, lambda cell: cell.replace("|", "\\|"))
    assert escaped.count("\n") == markdown_report(plain, lambda cell: cell.replace("|", "\\|")).count("\n")


def test_the_summary_is_never_written_through_a_planted_temporary_file(tmp_path):
    """Issue 35 item 3: OUT.summary.json.partial, a link planted to another file, got the summary."""
    from capqa.compare.summary import summarise_scores, summary_path, write_summary

    out = tmp_path / "scored.csv"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "scored.csv.summary.json.partial").symlink_to(victim)  # the name the old writer used
    written = write_summary(summarise_scores(scored([0.5, 0.7, 0.2]), IDENTITY, n_resamples=10), out)
    assert victim.read_text() == "precious\n" and written == summary_path(out)
    assert json.loads(written.read_text())["hashcode"] == IDENTITY.hashcode()
