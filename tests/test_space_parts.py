"""The Space's parts without a server: escaping, caps, job folders, settings, the Benchmark rows.

The served app is tested in test_app.py (through gradio_client) and test_browser.py (in chromium).
"""

import os
import subprocess
import sys
from pathlib import Path

import gradio as gr
import pandas as pd
import pytest

from capqa import space
from capqa.constants import PAPER_COMET_MEAN_VIOLATIONS, PAPER_COMET_PAIRWISE_ACCURACY
from capqa.space.job_folders import JobFolders


def test_user_text_is_escaped_for_markdown_and_error_popups():
    link = '<a href="https://example.com">[click](https://example.com)</a>'
    escaped = space.escape_markdown(link)
    assert "<" not in escaped and "](" not in escaped
    assert "&lt;a href" in escaped and "\\[click\\]" in escaped
    assert "<" not in space.user_error(f"unknown class {link}").message
    # A lone surrogate cannot go out as UTF-8: it is written as an escape instead.
    assert space.escape_markdown("a\ud800b") == "a\\\\ud800b"


@pytest.mark.parametrize("value, message", [
    ({"a": 1}, "Question must be text, got dict"),
    (["a"], "Question must be text, got list"),
    (3.5, "Question must be text, got float"),
    ("ab\udc00", "lone surrogate character \\(U\\+DC00\\) at position 3"),
])
def test_text_fields_refuse_values_that_are_not_text(value, message):
    field = space.text_field(label="Question")
    with pytest.raises(gr.Error, match=message):
        field.preprocess(value)
    assert field.preprocess("Name a city.") == "Name a city."


def test_answer_fields_are_capped():
    space.check_answer_inputs("q", "g", "a" * space.MAX_TEXT_CHARS)
    with pytest.raises(gr.Error, match=f"Predicted answer is {space.MAX_TEXT_CHARS + 1:,} characters long"):
        space.check_answer_inputs("q", "g", "a" * (space.MAX_TEXT_CHARS + 1))
    with pytest.raises(gr.Error, match="Please enter a question"):
        space.check_answer_inputs("  ", "g", "a")


def _dead_pid():
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    return int(finished.stdout)


def test_job_folders_are_removed_when_the_job_ends_and_at_start(tmp_path):
    folders = JobFolders(tmp_path / "jobs")
    with folders.job() as folder:
        (folder / "scored.csv").write_text("cap\n0.5\n")
    assert not folder.exists()
    with pytest.raises(RuntimeError), folders.job() as failed:
        raise RuntimeError("the job failed")
    assert not failed.exists()
    stale = tmp_path / "jobs" / f"{_dead_pid()}-crashed"
    stale.mkdir()
    live = folders.new()  # this process's folder: a running job, kept
    assert folders.clean_stale() == 1
    assert not stale.exists() and live.exists()
    os.utime(live, (0, 0))
    folders.expire(max_age_s=60)
    assert not live.exists()


def test_settings_show_model_names_not_paths(tmp_path):
    model = tmp_path / "secret-server-folder" / "tiny-nli"
    model.mkdir(parents=True)
    settings = space.SpaceSettings(nli_model=str(model), statement_model="rules")
    described = settings.describe()
    assert "local folder `tiny-nli`" in described and str(model.parent) not in described
    assert str(model.parent) not in space.about_markdown(settings)
    error = OSError(f"Can't load the model from {model}/config.json")
    line, details = space.load_failure(settings, error)
    assert str(tmp_path) not in line + details and "tiny-nli" in details
    assert "\n" not in line and "CAP_NLI_MODEL" in line


def test_verdict_and_compact_attention_settings_reach_the_metric_options():
    settings = space.SpaceSettings.from_environ({"CAP_VERDICT": "strict", "CAP_COMPACT_ATTENTION": "off"})
    options = settings.metric_options()
    assert (options.verdict, options.compact_attention) == ("strict", False)
    defaults = space.SpaceSettings.from_environ({}).metric_options()
    assert (defaults.verdict, defaults.compact_attention) == (None, True)  # the metric's own defaults


@pytest.mark.parametrize("variable, value, message", [
    ("CAP_VERDICT", "stricter", "CAP_VERDICT must be one of none, strict, lenient, graded"),
    ("CAP_COMPACT_ATTENTION", "maybe", "CAP_COMPACT_ATTENTION must be one of 1, true"),
])
def test_mistyped_settings_are_refused(variable, value, message):
    with pytest.raises(ValueError, match=message):
        space.SpaceSettings.from_environ({variable: value})


