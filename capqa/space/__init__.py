"""The logic of the CAP Space; ``app.py`` lays out the page and wires these callbacks.

One module per part of the Space:

- ``settings``: models, device and benchmark file from the environment (``CAP_NLI_MODEL``, ...),
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

from capqa.space.about import about_markdown
from capqa.space.answer import (EXAMPLES, check_answer_inputs, direction_probabilities, plain_reading,
                                probabilities_figure, score_answer, score_outputs)
from capqa.space.benchmark import (ALL, BENCHMARK_DATASETS, BENCHMARK_METRICS, BENCHMARK_SPLITS, COMET_NAME,
                                   HEATMAP_MAX_PX, benchmark_tables, benchmark_view, filter_benchmark, load_benchmark_scores)
from capqa.space.compare import build_compare_tab, compare_uploads
from capqa.space.downloads import Download, download_file
from capqa.space.file_job import (DOWNLOADS, MAX_FILE_ROWS, NO_LABEL, PREVIEW_ROWS, check_file_inputs,
                                  clean_job_folders, file_columns, file_report, guess_column, preview_column_widths,
                                  score_file)
from capqa.space.models import ModelLoader, ModelsUnavailable, load_failure
from capqa.space.settings import (BENCHMARK_SCORES_NAME, DEFAULT_BENCHMARK_SCORES, SPACE_VARIANT,
                                  VERDICT_CHOICES, SpaceSettings, public_model_name)
from capqa.space.text import (MAX_GOLD_ANSWERS, MAX_TEXT_CHARS, escape_markdown, text_field, parse_golds,
                              user_error)
from capqa.space.verdicts import verdict_line, verdict_view, verdict_view_or_note

__all__ = [
    "ALL", "BENCHMARK_DATASETS", "DOWNLOADS", "Download", "download_file", "BENCHMARK_METRICS", "BENCHMARK_SCORES_NAME", "BENCHMARK_SPLITS", "COMET_NAME",
    "DEFAULT_BENCHMARK_SCORES", "EXAMPLES", "HEATMAP_MAX_PX", "MAX_FILE_ROWS", "MAX_GOLD_ANSWERS", "MAX_TEXT_CHARS", "NO_LABEL",
    "PREVIEW_ROWS", "SPACE_VARIANT", "ModelLoader", "ModelsUnavailable", "SpaceSettings",
    "text_field",
    "about_markdown", "benchmark_tables", "benchmark_view", "check_answer_inputs", "check_file_inputs",
    "build_compare_tab", "compare_uploads",
    "clean_job_folders",
    "direction_probabilities", "escape_markdown", "file_columns", "file_report", "filter_benchmark",
    "guess_column", "load_benchmark_scores", "load_failure", "parse_golds", "plain_reading", "preview_column_widths",
    "probabilities_figure", "public_model_name", "score_answer", "score_file", "score_outputs", "user_error",
    "VERDICT_CHOICES", "verdict_line", "verdict_view", "verdict_view_or_note",
]
