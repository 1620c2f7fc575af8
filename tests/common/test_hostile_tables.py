"""Hostile input tables (issue 27, items 15, 17, 19 and 20): every refusal names the file and the
line, quotes the input cut short, and comes as one error line, never a traceback; the analysis
commands read their files with the strict reader of `score`."""

import json
import re

import pandas as pd
import pytest

from capqa.cli import main as cli_main
from capqa.common.quoting import MAX_MESSAGE_CHARS, bounded_message, quote, quote_all
from capqa.common.tables import TableError, read_score_table, read_table

from support.data import data_path

# Long enough to show that a message does not grow with the input, small enough to write fast.
HUGE = 3_000_000


@pytest.fixture(autouse=True)
def errors_as_lines(monkeypatch):
    """These tests read the one `error:` line a command prints (CAPQA_TRACEBACK would re-raise)."""
    monkeypatch.delenv("CAPQA_TRACEBACK", raising=False)


def write(path, text):
    path.write_bytes(text.encode("utf-8"))
    return path


def one_error_line(capsys):
    """The single `error:` line a command printed, checked to be short and without a traceback."""
    errors = capsys.readouterr().err
    assert "Traceback" not in errors
    lines = [line for line in errors.splitlines() if "error:" in line]
    assert len(lines) == 1, errors[-2000:]
    assert len(lines[0]) < MAX_MESSAGE_CHARS + 200
    return lines[0]


# --- JSONL ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("line", ["[" * 100_000, '{"answer": ' * 50_000, '{"a": [' + "[" * 100_000 + "]}"])
def test_deeply_nested_jsonl_is_refused_with_file_and_line(tmp_path, line):
    path = write(tmp_path / "deep.jsonl", '{"answer": "a"}\n' + line + "\n")
    with pytest.raises(TableError, match=r"`deep.jsonl` line 2, column 1: not valid JSON \(nested too deeply"):
        read_table(path)


def test_deeply_nested_jsonl_is_one_error_line_in_score(tmp_path, capsys):
    path = write(tmp_path / "deep.jsonl", "[" * 100_000 + "\n")
    assert cli_main(["score", str(path), "--out", str(tmp_path / "o.csv")]) == 1
    assert "`deep.jsonl` line 1, column 1: not valid JSON (nested too deeply to read)" in one_error_line(capsys)
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize("text, where", [
    ('{"answer": "a\\ud800b"}', r"line 2, column 'answer': the value holds a lone surrogate \\ud800 at character 1"),
    ('{"answer": "\\udfff"}', r"line 2, column 'answer': the value holds a lone surrogate \\udfff at character 0"),
    ('{"answer": "a", "\\ud83d": "b"}', r"line 2, column '\\ud83d': the key holds a lone surrogate"),
])
def test_a_lone_surrogate_escape_names_file_line_and_column(tmp_path, text, where):
    path = write(tmp_path / "s.jsonl", '{"answer": "ok \\ud83d\\ude00"}\n' + text + "\n")
    with pytest.raises(TableError, match=r"`s.jsonl` " + where):
        read_table(path)


def test_a_surrogate_pair_escape_is_text(tmp_path):
    """Only half a pair is refused: an escaped pair is one character, kept as written."""
    path = write(tmp_path / "p.jsonl", '{"answer": "smile \\ud83d\\ude00"}\n')
    assert list(read_table(path)["answer"]) == ["smile \U0001F600"]


def test_duplicate_keys_are_refused_like_duplicate_columns(tmp_path):
    path = write(tmp_path / "d.jsonl", '{"answer": "a", "gold": "b"}\n{"answer": "a", "gold": "b", "answer": "c"}\n')
    with pytest.raises(TableError, match=r"`d.jsonl` line 2: key 'answer' appears twice in one object"):
        read_table(path)