def test_every_setting_is_read_from_one_variable_and_listed_in_the_about_tab_and_the_docs(tmp_path):
    from dataclasses import fields

    from capqa.space.settings import ENVIRONMENT, settings_markdown

    assert sorted(variable.field for variable in ENVIRONMENT) == sorted(spec.name for spec in fields(space.SpaceSettings))
    environ = {"CAP_NLI_MODEL": str(tmp_path / "tiny-nli"), "CAP_NLI_REVISION": "r1", "CAP_STATEMENT_MODEL": "rules",
               "CAP_STATEMENT_REVISION": "r2", "CAP_DEVICE": "cpu", "CAP_BENCHMARK_SCORES": str(tmp_path / "s.csv"),
               "CAP_VERDICT": "graded", "CAP_COMPACT_ATTENTION": "no"}
    assert set(environ) == {variable.name for variable in ENVIRONMENT}
    settings = space.SpaceSettings.from_environ(environ)
    assert (settings.nli_revision, settings.statement_revision, settings.verdict) == ("r1", "r2", "graded")
    about = space.about_markdown(settings)
    for variable in ENVIRONMENT:
        row = next(line for line in about.splitlines() if line.startswith(f"| `{variable.name}` |"))
        assert row.endswith(f"| {variable.show(getattr(settings, variable.field))} |")
    assert "| `graded` |" in about and "| off |" in about and str(tmp_path) not in about
    # docs/space.md carries the same table, generated (`<!-- generated: space-settings -->`).
    docs = (Path(__file__).resolve().parents[1] / "docs" / "space.md").read_text()
    block = docs.split("<!-- generated: space-settings -->\n", 1)[1].split("<!-- /generated: space-settings -->", 1)[0]
    assert block == settings_markdown()


def test_verdict_none_adds_no_verdict():
    settings = space.SpaceSettings.from_environ({"CAP_VERDICT": "none", "CAP_COMPACT_ATTENTION": "0"})
    assert settings.verdict is None and settings.compact_attention is False
    assert settings.metric_options().variant == space.SPACE_VARIANT


def test_benchmark_shows_the_papers_comet_row_as_reported_for_the_test_split_only():
    path = str(space.DEFAULT_BENCHMARK_SCORES)
    summary, table, _, _ = space.benchmark_view(path, space.ALL, "test")
    comet = table[table["metric"] == space.COMET_NAME].iloc[0]
    assert comet["pairwise accuracy (%)"] == f"{100 * PAPER_COMET_PAIRWISE_ACCURACY:.2f}" == "61.10"
    assert comet["mean violations"] == f"{PAPER_COMET_MEAN_VIOLATIONS}/25" == "9/25"
    assert comet["Spearman"] == comet["wins"] == "n/a"
    assert "as reported" in summary
    _, validation, _, _ = space.benchmark_view(path, space.ALL, "validation")
    assert space.COMET_NAME not in set(validation["metric"])
    # Counts carry thousands separators.
    assert "," in table[table["metric"] == "CAP"].iloc[0]["comparable pairs"]


def _benchmark_heatmap():
    return space.benchmark_view(str(space.DEFAULT_BENCHMARK_SCORES), space.ALL, "test")[3]


def test_heatmap_numbers_are_legible_at_1366_px():
    from capqa.space.benchmark import HEATMAP_CELL_FONT_PT, HEATMAP_PAGE_PX

    heatmap = _benchmark_heatmap()
    numbers = [text for axis in heatmap.axes for text in axis.texts if text.get_text()[0].isdigit()]
    notes = [text for axis in heatmap.axes for text in axis.texts if text.get_text() == "mean ✗"]
    assert numbers and notes and min(text.get_fontsize() for text in numbers) >= HEATMAP_CELL_FONT_PT
    # Scaled to the page's width, a point becomes HEATMAP_PAGE_PX / (72 * width) pixels.
    px_per_pt = HEATMAP_PAGE_PX / (72 * heatmap.get_size_inches()[0])
    assert HEATMAP_CELL_FONT_PT * px_per_pt >= 11 and min(text.get_fontsize() for text in notes) * px_per_pt >= 9


def _extent(artist, renderer):
    return artist.get_window_extent(renderer)


