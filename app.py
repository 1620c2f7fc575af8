"""The CAP Space: score answers, score files, explore the paper's benchmark.

``python app.py`` serves it (host and port from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT). Models
come from CAP_NLI_MODEL, CAP_STATEMENT_MODEL and CAP_DEVICE (see the README's Space section); the page lays
out components here, the logic is in ``capqa.space``.
"""

import os

# No usage analytics: the Space must start and run without reaching the internet.
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402

from capqa import space  # noqa: E402

TITLE = "CAP: how correct is your answer?"
INTRO = """\
# CAP: how correct is your answer?
CAP scores a predicted answer against the gold answer of a question by *meaning*: both become
statements, and an NLI model checks which one implies the other. Score one answer, score a whole
file, or compare CAP with BLEU, ROUGE-L, METEOR and BERTScore on the paper's benchmark.
"""
QUEUE_SIZE = 64
MAX_UPLOAD = "200mb"


def build_score_tab(loader):
    with gr.Row():
        with gr.Column():
            question = gr.Textbox(label="Question", lines=2, placeholder="Name a city in Bulgaria.")
            gold = gr.Textbox(label="Gold answer(s), one per line", lines=3, placeholder="Sofia")
            answer = gr.Textbox(label="Predicted answer", lines=2, placeholder="Burgas")
            score_button = gr.Button("Score", variant="primary", elem_id="score-button")
            examples = space.EXAMPLES
            gr.Examples(examples=[[question_, gold_, answer_] for _, question_, gold_, answer_ in examples],
                        inputs=[question, gold, answer], label="Examples: one per correctness class",
                        example_labels=[f"{label}: {answer_}" for label, _, _, answer_ in examples])
        with gr.Column():
            cap = gr.Number(label="CAP", precision=4, interactive=False, elem_id="cap-value")
            with gr.Row():
                forward = gr.Number(label="Gold ⇒ prediction: D(forward)", precision=4, interactive=False)
                reverse = gr.Number(label="Prediction ⇒ gold: D(reverse)", precision=4, interactive=False)
            premise = gr.Textbox(label="Gold statement", interactive=False)
            hypothesis = gr.Textbox(label="Predicted statement", interactive=False)
            reading = gr.Markdown(elem_id="reading")
    probabilities = gr.Plot(label="NLI probabilities in both directions")
    with gr.Accordion("All details (JSON)", open=False):
        details = gr.JSON(label="details")

    def score(question, gold, answer):
        return space.score_outputs(loader, question, gold, answer)

    score_button.click(score, inputs=[question, gold, answer],
                       outputs=[cap, premise, hypothesis, forward, reverse, probabilities, reading, details],
                       api_name="score", concurrency_id="score", concurrency_limit=2)


def build_file_tab(loader):
    gr.Markdown("Upload a CSV or JSONL file with a question, a gold answer and a predicted answer "
                f"per row (at most {space.MAX_FILE_ROWS:,} rows). With a label column of correctness "
                "classes, the monotonicity report of CAP on your file appears below the table.")
    upload = gr.File(label="CSV or JSONL file", file_types=[".csv", ".jsonl"], type="filepath",
                     elem_id="file-upload")
    with gr.Row():
        question_column = gr.Dropdown(label="Question column", choices=[], allow_custom_value=True)
        gold_column = gr.Dropdown(label="Gold answer column", choices=[], allow_custom_value=True)
        answer_column = gr.Dropdown(label="Predicted answer column", choices=[], allow_custom_value=True)
        label_column = gr.Dropdown(label="Label column (optional)", choices=[space.NO_LABEL],
                                   value=space.NO_LABEL, allow_custom_value=True)
        separator = gr.Textbox(label="Gold answer separator (optional)", placeholder="e.g. |", max_lines=1)
    file_button = gr.Button("Score file", variant="primary", elem_id="file-button")
    summary = gr.Markdown(elem_id="file-summary")
    table = gr.DataFrame(label="Scored rows", interactive=False, wrap=True, elem_id="file-table")
    download = gr.File(label="Download the scored CSV", interactive=False)
    report = gr.Markdown()
    report_plot = gr.Plot(label="CAP per correctness class")

    def choose_columns(path):
        choices, question, gold, answer, label = space.file_columns(path)
        return (gr.Dropdown(choices=choices, value=question), gr.Dropdown(choices=choices, value=gold),
                gr.Dropdown(choices=choices, value=answer),
                gr.Dropdown(choices=[space.NO_LABEL, *choices], value=label))

    def score_file(path, question, gold, answer, label, separator, progress=gr.Progress(track_tqdm=True)):
        return space.score_file(loader, path, question, gold, answer, label, separator, progress)

    columns = [question_column, gold_column, answer_column, label_column]
    upload.upload(choose_columns, inputs=upload, outputs=columns, api_visibility="private")
    # Its own concurrency group: a long file job never holds up single scores.
    file_button.click(score_file, inputs=[upload, *columns, separator],
                      outputs=[summary, table, download, report, report_plot],
                      api_name="score_file", concurrency_id="file", concurrency_limit=1)


