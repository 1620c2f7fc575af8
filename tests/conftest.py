"""Shared test fixtures: the paper's data in ../shared/data and small models built offline."""

import json
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"

# Known probabilities for the zero-weight classifier: CAP then follows from the formula alone.
KNOWN_PROBABILITIES = {"entailment": 0.62, "neutral": 0.27, "contradiction": 0.11}
# A label order unlike both the canonical one and the cross-encoder's.
PERMUTED_ID2LABEL = {0: "NEUTRAL", 1: "Contradiction", 2: "entailment"}


def shared_path(name):
    path = SHARED_DATA / name
    if not path.exists():
        pytest.fail(f"shared data file missing: {path} (expected ../shared/data beside the repo)")
    return path


@pytest.fixture(scope="session")
def paper_scores():
    import pandas as pd

    return pd.read_csv(shared_path("paper_scores.csv"))


@pytest.fixture(scope="session")
def paper_results():
    return json.loads(shared_path("paper_results.json").read_text())


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="session")
def known_nli_model(models_dir):
    """A classifier that gives KNOWN_PROBABILITIES for every pair, labels permuted."""
    from capqa.offline_models import build_nli_model

    return str(build_nli_model(models_dir / "nli-known", probabilities=KNOWN_PROBABILITIES,
                               id2label=PERMUTED_ID2LABEL))


@pytest.fixture(scope="session")
def random_nli_model(models_dir):
    """A classifier with random weights: different pairs get different probabilities."""
    from capqa.offline_models import build_nli_model

    return str(build_nli_model(models_dir / "nli-random", seed=1))


@pytest.fixture(scope="session")
def tiny_seq2seq_model(models_dir):
    from capqa.offline_models import build_seq2seq_model

    return str(build_seq2seq_model(models_dir / "t5-tiny"))


@pytest.fixture(scope="session")
def metric_path():
    return str(REPO_ROOT / "cap_metric.py")
