"""publish: dry-run plans, the assembled Space, and real uploads to a local fake Hub endpoint.

The fake Hub is a small HTTP server on 127.0.0.1 that answers the four calls huggingface_hub
makes for ``create_repo`` + ``create_commit`` of small files (create, validate-yaml, preupload,
commit) and keeps what was committed, so the tests compare uploaded bytes with the local files.
The command runs in a subprocess so that ``HF_ENDPOINT`` is read the way a user's run reads it.
"""

import base64
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from capqa.cli import publish as publish_cli
from capqa.common.constants import STATEMENT_BASE_MODEL
from capqa.hub import publish
from capqa.hub.allowlist import BUILD_RECORD
from capqa.hub.datasets import build_correctness, build_statements

from support.data import REPO_ROOT, data_path
from support.hub import stand_in_repo
from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
huggingface_hub = lazy_module("huggingface_hub")

FAKE_TOKEN = "hf_fakeTokenForTestsOnly0123456789"
NAMESPACE = "test-ns"


class FakeHub(BaseHTTPRequestHandler):
    """Records requests in ``self.server.calls`` and committed files in ``self.server.commits``."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.calls.append((self.path, self.headers.get("Authorization")))
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts[:3] == ["api", "repos", "create"]:
            payload = json.loads(body)
            self.server.created.append(payload)
            prefix = {"model": "", "dataset": "datasets/", "space": "spaces/"}[payload.get("type", "model")]
            return self._json({"url": f"{self._endpoint()}/{prefix}{payload['organization']}/{payload['name']}"})
        if parts[:2] == ["api", "validate-yaml"]:
            return self._json({"errors": [], "warnings": []})
        repo = "/".join(parts[2:4])
        if parts[4] == "preupload":
            files = json.loads(body)["files"]
            return self._json({"files": [{"path": file["path"], "uploadMode": "regular", "shouldIgnore": False}
                                         for file in files]})
        if parts[4] == "commit":
            lines = [json.loads(line) for line in body.splitlines() if line.strip()]
            files = {line["value"]["path"]: base64.b64decode(line["value"]["content"])
                     for line in lines if line["key"] == "file"}
            self.server.commits.append((parts[1][:-1], repo, files))
            return self._json({"commitUrl": f"{self._endpoint()}/{parts[1]}/{repo}/commit/{'0' * 40}",
                               "commitOid": "0" * 40, "pullRequestUrl": None})
        self.send_error(404)

    def _endpoint(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def _json(self, payload):
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):  # keep test output quiet
        pass


@pytest.fixture
def fake_hub():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeHub)
    server.calls, server.created, server.commits = [], [], []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def run_publish(*argv, hub, tmp_path, token=FAKE_TOKEN):
    """``python -m capqa publish ...`` with the Hub at ``hub``, an empty HF home and ``token``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("HF_")}
    env.update(HF_ENDPOINT=f"http://127.0.0.1:{hub.server_address[1]}", HF_HOME=str(tmp_path / "hf-home"),
               CAP_HUB_NAMESPACE=NAMESPACE, NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
               HF_HUB_DISABLE_TELEMETRY="1")
    if token is not None:
        env["HF_TOKEN"] = token
    return subprocess.run([sys.executable, "-m", "capqa", "publish", *argv], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def built_folder(tmp_path_factory):
    out_dir = tmp_path_factory.mktemp("built")
    build_correctness(data_path("cap_correctness_sample.csv"), data_path("cap_correctness_splits.csv"), out_dir)
    build_statements(data_path("cap_statements_sample.csv"), out_dir)
    return out_dir


def expected_files(folder):
    """The built files (the build's own record of them stays local)."""
    folder = Path(folder)
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*")
            if path.is_file() and path.name != BUILD_RECORD}


# --- Datasets --------------------------------------------------------------------------------

