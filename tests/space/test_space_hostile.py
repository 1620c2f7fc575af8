"""The Space on hostile API calls, without a server (issue 35 items 8 and 17): an upload path that
is not there, an endpoint called with fewer values than it takes, a breakdown column sent as one
string, scored JSONL uploads. Each gets a message that says what is wrong (a ``gr.Error``, shown
to the caller), never gradio's bare "Error". The served endpoints are in test_app.py."""

import json

import numpy as np
import pandas as pd
import pytest

from capqa.compare.summary import summarise_scores, write_summary

from support.identity import job_identity
from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
gr = lazy_module("gradio")
space = lazy_module("capqa.space")
uploads = lazy_module("capqa.space.uploads")

IDENTITY = job_identity()


@pytest.mark.parametrize("path, message", [
    ("/tmp/gradio/0123456789/gone.csv", "gone.csv: the uploaded file is not on the server"),
    ({"path": "x.csv"}, "must be given as the path of an upload, got dict"),
    (["x.csv"], "must be given as the path of an upload, got list"),
])
def test_an_upload_that_is_not_there_is_named(path, message):
    with pytest.raises(gr.Error, match=message):
        uploads.read_upload(path)


def test_an_upload_that_is_a_folder_is_refused(tmp_path):
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    with pytest.raises(gr.Error, match="folder.csv` is a folder"):
        uploads.read_upload(str(folder))


def test_an_endpoint_called_with_too_few_values_names_the_missing_ones():
    with gr.Blocks() as demo:
        question, gold, answer = gr.Textbox(label="Question"), gr.Textbox(label="Gold"), gr.Textbox(label="Answer")
        gr.Button().click(lambda *texts: "", inputs=[question, gold, answer], outputs=gr.Textbox(), api_name="score")
    space.name_missing_inputs(demo)
    block_fn = next(fn for fn in demo.fns.values() if fn.api_name == "score")
    with pytest.raises(gr.Error, match=r"The score endpoint takes 3 inputs \(Question, Gold, Answer\); got 2, so "
                                       r"Answer is missing"):
        demo.validate_inputs(block_fn, ["Name a city in Bulgaria.", "Sofia"])
    demo.validate_inputs(block_fn, ["q", "g", "a"])


def _scored(folder, name, cap, questions):
    table = pd.DataFrame({"question": questions, "gold_answer": [f"gold {i}" for i in range(len(cap))],
                          "answer": ["an answer"] * len(cap), "cap": cap})
    path = folder / name
    table.to_csv(path, index=False)
    write_summary(summarise_scores(table, IDENTITY), path)
    return path


def test_a_breakdown_column_sent_as_one_string_is_one_column(tmp_path):
    questions = [f"Question {i % 3}?" for i in range(12)]
    rng = np.random.default_rng(0)
    first = _scored(tmp_path, "first.csv", rng.uniform(size=12), questions)
    second = _scored(tmp_path, "second.csv", rng.uniform(size=12), questions)
    files = [str(first), str(second), str(first) + ".summary.json", str(second) + ".summary.json"]
    report, _ = space.compare_uploads(files, by="question")
    assert "Mean CAP by question" in report and "no column" not in report and "`" not in report


def test_a_scored_jsonl_upload_may_hold_numbers(tmp_path):
    rows = [{"question": f"Question {i}?", "gold_answer": "g", "answer": "a", "cap": value}
            for i, value in enumerate([0.2, 0.9, 0.4])]
    (tmp_path / "first.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    (tmp_path / "second.jsonl").write_text("".join(json.dumps({**row, "cap": 1 - row["cap"]}) + "\n"
                                                   for row in rows), encoding="utf-8")
    report, _ = space.compare_uploads([str(tmp_path / "first.jsonl"), str(tmp_path / "second.jsonl")],
                                      allow_mixed=True)
    assert "second − first" in report


def test_a_missing_spacy_model_is_named_as_the_command_line_and_the_metric_name_it(random_nli_model, monkeypatch):
    """Issue 35 item 18: the Space blamed the NLI model ("the model files could not be read")."""
    from capqa.cli import error_line
    from capqa.statements.rules import parser

    monkeypatch.setattr(parser, "_installed_version", lambda package: None)  # neither package installed
    with pytest.raises(parser.ParserUnavailable) as missing:
        parser.find_model()
    settings = space.SpaceSettings(nli_model=random_nli_model, statement_model="rules", device="cpu")
    line, details = space.load_failure(settings, missing.value)
    assert error_line(missing.value) in line and "en_core_web_sm" in line  # the CLI's `error:` line, and the metric's
    assert "CAP_NLI_MODEL" not in line and "model files could not be read" not in line
    assert details.startswith("ParserUnavailable: the rule-based statements need spaCy's English model")
