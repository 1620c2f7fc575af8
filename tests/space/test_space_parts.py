"""The Space's parts without a server: escaping, caps, job folders, settings, the Benchmark rows.

The served app is tested in test_app.py (through gradio_client) and test_browser.py (in chromium).
"""

import os
import re
import subprocess
import sys

import pandas as pd
import pytest

from capqa.common.constants import PAPER_COMET_MEAN_VIOLATIONS, PAPER_COMET_PAIRWISE_ACCURACY
from capqa.space.job_folders import JobFolders

from support.data import REPO_ROOT
from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
gr = lazy_module("gradio")
space = lazy_module("capqa.space")


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


class Cancelled(Exception):
    pass


def test_job_folders_are_removed_when_the_job_ends_and_at_start(tmp_path):
    """A job's folder goes when it ends, worked or failed; a cancelled one stays for the same job."""
    folders = JobFolders(tmp_path / "jobs")
    with folders.resumable("done", keep=(Cancelled,)) as folder:
        (folder / "scored.csv").write_text("cap\n0.5\n")
    assert not folder.exists()
    with pytest.raises(RuntimeError), folders.resumable("failed", keep=(Cancelled,)) as failed:
        raise RuntimeError("the job failed")
    assert not failed.exists()
    with pytest.raises(Cancelled), folders.resumable("cancelled", keep=(Cancelled,)) as cancelled:
        (cancelled / "scored.csv").write_text("cap\n0.5\n")
        raise Cancelled
    assert (cancelled / "scored.csv").exists()  # kept for the same job to resume
    with folders.resumable("cancelled", keep=()) as resumed:
        assert resumed == cancelled and (resumed / "scored.csv").exists()
    assert not resumed.exists()
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
    ("CAP_VERDICT", "stricter", "CAP_VERDICT must be 'none', one of 'strict', 'lenient', 'graded', a float in [0, 1]"),
    ("CAP_COMPACT_ATTENTION", "maybe", "CAP_COMPACT_ATTENTION must be on or off (also 1/0, true/false, yes/no), got"),
    ("CAP_VERDICT", '{"exact": 2}', "CAP_VERDICT: `verdict['exact']` must be a credit in [0, 1]"),
])
def test_mistyped_settings_are_refused(variable, value, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        space.SpaceSettings.from_environ({variable: value})


def test_every_setting_is_read_from_one_variable_and_listed_in_the_about_tab_and_the_docs(tmp_path):
    from capqa.metric.options import OPTIONS
    from capqa.space.settings import FIXED_OPTIONS, OWN_SETTINGS, SETTINGS, settings_markdown
    from capqa.statements import openai_engine

    # Every metric option but the ones the Space fixes, from CAP_<OPTION>; then the Space's own.
    assert [setting.name for setting in SETTINGS] == [setting.name for setting in OPTIONS
                                                      if setting.name not in FIXED_OPTIONS] + ["benchmark_scores"]
    assert all(setting.variable == "CAP_" + setting.name.upper() for setting in SETTINGS)
    environ = {"CAP_NLI_MODEL": str(tmp_path / "tiny-nli"), "CAP_NLI_REVISION": "r1", "CAP_STATEMENT_MODEL": "rules",
               "CAP_STATEMENT_REVISION": "r2", "CAP_DEVICE": "cpu", "CAP_BENCHMARK_SCORES": str(tmp_path / "s.csv"),
               "CAP_VERDICT": "graded", "CAP_COMPACT_ATTENTION": "no", "CAP_ALPHA": "0.7", "CAP_BATCH_SIZE": "8",
               "CAP_MAX_TOKENS": "4000", "CAP_MAX_LENGTH": "256", "CAP_SCORE_CACHE_DIR": str(tmp_path / "cache"),
               "CAP_QUANTIZE": "off", "CAP_PRECISION": "float32", "CAP_NEUTRAL_WEIGHT": "0.2",
               "CAP_LOCAL_FILES_ONLY": "yes", "CAP_MODEL_CACHE_DIR": str(tmp_path / "hub"),
               "CAP_TRUST_REMOTE_CODE": "0", "CAP_MODEL_KWARGS": '{"attn_implementation": "eager"}',
               "CAP_TOKENIZER_KWARGS": '{"model_max_length": 256}', "CAP_STATEMENT_WORKERS": "1"}
    # The openai engine's own settings go with CAP_STATEMENT_ENGINE=openai (the test of that engine below).
    engine_variables = {"CAP_" + name.upper() for name in ("statement_engine", *openai_engine.SPEC.options)}
    assert set(environ) | engine_variables == {setting.variable for setting in SETTINGS}
    settings = space.SpaceSettings.from_environ(environ)
    assert (settings.nli_revision, settings.statement_revision, settings.verdict) == ("r1", "r2", "graded")
    assert (settings.alpha, settings.batch_size, settings.local_files_only) == (0.7, 8, True)
    assert settings.statement_workers == 1
    assert settings.model_kwargs == {"attn_implementation": "eager"}
    options = settings.metric_options()
    assert (options.max_length, options.variant, options.tokenizer_kwargs) == (256, "plus", {"model_max_length": 256})
    about = space.about_markdown(settings)
    for setting in SETTINGS:
        row = next(line for line in about.splitlines() if line.startswith(f"| `{setting.variable}` |"))
        assert row.endswith(f"| {settings.shown(setting)} |") and setting.meaning.replace("|", "\\|") in row
    assert "| `graded` |" in about and "| off |" in about and str(tmp_path) not in about
    assert [setting.name for setting in OWN_SETTINGS] == ["benchmark_scores"]
    # docs/space.md carries the same table, generated (`<!-- generated: space-settings -->`).
    docs = (REPO_ROOT / "docs" / "space.md").read_text()
    block = docs.split("<!-- generated: space-settings -->\n", 1)[1].split("<!-- /generated: space-settings -->", 1)[0]
    assert block == settings_markdown()


def test_the_about_tab_names_the_scores_file_in_use_and_every_endpoint(tmp_path):
    """Issue 36, item 14: the benchmark file by its place in the checkout (data/paper_scores.csv),
    a file elsewhere by its name only; the API line lists the three endpoints."""
    about = space.about_markdown(space.SpaceSettings.from_environ({}))
    in_use = space.DEFAULT_BENCHMARK_SCORES.relative_to(REPO_ROOT).as_posix()
    assert in_use == "data/paper_scores.csv" and f"| `{in_use}` |" in about
    elsewhere = space.about_markdown(space.SpaceSettings.from_environ({"CAP_BENCHMARK_SCORES": str(tmp_path / "s.csv")}))
    assert "| `s.csv` |" in elsewhere and str(tmp_path) not in elsewhere
    api = next(paragraph for paragraph in about.split("\n\n") if "view_api()" in paragraph)
    assert all(f"`{endpoint}`" in api for endpoint in ("/score", "/score_file", "/compare"))


def _settings():
    from capqa.space.settings import SETTINGS

    return SETTINGS


@pytest.mark.parametrize("setting", _settings(), ids=[setting.variable for setting in _settings()])
def test_every_variable_refuses_a_text_outside_its_constraints(setting):
    """Generated from the declarations: a new option's variable is tested without a new test."""
    wrong = next((text for text in ("maybe", "-1", "[1]", "{not json", "no such thing")
                  if _refuses(setting, text)), None)
    if wrong is None:  # any text is a name (a model, a revision, a folder): nothing to refuse
        assert any(type(constraint).__name__ in ("PathText", "Text") for constraint in setting.constraints)
        return
    with pytest.raises(ValueError, match=re.escape(setting.variable)):
        space.SpaceSettings.from_environ({setting.variable: wrong})


def _refuses(setting, text):
    try:
        setting.parse(text)
    except ValueError:
        return True
    return False


def test_a_misspelt_variable_is_named_with_the_nearest_setting(caplog):
    """Issue 36, item 9: ``CAP_NLI_MODLE=...`` was ignored in silence and the Space started with the
    default model."""
    with caplog.at_level("WARNING", logger="capqa.common.settings"):
        settings = space.SpaceSettings.from_environ({"CAP_NLI_MODLE": "org/model", "CAP_HUB_NAMESPACE": "org",
                                                     "CAP_HARNESS_OPTIONS": "{}", "CAPQA_TRACEBACK": "1"})
    warnings = [record.getMessage() for record in caplog.records]
    assert settings.nli_model is None and len(warnings) == 1, warnings
    assert warnings[0].startswith("CAP_NLI_MODLE is not a setting, so it is ignored; did you mean CAP_NLI_MODEL?")


def test_a_setting_that_is_not_one_is_refused_by_name():
    with pytest.raises(TypeError, match=r"unknown Space setting 'nli_modle' \(did you mean 'nli_model'\?\)"):
        space.SpaceSettings(nli_modle="org/model")
    with pytest.raises(TypeError, match="unknown Space setting 'variant'"):  # the Space's own: CAP+ beside CAP
        space.SpaceSettings(variant="cap")


def test_verdict_none_adds_no_verdict():
    settings = space.SpaceSettings.from_environ({"CAP_VERDICT": "none", "CAP_COMPACT_ATTENTION": "0"})
    assert settings.verdict is None and settings.compact_attention is False
    assert settings.metric_options().variant == space.SPACE_VARIANT


def test_a_graded_verdict_says_which_score_and_threshold_decided_it():
    """Issue 36, item 17: "Verdict: incorrect, expected credit 0.562" under "likely partial" did not
    say that CAP+ against its threshold decided, nor that the credit is another number."""
    from capqa.space.verdicts import verdict_line

    judged = {"policy": "graded", "score": "cap_plus", "threshold": 0.5893, "correct_classes": ["exact"]}
    line = verdict_line({"correct": False, "credit": 0.5621, "cap": 0.7, "cap_plus": 0.4127, "verdict": judged},
                        "graded")
    assert line.startswith("- **Verdict** (`graded` policy): **incorrect**: CAP+ 0.4127 < 0.5893, its threshold; "
                           "expected credit 0.562 (the policy's credits weighted by the relation's class"), line
    strict = verdict_line({"correct": True, "cap": 0.9512, "verdict": {**judged, "score": "cap", "threshold": 0.8946}},
                          "strict")
    assert strict == "- **Verdict** (`strict` policy): **correct**: CAP 0.9512 ≥ 0.8946, its threshold"


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
    # A figure of its own, not the Space's cached one: these tests draw it on a canvas of their own,
    # which would change what the page (and test_app's byte-for-byte check) is later sent.
    return space.benchmark_view.__wrapped__(str(space.DEFAULT_BENCHMARK_SCORES), space.ALL, "test")[3]


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
    from capqa.common import constants
    from capqa.common.constants import RULES, statement_model_id

    # Not set: the metric's default, which is the rule-based converter while the model is not published.
    assert space.SpaceSettings.from_environ({}).statement_model is None
    assert space.SpaceSettings.from_environ({}).statement_model_name == RULES
    assert "statements from the rule-based converter (`rules`)" in space.SpaceSettings().describe()
    assert space.SpaceSettings.from_environ({"CAP_STATEMENT_MODEL": "org/model"}).statement_model == "org/model"
    monkeypatch.setattr(constants, "STATEMENT_MODEL_PUBLISHED", True)
    published = space.SpaceSettings.from_environ({})
    assert published.statement_model is None and published.statement_model_name == statement_model_id()


# --- Hostile text (issue 27, items 8, 9 and 17) ------------------------------------------------

def test_preview_cells_are_cut_whatever_the_text_dtype(tmp_path):
    from capqa.space.file_job import PREVIEW_CELL_CHARS, preview_table

    long_text = "word " * 400
    path = tmp_path / "scored.csv"
    pd.DataFrame({"cap": [0.5], "cap_plus": [0.6], "question": [long_text], "gold_answer": ["Sofia"],
                  "answer": [long_text]}).to_csv(path, index=False)
    scored = pd.read_csv(path)  # pandas 3 reads text as `str`, pandas 2 as `object`
    for table in (scored, scored.astype({"question": "string", "answer": object})):
        preview = preview_table(table, "question", "gold_answer", "answer", None)
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
    with pytest.raises(gr.Error, match=r"Column 'question' holds only invisible characters .* in row 2 \(line 3\);"):
        space.check_file_inputs(str(path), "question", "gold_answer", "answer", space.NO_LABEL, "")
    # An invisible-only answer is a blank answer: it is scored (CAP 0), not refused.
    pd.DataFrame({"question": ["Name a city.", "Name a river."], "gold_answer": ["Sofia", "Iskar"],
                  "answer": ["Burgas", "\u200b\u200c"]}).to_csv(path, index=False)
    space.check_file_inputs(str(path), "question", "gold_answer", "answer", space.NO_LABEL, "")
    with pytest.raises(gr.Error, match="splitting the gold answers on '\\|' leaves an empty answer"):
        table = pd.read_csv(path).assign(answer="Burgas", gold_answer=["Sofia|\u200b", "Iskar"])
        table.to_csv(path, index=False)
        space.check_file_inputs(str(path), "question", "gold_answer", "answer", space.NO_LABEL, "|")


def test_the_cli_and_the_space_name_a_bad_cell_alike(tmp_path, cli_errors_raise):
    """Issue 36, item 7: one convention for a row, the spreadsheet's: data rows counted from 1,
    and the file line it starts on (here two lines after a question with a line break)."""
    from capqa.cli import main as cli_main

    golds = ["Sofia"] * 24 + [" "]
    questions = ["Name a city\nin Bulgaria."] + ["Name a city in Bulgaria."] * 24
    path = tmp_path / "rows.csv"
    pd.DataFrame({"question": questions, "gold_answer": golds, "answer": ["Burgas"] * 25}).to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"rows.csv` row 25 \(line 27\), column 'gold_answer', is an empty") as cli:
        cli_main(["score", str(path), "--out", str(tmp_path / "out.csv"), "--nli-model", "no-such-model"])
    with pytest.raises(gr.Error, match=r"Column 'gold_answer' is empty in row 25 \(line 27\);") as page:
        space.check_file_inputs(str(path), "question", "gold_answer", "answer", space.NO_LABEL, "")
    assert "[24]" not in str(cli.value) and "[24]" not in page.value.message


