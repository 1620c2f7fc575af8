"""The CAP-Correctness and CAP-Statements Hub repos (``python -m capqa build-datasets``, whose
command line is ``capqa.cli.build_datasets``).

Reads the upstream CSVs, validates them (every problem names the file, row and column),
normalises whitespace once, and writes each repo as its dataset card plus one Parquet file
per split, ready for ``datasets.load_dataset(DIR)`` and for ``python -m capqa publish datasets``.

Rows are numbered from 1 after the header line in every message. A row is never dropped
silently: each dropped row is reported with its reason (see ``DroppedRow``).
"""

import csv
import hashlib
import io
import logging
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, NamedTuple, Sequence, Tuple, Union

import pandas as pd

from capqa.common.constants import LABELS
from capqa.common.files import write_atomically
from capqa.common.paths import REPO_ROOT
from capqa.common.quoting import quote
from capqa.hub.build_record import prepare_repo_folder, record_build
from capqa.hub.upstream import (canonical_labels, cell_location, empty_cell_problems, nulls_for_empty, parse_row_ids,
                                raise_problems, read_upstream_csv, unique_ids)

if TYPE_CHECKING:
    from datasets import Features

logger = logging.getLogger(__name__)
PathLike = Union[str, Path]

CARDS_ROOT = REPO_ROOT / "dataset_cards"
CORRECTNESS_NAME = "CAP-Correctness"
STATEMENTS_NAME = "CAP-Statements"

ROW_ID = "row_id"
CORRECTNESS_TEXT_COLUMNS = ("question", "dataset", "gold_answer", "answer", "hypothesis", "premise")
CORRECTNESS_COLUMNS = CORRECTNESS_TEXT_COLUMNS + ("label_semantic", "label_semantic_manual")
# The paper's split file: one entry per upstream row; dataset and label let us prove the join.
SPLITS_COLUMNS = (ROW_ID, "split")
SPLITS_CHECKED_COLUMNS = {"dataset": "dataset", "label": "label_semantic"}
CORRECTNESS_SPLITS = ("validation", "test")

STATEMENTS_ID = "id"
STATEMENTS_TEXT_COLUMNS = ("language", "subject", "question", "answer", "statement")
STATEMENTS_COLUMNS = (STATEMENTS_ID,) + STATEMENTS_TEXT_COLUMNS + ("label_question_type",)
QUESTION_TYPES = ("short_question", "sentence_to_complete", "blank_spaces_task")
# CAP-Statements has no upstream split: 80/10/10 per question type, ordered by a salted hash of
# the row's text so that the split depends on neither row order nor machine.
STATEMENTS_SPLIT_PERCENT = {"train": 80, "dev": 10, "test": 10}
STATEMENTS_SPLIT_SEED = 42

# Rows of the full corpora (the paper's split file; the upstream CAP-Statements.csv), to tell a
# full build from one made on a sample before publishing.
FULL_CORPUS_ROWS = {CORRECTNESS_NAME: 8826, STATEMENTS_NAME: 11000}

class DroppedRow(NamedTuple):
    """A row that the build left out, and why."""

    file: str
    row: int  # counted from 1 after the header
    kind: str  # NO_ROW_ID or NO_SPLIT_ENTRY
    reason: str

    def __str__(self):
        return f"dropped: {self.file}: row {self.row}: {self.reason}"


NO_ROW_ID, NO_SPLIT_ENTRY = "no row_id", "no split entry"


# --- CAP-Correctness -------------------------------------------------------------------------

def read_splits(splits_csv: PathLike) -> Dict[int, Tuple[str, Dict[str, str]]]:
    """row_id -> (split, {checked column: value}) from the paper's split file."""
    frame = read_upstream_csv(splits_csv, SPLITS_COLUMNS, "splits")
    ids, problems = parse_row_ids(frame, ROW_ID, splits_csv, allow_empty=False)
    problems += [f"{cell_location(splits_csv, index, 'split')}: unknown split {quote(split)}; expected one of "
                 f"{', '.join(CORRECTNESS_SPLITS)}"
                 for index, split in frame["split"].items() if split not in CORRECTNESS_SPLITS]
    checked = [column for column in SPLITS_CHECKED_COLUMNS if column in frame.columns]
    if "label" in checked:
        frame["label"], label_problems = canonical_labels(frame, "label", LABELS, splits_csv)
        problems += label_problems
    raise_problems(splits_csv, problems)
    return {row_id: (split, {column: frame.at[index, column] for column in checked})
            for index, row_id, split in zip(frame.index, ids, frame["split"])}


