"""The CAP Space: score answers, score files, explore the paper's benchmark.

``python app.py`` serves it (host and port from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT). Models
come from CAP_NLI_MODEL, CAP_STATEMENT_MODEL and CAP_DEVICE (see docs/space.md); the page lays
out components here, the logic is in the ``capqa.space`` package.
"""

import logging
import os
import sys

# No usage analytics: the Space must start and run without reaching the internet.
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402

from capqa import space  # noqa: E402

TITLE = "CAP: how correct is your answer?"
INTRO = """\
# CAP: how correct is your answer?
CAP scores a predicted answer against the gold answer of a question by *meaning*: both become
statements, and an NLI model checks which one implies the other. Score one answer, score a whole
file, or compare CAP with BLEU, ROUGE-L, METEOR, BERTScore and COMET on the paper's benchmark.
"""
QUEUE_SIZE = 64
MAX_UPLOAD = "200mb"
NOT_SCORED = "not scored yet"
# The file job's progress bar runs in the summary's place (show_progress_on): an empty summary is
# 0 px high, and its overflow:auto clipped the bar, so the box keeps room for it. The hashcode's
# code block wraps inside the page instead of running off its right edge at 1366 px.
# No table cell breaks inside a word: gradio lets Markdown table cells break anywhere when their
# column is narrow. Here words stay whole, and a table wider than its box scrolls instead. The
# verdict table's eleven columns fit a 1366 px screen at 12 px.
CSS = """
.prose table th, .prose table td { word-break: normal !important; overflow-wrap: normal !important; }
/* An id or a value in a table (cross-encoder/nli-deberta-v3-large) stays on one line: the table scrolls. */
.prose table td code { white-space: nowrap; }
.prose:has(> table) { overflow-x: auto; }
#verdict-table table { font-size: 12px; }
#verdict-table th, #verdict-table td { padding: 5px 7px !important; }
#file-summary { min-height: 4.5em; overflow: visible !important; }
#file-summary pre, #file-summary code { white-space: pre-wrap !important; overflow-wrap: anywhere; }
""" + f"#benchmark-heatmap img {{ max-width: min(100%, {space.HEATMAP_MAX_PX}px); margin: 0 auto; }}\n"
# The Benchmark table's columns (metric, pairwise accuracy, mean violations, Spearman, Kendall,
# wins, ties, losses, comparable pairs): all nine fit a 1366 px screen, headers wrapping at spaces.
# One font for every glyph, with no network: gradio's default asks Google Fonts for Source Sans Pro
# (unreachable offline, a few glyphs came from a partial copy and the rest from DejaVu Sans, so
# "CAP" showed a small A). The system's own sans-serif face renders the whole page.
FONTS = ("system-ui", "-apple-system", "Segoe UI", "Roboto", "Helvetica Neue", "Arial", "DejaVu Sans", "sans-serif")
MONO_FONTS = ("ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "DejaVu Sans Mono", "monospace")
THEME = gr.themes.Default(font=FONTS, font_mono=MONO_FONTS)
BENCHMARK_COLUMN_WIDTHS = ["16%", "12%", "11%", "9%", "11%", "10%", "9%", "10%", "12%"]


def score_box(**options):
    """A read-only box for one score: empty, saying "not scored yet", until something is scored."""
    return gr.Textbox(value="", placeholder=NOT_SCORED, interactive=False, lines=1, max_lines=1, **options)


def reveal(component):
    """An event handler that shows ``component`` (hidden until there is something to show)."""
    return lambda: type(component)(visible=True)


def build_score_tab(loader):
    """The "Score an answer" tab; returns its Score button (enabled once the models are ready)."""
    with gr.Row():
        with gr.Column():
            question = space.text_field(label="Question", lines=2, placeholder="Name a city in Bulgaria.")
            gold = space.text_field(label="Gold answer(s), one per line", lines=3, placeholder="Sofia")
            answer = space.text_field(label="Predicted answer", lines=2, placeholder="Burgas")
            score_button = gr.Button("Score", variant="primary", elem_id="score-button", interactive=False)
            examples = space.EXAMPLES
            gr.Examples(examples=[[question_, gold_, answer_] for _, question_, gold_, answer_ in examples],
                        inputs=[question, gold, answer], label="Examples: one per correctness class",
                        example_labels=[f"{label}: {answer_}" for label, _, _, answer_ in examples])
        with gr.Column():
            # Text boxes, not gr.Number: the page shows a Number without value as "0", which reads
            # as a score. The exact values are in the details (JSON).
            with gr.Row():
                cap = score_box(label="CAP", elem_id="cap-value")
                cap_plus = score_box(label="CAP+ (calibrated)", elem_id="cap-plus-value")
            with gr.Row():
                forward = score_box(label="Forward score", info="D(gold ⇒ prediction)", elem_id="forward-value")
                reverse = score_box(label="Reverse score", info="D(prediction ⇒ gold)", elem_id="reverse-value")
            premise = gr.Textbox(label="Gold statement", interactive=False)
            hypothesis = gr.Textbox(label="Predicted statement", interactive=False)
            reading = gr.Markdown(label="Reading", elem_id="reading")
    # Hidden until an answer is scored: an empty plot is a large empty box.
    probabilities = gr.Plot(label="NLI probabilities", elem_id="probabilities", visible=False)
    with gr.Accordion("All details (JSON)", open=False):
        details = gr.JSON(label="Details")

    def score(question, gold, answer):
        return space.score_outputs(loader, question, gold, answer)

    def check(question, gold, answer):
        loader.scorer_or_error()
        space.check_answer_inputs(question, gold, answer)

    # The page checks the models and the fields first, in a step without outputs: a refused input
    # then shows its message alone, without marking the previous result (or six boxes) as failed.
    checked = score_button.click(check, inputs=[question, gold, answer], outputs=None, js=space.CLOSE_ERRORS_JS,
                                 api_visibility="private", concurrency_id="check", concurrency_limit=None)
    scored = checked.success(score, inputs=[question, gold, answer],
                             outputs=[cap, cap_plus, premise, hypothesis, forward, reverse, probabilities, reading,
                                      details],
                             api_name="score", concurrency_id="score", concurrency_limit=2)
    scored.success(reveal(probabilities), outputs=probabilities, api_visibility="private",
                   concurrency_id="check", concurrency_limit=None)
    return score_button


def build_file_tab(loader):
    """The "Score a file" tab; returns its Score button (enabled once the models are ready)."""
    gr.Markdown("Upload a CSV or JSONL file with a question, a gold answer and a predicted answer "
                f"per row (at most {space.MAX_FILE_ROWS:,} rows, {space.MAX_TEXT_CHARS:,} characters per "
                "cell). With a label column of correctness classes, the monotonicity report of CAP on "
                "your file appears below the table.")
    upload = gr.File(label="CSV or JSONL file", file_types=[".csv", ".jsonl"], type="filepath",
                     elem_id="file-upload")
    with gr.Row():
        question_column = gr.Dropdown(label="Question column", choices=[], allow_custom_value=True)
        gold_column = gr.Dropdown(label="Gold answer column", choices=[], allow_custom_value=True)
        answer_column = gr.Dropdown(label="Predicted answer column", choices=[], allow_custom_value=True)
        label_column = gr.Dropdown(label="Label column (optional)", choices=[space.NO_LABEL],
                                   value=space.NO_LABEL, allow_custom_value=True)
        separator = space.text_field(label="Gold answer separator (optional)", placeholder="e.g. |", max_lines=1)
    with gr.Row():
        file_button = gr.Button("Score file", variant="primary", elem_id="file-button", interactive=False)
        # Stops the job before its next chunk; what it scored is kept for the next run of the same job.
        cancel_button = gr.Button("Cancel", variant="secondary", elem_id="file-cancel", scale=0, min_width=120)
    summary = gr.Markdown(label="Summary", elem_id="file-summary")
    # Hidden until a file is scored: before, they would be an empty table and two large empty boxes.
    with gr.Column(visible=False, elem_id="file-results") as results:
        table = gr.DataFrame(label="Scored rows", interactive=False, wrap=True, max_height=600,
                             column_widths=space.preview_column_widths(loader.settings.verdict),
                             elem_id="file-table")
        download = space.download_file(label="Download the scored CSV", interactive=False,
                                       elem_id="file-download")
        report = gr.Markdown(label="Monotonicity report", elem_id="file-report")
        report_plot = gr.Plot(label="CAP per correctness class", visible=False, elem_id="file-report-plot")

    def choose_columns(path):
        choices, question, gold, answer, label = space.file_columns(path)
        return (gr.Dropdown(choices=choices, value=question), gr.Dropdown(choices=choices, value=gold),
                gr.Dropdown(choices=choices, value=answer),
                gr.Dropdown(choices=[space.NO_LABEL, *choices], value=label))

    # The parameter names are the API's input names (gradio leaves out the request and progress).
    def score_file(file, question_column, gold_column, answer_column, label_column, separator,
                   request: gr.Request, progress=gr.Progress()):
        return space.score_file(loader, file, question_column, gold_column, answer_column, label_column,
                                separator, progress, request)

    def show_results(label_column, summary_text):
        if summary_text.startswith(space.CANCELLED_HEADLINE):  # a cancelled job has no results to show
            return gr.Column(visible=False), gr.Plot(visible=False)
        labelled = label_column not in (None, "", space.NO_LABEL)
        return gr.Column(visible=True), gr.Plot(visible=labelled)

    def cancel_file_job(request: gr.Request):
        gr.Info(space.cancel_file_job(request))

    columns = [question_column, gold_column, answer_column, label_column]
    upload.upload(choose_columns, inputs=upload, outputs=columns, api_visibility="private")
    # Its own concurrency group: a long file job never holds up single scores.
    # As on the Score tab: the file is checked first, in a step without outputs.
    def check_file(file, question_column, gold_column, answer_column, label_column, separator):
        loader.scorer_or_error()
        space.check_file_inputs(file, question_column, gold_column, answer_column, label_column, separator,
                                loader.settings.verdict)

    def clear_results():
        return "", gr.Column(visible=False)

    # A new job starts from an empty page: the last one's results go, and so do the messages of
    # the last refusal (each stays until the next action).
    cleared = file_button.click(clear_results, outputs=[summary, results], js=space.CLOSE_ERRORS_JS,
                                api_visibility="private", concurrency_id="check", concurrency_limit=None)
    checked = cleared.then(check_file, inputs=[upload, *columns, separator], outputs=None,
                           api_visibility="private", concurrency_id="check", concurrency_limit=None)
    # The progress bar runs in the summary's place: the results are hidden until they are ready.
    scored = checked.success(score_file, inputs=[upload, *columns, separator],
                             outputs=[summary, table, download, report, report_plot], show_progress_on=summary,
                             api_name="score_file", concurrency_id="file", concurrency_limit=1)
    scored.success(show_results, inputs=[label_column, summary], outputs=[results, report_plot],
                   api_visibility="private", concurrency_id="check", concurrency_limit=None)
    # Not in the file job's group: it must run while the job holds that group.
    cancel_button.click(cancel_file_job, api_name="cancel_file_job", concurrency_id="check", concurrency_limit=None)
    return file_button


def build_benchmark_tab(settings, benchmark_tab):
    gr.Markdown("The paper's comparison of CAP with BLEU, ROUGE-L, METEOR and BERTScore, computed "
                "here from the published per-row scores of CAP-Correctness (no model needed), and "
                "COMET as the paper reports it.")
    with gr.Row():
        dataset = gr.Dropdown(label="Source dataset", choices=[space.ALL, *space.BENCHMARK_DATASETS],
                              value=space.ALL)
        split = gr.Dropdown(label="Split", choices=[space.ALL, *space.BENCHMARK_SPLITS], value="test")
    summary = gr.Markdown(label="Summary", elem_id="benchmark-summary")
    table = gr.DataFrame(label="Agreement with the correctness classes", interactive=False, wrap=True,
                         column_widths=BENCHMARK_COLUMN_WIDTHS, elem_id="benchmark-table")
    distributions = gr.Plot(label="Scores per correctness class")
    heatmap = gr.Plot(label="Class-pair accuracy", elem_id="benchmark-heatmap")
    with gr.Accordion("Verdicts: correct or incorrect, on the test split", open=True):
        gr.Markdown(
            f"This Space's verdict setting (`CAP_VERDICT`, applied on the Score tab): "
            f"`{settings.verdict or 'none'}`. The table is computed when this tab first opens.",
            elem_id="verdict-setting")
        verdict_table = gr.Markdown(label="Verdict table", elem_id="verdict-table")

    def show_verdicts():
        return space.verdict_view_or_note(settings.benchmark_scores)

    def show(dataset, split):
        return space.benchmark_view(str(settings.benchmark_scores), dataset, split)

    outputs = [summary, table, distributions, heatmap]
    # One at a time: the cached figures are shared between requests. Callable as /benchmark
    # (undocumented) so that clients and tests can read the tab without a browser.
    benchmark_tab.select(show, inputs=[dataset, split], outputs=outputs, api_name="benchmark",
                         api_visibility="undocumented", concurrency_id="benchmark", concurrency_limit=1)
    # Its own queue: the bootstrap behind the verdict table must not hold up the table above.
    benchmark_tab.select(show_verdicts, outputs=verdict_table, api_name="verdicts",
                         api_visibility="undocumented", concurrency_id="verdicts", concurrency_limit=1)
    for event in (dataset.change, split.change):
        event(show, inputs=[dataset, split], outputs=outputs, api_visibility="private",
              concurrency_id="benchmark", concurrency_limit=1)


def build_status(loader):
    """The status line, and the full reason of a failed load in a closed accordion."""
    status = gr.Markdown("Loading the models ...", label="Model status", elem_id="model-status")
    with gr.Accordion("Why the models are not loaded", open=False, visible=False,
                      elem_id="model-details") as accordion:
        details = gr.Markdown(label="Model load details", elem_id="model-details-text")

    def show_status():
        line, reason = loader.status()
        return line, gr.Accordion(visible=bool(reason)), reason

    return show_status, [status, accordion, details]


def enable_buttons(loader, buttons):
    """An event handler that enables the Score buttons when the models are ready: without them
    the buttons stay disabled, and the status line says why."""
    return lambda: [gr.Button(interactive=loader.ready()) for _ in buttons]


def build_demo(settings, loader):
    with gr.Blocks(title=TITLE) as demo:
        gr.Markdown(INTRO)
        show_status, status_outputs = build_status(loader)
        with gr.Tabs():
            with gr.Tab("Score an answer", id="score"):
                buttons = [build_score_tab(loader)]
            with gr.Tab("Score a file", id="file"):
                buttons.append(build_file_tab(loader))
            with gr.Tab("Compare systems", id="compare"):
                space.build_compare_tab()
            with gr.Tab("Benchmark", id="benchmark") as benchmark_tab:
                build_benchmark_tab(settings, benchmark_tab)
            with gr.Tab("About", id="about"):
                gr.Markdown(space.about_markdown(settings))
        # Waits for the background load; unlimited, since waiting costs nothing.
        loaded = demo.load(show_status, outputs=status_outputs, api_name="model_status",
                           api_visibility="undocumented", concurrency_id="status", concurrency_limit=None)
        loaded.then(enable_buttons(loader, buttons), outputs=buttons, api_visibility="private",
                    concurrency_id="status", concurrency_limit=None)
        # A visitor who closes the page stops their file job (it keeps what it scored, as on Cancel).
        demo.unload(space.cancel_file_job)
    return space.name_missing_inputs(demo)


def log_to_console():
    """capqa's own messages in the log (a refusal on one line, a model load failure with its
    traceback); gradio prints the traceback of any other failure of a request."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("capqa")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False  # a library may have given the root logger a handler too


def main():
    log_to_console()
    try:
        settings = space.SpaceSettings.from_environ()
    except ValueError as error:  # a mistyped CAP_* variable: one line, no traceback
        sys.exit(f"error: {error}")
    space.clean_job_folders()
    loader = space.ModelLoader(settings).start()
    demo = build_demo(settings, loader)
    demo.queue(max_size=QUEUE_SIZE, default_concurrency_limit=1)
    # The downloads' own route (a neutral address, not gradio's cache path), ahead of gradio's routes.
    demo.launch(max_file_size=MAX_UPLOAD, theme=THEME, css=CSS,
                app_kwargs={"routes": space.DOWNLOADS.routes()})


if __name__ == "__main__":
    main()