def test_heatmap_texts_fit_their_cells_and_labels_do_not_collide():
    """Issue 26: "H" marks over the numbers, "mean ✗" clipped by its frame, rotated class names
    colliding. Every cell text lies inside its cell, no hard-pair mark covers a text, no two class
    names overlap, and nothing leaves the figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.patches import Polygon

    heatmap = _benchmark_heatmap()
    canvas = FigureCanvasAgg(heatmap)
    canvas.draw()
    renderer = canvas.get_renderer()
    figure_box = heatmap.bbox
    panels = [axis for axis in heatmap.axes if axis.texts]
    assert len(panels) == len(space.BENCHMARK_METRICS)
    names = []
    for axis in panels:
        marks = [_extent(patch, renderer) for patch in axis.patches if isinstance(patch, Polygon)]
        assert marks, "the hard pairs are marked"
        for text in axis.texts:
            column, row = (round(value) for value in text.get_position())
            (left, top), (right, bottom) = axis.transData.transform([(column - 0.5, row - 0.5), (column + 0.5, row + 0.5)])
            box = _extent(text, renderer)
            assert (box.x0 >= min(left, right) and box.x1 <= max(left, right) and box.y0 >= min(top, bottom)
                    and box.y1 <= max(top, bottom)), f"{text.get_text()!r} leaves its cell in {axis.get_title()}"
            assert not any(box.overlaps(mark) for mark in marks), f"a hard-pair mark covers {text.get_text()!r}"
        for ticks in (axis.get_xticklabels(), axis.get_yticklabels()):
            boxes = [_extent(label, renderer) for label in ticks if label.get_text()]
            assert all(not a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:]), axis.get_title()
            names += boxes
        for artist in [*axis.texts, axis.title, axis.xaxis.label, axis.yaxis.label]:
            box = _extent(artist, renderer)
            assert figure_box.contains(box.x0, box.y0) and figure_box.contains(box.x1, box.y1)
    # No class name runs into a neighbouring panel.
    for axis in panels:
        inside = _extent(axis, renderer)
        others = [box for box in names if box.overlaps(inside)]
        assert not others, f"class names run into {axis.get_title()}"


def test_verdict_table_has_a_place_in_the_benchmark_tab():
    table = space.verdict_view_or_note(space.DEFAULT_BENCHMARK_SCORES)
    try:
        import capqa.verdicts.benchmark  # noqa: F401
    except ImportError:
        assert table.startswith("The verdict table needs `capqa.verdicts`")
        return
    assert "test" in table and all(f"`{policy}`" in table for policy in ("strict", "lenient", "graded"))



def test_the_space_uses_the_rules_until_the_statement_model_is_published(monkeypatch):
    from capqa.constants import RULES, statement_model_id
    from capqa.space import settings as space_settings

    assert space.SpaceSettings.from_environ({}).statement_model == RULES  # not published yet
    assert space.SpaceSettings.from_environ({"CAP_STATEMENT_MODEL": "org/model"}).statement_model == "org/model"
    monkeypatch.setattr(space_settings, "STATEMENT_MODEL_PUBLISHED", True)
    published = space.SpaceSettings.from_environ({})
    assert published.statement_model is None and published.statement_model_name == statement_model_id()


# --- Hostile text (issue 27, items 8, 9 and 17) ------------------------------------------------

def test_preview_cells_are_cut_whatever_the_text_dtype(tmp_path):
    from capqa.space.file_job import PREVIEW_CELL_CHARS, _preview

    long_text = "word " * 400
    path = tmp_path / "scored.csv"
    pd.DataFrame({"cap": [0.5], "cap_plus": [0.6], "question": [long_text], "gold_answer": ["Sofia"],
                  "answer": [long_text]}).to_csv(path, index=False)
    scored = pd.read_csv(path)  # pandas 3 reads text as `str`, pandas 2 as `object`
    for table in (scored, scored.astype({"question": "string", "answer": object})):
        preview = _preview(table, "question", "gold_answer", "answer", None)
        for column in ("question", "answer"):
            cell = preview[column].iloc[0]
            assert len(cell) == PREVIEW_CELL_CHARS and cell.endswith("…"), (column, table[column].dtype)
        assert preview["gold_answer"].iloc[0] == "Sofia" and preview["cap"].iloc[0] == "0.5000"  # 4 decimals


@pytest.mark.parametrize("question, gold, answer, message", [
    ("Name a city.", "Sofia", "\u200b\u200b", "Please enter a predicted answer: the predicted answer field holds "
                                             "only invisible characters"),
    ("\ufeff \u200d", "Sofia", "Burgas", "Please enter a question: the question field holds only invisible"),
    ("Name a city.", "\u200b\n\u2060\n", "Burgas", "Please enter a gold answer: the gold answer field holds"),
])
def test_invisible_only_text_is_refused_by_the_field_check(question, gold, answer, message):
    with pytest.raises(gr.Error, match=message) as refused:
        space.check_answer_inputs(question, gold, answer)
    assert "answers[" not in refused.value.message and "predictions[" not in refused.value.message


def test_invisible_only_gold_lines_are_skipped():
    assert space.parse_golds("Sofia\n\u200b\nPlovdiv\n\ufeff") == ["Sofia", "Plovdiv"]


def test_invisible_only_file_cells_are_refused_with_their_row(tmp_path):
    path = tmp_path / "invisible.csv"
    pd.DataFrame({"question": ["Name a city.", "\u200b\u200c"], "gold_answer": ["Sofia", "Iskar"],
                  "answer": ["Burgas", "Iskar"]}).to_csv(path, index=False)
    with pytest.raises(gr.Error, match="Column 'question' holds only invisible characters .* in row 2"):
        space.check_file_inputs(str(path), "question", "gold_answer", "answer", space.NO_LABEL, "")
    # An invisible-only answer is a blank answer: it is scored (CAP 0), not refused.
    pd.DataFrame({"question": ["Name a city.", "Name a river."], "gold_answer": ["Sofia", "Iskar"],
                  "answer": ["Burgas", "\u200b\u200c"]}).to_csv(path, index=False)
    space.check_file_inputs(str(path), "question", "gold_answer", "answer", space.NO_LABEL, "")
    with pytest.raises(gr.Error, match="splitting the gold answers on '\\|' leaves an empty answer"):
        table = pd.read_csv(path).assign(answer="Burgas", gold_answer=["Sofia|\u200b", "Iskar"])
        table.to_csv(path, index=False)
        space.check_file_inputs(str(path), "question", "gold_answer", "answer", space.NO_LABEL, "|")


def test_popups_never_carry_a_huge_input(tmp_path):
    from capqa.quoting import MAX_MESSAGE_CHARS
    from capqa.space.file_job import MAX_FILE_COLUMNS

    huge = "x" * 3_000_000
    message = space.user_error(f"Column {huge!r} is not there; choose another column.").message
    assert len(message) <= MAX_MESSAGE_CHARS + 100 and message.endswith("choose another column.")
    # A file of many columns is refused by its count, before its names reach the page.
    wide = tmp_path / "wide.csv"
    names = [f"column_{i}" for i in range(MAX_FILE_COLUMNS + 1)]
    wide.write_text(",".join(names) + "\n" + ",".join("v" for _ in names) + "\n")
    with pytest.raises(gr.Error, match=f"wide.csv has {MAX_FILE_COLUMNS + 1:,} columns; at most") as refused:
        space.file_columns(str(wide))
    assert len(refused.value.message) < 300
    # A column chosen through the API may be any text: the refusal quotes it cut.
    path = tmp_path / "answers.csv"
    pd.DataFrame({"question": ["q"], "gold_answer": ["g"], "answer": ["a"]}).to_csv(path, index=False)
    with pytest.raises(gr.Error) as refused:
        space.check_file_inputs(str(path), "question", "gold_answer", huge[:100_000], space.NO_LABEL, "")
    assert len(refused.value.message) <= MAX_MESSAGE_CHARS + 100


def test_downloads_are_served_by_token_under_their_name_and_expire(tmp_path):
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from capqa.space.downloads import Downloads

    downloads = Downloads(JobFolders(tmp_path / "downloads"), keep_s=3600)
    source = tmp_path / "answers-cap.csv"
    source.write_text("cap\n0.5\n")
    download = downloads.add(source)
    assert download.url.startswith("/cap-download/") and download.url.endswith("/answers-cap.csv")
    assert (download.name, download.size) == ("answers-cap.csv", 8) and not source.exists()
    assert str(tmp_path) not in download.url
    client = TestClient(Starlette(routes=downloads.routes()))
    served = client.get(download.url)
    assert served.text == "cap\n0.5\n" and 'filename="answers-cap.csv"' in served.headers["content-disposition"]
    # gradio_client asks for /gradio_api/file=<the address>: the same file.
    assert client.get("/gradio_api/file=http://127.0.0.1:7860" + download.url).text == "cap\n0.5\n"
    assert client.get(download.url.replace("answers-cap.csv", "other.csv")).status_code == 404
    token = download.url.split("/")[2]
    assert client.get(download.url.replace(token, "not-a-token")).status_code == 404
    downloads.keep_s = 0  # an hour later
    downloads.expire()
    assert client.get(download.url).status_code == 404 and not list((tmp_path / "downloads").iterdir())
