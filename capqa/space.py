"""The logic of the CAP Space; ``app.py`` only lays out the page and wires these callbacks.

- ``SpaceSettings``: models, device and benchmark file from the environment, so the Space runs
  offline with local folders (``CAP_NLI_MODEL``, ``CAP_STATEMENT_MODEL``, ...).
- ``ModelLoader``: loads the models once per process, in the background, shared by every
  request; a failure becomes a message that says what to set, never a crash.
- Callbacks (``score_answer``, ``score_file``, ``benchmark_view``) check their input and raise
  ``gradio.Error`` with a plain message, which the page shows instead of a traceback.
"""

import logging
import math
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

import gradio as gr
import numpy as np
import pandas as pd

from capqa.paths import DATA_DIR, REPO_ROOT
from capqa.constants import (ALPHA, CITATION, CLASS_DEFINITIONS, DEFAULT_NLI_MODEL, HARD_PAIRS, LABELS,
                             NEUTRAL_WEIGHT, NLI_LABELS, RULES, SEVERITY, statement_model_id)
from capqa.metric_options import MetricOptions
from capqa.score_file import check_no_output_columns, score_table, split_golds
from capqa.tables import read_table, require_columns

LOGGER = logging.getLogger(__name__)
# The published per-row scores: beside app.py in the assembled Space, else the repo's data/.
BENCHMARK_SCORES_NAME = "paper_scores.csv"
DEFAULT_BENCHMARK_SCORES = next(
    (path for path in (REPO_ROOT / BENCHMARK_SCORES_NAME, DATA_DIR / BENCHMARK_SCORES_NAME) if path.is_file()),
    DATA_DIR / BENCHMARK_SCORES_NAME)

MAX_FILE_ROWS = 100_000
SPACE_VARIANT = "plus"  # the page shows CAP+ beside CAP
# The page shows this many scored rows; the download has them all.
PREVIEW_ROWS = 500
MAX_TEXT_CHARS = 5_000
MAX_GOLD_ANSWERS = 50
# Chunks per file job: enough steps for a smooth progress bar, few enough to batch well.
FILE_JOB_STEPS = 50
MIN_CHUNK_ROWS = 16

# One example per correctness class (the paper's, from paper_results.json) and the README's.
EXAMPLES = (
    ("exact", "As of 2017, how many people in the world have some access to electricity?", "80%", "80%"),
    ("equivalent", "Earth rotating causes", "the cycling of AM and PM",
     "Earth's rotation causes the alternation of morning and afternoon"),
    ("alternative_correct", "At what temperature does water begin to boil?", "100°C", "212°F"),
    ("overinclusive_valid", "If a cow is offered a choice, it will turn down", "a chunk of pork",
     "a chunk of pork, since cows are herbivores and do not eat meat"),
    ("partial", "What travels through the stem of a plant?", "water and food", "water"),
    ("overinclusive_invalid", "Sound reaches our ears because sound makes air particles", "vibrate.",
     "vibrate and also create electromagnetic waves that travel through the air"),
    ("invalid", "Which material is the best conductor of electricity?", "Metal", "Plastic"),
    ("contradictory", "The extensive branching of neurons helps them to perform which function?",
     "communicate with other neurons", "prevent communication with other neurons"),
    ("alternative_correct", "Name a city in Bulgaria.", "Sofia", "Burgas"),
)


# Benchmark: the published per-row scores of the paper's comparison.
BENCHMARK_METRICS = {"cap": "CAP", "bleu": "BLEU", "rouge_l": "ROUGE-L", "meteor": "METEOR",
                     "bertscore": "BERTScore"}
BENCHMARK_DATASETS = ("ARC-Easy", "MMLU", "OpenBookQA")
BENCHMARK_SPLITS = ("validation", "test")
ALL = "all"

# Column names tried, in order, to preselect the file tab's column choices.
COLUMN_GUESSES = {
    "question": ("question", "questions", "query"),
    "gold": ("gold_answer", "gold", "reference", "references", "gold_answers", "target"),
    "answer": ("answer", "prediction", "predicted_answer", "predictions", "pred", "output"),
    "label": ("label", "label_semantic", "class", "correctness"),
}
NO_LABEL = "(no label column)"