def test_lines_with_other_keys_are_refused_like_rows_of_other_width(tmp_path):
    path = write(tmp_path / "k.jsonl", '{"answer": "a", "gold": "b"}\n\n{"answer": "a", "note": "n"}\n')
    with pytest.raises(TableError, match=r"`k.jsonl` line 3: other keys than line 1 \(no 'gold'; also 'note'\)"):
        read_table(path)
    # Keys in another order are the same keys.
    same = write(tmp_path / "same.jsonl", '{"answer": "a", "gold": "b"}\n{"gold": "c", "answer": "d"}\n')
    assert read_table(same).to_dict("list") == {"answer": ["a", "d"], "gold": ["b", "c"]}


@pytest.mark.parametrize("text, message", [
    ('{"answer": ' + "1" * 5000 + "}", r"line 1: not valid JSON here \(Exceeds the limit"),
    ('{"": "a"}', r"line 1, column 1: the column has no name"),
    ("", r"is empty: expected one JSON object per line"),
    ('{"answer": NaN}', r"line 1, column 'answer': expected a string, got float nan"),
])
def test_other_hostile_jsonl_is_refused_with_file_and_line(tmp_path, text, message):
    with pytest.raises(TableError, match=r"`x.jsonl` " + message):
        read_table(write(tmp_path / "x.jsonl", text + "\n" if text else ""))


# --- messages of bounded length ------------------------------------------------------------------

def test_quoted_input_is_cut_and_says_how_long_it_was():
    assert quote("a" * 10) == "'aaaaaaaaaa'"
    assert quote("a" * HUGE) == f"{'a' * 80!r}… (3,000,000 characters)"
    assert quote_all(f"c{i}" for i in range(300_000)).endswith("'c29', … and 299,970 more")
    cut = bounded_message("start " + "x" * HUGE + " end")
    assert len(cut) < MAX_MESSAGE_CHARS + 100 and cut.startswith("start") and cut.endswith("end")


@pytest.mark.parametrize("content", [
    "x" * HUGE,  # one 3 MB line, no newline: the whole file is one column name
    # A 300k-column header: about 25 s of pandas building 300,000 empty columns before the
    # columns are checked.
    pytest.param(",".join(f"column{i}" for i in range(300_000)) + "\n", marks=pytest.mark.slow),
    "question,answer\n" + "q," + "a" * HUGE + ",extra\n",  # a huge row with a field too many
])
def test_a_huge_input_gives_a_short_error_line(tmp_path, capsys, content):
    path = write(tmp_path / "big.csv", content)
    assert cli_main(["score", str(path), "--out", str(tmp_path / "o.csv")]) == 1
    assert "big.csv" in one_error_line(capsys)


def test_a_huge_jsonl_value_of_the_wrong_type_gives_a_short_message(tmp_path):
    path = write(tmp_path / "v.jsonl", json.dumps({"answer": [["x" * 100] * 30_000]}) + "\n")
    with pytest.raises(TableError) as refused:
        read_table(path)
    assert "line 1, column 'answer': expected a string, got list" in str(refused.value)
    assert len(str(refused.value)) < 500


def test_a_duplicate_huge_column_name_is_quoted_short(tmp_path):
    name = "n" * HUGE
    with pytest.raises(TableError) as refused:
        read_table(write(tmp_path / "d.csv", f"{name},{name}\n1,2\n"))
    assert "appears twice (columns 1 and 2)" in str(refused.value) and len(str(refused.value)) < 500


# --- the analysis commands read strictly -------------------------------------------------------

ANALYSIS_COMMANDS = {
    "diagnose": lambda path, out: ["diagnose", str(path), "--metrics", "cap", "--bootstrap", "0", "--out", str(out)],
    "fit-verdicts": lambda path, out: ["fit-verdicts", "--scores", str(path), "--metrics", "cap", "--split", "",
                                       "--out", str(out / "t.json")],
    "fit": lambda path, out: ["fit", "--scores", str(path), "--l2", "0.01", "--out", str(out)],
}