def test_the_page_shows_the_hashcode_its_result_carries(random_nli_model):
    """Issue 30: the page's hashcode is the result's (scored without questions: statements=none),
    with no fallback to another (the fallback called a method no options object has)."""
    loader = space.ModelLoader(space.SpaceSettings(nli_model=random_nli_model, statement_model="rules", device="cpu"))
    without_questions = loader.scorer().score(["Burgas"], [["Sofia"]])
    assert "|statements=none|" in loader.hashcode(without_questions)
    with pytest.raises(ValueError, match="a result without its hashcode cannot say what produced it"):
        loader.hashcode({"scores": [0.5]})


def test_a_model_that_cannot_load_is_one_line_in_the_log_with_the_trace_at_debug(tmp_path, caplog):
    """Issue 36, item 15: an explained load failure (here no such folder) is one log line, what
    the page says; the chained traceback is kept for debug level only."""
    import logging

    loader = space.ModelLoader(space.SpaceSettings(nli_model=str(tmp_path / "absent-nli"), statement_model="rules",
                                                   device="cpu"))
    with caplog.at_level(logging.DEBUG, logger="capqa.space.models"):
        assert not loader.ready()
    records = [record for record in caplog.records if record.name == "capqa.space.models"]
    shown = [record for record in records if record.levelno > logging.DEBUG]
    assert len(shown) == 1 and shown[0].exc_info is None and "\n" not in shown[0].getMessage()
    assert "absent-nli" in shown[0].getMessage() and str(tmp_path) not in shown[0].getMessage()
    assert shown[0].getMessage().endswith(loader.status()[0].split("**Models not loaded.** ")[1].replace("`", ""))
    assert [record.exc_info is not None for record in records if record.levelno == logging.DEBUG] == [True]


