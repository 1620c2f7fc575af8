"""The Space's "Compare systems" tab and the summary of a scored file, called without a server
(the served endpoints are in test_app.py)."""

import json
from pathlib import Path

import gradio as gr
import numpy as np
import pandas as pd
import pytest

from capqa import space
from capqa.diagnostics.summary import summarise_scores, summary_path, write_summary

HASHCODE = "cap-eval=0.1.0|nli_model=tiny@x|statement_model=rules|alpha=0.85|variant=plus"
LINK = '<a href="https://example.com">[click](https://example.com)</a>'


def write_scored(folder: Path, name: str, cap, hashcode=HASHCODE) -> Path:
    """A scored CSV as `score` writes it, with its summary beside it (when ``hashcode``)."""
    n = len(cap)
    table = pd.DataFrame({"question": [f"Question {i // 2}?" for i in range(n)],
                          "gold_answer": [f"gold {i}" for i in range(n)], "answer": ["an answer"] * n,
                          "cap": cap, "cap_plus": cap, "relation": ["exact", "invalid"] * (n // 2),
                          "topic": [LINK if i % 2 else "science" for i in range(n)]})
    path = folder / name
    table.to_csv(path, index=False)
    if hashcode:
        write_summary(summarise_scores(table, hashcode, "answer"), path)
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
    assert HASHCODE.split("|")[0] in report and "40 examples" in report
    # A visitor's cell is text on the page: no link, no HTML.
    assert "<a" not in report and "](" not in report and "&lt;a href" in report


def test_the_tab_refuses_unknown_settings_unless_allowed(uploads, tmp_path):
    rng = np.random.default_rng(1)
    unknown = write_scored(tmp_path, "elsewhere.csv", rng.uniform(size=40), hashcode=None)
    files = [str(uploads[0]), str(summary_path(uploads[0])), str(unknown)]
    with pytest.raises(gr.Error, match="elsewhere has no hashcode"):
        space.compare_uploads(files)
    report, _ = space.compare_uploads(files, allow_mixed=True)
    assert "MIXED SETTINGS" in report and "elsewhere: \\`unknown\\`" in report


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
