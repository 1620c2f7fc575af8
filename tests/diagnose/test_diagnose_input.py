"""`python -m capqa diagnose` refuses input it cannot diagnose with one error line, before
writing anything (issue 17, defects 8-9: a KeyError traceback before)."""

import pandas as pd
import pytest

from capqa.cli import diagnose


@pytest.mark.parametrize("labels, words", [
    (["exact", "exact", "exact"], "it holds 3 row(s): exact (3 rows)"),  # one class
    (["exact"], "it holds 1 row(s): exact (1 row)"),  # one row
    (["exact", "equivalent"], "exact (1 row), equivalent (1 row)"),  # two classes, same severity
])
def test_diagnose_refuses_labels_with_nothing_to_compare(tmp_path, capsys, labels, words):
    data = tmp_path / "s.csv"
    pd.DataFrame({"label": labels, "m": [0.5] * len(labels)}).to_csv(data, index=False)
    with pytest.raises(SystemExit) as exit_info:
        diagnose.main([str(data), "--metrics", "m", "--bootstrap", "10", "--out", str(tmp_path / "o")])
    assert exit_info.value.code == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1 and "at least two classes of different severity" in errors[0]
    assert words in errors[0] and "Traceback" not in errors[0]
    assert not (tmp_path / "o").exists()  # refused before anything is written


@pytest.mark.parametrize("out", ["file.txt", "file.txt/sub"])
def test_diagnose_out_pointing_at_a_file_is_one_error_line(tmp_path, capsys, out):
    (tmp_path / "file.txt").write_text("not a folder")
    data = tmp_path / "s.csv"
    pd.DataFrame({"label": ["exact", "invalid"], "m": [0.9, 0.1]}).to_csv(data, index=False)
    with pytest.raises(SystemExit):
        diagnose.main([str(data), "--metrics", "m", "--bootstrap", "0", "--out", str(tmp_path / out)])
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1 and "is a file" in errors[0]
    assert (tmp_path / "file.txt").read_text() == "not a folder"