# --- Settings and models -----------------------------------------------------------------------

@dataclass(frozen=True)
class SpaceSettings:
    """What the Space runs with; ``from_environ`` reads the documented environment variables."""

    nli_model: str = DEFAULT_NLI_MODEL
    nli_revision: Optional[str] = None
    statement_model: Optional[str] = None
    statement_revision: Optional[str] = None
    device: str = "auto"
    benchmark_scores: Path = DEFAULT_BENCHMARK_SCORES

    @classmethod
    def from_environ(cls, environ=None):
        environ = os.environ if environ is None else environ

        def value(name):
            text = environ.get(name, "").strip()
            return text or None

        return cls(nli_model=value("CAP_NLI_MODEL") or DEFAULT_NLI_MODEL,
                   nli_revision=value("CAP_NLI_REVISION"),
                   statement_model=value("CAP_STATEMENT_MODEL"),
                   statement_revision=value("CAP_STATEMENT_REVISION"),
                   device=value("CAP_DEVICE") or "auto",
                   benchmark_scores=Path(value("CAP_BENCHMARK_SCORES") or DEFAULT_BENCHMARK_SCORES))

    @property
    def statement_model_name(self):
        return self.statement_model or statement_model_id()

    def metric_options(self):
        return MetricOptions(nli_model=self.nli_model, nli_revision=self.nli_revision,
                             statement_model=self.statement_model,
                             statement_revision=self.statement_revision, device=self.device,
                             variant=SPACE_VARIANT)

    def describe(self):
        statements = ("the rule-based converter (`rules`)" if self.statement_model == RULES
                      else f"`{self.statement_model_name}`")
        return f"NLI model `{self.nli_model}`, statements from {statements}, device `{self.device}`"


class ModelsUnavailable(RuntimeError):
    """The models could not be loaded; the message says what to set."""


def unavailable_message(settings, error):
    reason = " ".join(str(error).split())
    if len(reason) > 600:
        reason = reason[:600] + " ..."
    return (f"The models could not be loaded ({settings.describe()}): {reason}\n\n"
            "To run without the Hugging Face Hub, set `CAP_NLI_MODEL` to a local NLI model folder, "
            "`CAP_STATEMENT_MODEL` to a local statement-model folder or `rules`, and "
            "`HF_HUB_OFFLINE=1`, then restart the app. The Benchmark and About tabs work without models.")


class ModelLoader:
    """Builds the scorer once per process and shares it; thread-safe.

    ``start`` loads in a background thread so that the page opens at once; ``scorer`` waits
    for that load (or does it) and raises ``ModelsUnavailable`` when it failed.
    """

    def __init__(self, settings):
        self.settings = settings
        self._lock = threading.Lock()
        self._finished = False
        self._scorer = None
        self._error = None

    def start(self):
        threading.Thread(target=self._load, name="cap-model-loader", daemon=True).start()
        return self

    def _load(self):
        with self._lock:
            if self._finished:
                return
            try:
                scorer = self.settings.metric_options().build_scorer()
                # One tiny example loads the lazily built statement model too, so the first
                # visitor's request does not pay for it and a broken folder shows up now.
                scorer.score(["Sofia"], [["Sofia"]], ["Name a city in Bulgaria."])
                self._scorer = scorer
            except Exception as error:  # any load failure must become a message, not a dead page
                LOGGER.exception("CAP models failed to load")
                self._error = unavailable_message(self.settings, error)
            finally:
                self._finished = True

    def scorer(self):
        self._load()
        if self._error:
            raise ModelsUnavailable(self._error)
        return self._scorer

    def status_markdown(self):
        """One line for the top of the page; waits for the load to finish."""
        try:
            self.scorer()
        except ModelsUnavailable as error:
            return f"**Models not loaded.** {error}"
        return f"**Models ready**: {self.settings.describe()}."


# --- Score an answer ----------------------------------------------------------------------------