BAD_SCORE_FILES = {
    "duplicate column": ("s.csv", "split,label,cap,cap\nvalidation,exact,0.9,0.1\nvalidation,invalid,0.1,0.2\n",
                         r"`s.csv` line 1: column name 'cap' appears twice"),
    "extra field": ("s.csv", "split,label,cap\nvalidation,exact,0.9\nvalidation,invalid,0.1,0.2\n",
                    r"`s.csv` line 3: 4 fields but the header has 3"),
    "bad JSONL line": ("s.jsonl", '{"split": "validation", "label": "exact", "cap": 0.9}\n'
                                  '{"split": "validation", "label": "invalid", "cap": 0.1,}\n',
                       r"`s.jsonl` line 2, column \d+: not valid JSON"),
    "empty file": ("s.csv", "", r"`s.csv` is empty"),
    "header only": ("s.csv", "split,label,cap\n", r"`s.csv` has no rows"),
    "text for a score": ("s.csv", "split,label,cap,pe_f\nvalidation,exact,0.9,0.5\nvalidation,invalid,high,x\n",
                         r"`s.csv` line 3, column '(cap|pe_f)': expected a number, got '(high|x)'"),
}


def exit_code(argv):
    """What a command ends with: the code it returns, or argparse's exit code."""
    try:
        return cli_main(argv)
    except SystemExit as exiting:
        return exiting.code


@pytest.mark.parametrize("command", sorted(ANALYSIS_COMMANDS))
@pytest.mark.parametrize("problem", sorted(BAD_SCORE_FILES))
def test_analysis_commands_refuse_a_bad_file_with_its_name_and_line(tmp_path, capsys, command, problem):
    name, content, message = BAD_SCORE_FILES[problem]
    path = write(tmp_path / name, content)
    assert exit_code(ANALYSIS_COMMANDS[command](path, tmp_path / "out")) in (1, 2)
    line = one_error_line(capsys)
    assert re.search(message, line), line


@pytest.fixture(scope="module")
def validation_scores(tmp_path_factory):
    """The paper's 1,000 validation rows, to damage one cell of a copy."""
    scores = pd.read_csv(data_path("paper_scores.csv"), dtype={"row_id": str})
    return scores[scores["split"] == "validation"].reset_index(drop=True)


@pytest.mark.parametrize("value, message", [
    ("abc", r"line 7, column 'pe_f': expected a number, got 'abc'"),
    ("1.5", r"line 7, column 'pe_f': expected a probability in \[0, 1\], got 1.5"),
    ("", r"line 7, column 'pe_f': expected a probability in \[0, 1\], got an empty cell"),
    ("0.5", r"line 7: pe_f \+ pn_f \+ pc_f = [\d.]+; the three probabilities of one direction must sum to 1"),
])
def test_fit_names_the_column_and_line_not_the_internal_array(validation_scores, tmp_path, capsys, value, message):
    damaged = validation_scores.astype({"pe_f": str})
    damaged.loc[5, "pe_f"] = value  # line 7: the header, then rows 0-5
    damaged.to_csv(tmp_path / "s.csv", index=False)
    assert cli_main(ANALYSIS_COMMANDS["fit"](tmp_path / "s.csv", tmp_path / "out")) == 1
    line = one_error_line(capsys)
    assert re.search(r"`s.csv` " + message, line), line
    assert "probabilities_forward" not in line and not (tmp_path / "out").exists()


def test_diagnose_reads_numbers_in_jsonl_and_labels_as_text(tmp_path):
    rows = [{"label": "exact", "cap": 0.9}, {"label": "invalid", "cap": 0.2}, {"label": "partial", "cap": 1}]
    path = write(tmp_path / "s.jsonl", "".join(json.dumps(row) + "\n" for row in rows))
    table = read_score_table(path, ["cap"])
    assert list(table["cap"]) == [0.9, 0.2, 1.0] and list(table["label"]) == ["exact", "invalid", "partial"]
    assert list(table.index) == [1, 2, 3]  # the line of each row
    assert cli_main(ANALYSIS_COMMANDS["diagnose"](path, tmp_path / "out")) == 0


