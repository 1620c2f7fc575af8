"""The logic of the CAP Space; ``app.py`` lays out the page and wires these callbacks.

One module per part of the Space:

- ``settings``: the metric's options and the benchmark file from the environment (``CAP_NLI_MODEL``, ...),
  and the public names of the models (never a server path);
- ``models``: ``ModelLoader``, the models loaded once in the background; a failure becomes a
  one-line status with the details on demand;
- ``text``: length caps, refused API values (non-strings, lone surrogates), HTML/Markdown escaping;
- ``answer``: the "Score an answer" tab (``score_outputs`` is the ``/score`` endpoint);
- ``file_job``, ``job_folders``, ``downloads``: the "Score a file" tab (``/score_file``), its job
  folders and the scored files' neutral download addresses;
- ``compare``: the "Compare systems" tab (``/compare``), and the summary of a scored file;
- ``benchmark``: the Benchmark tab, from the paper's published per-row scores;
- ``verdicts``: a scored answer's verdict and the test-split verdict table (from ``capqa.verdicts``);
- ``about``: the About tab.

Callbacks check their input and raise ``gradio.Error`` with a plain, escaped message, which the
page shows instead of a traceback.
"""

import importlib

# The page's names, by the module that defines them: each is imported on first use, so that a
# module of the Space (its input limits, say) can be read without loading gradio.
_NAMES = {
    "capqa.space.about": ("about_markdown",),
    "capqa.space.answer": ("EXAMPLES", "check_answer_inputs", "direction_probabilities", "plain_reading",
                           "probabilities_figure", "score_answer", "score_outputs"),
    "capqa.space.benchmark": ("ALL", "BENCHMARK_DATASETS", "BENCHMARK_METRICS", "BENCHMARK_SPLITS", "COMET_NAME",
                              "HEATMAP_MAX_PX", "benchmark_tables", "benchmark_view", "filter_benchmark",
                              "load_benchmark_scores"),
    "capqa.space.compare": ("build_compare_tab", "compare_uploads"),
    "capqa.space.downloads": ("Download", "download_file"),
    "capqa.space.file_job": ("CANCELLED_HEADLINE", "DOWNLOADS", "PREVIEW_ROWS", "cancel_file_job", "check_file_inputs",
                             "clean_job_folders", "file_columns", "file_report", "preview_column_widths", "score_file"),
    "capqa.space.inputs": ("MAX_FILE_ROWS", "MAX_GOLD_ANSWERS", "MAX_TEXT_CHARS", "NO_LABEL"),
    "capqa.space.models": ("ModelLoader", "ModelsUnavailable", "load_failure"),
    "capqa.space.settings": ("BENCHMARK_SCORES_NAME", "DEFAULT_BENCHMARK_SCORES", "SPACE_VARIANT", "SpaceSettings",
                             "public_model_name"),
    "capqa.space.text": ("CLOSE_ERRORS_JS", "escape_markdown", "name_missing_inputs", "parse_golds", "text_field",
                         "user_error"),
    "capqa.space.uploads": ("guess_column",),
    "capqa.space.verdicts": ("verdict_line", "verdict_view", "verdict_view_or_note"),
}
_MODULE_OF = {name: module for module, names in _NAMES.items() for name in names}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    if name in _MODULE_OF:
        return getattr(importlib.import_module(_MODULE_OF[name]), name)
    raise AttributeError(f"module 'capqa.space' has no attribute {name!r}")


def __dir__() -> list:
    return list(__all__)