def read_correctness(correctness_csv: PathLike) -> pd.DataFrame:
    """The validated correctness rows, with a ``row_id`` column (None where unknown).

    Without a ``row_id`` column the file is the upstream CSV itself, whose row ids are the
    0-based row positions.
    """
    frame = read_upstream_csv(correctness_csv, CORRECTNESS_COLUMNS, "correctness")
    problems = empty_cell_problems(frame, CORRECTNESS_TEXT_COLUMNS + ("label_semantic",),
                                    correctness_csv)
    for column in ("label_semantic", "label_semantic_manual"):
        frame[column], label_problems = canonical_labels(
            frame, column, LABELS, correctness_csv)
        problems += label_problems
    if ROW_ID in frame.columns:
        ids, id_problems = parse_row_ids(frame, ROW_ID, correctness_csv, allow_empty=True)
        problems += id_problems
    else:
        ids = list(range(len(frame)))
    raise_problems(correctness_csv, problems)
    frame[ROW_ID] = pd.Series(ids, index=frame.index, dtype=object)
    frame["label_semantic_manual"] = nulls_for_empty(frame["label_semantic_manual"])
    return frame[[ROW_ID, *CORRECTNESS_COLUMNS]]


def _split_mismatches(row, entry, path, index):
    """A disagreement between a row and its split entry means the row ids do not line up."""
    return [f"{cell_location(path, index, ROW_ID)}: row id {row[ROW_ID]} has {own}={quote(row[own])} here but "
            f"{theirs}={quote(value)} in the split file; the row ids do not line up"
            for theirs, value in entry.items()
            for own in [SPLITS_CHECKED_COLUMNS[theirs]]
            if value.casefold() != row[own].casefold()]


def join_correctness_splits(frame: pd.DataFrame, splits: Mapping[int, Tuple[str, Mapping[str, str]]],
                            correctness_csv: PathLike,
                            splits_csv: PathLike) -> Tuple[Dict[str, pd.DataFrame], List[DroppedRow]]:
    """Split name -> rows, plus the rows that could not be given a split."""
    by_split = {split: [] for split in CORRECTNESS_SPLITS}
    dropped, problems = [], []
    file_name = Path(correctness_csv).name
    # to_dict keeps None in object columns (iterrows would turn it into NaN).
    for index, row in zip(frame.index, frame.to_dict("records")):
        row_id = row[ROW_ID]
        if row_id is None:
            dropped.append(DroppedRow(file_name, index + 1, NO_ROW_ID, "empty row_id: cannot be joined with the "
                                      f"split file {Path(splits_csv).name}"))
        elif row_id not in splits:
            dropped.append(DroppedRow(file_name, index + 1, NO_SPLIT_ENTRY, f"row_id {row_id} has no entry in the "
                                      f"split file {Path(splits_csv).name} (dropped upstream)"))
        else:
            split, entry = splits[row_id]
            problems += _split_mismatches(row, entry, correctness_csv, index)
            by_split[split].append(index)
    raise_problems(correctness_csv, problems)
    return {split: frame.loc[indices].reset_index(drop=True) for split, indices in by_split.items()}, dropped


def correctness_features() -> "Features":
    # Deferred: datasets is heavy, imported on first use.
    from datasets import ClassLabel, Features, Value

    # label_semantic_manual is null where no manual label exists (ClassLabel keeps nulls).
    return Features({
        ROW_ID: Value("int64"),
        **{column: Value("string") for column in CORRECTNESS_TEXT_COLUMNS},
        "label_semantic": ClassLabel(names=list(LABELS)),
        "label_semantic_manual": ClassLabel(names=list(LABELS)),
    })


# --- CAP-Statements --------------------------------------------------------------------------

def read_statements(statements_csv: PathLike) -> pd.DataFrame:
    """The validated statement rows; an empty ``id`` (it happens upstream) becomes null."""
    frame = read_upstream_csv(statements_csv, STATEMENTS_COLUMNS, "statements")
    problems = empty_cell_problems(frame, STATEMENTS_TEXT_COLUMNS + ("label_question_type",),
                                    statements_csv)
    frame["label_question_type"], label_problems = canonical_labels(
        frame, "label_question_type", QUESTION_TYPES, statements_csv)
    ids, id_problems = unique_ids(frame, STATEMENTS_ID, statements_csv)
    raise_problems(statements_csv, problems + label_problems + id_problems)
    frame[STATEMENTS_ID] = ids
    return frame[list(STATEMENTS_COLUMNS)]


