"""A Hub that cannot be reached is found out once, at once, at `evaluate.load` (issue 26, "the
offline failure is slow and noisy").

Without HF_HUB_OFFLINE, huggingface_hub retried an unreachable Hub for ~25 s per file ("Retrying
in 8s [Retry 5/5]") and the error came at `compute()`. Now one short probe per process decides
(capqa.loading.hub_probe). Each test points HF_ENDPOINT at a local port, in a subprocess so that
huggingface_hub reads it the way a user's run does: a closed port (refused at once, no sleep), or a
local server that answers, to show that a reachable Hub still runs the real Hub code.
"""

import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from capqa.loading import hub_probe

from support.data import REPO_ROOT

HUB_ID = "cap-test/tiny-nli"
# A commit id for the cached copy (any 40 hex digits: the cache maps refs/main to it).
CACHED_COMMIT = "0123456789abcdef0123456789abcdef01234567"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed when the socket is: connecting is refused at once


def run_python(program: str, endpoint: str, tmp_path: Path, **extra: str) -> subprocess.CompletedProcess:
    """``program`` in a fresh interpreter with the Hub at ``endpoint``, an empty HF home and no
    offline flag: a user's machine that cannot reach the Hub."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("HF_") and key not in ("TRANSFORMERS_OFFLINE",)}
    env.update(HF_ENDPOINT=endpoint, HF_HOME=str(tmp_path / "hf-home"), NO_PROXY="127.0.0.1,localhost",
               no_proxy="127.0.0.1,localhost", HF_HUB_DISABLE_TELEMETRY="1", PYTHONPATH=str(REPO_ROOT), **extra)
    return subprocess.run([sys.executable, "-c", program], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)


def test_an_unreachable_hub_fails_at_evaluate_load_without_retrying(tmp_path, metric_path):
    program = (f"import evaluate\n"
               f"try:\n"
               f"    evaluate.load({metric_path!r}, statement_model='rules', device='cpu')\n"
               f"except OSError as error:\n"
               f"    print('LOAD FAILED:', error)\n")
    result = run_python(program, f"http://127.0.0.1:{closed_port()}", tmp_path)
    assert "LOAD FAILED: could not load the NLI model 'cross-encoder/nli-deberta-v3-large'" in result.stdout, (
        result.stdout + result.stderr)
    assert ("the Hugging Face Hub could not be reached and the cache holds no copy of it; with a copy in the "
            "cache, HF_HUB_OFFLINE=1 uses it without waiting for the Hub") in result.stdout
    assert "Retrying" not in result.stderr
    assert result.stderr.count("cannot be reached") == 1, result.stderr  # one line, from the one probe


def cache_a_copy(folder: Path, hf_home: Path) -> None:
    """``folder``'s files as huggingface_hub's cache holds a download of HUB_ID at main."""
    repo = hf_home / "hub" / ("models--" + HUB_ID.replace("/", "--"))
    snapshot = repo / "snapshots" / CACHED_COMMIT
    snapshot.mkdir(parents=True)
    for path in folder.iterdir():
        (snapshot / path.name).write_bytes(path.read_bytes())
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(CACHED_COMMIT)


def test_a_cached_model_still_loads_when_the_hub_cannot_be_reached(tmp_path, metric_path, random_nli_model):
    cache_a_copy(Path(random_nli_model), tmp_path / "hf-home")
    program = (f"import evaluate\n"
               f"cap = evaluate.load({metric_path!r}, nli_model={HUB_ID!r}, statement_model='rules', device='cpu')\n"
               f"print('CAP', cap.compute(predictions=['Burgas is a city.'], references=['Sofia is a city.'])['cap'])\n"
               f"print('SECOND', evaluate.load({metric_path!r}, nli_model={HUB_ID!r}).options.nli_model)\n")
    result = run_python(program, f"http://127.0.0.1:{closed_port()}", tmp_path)
    assert result.returncode == 0, result.stderr
    assert 0 <= float(result.stdout.split("CAP ")[1].split()[0]) <= 1 and f"SECOND {HUB_ID}" in result.stdout
    assert "Retrying" not in result.stderr and result.stderr.count("cannot be reached") == 1


class _NotFoundHub(BaseHTTPRequestHandler):
    """Answers every request with 404 and records its method and path."""

    def _answer(self):
        self.server.requests.append((self.command, self.path))
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_HEAD = _answer

    def log_message(self, *args):
        pass


@pytest.fixture
def answering_hub():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _NotFoundHub)
    server.requests = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_hub_that_answers_is_asked_by_the_real_hub_code_and_probed_once(tmp_path, answering_hub):
    program = ("from transformers import AutoConfig\n"
               "from capqa.loading.pretrained import load_pretrained\n"
               "for _ in range(2):\n"
               "    try:\n"
               "        load_pretrained(AutoConfig, 'cap-test/missing', None, 'NLI model')\n"
               "    except OSError as error:\n"
               "        print('FAILED:', error)\n")
    result = run_python(program, f"http://127.0.0.1:{answering_hub.server_address[1]}", tmp_path)
    assert result.stdout.count("FAILED: could not load the NLI model 'cap-test/missing'") == 2, result.stderr
    probes = [request for request in answering_hub.requests if request == ("HEAD", "/")]
    downloads = [path for _, path in answering_hub.requests if path.startswith("/cap-test/missing/")]
    assert len(probes) == 1  # remembered for the process
    assert any(path.endswith("/config.json") for path in downloads)  # not local-only: the Hub was asked
    assert "cannot be reached" not in result.stderr


def test_a_hub_that_accepts_but_never_answers_counts_as_unreachable(monkeypatch):
    with socket.socket() as silent:  # the kernel completes the connection; nothing ever replies
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        assert hub_probe.probe_endpoint(f"http://127.0.0.1:{silent.getsockname()[1]}", timeout=0.3) is False


@pytest.mark.parametrize("value, expected", [(None, hub_probe.DEFAULT_PROBE_TIMEOUT_S), ("12", 12.0),
                                             ("0", hub_probe.DEFAULT_PROBE_TIMEOUT_S),
                                             ("soon", hub_probe.DEFAULT_PROBE_TIMEOUT_S)])
def test_the_probe_timeout_follows_hf_hub_etag_timeout(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv("HF_HUB_ETAG_TIMEOUT", raising=False)
    else:
        monkeypatch.setenv("HF_HUB_ETAG_TIMEOUT", value)
    assert hub_probe.probe_timeout() == expected


def test_offline_mode_and_local_folders_never_probe(monkeypatch, random_nli_model):
    from huggingface_hub import constants
    from transformers import AutoConfig

    from capqa.loading.pretrained import ModelLoadError, load_pretrained

    asked = []
    monkeypatch.setattr(hub_probe, "probe_endpoint", lambda endpoint, timeout: asked.append(endpoint) or False)
    hub_probe.forget_probes()
    load_pretrained(AutoConfig, random_nli_model, None, "NLI model")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(ModelLoadError, match="HF_HUB_OFFLINE is set"):
        load_pretrained(AutoConfig, "cap-test/not-cached", None, "NLI model")
    assert asked == []
    hub_probe.forget_probes()