@pytest.mark.parametrize("content, message", [
    ("", r"`statements`: `s.csv` is empty"),
    ("id,question,answer,statement,id\n1,q,a,s,2\n", r"`statements`: `s.csv` line 1: column name 'id' appears twice"),
    ("id,question,answer,statement\n1,q,a,s,extra\n", r"`statements`: `s.csv` line 2: 5 fields but the header has 4"),
    ("id, question,question ,answer,statement\n1,q,q,a,s\n", r"`s.csv` line 1: column name 'question' appears twice"),
])
def test_build_datasets_reads_upstream_files_strictly(tmp_path, capsys, content, message):
    path = write(tmp_path / "s.csv", content)
    assert cli_main(["build-datasets", "--statements", str(path), "--out", str(tmp_path / "out")]) == 1
    assert re.search(message, one_error_line(capsys))
    assert not (tmp_path / "out").exists()


# --- JSON options and files: deep nesting is a message, not a RecursionError ---------------------

DEEP = "[" * 100_000


def test_deep_json_in_diagnose_options_is_one_error_line(tmp_path, capsys):
    path = write(tmp_path / "s.csv", "split,label,cap\nvalidation,exact,0.9\ntest,invalid,0.1\n")
    deep_file = write(tmp_path / "deep.json", DEEP)
    for option in (["--severity", DEEP], ["--severity", str(deep_file)],
                   ["--verdict", str(deep_file), "--split-column", "split"]):
        code = exit_code(["diagnose", str(path), "--metrics", "cap", "--bootstrap", "0", "--out", str(tmp_path / "o"),
                          *option])
        assert code == 2
        assert "nested too deeply to read" in one_error_line(capsys)


def test_deep_json_for_the_score_verdict_is_one_error_line(tmp_path, capsys, monkeypatch):
    # A relative path, as a user types it: a long temporary folder would be cut out of the quote.
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path / "in.csv", "question,gold_answer,answer\nq,g,a\n")
    write(tmp_path / "deep.json", DEEP)
    assert exit_code(["score", str(path), "--out", str(tmp_path / "o.csv"), "--verdict", "deep.json"]) == 2
    line = one_error_line(capsys)
    assert "--verdict" in line and "deep.json" in line


def test_deep_json_in_the_harness_options_variable_is_a_value_error(monkeypatch):
    from capqa.harness.shared import OPTIONS_ENVIRONMENT_VARIABLE, harness_options

    monkeypatch.setenv(OPTIONS_ENVIRONMENT_VARIABLE, DEEP)
    with pytest.raises(ValueError, match=rf"`{OPTIONS_ENVIRONMENT_VARIABLE}` must be a JSON object of CAP metric "
                                         r"options: nested too deeply to read"):
        harness_options()
    monkeypatch.setenv(OPTIONS_ENVIRONMENT_VARIABLE, '"' + "x" * HUGE + '"')
    with pytest.raises(ValueError) as refused:
        harness_options()
    assert len(str(refused.value)) < 500


def test_library_messages_quote_a_huge_value_short():
    """The metric's own checks (not only the command line) quote what they refuse cut short."""
    from capqa.common.validation import check_text_list
    from capqa.monotonicity.measures import prepare_labels
    from capqa.verdicts.policies import policy_credits

    refusals = [(lambda: check_text_list(["a", [["x" * 1000] * 1000] * 1000], "predictions"), TypeError),
                (lambda: prepare_labels(["y" * HUGE, "exact"]), ValueError),
                (lambda: policy_credits("z" * HUGE), ValueError),
                (lambda: policy_credits({"exact": "w" * HUGE}), ValueError)]
    for refuse, error_type in refusals:
        with pytest.raises(error_type) as refused:
            refuse()
        assert len(str(refused.value)) < 700, str(refused.value)[:300]
    assert quote([["x" * 100] * 30_000]).startswith("[['xxxxxxxx") and len(quote([["x"] * 10 ** 6])) <= 81


