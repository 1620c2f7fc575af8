"""Shared test fixtures: the paper's data in the repo's data/ and small models built offline."""

import json

import pytest

from support.data import REPO_ROOT, data_path
from support.models import KNOWN_PROBABILITIES, NLI_VOCAB_SIZE, PERMUTED_ID2LABEL
from support.space import SPACE_VERDICT, STALE_JOB


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


@pytest.fixture(scope="session")
def space_apps(tmp_path_factory, random_nli_model):
    """(root, [url with models, url without]): two Spaces for the session, shared by test_app.py
    and test_browser.py. One has the tiny random NLI model and the rule statements, and file
    jobs that wait while ``root / "ready" / "hold"`` exists (tests/support/held_app.py); one has no model
    set and the Hub offline. The first finds a crashed process's job folder at start."""
    from support.space_server import serve_apps

    root = tmp_path_factory.mktemp("space-apps")
    ready = {"CAP_NLI_MODEL": random_nli_model, "CAP_STATEMENT_MODEL": "rules", "CAP_DEVICE": "cpu",
             "CAP_VERDICT": SPACE_VERDICT, "CAP_TEST_HOLD": str(root / "ready" / "hold")}
    (root / "ready" / "tmp" / "cap-space-jobs" / STALE_JOB).mkdir(parents=True)
    with serve_apps((root / "ready", ready), (root / "offline", {})) as urls:
        yield root, urls


@pytest.fixture
def status_server():
    """A real endpoint that answers with the statuses a test lines up (tests/support/status_server.py)."""
    pytest.importorskip("openai", reason="the openai engine's extra: pip install 'cap-eval[llm]' (make setup does)")
    from support.status_server import StatusServer

    servers = []

    def start(statuses):
        servers.append(StatusServer(statuses))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()



@pytest.fixture
def cli_errors_raise(monkeypatch):
    """``python -m capqa`` re-raises user errors instead of printing one `error:` line."""
    monkeypatch.setenv("CAPQA_TRACEBACK", "1")