def _required_text(value, what):
    text = "" if value is None else str(value).strip()
    if not text:
        raise gr.Error(f"Please enter {what}.")
    if len(text) > MAX_TEXT_CHARS:
        raise gr.Error(f"{what[0].upper()}{what[1:]} is {len(text):,} characters long; "
                       f"at most {MAX_TEXT_CHARS:,} are accepted.")
    return text


def parse_golds(text):
    """The gold answers typed one per line; blank lines are skipped."""
    _required_text(text, "a gold answer")
    golds = [line.strip() for line in str(text).splitlines() if line.strip()]
    if len(golds) > MAX_GOLD_ANSWERS:
        raise gr.Error(f"There are {len(golds)} gold answers; at most {MAX_GOLD_ANSWERS} are accepted.")
    return golds


def _scorer_or_error(loader):
    try:
        return loader.scorer()
    except ModelsUnavailable as error:
        # The pop-up shows plain text: no Markdown marks.
        raise gr.Error(str(error).replace("`", "")) from None


def score_answer(loader, question, gold, answer):
    """CAP of one answer with everything the page shows: a dict (see ``score_outputs``)."""
    question = _required_text(question, "a question")
    golds = parse_golds(gold)
    answer = _required_text(answer, "a predicted answer")
    result = _scorer_or_error(loader).score([answer], [golds], [question], return_details=True)
    details = {key: (value[0] if isinstance(value, list) and value else value)
               for key, value in result.items() if key != "scores"}
    details["cap"] = result["scores"][0]
    details["gold_answer"] = golds[details["best_reference"]]
    return details


def direction_probabilities(details, direction):
    return {label: details[f"p_{label}_{direction}"] for label in NLI_LABELS}


def _direction_line(name, probabilities, score):
    verdict = max(probabilities, key=probabilities.get)
    parts = ", ".join(f"{label} {p:.2f}" for label, p in probabilities.items())
    return f"- **{name}**: {verdict} ({parts}; directional score {score:.3f})"


def plain_reading(details):
    """The two directions in plain words: which statement implies which, or a contradiction."""
    forward = direction_probabilities(details, "forward")
    reverse = direction_probabilities(details, "reverse")
    forward_verdict = max(forward, key=forward.get)
    reverse_verdict = max(reverse, key=reverse.get)
    if "contradiction" in (forward_verdict, reverse_verdict):
        summary = ("**Contradiction**: the two statements cannot both be true; the prediction "
                   "conflicts with the gold answer.")
    elif forward_verdict == reverse_verdict == "entailment":
        summary = ("**Both directions entail**: the statements say the same thing; the prediction "
                   "is equivalent to the gold answer.")
    elif forward_verdict == "entailment":
        summary = ("**Gold entails prediction**: everything the prediction says follows from the "
                   "gold answer, but not the other way round: it says less (partial or more general).")
    elif reverse_verdict == "entailment":
        summary = ("**Prediction entails gold**: the prediction contains the gold answer and says "
                   "more (over-inclusive); whether the extra part is true decides its correctness.")
    else:
        summary = ("**Neither direction entails**: neither statement implies the other; the "
                   "prediction gives different information (a wrong answer, or an alternative "
                   "correct answer that the NLI model cannot verify).")
    lines = [summary, "",
             _direction_line("Gold ⇒ prediction", forward, details["forward"]),
             _direction_line("Prediction ⇒ gold", reverse, details["reverse"])]
    return "\n".join(lines + _calibration_lines(details))


def _calibration_lines(details):
    """CAP+ and the diagnosed relation, when the scorer provides them."""
    lines = []
    if details.get("cap_plus") is not None:
        lines.append(f"- **CAP+** (calibrated): {details['cap_plus']:.3f}")
    relation = details.get("relation")
    if isinstance(relation, dict) and relation:
        text = relation.get("explanation") or (
            f"likely {relation.get('label')}, p = {relation.get('probability', float('nan')):.2f}")
        lines.append(f"- **Likely relation**: {text}")
    return [""] + lines if lines else []