@pytest.mark.parametrize("value, shown", [("", "an empty cell"), ("inf", "inf"), ("nan", "an empty cell")])
def test_a_non_finite_score_is_named_by_line_and_column(tmp_path, capsys, value, shown):
    rows = "split,label,cap\n" + "".join(f"validation,{label},0.{i}\n" for i, label in enumerate(
        ["exact", "invalid", "partial", "exact", "invalid"]))
    path = write(tmp_path / "s.csv", rows.replace("0.3", value))
    for command in ("diagnose", "fit-verdicts"):
        assert exit_code(ANALYSIS_COMMANDS[command](path, tmp_path / "out")) == 2
        line = one_error_line(capsys)
        assert f"`s.csv` line 5, column 'cap': expected a finite score, got {shown}" in line, line


def test_diagnose_takes_a_metric_named_twice_once(tmp_path):
    path = write(tmp_path / "s.csv", "label,cap\nexact,0.9\ninvalid,0.1\npartial,0.5\n")
    assert exit_code(["diagnose", str(path), "--metrics", "cap, cap", "--bootstrap", "0",
                      "--out", str(tmp_path / "o")]) == 0
    assert set(pd.read_csv(tmp_path / "o" / "descriptives.csv")["metric"]) == {"cap"}
    assert len(pd.read_csv(tmp_path / "o" / "descriptives.csv")) == 3  # one row per class, not two


def test_diagnose_refuses_a_bootstrap_count_that_would_run_for_days(tmp_path, capsys):
    path = write(tmp_path / "s.csv", "label,cap\nexact,0.9\ninvalid,0.1\n")
    assert exit_code(["diagnose", str(path), "--metrics", "cap", "--bootstrap", str(10 ** 12), "--out",
                      str(tmp_path / "o")]) == 2
    assert "--bootstrap must be from 0 to 1,000,000" in one_error_line(capsys)


@pytest.mark.parametrize("content, message", [
    ("\nquestion,gold_answer,answer\nq,g,a\n", r"`x.csv` line 1 is blank: expected the header"),
])
def test_a_blank_first_line_is_named_not_read_as_an_empty_header(tmp_path, content, message):
    with pytest.raises(TableError, match=message):
        read_table(write(tmp_path / "x.csv", content))


def test_a_folder_or_a_pipe_is_not_read_as_a_table(tmp_path):
    import os

    (tmp_path / "d.csv").mkdir()
    os.mkfifo(tmp_path / "p.csv")
    with pytest.raises(IsADirectoryError, match="is a folder"):
        read_table(tmp_path / "d.csv")
    with pytest.raises(OSError, match="is not a regular file"):
        read_table(tmp_path / "p.csv")  # would block forever if it were opened


def test_columns_not_asked_for_may_hold_anything(tmp_path):
    path = write(tmp_path / "s.csv", "label,cap,bleu,pe_f\nexact,0.9,n/a,\ninvalid,0.1,0.2,high\n")
    assert exit_code(ANALYSIS_COMMANDS["diagnose"](path, tmp_path / "out")) == 0


def test_diagnose_tables_escape_formula_names(tmp_path):
    path = write(tmp_path / "s.csv", "label,=cmd|' /C calc'!A0\nexact,0.9\ninvalid,0.1\npartial,0.5\n")
    assert exit_code(["diagnose", str(path), "--metrics", "=cmd|' /C calc'!A0", "--bootstrap", "0", "--no-plots",
                      "--out", str(tmp_path / "o")]) == 0
    cells = pd.read_csv(tmp_path / "o" / "descriptives.csv", dtype=str)["metric"]
    assert set(cells) == {"'=cmd|' /C calc'!A0"}
    assert json.loads((tmp_path / "o" / "results.json").read_text())["descriptives"][0]["metric"] == "=cmd|' /C calc'!A0"
