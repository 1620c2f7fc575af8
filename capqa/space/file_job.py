"""The "Score a file" tab: an uploaded CSV/JSONL scored row by row, with progress.

Every cell is checked before any scoring (empty, too long, not valid Unicode, unknown label),
each job works in its own folder, removed when it ends, and the scored CSV is served under a
neutral address that expires (``DOWNLOAD_KEEP_S``, see ``capqa.space.downloads``).

A job can be cancelled (the Cancel button, or the visitor closing the page): it stops before its
next chunk, and its folder, named by what it scores, keeps the committed rows for
``DOWNLOAD_KEEP_S``, so that scoring the same file with the same columns again resumes there,
as an interrupted ``python -m capqa score`` does.
"""

import logging
import math
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

import gradio as gr
import numpy as np
import pandas as pd

from capqa.common.escaping import escape_formula
from capqa.common.quoting import quote
from capqa.common.tables import require_columns, row_place
from capqa.common.validation import is_blank
from capqa.jobs.chunks import split_golds
from capqa.jobs.fingerprint import JobSpec, job_identity
from capqa.jobs.scoring import check_no_output_columns, score_table
from capqa.records.identity import canonical_hash
from capqa.records.job import JobSettings
from capqa.records.results import verdict_columns as columns_of_verdict
from capqa.space.answer import shown_score
from capqa.space.compare import scored_file_summary
from capqa.space.downloads import Downloads
from capqa.space.inputs import MAX_TEXT_CHARS, NO_LABEL
from capqa.space.job_folders import JobFolders
from capqa.space.settings import SPACE_VARIANT
from capqa.space.text import check_text_value, escape_markdown, first_surrogate, user_error
from capqa.space.uploads import guess_column, read_upload, read_upload_lines
from capqa.verdicts.judge import resolve_verdict

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from capqa.metric.scorer import CAPScorer
    from capqa.space.models import ModelLoader

LOGGER = logging.getLogger(__name__)

# The page shows this many scored rows, each cell cut to PREVIEW_CELL_CHARS; the download has all.
PREVIEW_ROWS = 500
PREVIEW_CELL_CHARS = 300
# Widths of the preview's columns, in % of the table (scores, then question, gold, answer, label):
# without them the table sizes columns by their longest cell and pushes the answer off a laptop
# screen. The label column fits "overinclusive_invalid" at 1366 px; the texts share the rest.
# Without a label column the last width goes unused.
PREVIEW_SCORE_WIDTH = 7
PREVIEW_LABEL_WIDTH = 17
PREVIEW_TEXT_SHARES = (26, 16, 27)
# Chunks per file job: enough steps for a smooth progress bar, few enough to batch well.
FILE_JOB_STEPS = 50
MIN_CHUNK_ROWS = 16
DOWNLOAD_KEEP_S = 3600

# Working folders of running jobs, and the scored files waiting to be downloaded (served under
# neutral addresses, see capqa.space.downloads).
JOB_FOLDERS = JobFolders(Path(tempfile.gettempdir()) / "cap-space-jobs")
DOWNLOADS = Downloads(JobFolders(Path(tempfile.gettempdir()) / "cap-space-downloads"), DOWNLOAD_KEEP_S)


def clean_job_folders() -> None:
    """At start: remove what jobs of earlier, dead processes left behind."""
    JOB_FOLDERS.clean_stale()
    DOWNLOADS.clean_stale()


def file_columns(path: Any) -> tuple:
    """Column choices after an upload: (choices, question, gold, answer, label) preselections."""
    table = read_upload(path)
    columns = list(table.columns)
    label = guess_column(columns, "label") or NO_LABEL
    return (columns, guess_column(columns, "question"), guess_column(columns, "gold"),
            guess_column(columns, "answer"), label)


def check_cells(table: pd.DataFrame, column: str, required: bool = True, lines: Optional[List[int]] = None) -> None:
    """Every cell of ``column``: not empty or invisible (when required), not too long, valid Unicode.
    A refusal names the first such row as every message does (``row_place``; ``lines``: the file
    line of each row)."""
    cells = table[column]
    checks = [("is empty", cells.str.strip().eq("")) if required else None,
              ("holds only invisible characters (zero-width spaces, BOM or control characters)",
               cells.map(is_blank)) if required else None,
              (f"is longer than {MAX_TEXT_CHARS:,} characters", cells.str.len().gt(MAX_TEXT_CHARS)),
              ("holds a lone surrogate character (not valid Unicode)",
               cells.map(lambda cell: first_surrogate(cell) is not None))]
    for problem, bad in filter(None, checks):
        rows = np.flatnonzero(bad.to_numpy())
        if rows.size:
            raise user_error(f"Column '{column}' {problem} in {row_place(rows[0], lines)}; {rows.size:,} such "
                             "row(s) in all. Fix the file and upload it again.")


