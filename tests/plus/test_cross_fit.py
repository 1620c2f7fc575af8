"""CAP+ for choosing thresholds (``capqa.plus.cross_fit``): out of fold on its own fitting rows,
as shipped on rows it never saw, refused on a mixture (issue 34: the CAP+ thresholds came from the
rows CAP+ was fitted on)."""

import json

import numpy as np
import pytest

from capqa.plus import calibration, cross_fit, selection


@pytest.fixture(scope="module")
def validation(paper_scores):
    return paper_scores[paper_scores["split"] == "validation"].reset_index(drop=True)


def test_the_fitting_rows_get_their_out_of_fold_cap_plus(validation):
    found = cross_fit.threshold_scores(validation)
    assert found.source == cross_fit.CROSS_FITTED and "cross-fitted on the 1,000 validation rows" in found.description
    # The stored out-of-fold scores, which a refit reproduces (tests/plus/test_plus.py).
    stored = json.loads((calibration.PARAMS_DIR / calibration.CAP_PLUS_FILE).read_text())["cross_fitted"]["scores"]
    np.testing.assert_array_equal(found.scores, stored)
    # Not the shipped model's own scores of these rows, which it was fitted on.
    in_sample = calibration.cap_plus(*calibration.frame_inputs(validation))
    assert np.abs(found.scores - in_sample).max() > 1e-3
    # The rows in another order keep their own scores.
    order = np.random.default_rng(0).permutation(len(validation))
    np.testing.assert_array_equal(cross_fit.threshold_scores(validation.iloc[order]).scores, found.scores[order])


def test_rows_cap_plus_never_saw_get_the_shipped_cap_plus(paper_scores):
    test = paper_scores[paper_scores["split"] == "test"].head(300)
    found = cross_fit.threshold_scores(test)
    assert found.source == cross_fit.AS_SHIPPED
    np.testing.assert_array_equal(found.scores, calibration.cap_plus(*calibration.frame_inputs(test)))


def test_a_mixture_or_a_part_of_the_fitting_rows_is_refused(paper_scores, validation):
    mixture = paper_scores.head(2000)
    with pytest.raises(ValueError, match="are rows CAP\\+ was fitted on .* and the others are not"):
        cross_fit.threshold_scores(mixture)
    with pytest.raises(ValueError, match="600 of the 600 rows"):
        cross_fit.threshold_scores(validation.head(600))


def test_a_cap_plus_column_of_another_model_is_used_as_given(validation):
    given = validation.assign(cap_plus=np.linspace(0, 1, len(validation)))
    found = cross_fit.threshold_scores(given)
    assert found.source == cross_fit.AS_GIVEN
    np.testing.assert_array_equal(found.scores, given["cap_plus"].to_numpy())


def test_the_parameter_file_keeps_one_fingerprint_and_one_cross_fitted_score_per_fitting_row(validation):
    data = json.loads((calibration.PARAMS_DIR / calibration.CAP_PLUS_FILE).read_text())
    assert data["fitted_on"]["row_fingerprints"] == calibration.row_fingerprints(validation)
    assert len(data["cross_fitted"]["scores"]) == 1000 and data["cross_fitted"]["folds"] == selection.CV_FOLDS
    # The fingerprint reads the label and the eight inputs, nothing else, and sees a change of any.
    changed = validation.head(3).copy()
    changed.loc[0, "pe_f"] += 1e-6
    changed.loc[1, "label"] = "exact" if changed.loc[1, "label"] != "exact" else "invalid"
    changed.loc[2, "cap"] = 0.5
    fingerprints = calibration.row_fingerprints(changed)
    original = calibration.row_fingerprints(validation.head(3))
    assert fingerprints[0] != original[0] and fingerprints[1] != original[1] and fingerprints[2] == original[2]
