"""CAP-Statements rows for training and evaluating the statement model: a local CSV or the Hub dataset."""

import argparse
from pathlib import Path
from typing import Optional

from capqa.common.constants import statements_dataset_id
from capqa.common.quoting import quote
from capqa.common.validation import check_positive_int
from capqa.hub.upstream import read_upstream_csv

TEXT_COLUMNS = ("question", "answer", "statement")


def load_statement_rows(csv_path: Optional[Path] = None, dataset: Optional[str] = None, split: str = "train",
                        dataset_revision: Optional[str] = None, limit: Optional[int] = None) -> list:
    """Rows {"question", "answer", "statement"[, "label_question_type"]} from a local CSV or the
    Hub dataset (default ``constants.statements_dataset_id()``), first ``limit`` rows only."""
    if csv_path is not None:
        rows = read_upstream_csv(csv_path, TEXT_COLUMNS, "csv_path").to_dict("records")
    else:
        rows = _hub_rows(dataset or statements_dataset_id(), split, dataset_revision)
    if limit is not None:
        rows = rows[:check_positive_int(limit, "limit")]
    for index, row in enumerate(rows):
        for column in TEXT_COLUMNS:
            if not isinstance(row.get(column), str) or not row[column].strip():
                raise ValueError(f"row {index}: column {column!r} must be non-empty text, got {quote(row.get(column))}")
    if not rows:
        raise ValueError("no statement rows to use: the CSV or split is empty")
    return rows


def _hub_rows(name: str, split: str, revision: Optional[str]) -> list:
    # Deferred: datasets is heavy, imported on first use.
    import datasets

    try:
        return list(datasets.load_dataset(name, split=split, revision=revision))
    except (OSError, ValueError) as error:
        raise OSError(f"could not load split {split!r} of the dataset {name!r}: {error}. Without access to "
                      f"the Hub, give a local CSV (--csv) or a local dataset folder (--dataset).") from error


def add_data_arguments(parser: argparse.ArgumentParser, default_split: str) -> None:
    """The options that choose the rows, shared by train-statements and eval-statements."""
    source = parser.add_argument_group("data (a local CSV, or the Hub dataset)")
    source.add_argument("--csv", dest="csv_path", type=Path, help="CSV with question, answer, statement columns")
    source.add_argument("--dataset", default=None, help=f"Hub dataset id (default {statements_dataset_id()})")
    source.add_argument("--split", default=default_split, help=f"dataset split (default {default_split})")
    source.add_argument("--dataset-revision", default=None, help="dataset commit, tag or branch")
    source.add_argument("--limit", type=int, default=None, help="use only the first N rows")


def rows_from_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list:
    """The rows the data options name; a mistake is a usage error of ``parser``."""
    try:
        return load_statement_rows(args.csv_path, args.dataset, args.split, args.dataset_revision, args.limit)
    except (OSError, ValueError) as error:
        parser.error(str(error))