def test_datasets_dry_run_prints_the_plan_and_uploads_nothing(built_folder, fake_hub, tmp_path):
    result = run_publish("datasets", "--folder", str(built_folder), hub=fake_hub, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"dataset {NAMESPACE}/CAP-Correctness: 3 file(s)" in result.stdout
    assert f"dataset {NAMESPACE}/CAP-Statements: 4 file(s)" in result.stdout
    assert "rows: validation 34, test 349" in result.stdout and "rows: train 488, dev 61, test 61" in result.stdout
    assert "WARNING: 383 rows, the full CAP-Correctness has 8,826: is this a build from a sample?" in result.stdout
    assert "WARNING: 610 rows, the full CAP-Statements has 11,000" in result.stdout
    for path in ("README.md", "data/test.parquet", "data/validation.parquet", "data/train.parquet"):
        assert path in result.stdout
    assert "dry run: nothing uploaded" in result.stdout
    assert fake_hub.calls == []
    assert FAKE_TOKEN not in result.stdout + result.stderr


def test_datasets_upload_commits_exactly_the_built_files(built_folder, fake_hub, tmp_path):
    result = run_publish("datasets", "--folder", str(built_folder), "--yes", hub=fake_hub, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [(repo["type"], repo["organization"], repo["name"]) for repo in fake_hub.created] == \
        [("dataset", NAMESPACE, "CAP-Correctness"), ("dataset", NAMESPACE, "CAP-Statements")]
    assert [(kind, repo) for kind, repo, _ in fake_hub.commits] == \
        [("dataset", f"{NAMESPACE}/CAP-Correctness"), ("dataset", f"{NAMESPACE}/CAP-Statements")]
    assert fake_hub.commits[0][2] == expected_files(built_folder / "CAP-Correctness")
    assert fake_hub.commits[1][2] == expected_files(built_folder / "CAP-Statements")
    # The token reached the Hub from the environment, and nowhere else.
    assert {authorization for _, authorization in fake_hub.calls} == {f"Bearer {FAKE_TOKEN}"}
    assert FAKE_TOKEN not in result.stdout + result.stderr


def test_upload_without_a_token_stops_before_any_request(built_folder, fake_hub, tmp_path):
    result = run_publish("datasets", "--folder", str(built_folder), "--yes", hub=fake_hub, tmp_path=tmp_path,
                         token=None)
    assert result.returncode == 1
    assert "no Hugging Face token: set HF_TOKEN or run `hf auth login`" in result.stderr
    assert fake_hub.calls == []


def test_a_token_is_never_an_argument(built_folder):
    with pytest.raises(SystemExit) as exit_info:
        publish_cli.main(["datasets", "--folder", str(built_folder), "--token", FAKE_TOKEN])
    assert exit_info.value.code == 2


def test_datasets_folder_must_be_a_build(tmp_path, capsys):
    (tmp_path / "CAP-Correctness").mkdir()
    assert publish_cli.main(["datasets", "--folder", str(tmp_path)]) == 1
    assert "has no CAP-Statements; is it the right folder?" in capsys.readouterr().err


# --- Space -----------------------------------------------------------------------------------

SPACE_LAYOUT = ["README.md", "app.py", "cap.py", "capqa/__init__.py", "capqa/common/constants.py",
                "capqa/plus/params/cap_plus.json", "monotonicity.py", "paper_scores.csv", "requirements.txt"]


def test_assemble_space_copies_files_under_their_space_names(tmp_path):
    source = stand_in_repo(tmp_path / "repo")
    space = publish.assemble_space(tmp_path / "space", source_root=source)
    assert sorted(expected_files(space)) == SPACE_LAYOUT
    assert (space / "cap.py").read_bytes() == (source / "cap_metric.py").read_bytes()
    assert (space / "README.md").read_bytes() == (source / "space_card/README.md").read_bytes()
    plan = publish.space_plan(space)
    assert (plan.repo_type, [path for _, path in plan.files]) == ("space", SPACE_LAYOUT)


@pytest.mark.parametrize("missing", ["cap_metric.py", "app.py", "space_card/README.md", "capqa/__init__.py"])
def test_assemble_space_names_a_missing_file(tmp_path, missing):
    source = stand_in_repo(tmp_path / "repo")
    (source / missing).unlink()
    with pytest.raises(FileNotFoundError, match=f"cannot assemble the Space: missing {missing} under"):
        publish.assemble_space(tmp_path / "space", source_root=source)


def test_space_upload_creates_a_gradio_space(fake_hub, tmp_path):
    source = stand_in_repo(tmp_path / "repo")
    out = tmp_path / "space"
    result = run_publish("space", "--source-root", str(source), "--out", str(out), "--yes",
                         hub=fake_hub, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [(repo["type"], repo["name"], repo.get("sdk")) for repo in fake_hub.created] == [("space", "cap", "gradio")]
    kind, repo, files = fake_hub.commits[0]
    assert (kind, repo) == ("space", f"{NAMESPACE}/cap")
    assert files == expected_files(out) and sorted(files) == SPACE_LAYOUT


def test_assemble_space_from_this_repo(tmp_path):
    from huggingface_hub import SpaceCard

    space = publish.assemble_space(tmp_path / "space", source_root=REPO_ROOT)
    names = set(expected_files(space))
    assert {"README.md", "app.py", "cap.py", "monotonicity.py", "requirements.txt", "capqa/__init__.py",
            "capqa/common/constants.py", "capqa/metric/scorer.py"} <= names
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in names)
    assert SpaceCard.load(space / "README.md").data.app_file == "app.py"


def test_assembled_space_ships_and_finds_the_benchmark_scores(tmp_path):
    # By default: the repo's own data/paper_scores.csv, with no flag to remember.
    space = publish.assemble_space(tmp_path / "space", source_root=REPO_ROOT)
    assert (space / "paper_scores.csv").read_bytes() == data_path("paper_scores.csv").read_bytes()
    # The Space's own capqa (first on the path there) takes the copy beside app.py.
    found = subprocess.run([sys.executable, "-c", "import capqa.space as s; print(s.DEFAULT_BENCHMARK_SCORES)"],
                           cwd=space, env={**os.environ, "PYTHONPATH": str(space)},
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(found) == space / "paper_scores.csv"
    with pytest.raises(FileNotFoundError, match="--benchmark-scores"):
        publish.assemble_space(tmp_path / "other", source_root=REPO_ROOT, benchmark_scores=tmp_path / "none.csv")


def test_the_space_command_ships_the_scores_unless_told_not_to(tmp_path):
    source = stand_in_repo(tmp_path / "repo")
    for flags, shipped in (([], True), (["--no-benchmark-scores"], False)):
        out = tmp_path / f"space{len(flags)}"
        assert publish_cli.main(["space", "--source-root", str(source), "--out", str(out), *flags]) == 0
        assert (out / "paper_scores.csv").is_file() is shipped
    (source / "data" / "paper_scores.csv").unlink()
    with pytest.raises(FileNotFoundError, match="--benchmark-scores"):
        publish.assemble_space(tmp_path / "space-without", source_root=source)


def test_space_card_front_matter():
    from importlib.metadata import version

    from huggingface_hub import SpaceCard

    card = SpaceCard.load(REPO_ROOT / "space_card" / "README.md")
    assert (card.data.sdk, card.data.app_file) == ("gradio", "app.py")
    assert {"evaluate", "metric"} <= set(card.data.tags)
    assert card.data.title and card.data.emoji and 0 < len(card.data.short_description) <= 60
    # The Space runs the gradio version the project is built and tested with.
    assert card.data.sdk_version == version("gradio")
    pins = [line.split("==")[1].strip() for line in (REPO_ROOT / "requirements.txt").read_text().splitlines()
            if line.startswith("gradio==")]
    assert pins in ([], [card.data.sdk_version])
    assert 'evaluate.load("cap-eval/cap", statement_model="rules")' in card.text
    assert "pip install cap-eval" in card.text and "not published yet" in card.text


# --- Model -----------------------------------------------------------------------------------

def model_folder(root, with_readme=False):
    root.mkdir(parents=True)
    (root / "config.json").write_text("{}")
    (root / "model.safetensors").write_bytes(b"\0" * 64)
    (root / "checkpoint-500").mkdir()
    (root / "checkpoint-500" / "optimizer.pt").write_bytes(b"state")
    if with_readme:
        (root / "README.md").write_text("# own card\n")
    return root


EVAL_RESULTS = {"exact_match": 0.5, "token_f1": 0.75, "bleu": 61.25, "chrf": 70.5, "rows": 4,
                "evaluated_on": "`rows.csv` (4 rows, 4 beams)",
                "by_question_type": {"short_question": {"exact_match": 0.25, "token_f1": 0.5, "bleu": 40.0,
                                                        "chrf": 50.0, "rows": 2}}}


def measured_model_folder(root, base_model=STATEMENT_BASE_MODEL):
    folder = model_folder(root)
    (folder / "eval_statements.json").write_text(json.dumps(EVAL_RESULTS))
    (folder / "training_summary.json").write_text(json.dumps({"base_model": base_model}))
    return folder


def test_model_without_its_own_figures_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no README.md and no eval_statements.json.*eval-statements --model.*--card"):
        publish.model_plan(model_folder(tmp_path / "model"), staging=tmp_path)


def test_generated_card_carries_the_folders_figures_not_the_papers(tmp_path, monkeypatch):
    monkeypatch.setenv("CAP_HUB_NAMESPACE", NAMESPACE)
    staging = tmp_path / "staging"
    staging.mkdir()
    plan = publish.model_plan(measured_model_folder(tmp_path / "model"), staging=staging)
    assert (plan.repo_id, plan.repo_type) == (f"{NAMESPACE}/cap-statement-mt5-small", "model")
    files = dict((path, local) for local, path in plan.files)
    assert files["README.md"] == staging / "README.md"
    card = huggingface_hub.ModelCard.load(files["README.md"])
    assert card.data.base_model == STATEMENT_BASE_MODEL
    assert "| overall | 4 | 0.500 | 0.750 | 61.25 | 70.50 |" in card.text
    assert "| short_question | 2 | 0.250 | 0.500 | 40.00 | 50.00 |" in card.text
    assert "`rows.csv` (4 rows, 4 beams)" in card.text
    for papers_figure in ("1,353", "90%", "300M", "one in ten"):
        assert papers_figure not in card.text, papers_figure


def test_a_folder_trained_from_another_base_needs_its_own_card(tmp_path):
    folder = measured_model_folder(tmp_path / "model", base_model="google/flan-t5-small")
    with pytest.raises(ValueError, match="trained from 'google/flan-t5-small'.*pass it with --card"):
        publish.model_plan(folder, staging=tmp_path)
    card = tmp_path / "card.md"
    card.write_text("---\nlicense: apache-2.0\n---\n# flan card\n")
    plan = publish.model_plan(folder, card=card)
    assert dict((path, local) for local, path in plan.files)["README.md"] == card


def test_the_folders_own_card_is_kept_unless_card_is_given(tmp_path):
    own = publish.model_plan(model_folder(tmp_path / "model", with_readme=True))
    assert dict((path, local) for local, path in own.files)["README.md"] == tmp_path / "model" / "README.md"
    card = tmp_path / "card.md"
    card.write_text("# explicit\n")
    chosen = publish.model_plan(tmp_path / "model", card=card)
    assert [local for local, path in chosen.files if path == "README.md"] == [card]
    with pytest.raises(ValueError, match="`card` must be an existing Markdown file"):
        publish.model_plan(tmp_path / "model", card=tmp_path / "missing.md")


def test_model_plan_without_any_card_fails_clearly(tmp_path):
    with pytest.raises(FileNotFoundError, match="has no README.md and the model card .* is missing"):
        publish.model_plan(model_folder(tmp_path / "model"), source_root=tmp_path / "empty")
    (tmp_path / "not-a-model").mkdir()
    with pytest.raises(ValueError, match="has no config.json"):
        publish.model_plan(tmp_path / "not-a-model")
