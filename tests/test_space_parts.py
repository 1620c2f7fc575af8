"""The Space's parts without a server: escaping, caps, job folders, settings, the Benchmark rows.

The served app is tested in test_app.py (through gradio_client) and test_browser.py (in chromium).
"""

import os
import subprocess
import sys

import gradio as gr
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


def test_heatmap_numbers_are_legible_at_1366_px():
    from capqa.space.benchmark import HEATMAP_CELL_FONT_PT, HEATMAP_PAGE_PX

    _, _, _, heatmap = space.benchmark_view(str(space.DEFAULT_BENCHMARK_SCORES), space.ALL, "test")
    cell_texts = [text for axis in heatmap.axes for text in axis.texts]
    assert cell_texts and min(text.get_fontsize() for text in cell_texts) >= HEATMAP_CELL_FONT_PT
    # Scaled to the page's width, a point becomes HEATMAP_PAGE_PX / (72 * width) pixels.
    width_in = heatmap.get_size_inches()[0]
    assert HEATMAP_CELL_FONT_PT * HEATMAP_PAGE_PX / (72 * width_in) >= 10


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