def build_benchmark_tab(settings, benchmark_tab):
    gr.Markdown("The paper's comparison of CAP with BLEU, ROUGE-L, METEOR and BERTScore, computed "
                "here from the published per-row scores of CAP-Correctness (no model needed).")
    with gr.Row():
        dataset = gr.Dropdown(label="Source dataset", choices=[space.ALL, *space.BENCHMARK_DATASETS],
                              value=space.ALL)
        split = gr.Dropdown(label="Split", choices=[space.ALL, *space.BENCHMARK_SPLITS], value="test")
    summary = gr.Markdown(elem_id="benchmark-summary")
    table = gr.DataFrame(label="Agreement with the correctness classes", interactive=False,
                         elem_id="benchmark-table")
    distributions = gr.Plot(label="Scores per correctness class")
    heatmap = gr.Plot(label="Class-pair accuracy")

    def show(dataset, split):
        return space.benchmark_view(str(settings.benchmark_scores), dataset, split)

    outputs = [summary, table, distributions, heatmap]
    # One at a time: the cached figures are shared between requests. Callable as /benchmark
    # (undocumented) so that clients and tests can read the tab without a browser.
    benchmark_tab.select(show, inputs=[dataset, split], outputs=outputs, api_name="benchmark",
                         api_visibility="undocumented", concurrency_id="benchmark", concurrency_limit=1)
    for event in (dataset.change, split.change):
        event(show, inputs=[dataset, split], outputs=outputs, api_visibility="private",
              concurrency_id="benchmark", concurrency_limit=1)


def build_demo(settings, loader):
    with gr.Blocks(title=TITLE) as demo:
        gr.Markdown(INTRO)
        status = gr.Markdown("Loading the models ...", elem_id="model-status")
        with gr.Tabs():
            with gr.Tab("Score an answer", id="score"):
                build_score_tab(loader)
            with gr.Tab("Score a file", id="file"):
                build_file_tab(loader)
            with gr.Tab("Benchmark", id="benchmark") as benchmark_tab:
                build_benchmark_tab(settings, benchmark_tab)
            with gr.Tab("About", id="about"):
                gr.Markdown(space.about_markdown(settings))
        # Waits for the background load; unlimited, since waiting costs nothing.
        demo.load(loader.status_markdown, outputs=status, api_name="model_status",
                  api_visibility="undocumented",
                  concurrency_id="status", concurrency_limit=None)
    return demo


def main():
    settings = space.SpaceSettings.from_environ()
    loader = space.ModelLoader(settings).start()
    demo = build_demo(settings, loader)
    demo.queue(max_size=QUEUE_SIZE, default_concurrency_limit=1)
    demo.launch(max_file_size=MAX_UPLOAD, theme=gr.themes.Default())


if __name__ == "__main__":
    main()
