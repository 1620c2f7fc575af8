"""Shared test fixtures: the paper's data in the repo's data/ and small models built offline."""

import json
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = REPO_ROOT / "data"

# Model-derived numbers (probabilities, CAP, CAP+) computed in different batch compositions,
# thread counts or CPUs differ by float32 rounding: up to 2.4e-7 on probabilities across Intel
# AMX and AMD AVX2 machines, and up to 2.0e-6 on CAP+ / 1.2e-6 on CAP on an AMD EPYC (Zen 4,
# AVX-512, no AMX) between chunk sizes 7 and 30 with the random tiny model. Every such
# comparison uses this bound, 5x the largest difference seen. (With the NLI tokenizer below, 60
# sample rows at batch sizes 1 to 64: at most 1.8e-6 on probabilities, 1.1e-6 on CAP, 2.8e-7
# on CAP+, with 1 and 2 threads alike.)
MODEL_ATOL = 1e-5

# Known probabilities for the zero-weight classifier: CAP then follows from the formula alone.
KNOWN_PROBABILITIES = {"entailment": 0.62, "neutral": 0.27, "contradiction": 0.11}
# A label order unlike both the canonical one and the cross-encoder's.
PERMUTED_ID2LABEL = {0: "NEUTRAL", 1: "Contradiction", 2: "entailment"}


def data_path(name):
    path = DATA_DIR / name
    if not path.exists():
        pytest.fail(f"data file missing: {path} (the repo carries it in data/)")
    return path


@pytest.fixture(scope="session")
def paper_scores():
    import pandas as pd

    return pd.read_csv(data_path("paper_scores.csv"))


@pytest.fixture(scope="session")
def paper_results():
    return json.loads(data_path("paper_results.json").read_text())


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("models")


# Tokens in the NLI models' vocabulary, learnt from the correctness sample's texts: a
# real sentence is then about a third as many tokens as with the 400 of the default corpus
# (82 instead of 223 per pair of that sample), and scoring it several times faster.
NLI_VOCAB_SIZE = 2000


@pytest.fixture(scope="session")
def nli_tokenizer():
    """The NLI models' BPE tokenizer, trained on the questions, answers and statements of
    data/cap_correctness_sample.csv."""
    import pandas as pd

    from capqa.dev.offline_models import build_tokenizer

    sample = pd.read_csv(data_path("cap_correctness_sample.csv"), dtype=str, keep_default_na=False)
    texts = [text for column in ("question", "gold_answer", "answer", "premise", "hypothesis")
             for text in sample[column]]
    return build_tokenizer(texts, vocab_size=NLI_VOCAB_SIZE)


@pytest.fixture(scope="session")
def known_nli_model(models_dir, nli_tokenizer):
    """A classifier that gives KNOWN_PROBABILITIES for every pair, labels permuted."""
    from capqa.dev.offline_models import build_nli_model

    return str(build_nli_model(models_dir / "nli-known", probabilities=KNOWN_PROBABILITIES,
                               id2label=PERMUTED_ID2LABEL, tokenizer=nli_tokenizer))


@pytest.fixture(scope="session")
def random_nli_model(models_dir, nli_tokenizer):
    """A classifier with random weights: different pairs get different probabilities."""
    from capqa.dev.offline_models import build_nli_model

    return str(build_nli_model(models_dir / "nli-random", seed=1, tokenizer=nli_tokenizer))


@pytest.fixture(scope="session")
def tiny_seq2seq_model(models_dir):
    from capqa.dev.offline_models import build_seq2seq_model

    return str(build_seq2seq_model(models_dir / "t5-tiny"))


@pytest.fixture(scope="session")
def metric_path():
    return str(REPO_ROOT / "cap_metric.py")


# The Space's app with models gives verdicts under this policy (correct and credit columns).
SPACE_VERDICT = "graded"
# A job folder left by a process that no longer runs (pids never reach 2**22 + 1 on Linux).
STALE_JOB = f"{2 ** 22 + 1}-left-by-a-crash"


@pytest.fixture(scope="session")
def space_apps(tmp_path_factory, random_nli_model):
    """(root, [url with models, url without]): two Spaces for the session, shared by test_app.py
    and test_browser.py. One has the tiny random NLI model and the rule statements, and file
    jobs that wait while ``root / "ready" / "hold"`` exists (tests/held_app.py); one has no model
    set and the Hub offline. The first finds a crashed process's job folder at start."""
    from space_server import serve_apps

    root = tmp_path_factory.mktemp("space-apps")
    ready = {"CAP_NLI_MODEL": random_nli_model, "CAP_STATEMENT_MODEL": "rules", "CAP_DEVICE": "cpu",
             "CAP_VERDICT": SPACE_VERDICT, "CAP_TEST_HOLD": str(root / "ready" / "hold")}
    (root / "ready" / "tmp" / "cap-space-jobs" / STALE_JOB).mkdir(parents=True)
    with serve_apps((root / "ready", ready), (root / "offline", {})) as urls:
        yield root, urls


@pytest.fixture
def cli_errors_raise(monkeypatch):
    """``python -m capqa`` re-raises user errors instead of printing one `error:` line."""
    monkeypatch.setenv("CAPQA_TRACEBACK", "1")