def _split_key(row, seed):
    text = "\x1f".join([str(seed), row["question"], row["answer"], row["statement"]])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _split_sizes(count):
    """Rows per split for one question type: dev and test rounded half up, train the rest."""
    sizes = {split: (count * percent + 50) // 100 for split, percent in STATEMENTS_SPLIT_PERCENT.items()}
    sizes["train"] = count - sizes["dev"] - sizes["test"]
    return sizes


def assign_statement_splits(frame: pd.DataFrame, seed: int = STATEMENTS_SPLIT_SEED) -> pd.Series:
    """The split of each row: per question type, rows ordered by a salted SHA-256 of their text
    (row position breaks ties) and cut 80/10/10. Independent of row order, machine and library."""
    assigned = pd.Series("", index=frame.index, dtype=object)
    for _, group in frame.groupby("label_question_type", sort=True):
        keys = sorted((_split_key(row, seed), index) for index, row in group.iterrows())
        order = iter(index for _, index in keys)
        for split, size in _split_sizes(len(keys)).items():
            for _ in range(size):
                assigned[next(order)] = split
    return assigned


def split_statements(frame: pd.DataFrame, seed: int = STATEMENTS_SPLIT_SEED) -> Dict[str, pd.DataFrame]:
    assigned = assign_statement_splits(frame, seed)
    return {split: frame[assigned == split].reset_index(drop=True) for split in STATEMENTS_SPLIT_PERCENT}


def statements_features() -> "Features":
    # Deferred: datasets is heavy, imported on first use.
    from datasets import Features, Value

    return Features({column: Value("string") for column in STATEMENTS_COLUMNS})


# --- Writing a repo --------------------------------------------------------------------------

def data_files_config(splits: Iterable[str]) -> List[Dict[str, Any]]:
    """The card's ``configs`` entry: one Parquet file per split."""
    return [{"config_name": "default",
             "data_files": [{"split": split, "path": f"data/{split}.parquet"} for split in splits]}]


def features_yaml(features: "Features") -> list:
    """The card's ``dataset_info.features`` in the Hub's YAML layout, from public attributes only.

    Only the feature types these datasets use are written: ``Value`` and ``ClassLabel``.
    """
    # Deferred: datasets is heavy, imported on first use.
    from datasets import ClassLabel, Value

    entries = []
    for name, feature in features.items():
        if isinstance(feature, ClassLabel):
            dtype = {"class_label": {"names": {str(index): label for index, label in enumerate(feature.names)}}}
        elif isinstance(feature, Value):
            dtype = feature.dtype
        else:
            raise TypeError(f"feature {name!r}: no card layout for {type(feature).__name__}")
        entries.append({"name": name, "dtype": dtype})
    return entries


def write_repo(repo_dir: PathLike, card_template: PathLike, frames: Mapping[str, pd.DataFrame], features: Any,
               overwrite: bool = False) -> Path:
    """The card (its ``configs`` and ``dataset_info`` filled from the data) and one Parquet per split."""
    # Deferred: datasets is heavy, imported on first use.
    from datasets import Dataset
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import DatasetCard

    repo_dir = Path(repo_dir)
    card_template = Path(card_template)
    if not card_template.is_file():
        raise ValueError(f"`cards`: no dataset card template at {card_template}")
    empty = [split for split, frame in frames.items() if frame.empty]
    frames = {split: frame for split, frame in frames.items() if not frame.empty}
    if not frames:
        raise ValueError(f"no rows left to write to {repo_dir.name}")
    if empty:  # an empty Parquet split cannot be loaded, so it is left out of the repo
        logger.warning("%s: split(s) %s have no rows and are not written", repo_dir.name, ", ".join(empty))
    # A new build is never mixed with an old one, and --overwrite deletes only what a build wrote.
    prepare_repo_folder(repo_dir, overwrite)
    split_infos, written = [], [repo_dir / "README.md"]
    for split, frame in frames.items():
        dataset = Dataset.from_dict({column: frame[column].tolist() for column in features},
                                    features=features)
        written.append(repo_dir / "data" / f"{split}.parquet")
        dataset.to_parquet(written[-1])
        split_infos.append({"name": split, "num_bytes": dataset.data.nbytes,
                            "num_examples": len(dataset)})
    card = DatasetCard.load(card_template)
    card.data.configs = data_files_config(frames)
    card.data.dataset_info = {
        "features": features_yaml(features),
        "splits": split_infos,
        "download_size": sum(path.stat().st_size for path in (repo_dir / "data").glob("*.parquet")),
        "dataset_size": sum(info["num_bytes"] for info in split_infos),
    }
    card.save(repo_dir / "README.md")
    record_build(repo_dir, written)
    return repo_dir


def split_summary(name: str, frames: Mapping[str, pd.DataFrame], label_column: str) -> str:
    """Rows per split, then rows per label in each split: what a build tells its user."""
    lines = [f"{name}: " + ", ".join(f"{split} {len(frame):,}" for split, frame in frames.items())]
    for split, frame in frames.items():
        counts = Counter(frame[label_column])
        lines.append(f"  {split:<12}" + "  ".join(f"{label} {count}" for label, count in sorted(counts.items())))
    return "\n".join(lines)


class BuiltRepo(NamedTuple):
    """A repo written under ``out_dir``, its summary (``split_summary``) and the rows left out."""

    repo_dir: Path
    summary: str
    dropped: List[DroppedRow]


def write_correctness_repo(correctness_csv: PathLike, splits_csv: PathLike, out_dir: PathLike,
                           cards_root: PathLike = CARDS_ROOT, overwrite: bool = False) -> BuiltRepo:
    """Write the CAP-Correctness repo under ``out_dir``; returns it with its summary and dropped rows."""
    frame = read_correctness(correctness_csv)
    frames, dropped = join_correctness_splits(frame, read_splits(splits_csv), correctness_csv, splits_csv)
    repo_dir = write_repo(Path(out_dir) / CORRECTNESS_NAME, Path(cards_root) / CORRECTNESS_NAME / "README.md",
                          frames, correctness_features(), overwrite)
    return BuiltRepo(repo_dir, split_summary(CORRECTNESS_NAME, frames, "label_semantic"), dropped)


def write_statements_repo(statements_csv: PathLike, out_dir: PathLike, cards_root: PathLike = CARDS_ROOT,
                          overwrite: bool = False) -> BuiltRepo:
    """Write the CAP-Statements repo under ``out_dir``; returns it with its summary (no row is dropped)."""
    frames = split_statements(read_statements(statements_csv))
    repo_dir = write_repo(Path(out_dir) / STATEMENTS_NAME, Path(cards_root) / STATEMENTS_NAME / "README.md",
                          frames, statements_features(), overwrite)
    return BuiltRepo(repo_dir, split_summary(STATEMENTS_NAME, frames, "label_question_type"), [])


def build_correctness(correctness_csv: PathLike, splits_csv: PathLike, out_dir: PathLike,
                      cards_root: PathLike = CARDS_ROOT, overwrite: bool = False) -> Tuple[Path, List[DroppedRow]]:
    """Write the CAP-Correctness repo under ``out_dir``; returns (repo dir, dropped rows)."""
    built = write_correctness_repo(correctness_csv, splits_csv, out_dir, cards_root, overwrite)
    logger.info("%s", built.summary)
    return built.repo_dir, built.dropped


def build_statements(statements_csv: PathLike, out_dir: PathLike, cards_root: PathLike = CARDS_ROOT,
                     overwrite: bool = False) -> Path:
    """Write the CAP-Statements repo under ``out_dir``; returns the repo dir (no row is dropped)."""
    built = write_statements_repo(statements_csv, out_dir, cards_root, overwrite)
    logger.info("%s", built.summary)
    return built.repo_dir


DROPPED_ROWS_FILE = "dropped_rows.csv"  # beside the repos under --out, never inside one (not uploaded)
DROPPED_EXAMPLES_SHOWN = 5


def record_dropped(dropped: Sequence[DroppedRow], out_dir: PathLike) -> str:
    """Every dropped row, with its reason, written to ``out_dir/dropped_rows.csv``; returns them
    summarised by reason (count and the first few rows) for the terminal. Hundreds of lines on a
    terminal hide the one that matters."""
    if not dropped:
        return f"{CORRECTNESS_NAME}: no row dropped"
    listing = Path(out_dir) / DROPPED_ROWS_FILE
    # A link or a pipe planted there is neither followed nor replaced.
    if listing.is_symlink() or (listing.exists() and not listing.is_file()):
        raise ValueError(f"`out`: cannot write {listing}: it must be a regular file (a symbolic link or a pipe there "
                         "is never written); remove it, or choose another --out")
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(["file", "row", "kind", "reason"])
    writer.writerows(dropped)
    write_atomically(listing, text.getvalue())
    lines = [f"{CORRECTNESS_NAME}: {len(dropped)} row(s) dropped, each listed in {listing}:"]
    by_kind: Dict[str, List[DroppedRow]] = {}
    for row in dropped:
        by_kind.setdefault(row.kind, []).append(row)
    for kind, rows in by_kind.items():
        first = ", ".join(str(row.row) for row in rows[:DROPPED_EXAMPLES_SHOWN])
        more = ", ..." if len(rows) > DROPPED_EXAMPLES_SHOWN else ""
        lines.append(f"  {kind}: {len(rows)} (rows {first}{more} of {rows[0].file}; e.g. {rows[0].reason})")
    return "\n".join(lines)
