"""The "Compare systems" tab, and the summary the "Score a file" tab shows for a scored file.

A visitor uploads two or more scored files (the CSVs the "Score a file" tab or ``score`` wrote),
with the ``.summary.json`` that ``score`` wrote beside each when they have it (it holds the
hashcode of what scored the file). ``compare_uploads`` aligns them and returns the tables of
``capqa.compare.systems`` as Markdown, every cell escaped, and the forest plot.
``build_compare_tab`` lays the tab out, so that ``app.py`` only places it.
"""

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple

import gradio as gr

from capqa.compare.report import forest_plot, markdown_report
from capqa.compare.summary import SUMMARY_SUFFIX, ScoreSummary, SummaryError, load_summary
from capqa.compare.systems import Alignment, ScoredSystem, compare_systems
from capqa.space.text import CLOSE_ERRORS_JS, check_text_value, escape_markdown, user_error
from capqa.space.uploads import guess_column, read_upload

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from capqa.space.models import ModelLoader

LOGGER = logging.getLogger(__name__)

MAX_SYSTEMS = 8
NONE = "(none)"
MIXED_BOX = "Allow mixed or unknown settings"
# The comparison's words are the command line's; on the page they name what the page has: the
# checkbox, not the flag; renaming the files, not a name field; the summary not uploaded.
PAGE_WORDS = (
    ("no summary file beside it: it was scored elsewhere or before summaries existed",
     "its .summary.json was not uploaded beside it"),
    ("score it with python -m capqa score, or allow mixed settings (--allow-mixed-settings)",
     f"upload its .summary.json too, or tick '{MIXED_BOX}'"),
    ("allow mixed settings (--allow-mixed-settings, stated in the table)",
     f"tick '{MIXED_BOX}' (stated in the table)"),
    ("(--allow-mixed-settings)", f"('{MIXED_BOX}' ticked)"),
    ("give each system its own name", "rename the files so that each has its own name, and upload them again"),
)
TABLE_SUFFIXES = (".csv", ".jsonl")


def scored_file_summary(summary: ScoreSummary, loader: "ModelLoader") -> str:
    """The summary of a file the Space scored (Markdown): means with CIs, rows, the hashcode of
    the job that scored it (server paths named, not shown)."""
    return loader.settings.redact(summary.to_markdown())


def _split_uploads(paths: Sequence[Any]) -> Tuple[List[Path], dict]:
    """(the uploaded tables, in upload order; {table name: its summary})."""
    tables, summaries = [], {}
    for path in map(Path, paths):
        if path.name.endswith(SUMMARY_SUFFIX):
            summaries[path.name[: -len(SUMMARY_SUFFIX)]] = path
        elif path.suffix.lower() in TABLE_SUFFIXES:
            tables.append(path)
        else:
            raise user_error(f"{path.name} is neither a scored CSV/JSONL file nor a {SUMMARY_SUFFIX} file.")
    return tables, summaries


def _summary(path: Path) -> ScoreSummary:
    try:
        return load_summary(path, path.name)
    except SummaryError as error:
        raise user_error(str(error).replace("`", "")) from None


def _systems(paths: Sequence[Any]) -> List[ScoredSystem]:
    tables, summaries = _split_uploads(paths or [])
    if not 2 <= len(tables) <= MAX_SYSTEMS:
        raise user_error(f"Please upload between 2 and {MAX_SYSTEMS} scored files (got {len(tables)}).")
    stems = [path.stem for path in tables]
    names = stems if len(set(stems)) == len(stems) else [path.name for path in tables]
    systems = []
    for path, name in zip(tables, names):
        table = read_upload(str(path), numbers=True)
        summary = _summary(summaries[path.name]) if path.name in summaries else None
        if summary is not None and summary.rows != len(table):
            raise user_error(f"{path.name} has {len(table):,} rows but its summary says {summary.rows:,}.")
        systems.append(ScoredSystem(name, table, summary.identity if summary else None,
                                    tuple(summary.metrics) if summary else None))
    return systems