def verdict_columns(policy: Optional[str]) -> List[str]:
    """The verdict columns a scored file gets under the Space's ``CAP_VERDICT`` policy."""
    return columns_of_verdict(resolve_verdict(policy, SPACE_VARIANT)) if policy else []


def preview_columns(policy: Optional[str] = None) -> List[str]:
    """The score columns the preview shows first: CAP, CAP+ and the verdict's."""
    return ["cap", "cap_plus", *verdict_columns(policy)]


def preview_column_widths(policy: Optional[str] = None) -> List[str]:
    """The preview's column widths (``gr.DataFrame(column_widths=...)``) under ``policy``."""
    scores = len(preview_columns(policy))
    rest = 100 - scores * PREVIEW_SCORE_WIDTH - PREVIEW_LABEL_WIDTH
    texts = [round(rest * share / sum(PREVIEW_TEXT_SHARES), 1) for share in PREVIEW_TEXT_SHARES]
    return [f"{width}%" for width in [PREVIEW_SCORE_WIDTH] * scores + texts + [PREVIEW_LABEL_WIDTH]]


def check_file_request(table: pd.DataFrame, question_column: str, gold_column: str, answer_column: str,
                       label_column: Optional[str], separator: Optional[str], policy: Optional[str] = None,
                       lines: Optional[List[int]] = None) -> None:
    for role, column in (("question", question_column), ("gold answer", gold_column),
                         ("predicted answer", answer_column)):
        if not column:
            raise user_error(f"Please choose the {role} column.")
    try:
        require_columns(table, [question_column, gold_column, answer_column, label_column], "The file")
        check_no_output_columns(table.columns, SPACE_VARIANT, resolve_verdict(policy, SPACE_VARIANT))
    except ValueError as error:
        raise user_error(str(error)) from None
    for column in (question_column, gold_column, answer_column):
        # A blank answer is an answer that states nothing: it scores 0 (the blank policy).
        check_cells(table, column, required=column != answer_column, lines=lines)
    if separator:
        pieces = split_golds(table[gold_column], separator)
        bad = np.flatnonzero([any(map(is_blank, cell)) for cell in pieces])
        if bad.size:
            raise user_error(f"{row_place(bad[0], lines).capitalize()}: splitting the gold answers on "
                             f"{quote(separator)} leaves an empty answer.")
    if label_column:
        check_cells(table, label_column, required=False, lines=lines)
        _check_labels(table[label_column])


def _check_labels(labels):
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.measures import prepare_labels

    try:
        rows = prepare_labels(list(labels), name="label column")
    except (TypeError, ValueError) as error:
        raise user_error(str(error).replace("`", "'")) from None
    if len(set(rows.class_severity)) < 2:
        raise user_error("The label column needs classes of at least two different severities for "
                         f"the monotonicity report (it holds only {', '.join(rows.classes)}).")


class JobCancelled(Exception):
    """The visitor cancelled the file job; raised before the next chunk, after ``rows`` rows."""

    def __init__(self, rows: int) -> None:
        super().__init__(f"the file job was cancelled after {rows} rows")
        self.rows = rows


class CancelSwitches:
    """One cancel switch per visitor (gradio's session hash): the Cancel button and closing the
    page set it, and that visitor's running file job reads it between chunks."""

    def __init__(self) -> None:
        self._switches: Dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def arm(self, session: str) -> threading.Event:
        with self._lock:
            self._switches[session] = switch = threading.Event()
        return switch

    def cancel(self, session: Optional[str]) -> bool:
        """Set ``session``'s switch; False when it runs no file job."""
        with self._lock:
            switch = self._switches.get(session or "")
        if switch is not None:
            switch.set()
        return switch is not None

    def release(self, session: str, switch: threading.Event) -> None:
        with self._lock:
            if self._switches.get(session) is switch:
                del self._switches[session]


CANCELS = CancelSwitches()
CANCELLED_HEADLINE = "**Cancelled.**"