def probabilities_figure(details):
    """The six NLI probabilities as grouped bars: one group per direction."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.0), layout="constrained")
    axis = figure.subplots()
    positions = np.arange(len(NLI_LABELS))
    colors = {"forward": "#2b6cb0", "reverse": "#dd6b20"}
    names = {"forward": "gold ⇒ prediction", "reverse": "prediction ⇒ gold"}
    for offset, direction in ((-0.2, "forward"), (0.2, "reverse")):
        values = list(direction_probabilities(details, direction).values())
        bars = axis.bar(positions + offset, values, width=0.38, color=colors[direction],
                        label=names[direction])
        axis.bar_label(bars, fmt="%.2f", fontsize=8)
    axis.set_xticks(positions, NLI_LABELS)
    axis.set_ylim(0, 1.12)
    axis.set_ylabel("probability")
    axis.legend(fontsize=8, loc="upper right", frameon=False)
    axis.grid(axis="y", alpha=0.3)
    return figure


def score_outputs(loader, question, gold, answer):
    """The Score tab's outputs, in the order app.py lists them (also the ``/score`` API)."""
    details = score_answer(loader, question, gold, answer)
    return (details["cap"], details["premises"], details["hypotheses"], details["forward"],
            details["reverse"], probabilities_figure(details), plain_reading(details),
            _json_ready(details))