def compare_columns(paths: Any) -> Tuple[gr.Dropdown, gr.Dropdown, gr.Dropdown]:
    """The column choices after an upload: (id column, breakdown columns, cluster column)."""
    tables, _ = _split_uploads(paths or [])
    columns = list(read_upload(str(tables[0])).columns) if tables else []
    return (gr.Dropdown(choices=[NONE, *columns], value=NONE),
            gr.Dropdown(choices=columns, value=[], multiselect=True),
            gr.Dropdown(choices=[NONE, *columns], value="question" if "question" in columns else NONE))


def _column(value: Any, name: str) -> Optional[str]:
    text = check_text_value(value, name)
    return None if text in (None, "", NONE) else text


def compare_uploads(paths: Any, id_column: Any = None, by: Any = None, cluster: Any = None,
                    allow_mixed: Any = False) -> Tuple[str, "Figure"]:
    """(the comparison as escaped Markdown, the forest plot) of the uploaded scored files.

    Without an id column, rows are matched by the question and gold answer columns, found by
    name as the "Score a file" tab finds them.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if isinstance(by, str):  # one column named over the API: not a list of its letters
        by = [by]
    by_columns = [column for column in (by or []) if _column(column, "Breakdown column")]
    systems = _systems(paths)
    columns = systems[0].table.columns
    alignment = Alignment(_column(id_column, "Id column"), guess_column(columns, "question"),
                          guess_column(columns, "gold") or "gold_answer")
    try:
        result = compare_systems(systems, alignment,
                                 by=by_columns, cluster=_column(cluster, "Cluster column"),
                                 allow_mixed_settings=bool(allow_mixed))
    except ValueError as error:
        raise user_error(page_words(str(error))) from None
    # The page shows no code marks: an escaped backtick would be a literal one.
    return markdown_report(result, lambda text: escape_markdown(page_words(text))), forest_plot(result)


def page_words(text: str) -> str:
    """A message of the comparison in the page's words (``PAGE_WORDS``), without code marks."""
    text = text.replace("`", "")
    for cli_words, words in PAGE_WORDS:
        text = text.replace(cli_words, words)
    return text


def clear_comparison() -> tuple:
    """A new comparison starts from an empty page: no report, no plot of the last one."""
    return "", gr.Plot(value=None, visible=False)


def build_compare_tab() -> None:
    """The tab's components and events (inside a ``gr.Tab``)."""
    gr.Markdown("Upload two or more scored files of the same examples (from *Score a file* or "
                "`python -m capqa score`), and the `.summary.json` beside each if you have it: it holds the "
                "hashcode of what scored the file, so that only systems scored alike are compared. Rows are "
                "matched by an id column, or by question and gold answer. A second upload adds its files to "
                "the list: clear the list (×) to compare other systems.")
    uploads = gr.File(label="Scored files (and their .summary.json)", file_count="multiple",
                      file_types=[*TABLE_SUFFIXES, ".json"], type="filepath", elem_id="compare-upload")
    with gr.Row():
        id_column = gr.Dropdown(label="Id column (optional)", choices=[NONE], value=NONE, allow_custom_value=True)
        by = gr.Dropdown(label="Break down by (optional)", choices=[], multiselect=True, allow_custom_value=True)
        cluster = gr.Dropdown(label="Resample by (clusters, optional)", choices=[NONE], value=NONE,
                              allow_custom_value=True)
        allow_mixed = gr.Checkbox(label=MIXED_BOX, value=False)
    button = gr.Button("Compare systems", variant="primary", elem_id="compare-button")
    report = gr.Markdown(label="Comparison", elem_id="compare-report")
    # Hidden until a comparison is shown: before, it is a large empty box.
    plot = gr.Plot(label="Paired differences", visible=False, elem_id="compare-plot")
    uploads.upload(compare_columns, inputs=uploads, outputs=[id_column, by, cluster], api_visibility="private")
    cleared = button.click(clear_comparison, outputs=[report, plot], js=CLOSE_ERRORS_JS, api_visibility="private",
                           concurrency_id="clear", concurrency_limit=None)
    compared = cleared.then(compare_uploads, inputs=[uploads, id_column, by, cluster, allow_mixed],
                            outputs=[report, plot], api_name="compare", concurrency_id="compare", concurrency_limit=1)
    compared.success(lambda: gr.Plot(visible=True), outputs=plot, api_visibility="private",
                     concurrency_id="clear", concurrency_limit=None)