def cancel_file_job(request: Optional[gr.Request] = None) -> str:
    """Cancel the visitor's running file job (it stops before its next chunk); returns what the
    page says (the job's own summary says where it stopped)."""
    if CANCELS.cancel(getattr(request, "session_hash", None)):
        return "Cancelling: the job stops after the chunk it is scoring."
    return "No file job of yours is running."


class ReportingScorer:
    """The scorer, reporting the rows scored so far after each chunk ``score_table`` sends, and
    stopping before a chunk once ``cancelled`` is set."""

    def __init__(self, scorer: "CAPScorer", report: Callable[[int], None],
                 cancelled: Optional[threading.Event] = None) -> None:
        self._scorer = scorer
        self._report = report
        self._cancelled = cancelled or threading.Event()
        self._rows = 0

    def __getattr__(self, name):
        return getattr(self._scorer, name)

    def score(self, predictions: Sequence[str], *args: Any, **kwargs: Any) -> Dict[str, Any]:
        if self._cancelled.is_set():
            raise JobCancelled(self._rows)
        result = self._scorer.score(predictions, *args, **kwargs)
        self._rows += len(predictions)
        self._report(self._rows)
        return result


def _chunk_rows(n_rows: int) -> int:
    return max(MIN_CHUNK_ROWS, math.ceil(n_rows / FILE_JOB_STEPS))


def check_file_inputs(path: Any, question_column: Any, gold_column: Any, answer_column: Any, label_column: Any,
                      separator: Any, policy: Optional[str] = None) -> tuple:
    """The uploaded table, the label column and the separator, each checked; raises ``gr.Error``.
    ``policy``: the Space's ``CAP_VERDICT`` (its columns must not be in the file already).

    The page runs it as a step of its own before scoring: a refused file then shows its message
    alone, without marking the previous results as failed.
    """
    for name, value in (("Question column", question_column), ("Gold answer column", gold_column),
                        ("Predicted answer column", answer_column), ("Label column", label_column),
                        ("Gold answer separator", separator)):
        check_text_value(value, name)
    label_column = None if label_column in (None, "", NO_LABEL) else label_column
    separator = separator or None
    table, lines = read_upload_lines(path)
    check_file_request(table, question_column, gold_column, answer_column, label_column, separator, policy, lines)
    return table, label_column, separator


def score_file(loader: "ModelLoader", path: Any, question_column: Any, gold_column: Any, answer_column: Any,
               label_column: Any, separator: Any, progress: Optional[Callable] = None,
               request: Optional[gr.Request] = None) -> tuple:
    """Score every row of the uploaded file; returns (summary, preview, download, report, plot).

    ``progress``: a ``gr.Progress`` (or any callable taking ``(done, total)`` and ``desc``).
    ``request``: the visitor's, to address the download (a ``downloads.Download``).
    """
    policy = loader.settings.verdict
    table, label_column, separator = check_file_inputs(path, question_column, gold_column, answer_column,
                                                       label_column, separator, policy)
    scorer = loader.scorer_or_error()
    # `is not None`, not truth: a gr.Progress has a length, 0 until it tracks an iterable.
    report = (lambda rows: progress((rows, len(table)), desc="Scoring rows", unit="rows")) \
        if progress is not None else (lambda rows: None)
    report(0)
    name = f"{Path(path).stem}-cap.csv"
    settings = JobSettings(question_column, gold_column, answer_column, separator)
    session = getattr(request, "session_hash", None) or ""
    switch = CANCELS.arm(session)
    started = time.perf_counter()
    JOB_FOLDERS.expire(DOWNLOAD_KEEP_S)  # cancelled jobs nobody resumed
    try:
        with JOB_FOLDERS.resumable(job_key(table, scorer, settings), keep=(JobCancelled,)) as folder:
            job = score_table(table, ReportingScorer(scorer, report, switch), folder / name, settings,
                              chunk_size=_chunk_rows(len(table)), source=f"`{Path(path).name}`")
            seconds = time.perf_counter() - started
            # The header escapes a name a spreadsheet would run (`=x` is written `'=x`): read it back by position.
            scored = pd.read_csv(folder / name, dtype={escape_formula(column): str for column in table.columns},
                                 keep_default_na=False)
            scored.columns = list(table.columns) + list(scored.columns[len(table.columns):])
            download = DOWNLOADS.add(folder / name, request)
    except JobCancelled as cancelled:
        return cancelled_summary(cancelled.rows, len(table)), None, None, "", None
    finally:
        CANCELS.release(session, switch)
    resumed = len(scored) - job.added
    summary = (f"Scored **{len(scored):,} rows** in {seconds:.1f} s"
               + (f" ({resumed:,} of them kept from the cancelled run)" if resumed else "") + ": mean CAP "
               f"**{scored['cap'].mean():.4f}**. The table shows the first "
               f"{min(len(scored), PREVIEW_ROWS):,} rows; download the file for all of them."
               + _verdict_summary(scored, policy) + "\n\n" + scored_file_summary(job.summary, loader))
    preview = preview_table(scored, question_column, gold_column, answer_column, label_column, policy)
    report_text, figure = ("", None)
    if label_column:
        report_text, figure = file_report(scored["cap"].to_numpy(), scored[label_column].to_numpy())
    return summary, preview, download, report_text, figure