def _json_ready(value):
    if isinstance(value, dict):
        return {key: _json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(item) for item in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


# --- Score a file -------------------------------------------------------------------------------

def _read_upload(path):
    if not path:
        raise gr.Error("Please upload a CSV or JSONL file first.")
    try:
        table = read_table(path, max_rows=MAX_FILE_ROWS)
    except ValueError as error:
        raise gr.Error(str(error)) from None
    if table.empty:
        raise gr.Error(f"`{Path(path).name}` has no rows.")
    return table


def guess_column(columns, role):
    lowered = {column.lower(): column for column in columns}
    return next((lowered[name] for name in COLUMN_GUESSES[role] if name in lowered), None)


def file_columns(path):
    """Column choices after an upload: (choices, question, gold, answer, label) preselections."""
    table = _read_upload(path)
    columns = list(table.columns)
    label = guess_column(columns, "label") or NO_LABEL
    return (columns, guess_column(columns, "question"), guess_column(columns, "gold"),
            guess_column(columns, "answer"), label)


def _first_blank(table, column):
    blank = np.flatnonzero(table[column].str.strip().eq("").to_numpy())
    if blank.size:
        raise gr.Error(f"Column '{column}' is empty in row {blank[0] + 1} ({blank.size:,} empty "
                       "in all); every row needs text.")


def _check_file_request(table, question_column, gold_column, answer_column, label_column, separator):
    for role, column in (("question", question_column), ("gold answer", gold_column),
                         ("predicted answer", answer_column)):
        if not column:
            raise gr.Error(f"Please choose the {role} column.")
    try:
        require_columns(table, [question_column, gold_column, answer_column, label_column],
                        "The file")
    except ValueError as error:
        raise gr.Error(str(error)) from None
    for column in (question_column, gold_column, answer_column):
        _first_blank(table, column)
    try:
        check_no_output_columns(table.columns, SPACE_VARIANT)
    except ValueError as error:
        raise gr.Error(f"The file: {error}") from None
    if separator:
        pieces = split_golds(table[gold_column], separator)
        bad = np.flatnonzero([any(not piece.strip() for piece in cell) for cell in pieces])
        if bad.size:
            raise gr.Error(f"Row {bad[0] + 1}: splitting the gold answers on {separator!r} leaves an "
                           "empty answer.")
    if label_column:
        _check_labels(table[label_column])


def _check_labels(labels):
    from capqa.diagnostics.monotonicity import prepare_labels

    try:
        rows = prepare_labels(list(labels), name="label column")
    except (TypeError, ValueError) as error:
        raise gr.Error(str(error).replace("`", "'")) from None
    if len(set(rows.class_severity)) < 2:
        raise gr.Error("The label column needs classes of at least two different severities for "
                       f"the monotonicity report (it holds only {', '.join(rows.classes)}).")


def _chunk_rows(n_rows):
    return max(MIN_CHUNK_ROWS, math.ceil(n_rows / FILE_JOB_STEPS))


def score_file(loader, path, question_column, gold_column, answer_column, label_column,
               separator, progress=None):
    """Score every row of the uploaded file; returns (summary, preview, download, report, plot)."""
    label_column = None if label_column in (None, "", NO_LABEL) else label_column
    separator = separator or None
    table = _read_upload(path)
    _check_file_request(table, question_column, gold_column, answer_column, label_column, separator)
    scorer = _scorer_or_error(loader)
    if progress is not None:
        progress(0, desc="Scoring")
    out = Path(tempfile.mkdtemp(prefix="cap-space-")) / f"{Path(path).stem}-cap.csv"
    started = time.perf_counter()
    score_table(table, scorer, out, question_column, gold_column, answer_column, separator,
                chunk_size=_chunk_rows(len(table)))
    seconds = time.perf_counter() - started
    scored = pd.read_csv(out, dtype={column: str for column in table.columns},
                         keep_default_na=False)
    summary = (f"Scored **{len(scored):,} rows** in {seconds:.1f} s: mean CAP "
               f"**{scored['cap'].mean():.4f}**. The table shows the first "
               f"{min(len(scored), PREVIEW_ROWS):,} rows; download the file for all of them.")
    # Scores first: with long questions, later columns scroll out of sight.
    shown = ["cap", "forward", "reverse", label_column, question_column, gold_column, answer_column]
    preview = scored[list(dict.fromkeys(column for column in shown if column))].head(PREVIEW_ROWS)
    report, figure = ("", None)
    if label_column:
        report, figure = file_report(scored["cap"].to_numpy(), scored[label_column].to_numpy())
    return summary, preview.round(4), str(out), report, figure


def file_report(scores, labels):
    """The monotonicity diagnostic of the file's CAP scores against its labels."""
    from capqa.diagnostics.monotonicity import monotonicity_report
    from capqa.diagnostics.plots import class_distributions

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
    lines += [f"| {label} | {mean:.3f} |" for label, mean in report["class_means"].items()]
    return "\n".join(lines), class_distributions({"CAP": scores}, labels, title="CAP per class")


# --- Benchmark ----------------------------------------------------------------------------------

@lru_cache(maxsize=4)
def load_benchmark_scores(path):
    """The published per-row scores (read once per path)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(
            f"The benchmark scores file was not found at `{path}`. Set `CAP_BENCHMARK_SCORES` to the "
            "CSV of the paper's per-row scores (columns split, dataset, label and "
            f"{', '.join(BENCHMARK_METRICS)}).")
    table = pd.read_csv(path)
    require_columns(table, ["split", "dataset", "label", *BENCHMARK_METRICS], f"`{path.name}`")
    return table


def filter_benchmark(table, dataset, split):
    if dataset not in (ALL, *BENCHMARK_DATASETS):
        raise gr.Error(f"Unknown dataset {dataset!r}; choose one of {', '.join((ALL, *BENCHMARK_DATASETS))}.")
    if split not in (ALL, *BENCHMARK_SPLITS):
        raise gr.Error(f"Unknown split {split!r}; choose one of {', '.join((ALL, *BENCHMARK_SPLITS))}.")
    keep = np.ones(len(table), dtype=bool)
    if dataset != ALL:
        # The published file spells some names in lower case ("mmlu", "openbookqa").
        keep &= table["dataset"].str.lower().eq(dataset.lower()).to_numpy()
    if split != ALL:
        keep &= table["split"].eq(split).to_numpy()
    return table[keep]


def benchmark_tables(rows):
    """The diagnostic of the five metrics on ``rows``: (summary table, class-pair records)."""
    from capqa.diagnostics.bootstrap import diagnostic_tables

    columns = {name: rows[column].to_numpy() for column, name in BENCHMARK_METRICS.items()}
    tables = diagnostic_tables(columns, rows["label"].to_numpy(), n_resamples=0, progress=False)
    violations = {record["metric"]: record for record in tables["monotonicity"]}
    summary = pd.DataFrame([{
        "metric": record["metric"],
        "pairwise accuracy (%)": f"{100 * record['pairwise_accuracy']:.2f}",
        "mean violations": (f"{violations[record['metric']]['mean_violations']}/"
                            f"{violations[record['metric']]['class_pairs']}"),
        "Spearman": f"{record['spearman']:.3f}",
        "Kendall tau-b": f"{record['kendall']:.3f}",
        "wins": record["pair_wins"], "ties": record["pair_ties"], "losses": record["pair_losses"],
        "comparable pairs": record["comparable_pairs"],
    } for record in tables["correlations"]])
    return summary, tables["class_pairs"]


@lru_cache(maxsize=16)
def benchmark_view(path, dataset, split):
    """(summary markdown, table, per-class distributions, class-pair heatmap) for the filters.

    Cached per (path, dataset, split): the published scores never change while the app runs.
    """
    from capqa.diagnostics.plots import class_distributions, class_pair_heatmap

    try:
        table = load_benchmark_scores(str(path))
    except (FileNotFoundError, ValueError) as error:
        return f"**Benchmark unavailable.** {error}", None, None, None
    rows = filter_benchmark(table, dataset, split)
    if rows["label"].nunique() < 2:
        return (f"**Nothing to compare.** {len(rows):,} rows match dataset = {dataset}, split = {split}: "
                "too few classes to compare the metrics."), None, None, None
    summary, class_pairs = benchmark_tables(rows)
    counts = ", ".join(f"{label} {n:,}" for label, n in rows["label"].value_counts().items())
    text = (f"**{len(rows):,} rows** (dataset: {dataset}, split: {split}) from the paper's published "
            f"per-row scores; classes: {counts}. Pairwise accuracy: the share of comparable pairs "
            "(different severity) that a metric orders correctly, ties counting as errors. A mean "
            "violation: a less correct class with a higher mean score than a more correct one.")
    labels = rows["label"].to_numpy()
    scores = {name: rows[column].to_numpy() for column, name in BENCHMARK_METRICS.items()}
    return text, summary, class_distributions(scores, labels), class_pair_heatmap(class_pairs)


# --- About --------------------------------------------------------------------------------------

def about_markdown(settings):
    taxonomy = "\n".join(f"| {label} | {SEVERITY[label]} | {CLASS_DEFINITIONS[label]} |"
                         for label in LABELS)
    hard = ", ".join(f"{better} vs {worse}" for better, worse in HARD_PAIRS)
    return f"""
## What CAP measures

CAP scores how correct a predicted answer is with respect to the gold answer(s) of the same
question, from *How Correct Is Your Answer? A Semantic Correctness Framework for Open QA
Evaluation* (Findings of EMNLP 2026). Token-overlap metrics reward shared words; CAP asks whether
the two answers *mean* the same thing. Both answers are turned into declarative statements with the
question as context ("Name a city in Bulgaria." + "Burgas" → "One city in Bulgaria is Burgas."),
and an NLI model scores entailment between the two statements in both directions. With several
gold answers the best one counts.

## The formula

    D(a → b) = P_entail(a → b) + {NEUTRAL_WEIGHT:.2f} · P_neutral(a → b)
    CAP      = {ALPHA} · D(gold → prediction) + {1 - ALPHA:.2f} · D(prediction → gold)

The forward direction (the gold statement entails the predicted one) carries most of the weight;
a neutral verdict counts for a little, a contradiction for nothing. CAP is in [0, 1], higher is
more correct.

## The correctness taxonomy

| class | severity | the predicted answer is ... |
|---|---|---|
{taxonomy}

A good metric orders answers by severity: the paper's diagnostic counts the pairs of answers with
different severity that a metric orders correctly (pairwise accuracy) and the class pairs whose
mean scores are in the wrong order (violations, out of 25). Hard pairs: {hard}.

## This Space

Running with: {settings.describe()}. Environment variables: `CAP_NLI_MODEL`, `CAP_NLI_REVISION`,
`CAP_STATEMENT_MODEL` (a Hub id, a local folder or `rules`), `CAP_STATEMENT_REVISION`,
`CAP_DEVICE` (`auto`, `cpu`, `cuda`, ...), `CAP_BENCHMARK_SCORES` (the per-row scores behind the
Benchmark tab). The scoring endpoint is also an API:
`gradio_client.Client(url).predict(question, gold, answer, api_name="/score")`.

## Citation

```bibtex
{CITATION.strip()}
```
"""
