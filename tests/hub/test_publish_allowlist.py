"""publish plans only what each artifact type is made of (issue 17, point 7): a planted symlink,
secrets.json, optimizer.pt, training_args.bin, runs/ and wandb/ are never planned, a training
summary with a local path is refused, and build-datasets --overwrite leaves no stray file."""

import os

import pytest

from capqa.hub import publish
from capqa.hub.allowlist import is_allowed, looks_like_local_path
from capqa.hub.datasets import build_correctness, build_statements

from support.data import data_path
from support.hub import trained_model_folder

# What must never be planned, planted in every artifact's folder (paths relative to it).
PLANTED = ["secrets.json", "optimizer.pt", "training_args.bin", "runs/events.out.tfevents.1",
           "wandb/run-1/files/config.yaml", "checkpoints/checkpoint-500/model.safetensors",
           ".env", "notes.txt"]
LINKS = ["passwd.json", "linked-folder", "data/linked.parquet", "capqa/linked.py"]


@pytest.fixture
def outside(tmp_path):
    """A secret outside every folder, and a folder outside, that the planted links point to."""
    secret = tmp_path / "outside" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0")
    (tmp_path / "outside" / "folder").mkdir()
    (tmp_path / "outside" / "folder" / "model.safetensors").write_bytes(b"not ours")
    return tmp_path / "outside"


def plant(folder, outside):
    for name in PLANTED:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("do not publish")
    for name in LINKS:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        target = outside / "folder" if name == "linked-folder" else outside / "passwd"
        os.symlink(target, folder / name)


def assert_nothing_planted_is_planned(plan, outside):
    planned = [path for _, path in plan.files]
    locals_ = [local for local, _ in plan.files]
    for name in PLANTED + LINKS:
        assert not any(path == name or path.startswith(name + "/") for path in planned), name
    assert not any(local.is_symlink() or outside in local.resolve().parents for local in locals_)
    described = plan.describe()
    assert "left out: passwd.json (a symlink: never followed)" in described
    assert "left out: secrets.json (not part of a" in described


def test_a_model_plan_is_its_allow_list_only(tmp_path, outside):
    folder = trained_model_folder(tmp_path / "model")
    plant(folder, outside)
    plan = publish.model_plan(folder)
    assert [path for _, path in plan.files] == [
        "README.md", "config.json", "generation_config.json", "model.safetensors", "special_tokens_map.json",
        "spiece.model", "tokenizer_config.json", "training_summary.json"]
    assert_nothing_planted_is_planned(plan, outside)


@pytest.mark.parametrize("summary, field", [
    ({"base_model": "/home/me/models/mt5-small"}, "base_model = '/home/me/models/mt5-small'"),
    ({"settings": {"data": ["~/data/train.csv"]}}, "settings.data[0] = '~/data/train.csv'"),
    ({"base_model": "C:\\\\models\\\\mt5"}, "base_model = "),
])
def test_a_training_summary_with_a_local_path_is_refused(tmp_path, summary, field):
    folder = trained_model_folder(tmp_path / "model", summary)
    with pytest.raises(ValueError, match="holds a local path, which would be published") as raised:
        publish.model_plan(folder)
    assert field in str(raised.value)


def test_an_existing_relative_folder_counts_as_local_but_a_hub_id_does_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models" / "base").mkdir(parents=True)
    assert looks_like_local_path("models/base")
    assert not looks_like_local_path("google/mt5-small") and not looks_like_local_path("main")


def test_a_space_plan_is_its_allow_list_only(tmp_path, outside):
    from support.hub import stand_in_repo

    space = publish.assemble_space(tmp_path / "space", source_root=stand_in_repo(tmp_path / "repo"))
    plant(space, outside)
    plan = publish.space_plan(space)
    assert [path for _, path in plan.files] == [
        "README.md", "app.py", "cap.py", "capqa/__init__.py", "capqa/common/constants.py",
        "capqa/plus/params/cap_plus.json", "monotonicity.py", "paper_scores.csv", "requirements.txt"]
    assert_nothing_planted_is_planned(plan, outside)


def test_assembling_the_space_never_follows_a_link_in_the_package(tmp_path, outside):
    from support.hub import stand_in_repo

    source = stand_in_repo(tmp_path / "repo")
    os.symlink(outside / "passwd", source / "capqa" / "secret.py")
    os.symlink(outside / "folder", source / "capqa" / "vendored")
    space = publish.assemble_space(tmp_path / "space", source_root=source)
    assert not (space / "capqa" / "secret.py").exists() and not (space / "capqa" / "vendored").exists()


def test_dataset_plans_are_their_allow_list_only(tmp_path, outside):
    out = tmp_path / "built"
    build_correctness(data_path("cap_correctness_sample.csv"), data_path("cap_correctness_splits.csv"), out)
    build_statements(data_path("cap_statements_sample.csv"), out)
    for name in ("CAP-Correctness", "CAP-Statements"):
        plant(out / name, outside)
    correctness, statements = publish.datasets_plans(out)
    assert [path for _, path in statements.files] == ["README.md", "data/dev.parquet", "data/test.parquet",
                                                      "data/train.parquet"]
    assert [path for _, path in correctness.files] == ["README.md", "data/test.parquet", "data/validation.parquet"]
    for plan in (correctness, statements):
        assert_nothing_planted_is_planned(plan, outside)


def test_build_datasets_overwrite_replaces_only_the_builds_own_files(tmp_path, outside):
    """Issue 27, item 12: --overwrite deletes only what a build wrote, never through a link."""
    out = tmp_path / "built"
    build_statements(data_path("cap_statements_sample.csv"), out)
    repo = out / "CAP-Statements"
    plant(repo, outside)
    (out / "kept-beside.txt").write_text("not the build's")  # --out itself is never emptied
    before = {path.relative_to(repo).as_posix() for path in repo.rglob("*")}
    # data/linked.parquet would be published with the new build: refused, nothing deleted.
    with pytest.raises(ValueError, match=r"data/linked.parquet \(a symbolic link\).*Move them away"):
        build_statements(data_path("cap_statements_sample.csv"), out, overwrite=True)
    assert {path.relative_to(repo).as_posix() for path in repo.rglob("*")} == before
    (repo / "data" / "linked.parquet").unlink()
    build_statements(data_path("cap_statements_sample.csv"), out, overwrite=True)
    # The build's files are new; what it did not write is where it was (and publish leaves it out).
    assert sorted(path.relative_to(repo).as_posix() for path in (repo / "data").glob("*")) == [
        "data/dev.parquet", "data/test.parquet", "data/train.parquet"]
    for name in PLANTED:
        assert (repo / name).read_text() == "do not publish", name
    assert all((repo / name).is_symlink() for name in LINKS if name != "data/linked.parquet")
    assert (outside / "passwd").read_text() == "root:x:0:0" and (outside / "folder" / "model.safetensors").exists()
    assert (out / "kept-beside.txt").exists()


@pytest.mark.parametrize("path, artifact, allowed", [
    ("model.safetensors", "model", True), ("sub/model.safetensors", "model", False),
    ("capqa/plus/params/cap_plus.json", "space", True), ("capqa/plus/secrets.txt", "space", False),
    ("data/train.parquet", "dataset", True), ("data/old/train.parquet", "dataset", False),
])
def test_allow_list_patterns(path, artifact, allowed):
    assert is_allowed(path, artifact) is allowed
