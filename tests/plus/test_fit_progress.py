"""``fit``'s CAP+ selection is long (issue 35 item 20): it says at the start how many fits it runs,
shows them as they go, keeps each candidate's record as it is done, and an interrupted selection
resumes where it stopped, choosing what an uninterrupted one chooses."""

import json

import numpy as np
import pandas as pd
import pytest

from capqa.cli import main as cli_main
from capqa.common.constants import LABELS
from capqa.plus import fitting, monotone, monotone_fit, selection

from support.data import data_path


@pytest.fixture(scope="module")
def fitting_rows():
    """40 validation rows of each class of the paper's scores: (inputs, levels, labels, level utility)."""
    scores = pd.read_csv(data_path("paper_scores.csv"))
    rows = scores[scores["split"] == "validation"].groupby("label").head(40)
    inputs, levels = fitting.cap_plus_inputs(rows)
    utility = monotone.class_utility_levels(dict(zip(LABELS, (fitting.SEVERITY_UTILITY[label] for label in LABELS))))
    return inputs, levels, rows["label"].to_numpy(), utility


GRID = [candidate for candidate in selection.candidates()
        if candidate.entailment_margin == 2.0 and candidate.contradiction_margin == 1.0][:2]


def stored_record(candidate, log_loss, eligible=True):
    """A candidate's record as an earlier run of the selection kept it."""
    return {**candidate.as_dict(), "cv_log_loss": log_loss, "eligible": eligible}


def test_the_count_of_fits_is_known_before_fitting():
    assert fitting.fit_count(len(fitting.L2_GRID), True) == {
        "relation classifier cross-validation": 6 * 5, "CAP+ cross-validation": 36 * 5, "final": 2}
    assert fitting.fit_count(1, False) == {"final": 2}


def test_progress_is_kept_for_the_same_rows_and_started_again_for_others(fitting_rows, tmp_path, caplog):
    inputs, levels, _, utility = fitting_rows
    path = tmp_path / "progress.json"
    fingerprint = selection.selection_fingerprint(inputs, levels, utility)
    kept = selection.SelectionProgress(path, fingerprint)
    kept.add(GRID[0], stored_record(GRID[0], 1.25))
    assert selection.SelectionProgress(path, fingerprint).get(GRID[0]) == stored_record(GRID[0], 1.25)
    other = selection.selection_fingerprint(inputs, levels[::-1].copy(), utility)
    assert other != fingerprint and selection.SelectionProgress(path, other).get(GRID[0]) is None
    path.write_text('{"format": 1, "fingerprint": ')  # cut by a crash: nothing to resume
    assert selection.SelectionProgress(path, fingerprint).records == {}
    assert caplog.text.count("holds no progress of this CAP+ selection") == 2


def test_a_selection_whose_candidates_are_all_kept_fits_nothing_again(fitting_rows, tmp_path):
    inputs, levels, labels, utility = fitting_rows
    path = tmp_path / "progress.json"
    kept = selection.SelectionProgress(path, selection.selection_fingerprint(inputs, levels, utility))
    kept.add(GRID[0], stored_record(GRID[0], 1.5))
    kept.add(GRID[1], stored_record(GRID[1], 1.2))
    chosen, records = selection.select(inputs, lambda bases: pytest.fail("a kept candidate was fitted again"),
                                       levels, labels, utility, GRID, progress=False, progress_file=path)
    assert chosen == GRID[1] and [record["cv_log_loss"] for record in records] == [1.5, 1.2]
    assert not path.exists()  # the selection is done: its progress file goes


@pytest.mark.slow
def test_an_interrupted_selection_resumes_and_chooses_as_an_uninterrupted_one(fitting_rows, tmp_path):
    inputs, levels, labels, utility = fitting_rows
    path = tmp_path / "progress.json"
    designs = []

    def columns_of(bases):  # Ctrl-C while the second candidate is cross-validated
        designs.append(bases)
        if len(designs) == 2:
            raise KeyboardInterrupt
        return monotone_fit.design(*inputs, bases)

    with pytest.raises(KeyboardInterrupt):
        selection.select(inputs, columns_of, levels, labels, utility, GRID, progress=False, progress_file=path)
    assert list(json.loads(path.read_text())["records"]) == [selection.SelectionProgress.key(GRID[0])]
    resumed = selection.select(inputs, columns_of, levels, labels, utility, GRID, progress=False,
                               progress_file=path)
    assert len(designs) == 3  # only the candidate that was interrupted is fitted again
    whole = selection.select(inputs, lambda bases: monotone_fit.design(*inputs, bases), levels, labels, utility,
                             GRID, progress=False)
    assert resumed == whole and not path.exists()


@pytest.mark.slow
def test_fit_says_how_many_fits_it_runs(tmp_path, capsys):
    assert cli_main(["fit", "--scores", str(data_path("paper_scores.csv")), "--l2", "0.01", "--cap-plus-spec",
                     "shipped", "--out", str(tmp_path / "params")]) == 0
    errors = capsys.readouterr()
    assert "fit: 2 fits (2 final)" in errors.err and "one --l2 given: no cross-validation" in errors.out
    assert np.isfinite(json.loads((tmp_path / "params" / "cap_plus.json").read_text())["l2"])