def test_popups_never_carry_a_huge_input(tmp_path):
    from capqa.common.quoting import MAX_MESSAGE_CHARS
    from capqa.space.inputs import MAX_FILE_COLUMNS

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


def test_the_space_writes_its_statements_through_the_engine_its_environment_names(random_nli_model, status_server):
    """Issue 32: ``CAP_STATEMENT_ENGINE=openai`` with the endpoint's variables: the Score tab's
    statements come from the endpoint, the details name the engine, the hashcode the served model."""
    from capqa.space.answer import score_answer

    server = status_server([])
    settings = space.SpaceSettings.from_environ({
        "CAP_NLI_MODEL": random_nli_model, "CAP_DEVICE": "cpu", "CAP_STATEMENT_ENGINE": "openai",
        "CAP_STATEMENT_MODEL": "space-served-model", "CAP_STATEMENT_BASE_URL": server.base_url})
    details = score_answer(space.ModelLoader(settings), "What is the capital of France?", "Paris", "Paris")
    assert details["statement_engine"] == "openai" and server.requests >= 1
    assert details["premises"] == details["hypotheses"] == "The capital of France is Paris."
    assert "statements=openai(model=space-served-model," in details["hashcode"]


def test_cancel_says_when_the_visitor_runs_no_file_job():
    from capqa.space.file_job import CANCELS

    assert space.cancel_file_job(None) == "No file job of yours is running."
    switch = CANCELS.arm("visitor")
    try:
        assert space.cancel_file_job(type("Request", (), {"session_hash": "visitor"})()).startswith("Cancelling")
        assert switch.is_set()
    finally:
        CANCELS.release("visitor", switch)
    assert space.cancel_file_job(type("Request", (), {"session_hash": "visitor"})()) == "No file job of yours is running."
