"""build-datasets on the shared sample CSVs, read back with ``datasets.load_dataset(DIR)``.

Expected values come from the raw CSVs through the standard ``csv`` module, not through the
pandas path the build uses.
"""

import contextlib
import csv
import io
import random
from collections import Counter
from pathlib import Path

import pytest

from capqa.cli import main as cli_main
from capqa.common.constants import LABELS
from capqa.hub import datasets as hub_datasets
from capqa.hub.datasets import (CORRECTNESS_NAME, STATEMENTS_NAME, assign_statement_splits, build_correctness,
                                read_statements)
from capqa.hub.upstream import normalise_whitespace

from support.data import data_path

# Recorded from the first build (seed 42); a change here changes the published CAP-Statements split.
PINNED_DEV_COUNT = 55
PINNED_DEV_FIRST_IDS = ["PQ0023", "PQ0025", "PQ0036", "PQ0111", "PQ0120"]
CORRECTNESS_TEXT = ("question", "dataset", "gold_answer", "answer", "hypothesis", "premise")
STATEMENTS_TEXT = ("language", "subject", "question", "answer", "statement", "label_question_type")


def raw_rows(name):
    with open(data_path(name), newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(list(argv))
    return code, out.getvalue(), err.getvalue()


def load(repo_dir):
    import datasets

    return datasets.load_dataset(str(repo_dir))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Both repos built from the sample through the command line, and what it printed."""
    out_dir = tmp_path_factory.mktemp("hub")
    code, stdout, stderr = run_cli(
        "build-datasets", "--correctness", str(data_path("cap_correctness_sample.csv")),
        "--splits", str(data_path("cap_correctness_splits.csv")),
        "--statements", str(data_path("cap_statements_sample.csv")), "--out", str(out_dir))
    assert code == 0, stderr
    return out_dir, stdout, stderr


@pytest.fixture(scope="module")
def correctness(built):
    return load(built[0] / CORRECTNESS_NAME)


@pytest.fixture(scope="module")
def statements(built):
    return load(built[0] / STATEMENTS_NAME)


def all_row_ids(repo_dir):
    return sorted(row_id for split in load(repo_dir).values() for row_id in split["row_id"])


def sample_rows_with_ids():
    return [row for row in raw_rows("cap_correctness_sample.csv") if row["row_id"]]


# --- CAP-Correctness -------------------------------------------------------------------------

def test_correctness_splits_follow_the_paper_split_file(correctness):
    split_of = {row["row_id"]: row["split"] for row in raw_rows("cap_correctness_splits.csv")}
    expected = Counter(split_of[row["row_id"]] for row in sample_rows_with_ids())
    assert set(correctness) == {"validation", "test"}
    assert {split: correctness[split].num_rows for split in correctness} == dict(expected)
    assert sum(expected.values()) == 383  # the sample's rows with a known row_id
    for split, rows in correctness.items():
        assert all(split_of[str(row_id)] == split for row_id in rows["row_id"])


def test_correctness_labels_are_class_labels_in_taxonomy_order(correctness):
    from datasets import ClassLabel

    for column in ("label_semantic", "label_semantic_manual"):
        feature = correctness["test"].features[column]
        assert isinstance(feature, ClassLabel)
        assert feature.names == list(LABELS)
        assert feature.names[0] == "exact" and feature.names[-1] == "contradictory"


def test_correctness_text_and_labels_survive_byte_for_byte(correctness):
    source = {int(row["row_id"]): row for row in sample_rows_with_ids()}
    names = correctness["test"].features["label_semantic"].names
    loaded = [row for split in correctness.values() for row in split]
    assert sorted(row["row_id"] for row in loaded) == sorted(source)
    non_ascii = 0
    for row in loaded:
        expected = source[row["row_id"]]
        for column in CORRECTNESS_TEXT:
            assert row[column] == normalise_whitespace(expected[column]), (row["row_id"], column)
        non_ascii += any(ord(char) > 127 for column in CORRECTNESS_TEXT for char in row[column])
        assert names[row["label_semantic"]] == expected["label_semantic"]
        manual = row["label_semantic_manual"]
        assert (manual is None) == (expected["label_semantic_manual"] == "")
        if manual is not None:
            assert names[manual] == expected["label_semantic_manual"]
    assert non_ascii == 3  # rows with °, curly quotes, ... are among the joined rows


def test_missing_manual_labels_are_null_not_a_class(correctness):
    manual = [label for split in correctness.values() for label in split["label_semantic_manual"]]
    expected_missing = sum(row["label_semantic_manual"] == "" for row in sample_rows_with_ids())
    assert manual.count(None) == expected_missing == 201
    assert all(label is None or 0 <= label < len(LABELS) for label in manual)


def test_dropped_rows_are_summarised_by_reason_and_listed_in_a_file(built):
    out_dir, stdout, stderr = built
    raw = raw_rows("cap_correctness_sample.csv")
    expected_rows = [number for number, row in enumerate(raw, start=1) if not row["row_id"]]
    assert len(expected_rows) == 992
    # The terminal gets a summary per reason with the first rows, not 992 lines.
    assert "dropped:" not in stderr and len(stdout.splitlines()) < 40
    first = ", ".join(str(number) for number in expected_rows[:hub_datasets.DROPPED_EXAMPLES_SHOWN])
    assert f"{CORRECTNESS_NAME}: 992 row(s) dropped" in stdout
    assert f"  no row_id: 992 (rows {first}, ... of cap_correctness_sample.csv; e.g. empty row_id" in stdout
    # Every dropped row, with its reason, is in the listing beside the repos (never uploaded).
    with open(out_dir / hub_datasets.DROPPED_ROWS_FILE, newline="", encoding="utf-8") as handle:
        listed = list(csv.DictReader(handle))
    assert [int(row["row"]) for row in listed] == expected_rows
    assert listed[0]["reason"] == "empty row_id: cannot be joined with the split file cap_correctness_splits.csv"
    assert not (out_dir / CORRECTNESS_NAME / hub_datasets.DROPPED_ROWS_FILE).exists()


def write_csv(path, rows, fieldnames=None, line_ending="\r\n"):
    fieldnames = fieldnames or list(rows[0])
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fieldnames, lineterminator=line_ending,
                                extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def splits_for(rows, split="test"):
    return [{"row_id": row["row_id"], "split": split, "dataset": row["dataset"],
             "label": row["label_semantic"]} for row in rows]


def test_a_row_id_without_split_entry_is_dropped_with_its_reason(tmp_path):
    rows = sample_rows_with_ids()[:3]
    rows[1] = {**rows[1], "row_id": "4306"}  # the one upstream row the paper's split file lacks
    csv_path = write_csv(tmp_path / "c.csv", rows)
    _, dropped = build_correctness(csv_path, data_path("cap_correctness_splits.csv"), tmp_path / "out")
    assert [(row.row, row.kind) for row in dropped] == [(2, hub_datasets.NO_SPLIT_ENTRY)]
    assert "row_id 4306 has no entry in the split file" in dropped[0].reason
    assert all_row_ids(tmp_path / "out" / CORRECTNESS_NAME) == sorted(int(rows[i]["row_id"]) for i in (0, 2))


def test_row_ids_that_do_not_line_up_with_the_split_file_are_an_error(tmp_path):
    # The sample without its row_id column: row ids become positions, which are wrong for
    # every block after the first, and the split file's labels show it.
    rows = raw_rows("cap_correctness_sample.csv")
    fields = [name for name in rows[0] if name != "row_id"]
    csv_path = write_csv(tmp_path / "no_ids.csv", rows, fields)
    with pytest.raises(ValueError, match=r"no_ids\.csv: row \d+, column 'row_id': .*do not line up"):
        build_correctness(csv_path, data_path("cap_correctness_splits.csv"), tmp_path / "out")


def test_without_a_row_id_column_row_ids_are_positions(tmp_path):
    rows = sample_rows_with_ids()  # rows 0..382 of the upstream file, in order
    fields = [name for name in rows[0] if name != "row_id"]
    csv_path = write_csv(tmp_path / "upstream.csv", rows, fields)
    _, dropped = build_correctness(csv_path, data_path("cap_correctness_splits.csv"), tmp_path / "out")
    assert dropped == []
    assert all_row_ids(tmp_path / "out" / CORRECTNESS_NAME) == list(range(383))


def test_whitespace_is_normalised_once_and_inner_text_kept(tmp_path):
    raw = raw_rows("cap_correctness_sample.csv")
    multi_line = next(row for row in raw if "\n" in row["answer"])
    padded = next(row for row in raw if row["question"] != row["question"].strip())
    accented = next(row for row in raw if "°" in row["premise"])
    rows = [{**row, "row_id": str(i)} for i, row in enumerate([multi_line, padded, accented])]
    rows[2]["answer"] = "  None\r\nNA \r"  # text that must not become NaN; CR and CRLF inside
    rows[2]["label_semantic"] = " Partial "  # labels are matched after lower-casing and stripping
    csv_path = write_csv(tmp_path / "edge.csv", rows)
    splits_path = write_csv(tmp_path / "splits.csv", splits_for([{**row, "label_semantic": row["label_semantic"]
                                                                  .strip().lower()} for row in rows]))
    build_correctness(csv_path, splits_path, tmp_path / "out")
    loaded = load(tmp_path / "out" / CORRECTNESS_NAME)["test"]
    assert loaded["answer"] == [multi_line["answer"], padded["answer"], "None\nNA"]
    assert "\n" in loaded["answer"][0] and loaded["answer"][0] == "rise\nbulge\nexpand\nsurge"
    assert loaded["question"][1] == padded["question"].strip() != padded["question"]
    assert loaded["premise"][2] == accented["premise"] and "°" in loaded["premise"][2]
    assert loaded.features["label_semantic"].int2str(loaded["label_semantic"][2]) == "partial"


def test_normalise_whitespace_is_idempotent():
    samples = ["  a  b \r\n c\r d\n ", "\r\n", "x", " é\u00a0"]
    for text in samples:
        once = normalise_whitespace(text)
        assert normalise_whitespace(once) == once
        assert "\r" not in once and once == once.strip()
    assert normalise_whitespace("  a  b \r\n c\r d\n ") == "a  b \n c\n d"


# --- Bad CSVs --------------------------------------------------------------------------------

def corrupt(rows, kind):
    rows = [dict(row) for row in rows]
    if kind == "unknown label":
        rows[2]["label_semantic"] = "mostly_right"
    elif kind == "duplicate row id":
        rows[3]["row_id"] = rows[1]["row_id"]
    elif kind == "empty question":
        rows[4]["question"] = "   "
    elif kind == "empty label":
        rows[1]["label_semantic"] = ""
    elif kind == "row id not a number":
        rows[0]["row_id"] = "7a"
    return rows


@pytest.mark.parametrize("kind, pattern", [
    ("missing column", r"bad\.csv: missing required column\(s\) 'premise'"),
    ("unknown label", r"bad\.csv: row 3, column 'label_semantic': unknown label 'mostly_right'; expected one of exact, "),
    ("duplicate row id", r"bad\.csv: row 4, column 'row_id': duplicate row id 1 \(first at row 2\)"),
    ("empty question", r"bad\.csv: row 5, column 'question': empty cell; every row needs a question"),
    ("empty label", r"bad\.csv: 1 problem\(s\) .*\n  bad\.csv: row 2, column 'label_semantic': empty cell"),
    ("row id not a number", r"bad\.csv: row 1, column 'row_id': '7a' is not a non-negative integer"),
])
def test_bad_correctness_csv_names_file_row_and_column(tmp_path, kind, pattern):
    rows = corrupt(sample_rows_with_ids()[:6], kind)
    fields = [name for name in rows[0] if not (kind == "missing column" and name == "premise")]
    csv_path = write_csv(tmp_path / "bad.csv", rows, fields)
    with pytest.raises(ValueError, match=pattern):
        build_correctness(csv_path, data_path("cap_correctness_splits.csv"), tmp_path / "out")
    assert not (tmp_path / "out" / CORRECTNESS_NAME / "README.md").exists()


def test_bad_csv_through_the_command_line_exits_1_with_the_message(tmp_path):
    rows = corrupt(sample_rows_with_ids()[:6], "unknown label")
    csv_path = write_csv(tmp_path / "bad.csv", rows)
    code, _, stderr = run_cli("build-datasets", "--correctness", str(csv_path), "--splits",
                              str(data_path("cap_correctness_splits.csv")), "--out", str(tmp_path / "out"))
    assert code == 1
    assert "error: bad.csv: 1 problem(s)" in stderr and "row 3, column 'label_semantic'" in stderr


def test_bad_statements_csv_names_file_row_and_column(tmp_path):
    rows = raw_rows("cap_statements_sample.csv")[:8]
    rows[5]["label_question_type"] = "essay"
    rows[6]["id"] = rows[0]["id"]
    rows[7]["statement"] = ""
    csv_path = write_csv(tmp_path / "statements.csv", rows)
    with pytest.raises(ValueError) as error:
        read_statements(csv_path)
    message = str(error.value)
    assert "statements.csv: 3 problem(s)" in message
    assert "row 6, column 'label_question_type': unknown label 'essay'" in message
    assert f"row 7, column 'id': duplicate id '{rows[0]['id']}' (first at row 1)" in message
    assert "row 8, column 'statement': empty cell" in message


def test_missing_input_file_names_the_argument(tmp_path):
    with pytest.raises(ValueError, match=r"`correctness` must be an existing CSV file"):
        build_correctness(tmp_path / "nope.csv", data_path("cap_correctness_splits.csv"), tmp_path / "out")


def test_an_earlier_build_is_not_mixed_with_a_new_one(built, tmp_path):
    out_dir = built[0]
    code, _, stderr = run_cli("build-datasets", "--statements", str(data_path("cap_statements_sample.csv")),
                              "--out", str(out_dir))
    assert code == 1 and "pass --overwrite" in stderr
    # A Parquet file no build wrote would be published with the new build: refused, and kept.
    stale = out_dir / STATEMENTS_NAME / "data" / "stale.parquet"
    stale.write_bytes(b"old")
    code, _, stderr = run_cli("build-datasets", "--statements", str(data_path("cap_statements_sample.csv")),
                              "--out", str(out_dir), "--overwrite")
    assert code == 1 and "data/stale.parquet (not written by a build)" in stderr and stale.read_bytes() == b"old"
    stale.unlink()
    code, _, _ = run_cli("build-datasets", "--statements", str(data_path("cap_statements_sample.csv")),
                         "--out", str(out_dir), "--overwrite")
    assert code == 0
    assert sorted(path.name for path in (out_dir / STATEMENTS_NAME / "data").iterdir()) == \
        ["dev.parquet", "test.parquet", "train.parquet"]


# --- CAP-Statements --------------------------------------------------------------------------

def test_statements_splits_hold_every_row_once_byte_for_byte(statements):
    raw = raw_rows("cap_statements_sample.csv")
    assert list(statements) == ["train", "dev", "test"]
    assert sum(split.num_rows for split in statements.values()) == len(raw) == 610
    loaded = Counter(tuple(row[column] for column in ("id",) + STATEMENTS_TEXT)
                     for split in statements.values() for row in split)
    expected = Counter(tuple([row["id"] or None] + [normalise_whitespace(row[column]) for column in STATEMENTS_TEXT])
                       for row in raw)
    assert loaded == expected
    assert sum(key[0] is None for key in loaded.elements()) == 85  # empty upstream ids stay null


def test_statements_split_is_80_10_10_per_question_type(statements):
    per_type = Counter(row["label_question_type"] for row in raw_rows("cap_statements_sample.csv"))
    for question_type, count in per_type.items():
        sizes = {split: rows["label_question_type"].count(question_type) for split, rows in statements.items()}
        tenth = (count + 5) // 10  # round half up
        assert sizes == {"train": count - 2 * tenth, "dev": tenth, "test": tenth}, question_type


def test_statements_split_ignores_row_order_and_depends_on_the_seed():
    frame = read_statements(data_path("cap_statements_sample.csv"))
    reference = assign_statement_splits(frame)
    shuffled_index = list(frame.index)
    random.Random(0).shuffle(shuffled_index)
    shuffled = frame.loc[shuffled_index].reset_index(drop=True)
    reassigned = assign_statement_splits(shuffled)
    assert list(reassigned) == [reference[index] for index in shuffled_index]
    other_seed = assign_statement_splits(frame, seed=7)
    assert (other_seed != reference).sum() > 50


def test_statements_split_is_pinned():
    """The published split must not drift: these ids are the sample's dev rows under seed 42."""
    frame = read_statements(data_path("cap_statements_sample.csv"))
    assigned = assign_statement_splits(frame)
    dev_ids = sorted(frame.loc[assigned == "dev", "id"].dropna())
    assert len(dev_ids) == PINNED_DEV_COUNT
    assert dev_ids[:5] == PINNED_DEV_FIRST_IDS


# --- Cards -----------------------------------------------------------------------------------

CARD_FIELDS = ("pretty_name", "license", "language", "task_categories", "size_categories", "tags",
               "source_datasets", "configs", "dataset_info")


@pytest.mark.parametrize("name", [CORRECTNESS_NAME, STATEMENTS_NAME])
def test_card_yaml_parses_and_has_every_field(name):
    from huggingface_hub import DatasetCard

    card = DatasetCard.load(hub_datasets.CARDS_ROOT / name / "README.md")
    metadata = card.data.to_dict()
    assert [field for field in CARD_FIELDS if not metadata.get(field)] == []
    assert metadata["pretty_name"] == name
    assert "cc-by-4.0" in metadata["license"]
    assert metadata["dataset_info"]["features"]
    for heading in ("## Fields", "## Splits", "## Annotation process", "## Licensing", "## Citation"):
        assert heading in card.text, heading


def test_correctness_card_matches_the_build():
    from datasets import Features
    from huggingface_hub import DatasetCard

    metadata = DatasetCard.load(hub_datasets.CARDS_ROOT / CORRECTNESS_NAME / "README.md").data.to_dict()
    assert Features._from_yaml_list(metadata["dataset_info"]["features"]) == hub_datasets.correctness_features()
    assert metadata["configs"] == hub_datasets.data_files_config(hub_datasets.CORRECTNESS_SPLITS)
    assert sorted(metadata["license"]) == ["apache-2.0", "cc-by-4.0", "cc-by-sa-4.0", "mit"]
    text = DatasetCard.load(hub_datasets.CARDS_ROOT / CORRECTNESS_NAME / "README.md").text
    for fact in ("1,000", "7,826", "1,638", "κ = .779", "1,353", "90%"):
        assert fact in text, fact
    assert all(f"`{label}`" in text for label in LABELS)


def test_statements_card_matches_the_build():
    from datasets import Features
    from huggingface_hub import DatasetCard

    metadata = DatasetCard.load(hub_datasets.CARDS_ROOT / STATEMENTS_NAME / "README.md").data.to_dict()
    assert Features._from_yaml_list(metadata["dataset_info"]["features"]) == hub_datasets.statements_features()
    assert metadata["configs"] == hub_datasets.data_files_config(hub_datasets.STATEMENTS_SPLIT_PERCENT)


@pytest.mark.parametrize("name", [CORRECTNESS_NAME, STATEMENTS_NAME])
def test_built_card_is_the_template_with_the_real_split_sizes(built, name):
    from huggingface_hub import DatasetCard

    template = DatasetCard.load(hub_datasets.CARDS_ROOT / name / "README.md")
    card = DatasetCard.load(built[0] / name / "README.md")
    assert card.text == template.text
    for field in CARD_FIELDS[:-1]:
        assert card.data.to_dict()[field] == template.data.to_dict()[field]
    data_dir = Path(built[0]) / name / "data"
    rows = {split["name"]: split["num_examples"] for split in card.data.dataset_info["splits"]}
    assert set(rows) == {path.stem for path in data_dir.glob("*.parquet")}