def cancelled_summary(rows: int, total: int) -> str:
    """What the page says of a cancelled job (``CANCELLED_HEADLINE`` first: the results stay hidden)."""
    return (f"{CANCELLED_HEADLINE} The job stopped after scoring {rows:,} more of its {total:,} rows. The rows "
            f"scored so far are kept for {DOWNLOAD_KEEP_S // 60} minutes: press Score file again with the same "
            "file and columns to go on from where it stopped.")


def job_key(table: pd.DataFrame, scorer: "CAPScorer", settings: JobSettings) -> str:
    """A name for the job's folder: a hash of what its scored file's resume check compares (the
    job's identity record), so that only the same job finds a cancelled run's rows."""
    return canonical_hash(JobSpec.of(job_identity(table, scorer, settings)).to_json())


def _verdict_summary(scored: pd.DataFrame, policy: Optional[str]) -> str:
    """The verdict's means in the summary: accuracy, and mean credit under a graded policy."""
    if not policy or "correct" not in scored:
        return ""
    correct = scored["correct"].astype(str).eq("True")
    text = (f" Verdict (`{policy}` policy): accuracy **{correct.mean():.4f}** ({int(correct.sum()):,} of "
            f"{len(correct):,} rows correct)")
    if "credit" in scored:
        text += f", mean credit **{scored['credit'].mean():.4f}**"
    return text + "."


def preview_table(scored, question_column, gold_column, answer_column, label_column, policy=None):
    """Scores first, then the texts, each cut short, then the label (see ``preview_column_widths``)."""
    shown = [*preview_columns(policy), question_column, gold_column, answer_column, label_column]
    preview = scored[list(dict.fromkeys(column for column in shown if column in scored))].head(PREVIEW_ROWS)
    # Every column that is not numeric: pandas 3 reads text as `str`, not `object`.
    texts = [column for column in preview.columns if not pd.api.types.is_numeric_dtype(preview[column])]
    cut = {column: preview[column].map(_cut_cell) for column in texts}
    # Scores as the score boxes show them, 4 decimals each (0.4740, not 0.474 beside 0.4543).
    scores = {column: preview[column].map(shown_score) for column in preview.columns
              if pd.api.types.is_float_dtype(preview[column])}
    return preview.assign(**cut, **scores)


def _cut_cell(cell: Any) -> Any:
    if isinstance(cell, str) and len(cell) > PREVIEW_CELL_CHARS:
        return cell[:PREVIEW_CELL_CHARS - 1] + "…"
    return cell


def file_report(scores: np.ndarray, labels: np.ndarray) -> Tuple[str, "Figure"]:
    """The monotonicity diagnostic of the file's CAP scores against its labels."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.measures import monotonicity_report
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.plots import class_distributions

    report = monotonicity_report(scores, labels)
    lines = [
        "### Monotonicity of CAP on this file",
        f"- Pairwise accuracy: **{100 * report['pairwise_accuracy']:.2f}%** "
        f"({report['wins']:,} wins, {report['ties']:,} ties, {report['losses']:,} losses "
        f"of {report['comparable_pairs']:,} comparable pairs)",
        f"- Mean violations: **{report['mean_violations']}/{report['class_pairs']}** class pairs",
        f"- Spearman {report['spearman']:.3f}, Kendall tau-b {report['kendall']:.3f}",
        "",
        "| class | mean CAP |", "|---|---|",
    ]
    lines += [f"| {escape_markdown(label)} | {mean:.3f} |" for label, mean in report["class_means"].items()]
    return "\n".join(lines), class_distributions({"CAP": scores}, labels, title="CAP per class")
