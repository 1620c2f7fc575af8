"""The Space's "Compare systems" tab and the summary of a scored file, called without a server
(the served endpoints are in test_app.py)."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from capqa.compare.summary import summarise_scores, summary_path, write_summary

from support.identity import job_identity
from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
gr = lazy_module("gradio")
space = lazy_module("capqa.space")

IDENTITY = job_identity(variant="plus")
LINK = '<a href="https://example.com">[click](https://example.com)</a>'


def write_scored(folder: Path, name: str, cap, identity=IDENTITY) -> Path:
    """A scored CSV as `score` writes it, with its summary beside it (when ``identity``)."""
    n = len(cap)
    table = pd.DataFrame({"question": [f"Question {i // 2}?" for i in range(n)],
                          "gold_answer": [f"gold {i}" for i in range(n)], "answer": ["an answer"] * n,
                          "cap": cap, "cap_plus": cap, "relation": ["exact", "invalid"] * (n // 2),
                          "topic": [LINK if i % 2 else "science" for i in range(n)]})
    path = folder / name
    table.to_csv(path, index=False)
    if identity:
        write_summary(summarise_scores(table, identity, blank_predictions=0), path)
    return path


@pytest.fixture
def uploads(tmp_path):
    rng = np.random.default_rng(0)
    first = rng.uniform(size=40)
    return (write_scored(tmp_path, "baseline.csv", first),
            write_scored(tmp_path, "better.csv", np.clip(first + 0.2, 0, 1)))


def test_the_tab_compares_uploaded_files_with_their_summaries(uploads):
    files = [*map(str, uploads), *(str(summary_path(path)) for path in uploads)]
    report, figure = space.compare_uploads(files, by=["topic"], cluster="question")
    assert "better − baseline" in report and "+0.1" in report and figure is not None
    assert IDENTITY.hashcode().split("|")[0] in report and "40 examples" in report
    # A visitor's cell is text on the page: no link, no HTML.
    assert "<a" not in report and "](" not in report and "&lt;a href" in report


def test_the_tab_refuses_unknown_settings_unless_allowed(uploads, tmp_path):
    rng = np.random.default_rng(1)
    unknown = write_scored(tmp_path, "elsewhere.csv", rng.uniform(size=40), identity=None)
    files = [str(uploads[0]), str(summary_path(uploads[0])), str(unknown)]
    # In the page's words (issue 36, item 11): the summary not uploaded, the checkbox, no backticks.
    with pytest.raises(gr.Error, match=r"elsewhere has no hashcode \(its .summary.json was not uploaded beside it\)"
                       r".*tick 'Allow mixed or unknown settings'"):
        space.compare_uploads(files)
    report, _ = space.compare_uploads(files, allow_mixed=True)
    shown = report.replace("\\", "")  # as the page shows it: Markdown's escapes gone
    assert "MIXED SETTINGS ('Allow mixed or unknown settings' ticked)" in shown and "elsewhere: unknown." in shown
    assert "`" not in shown and "--allow-mixed-settings" not in shown


def test_the_tab_explains_what_it_needs(uploads, tmp_path):
    with pytest.raises(gr.Error, match="between 2 and 8 scored files \\(got 1\\)"):
        space.compare_uploads([str(uploads[0])])
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(gr.Error, match="notes.txt is neither a scored CSV/JSONL file nor a .summary.json"):
        space.compare_uploads([*map(str, uploads), str(tmp_path / "notes.txt")])
    shorter = write_scored(tmp_path, "shorter.csv", np.full(38, 0.5))
    with pytest.raises(gr.Error, match="shorter and baseline do not hold the same examples"):
        space.compare_uploads([str(uploads[0]), str(shorter), str(summary_path(uploads[0])),
                               str(summary_path(shorter))])
    choices = space.compare.compare_columns([str(uploads[0])])
    assert choices[2].value == "question" and "topic" in [choice[0] for choice in choices[1].choices]


def test_a_scored_file_shows_its_summary_and_hashcode_without_server_paths(random_nli_model, tmp_path):
    settings = space.SpaceSettings(nli_model=random_nli_model, statement_model="rules", device="cpu")
    path = tmp_path / "answers.csv"
    pd.DataFrame({"question": ["Name a city in Bulgaria.", "What is 2+2?"], "gold_answer": ["Sofia", "4"],
                  "answer": ["Burgas", "four"]}).to_csv(path, index=False)
    summary, *_ = space.score_file(space.ModelLoader(settings), str(path), "question", "gold_answer", "answer",
                                   space.NO_LABEL, "")
    assert "95% CI [" in summary and "CAP+" in summary and "hashcode" in summary
    # The hashcode names a local folder by its name (and a content hash), never by its server path.
    assert f"|nli_model={Path(random_nli_model).name}|" in summary and str(random_nli_model) not in summary
    assert json.dumps(summary)  # plain text for the API


@pytest.mark.parametrize("content, problem", [
    ('{"format": 2, "metrics": [], "rows": 40}', "it has no field 'hashcode'"),
    ("[]", "the file must hold a JSON object, got a list"),
    ("\udcff", "not UTF-8 text"),
])
def test_the_tab_says_which_summary_is_not_one_score_wrote(uploads, content, problem):
    """Issue 35, item 7: a hostile summary gets its reason on the page, never a bare "Error"."""
    bad = summary_path(uploads[1])
    bad.write_bytes(content.encode("utf-8", "surrogateescape"))
    files = [*map(str, uploads), str(summary_path(uploads[0])), str(bad)]
    with pytest.raises(gr.Error, match=f"better.csv.summary.json is not a summary that score wrote: {problem}"):
        space.compare_uploads(files)


def test_a_scored_file_counts_its_blank_answers_as_given(random_nli_model, tmp_path):
    """Issue 35, item 13: answers of a tab or a carriage return are escaped in the scored file
    ('\\t), which no longer looks blank; the summary counts the answers as uploaded."""
    settings = space.SpaceSettings(nli_model=random_nli_model, statement_model="rules", device="cpu")
    path = tmp_path / "blanks.csv"
    answers = ["\t", "\r", "\u200b", "Burgas"]
    pd.DataFrame({"question": ["Name a city in Bulgaria."] * 4, "gold_answer": ["Sofia"] * 4,
                  "answer": answers}).to_csv(path, index=False)
    summary, *_ = space.score_file(space.ModelLoader(settings), str(path), "question", "gold_answer", "answer",
                                   space.NO_LABEL, "")
    assert "| rows | 4 (3 blank predictions) |" in summary
