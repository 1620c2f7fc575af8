"""Path tricks against build-datasets and publish (issue 27, items 12 and 13): symlinked folders and
files, files the build did not write, cards with local paths, hostile namespaces and file names.
Nothing outside what a build wrote is ever deleted, and no link target is ever planned."""

import os
import re
from pathlib import Path

import pytest

from capqa.cli import main as cli_main
from capqa.common import constants
from capqa.hub import publish
from capqa.hub.allowlist import BUILD_RECORD, SPACE_PACKAGE_DATA, is_allowed
from capqa.hub.datasets import STATEMENTS_NAME, build_correctness, build_statements

from support.data import REPO_ROOT, data_path
from support.hub import stand_in_repo, trained_model_folder

STATEMENTS = str(data_path("cap_statements_sample.csv"))


def tree(folder):
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


@pytest.fixture
def victim(tmp_path):
    """A folder of someone's own files that a link will point to."""
    folder = tmp_path / "my-folder"
    (folder / "data").mkdir(parents=True)
    (folder / "thesis.tex").write_text("years of work")
    (folder / "README.md").write_text("# mine")
    (folder / "data" / "train.parquet").write_bytes(b"my data")
    return folder


# --- build-datasets --overwrite (item 12) ------------------------------------------------------

@pytest.mark.parametrize("overwrite", [False, True])
def test_a_symlinked_repo_folder_is_never_written_or_emptied(tmp_path, victim, overwrite):
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / STATEMENTS_NAME)
    before = tree(victim)
    with pytest.raises(ValueError, match=r"CAP-Statements is a symbolic link; a build never writes or deletes"):
        build_statements(STATEMENTS, out, overwrite=overwrite)
    assert tree(victim) == before


def test_a_symlinked_data_folder_is_refused(tmp_path, victim):
    out = tmp_path / "out"
    build_statements(STATEMENTS, out)
    repo = out / STATEMENTS_NAME
    for path in (repo / "data").iterdir():
        path.unlink()
    (repo / "data").rmdir()
    os.symlink(victim / "data", repo / "data")
    with pytest.raises(ValueError, match=r"data is a symbolic link"):
        build_statements(STATEMENTS, out, overwrite=True)
    assert (victim / "data" / "train.parquet").read_bytes() == b"my data"


def test_overwrite_refuses_a_card_changed_since_the_build_and_keeps_it(tmp_path):
    out = tmp_path / "out"
    build_statements(STATEMENTS, out)
    card = out / STATEMENTS_NAME / "README.md"
    card.write_text("# my edits")
    with pytest.raises(ValueError, match=r"README.md \(changed since the build wrote it\)"):
        build_statements(STATEMENTS, out, overwrite=True)
    assert card.read_text() == "# my edits"


def test_overwrite_refuses_a_folder_no_build_wrote(tmp_path, victim):
    out = tmp_path / "out"
    out.mkdir()
    os.rename(victim, out / STATEMENTS_NAME)  # someone's folder that happens to have the name
    before = tree(out / STATEMENTS_NAME)
    with pytest.raises(ValueError, match=r"README.md \(no build record: not written by a build\), "
                                         r"data/train.parquet \(no build record"):
        build_statements(STATEMENTS, out, overwrite=True)
    assert tree(out / STATEMENTS_NAME) == before


def test_overwrite_deletes_the_builds_files_and_rewrites_its_record(tmp_path):
    out = tmp_path / "out"
    build_statements(STATEMENTS, out)
    repo = out / STATEMENTS_NAME
    first = tree(repo)
    build_statements(STATEMENTS, out, overwrite=True)
    assert tree(repo) == first  # the same input builds the same bytes, record included
    assert sorted(first) == [BUILD_RECORD, "README.md", "data/dev.parquet", "data/test.parquet", "data/train.parquet"]
    assert not is_allowed(BUILD_RECORD, "dataset")  # the record is never published


def test_dropped_rows_csv_is_never_written_through_a_link(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    os.symlink(victim, out / "dropped_rows.csv")
    code = cli_main(["build-datasets", "--correctness", str(data_path("cap_correctness_sample.csv")),
                     "--splits", str(data_path("cap_correctness_splits.csv")), "--out", str(out)])
    assert code == 1 and victim.read_text() == "keep me"


# --- publish space (item 13) --------------------------------------------------------------------

@pytest.mark.parametrize("linked", ["app.py", "space_card", "capqa", "requirements.txt"])
def test_a_linked_space_source_is_refused_never_its_target_uploaded(tmp_path, linked):
    source = stand_in_repo(tmp_path / "repo")
    secret = tmp_path / "elsewhere" / linked
    secret.parent.mkdir()
    os.rename(source / linked, secret)
    os.symlink(secret, source / linked)
    with pytest.raises(ValueError, match=rf"{re.escape(str(source / linked))} is a symbolic link"):
        publish.assemble_space(tmp_path / "space", source_root=source)


def test_the_space_plans_package_data_by_name_only(tmp_path):
    source = stand_in_repo(tmp_path / "repo")
    planted = ("capqa/secrets.json", "capqa/dev/credentials.yaml", "capqa/plus/params/extra.json")
    for name in planted + SPACE_PACKAGE_DATA:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text("{}")
    plan = publish.space_plan(publish.assemble_space(tmp_path / "space", source_root=source))
    planned = [path for _, path in plan.files]
    assert all(name in planned for name in SPACE_PACKAGE_DATA)
    for name in planted:
        assert name not in planned and f"left out: {name} (not part of a space)" in plan.describe()


def test_the_space_leaves_the_docs_tooling_out(tmp_path):
    """capqa/doctools measures a checkout's docs: the Space runs without it, as the wheel does."""
    source = stand_in_repo(tmp_path / "repo")
    for name in ("capqa/doctools/__init__.py", "capqa/doctools/registry.py", "capqa/space/__init__.py"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text("")
    space = publish.assemble_space(tmp_path / "space", source_root=source)
    assert not (space / "capqa" / "doctools").exists() and (space / "capqa" / "space" / "__init__.py").is_file()
    planned = [path for _, path in publish.space_plan(space).files]
    assert "capqa/space/__init__.py" in planned and not any(path.startswith("capqa/doctools") for path in planned)
    assert not is_allowed("capqa/doctools/registry.py", "space") and is_allowed("capqa/dev/bench.py", "space")


def test_the_named_package_data_is_what_the_package_ships():
    """The allow-list's names and pyproject's package-data globs describe the same files."""
    import tomllib

    globs = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["capqa"]
    shipped = {f"capqa/{path.relative_to(REPO_ROOT / 'capqa').as_posix()}" for pattern in globs
               for path in (REPO_ROOT / "capqa").glob(pattern) if path.is_file() and path.suffix != ".py"
               and "__pycache__" not in path.parts}
    assert shipped == set(SPACE_PACKAGE_DATA)


# --- cards with local paths ----------------------------------------------------------------------

LOCAL_PATHS = ["/root/models/mt5", "/home/me/cap/out", "~/checkpoints/best", "C:\\Users\\me\\model",
               "/tmp/run-3/eval.json", "file:///data/x"]


@pytest.mark.parametrize("path", LOCAL_PATHS)
def test_a_model_card_with_a_local_path_is_refused(tmp_path, path):
    folder = trained_model_folder(tmp_path / "model")
    (folder / "README.md").write_text(f"# card\n\nTrained from `{path}` on our machine.\n")
    with pytest.raises(ValueError, match=r"README.md holds a local path, which would be published"):
        publish.model_plan(folder)
    card = tmp_path / "card.md"
    card.write_text(f"Weights at {path}.")
    with pytest.raises(ValueError, match="holds a local path"):
        publish.model_plan(folder, card=card)


def test_cards_with_urls_and_repo_paths_are_fine(tmp_path):
    folder = trained_model_folder(tmp_path / "model")
    (folder / "README.md").write_text("See https://huggingface.co/home/x, data/train.parquet and "
                                      "`python -m capqa score answers.csv`.\n")
    assert any(path == "README.md" for _, path in publish.model_plan(folder).files)


def test_the_space_and_dataset_cards_are_checked_too(tmp_path):
    source = stand_in_repo(tmp_path / "repo")
    (source / "space_card" / "README.md").write_text("---\nsdk: gradio\n---\nscores in /home/me/scores.csv\n")
    with pytest.raises(ValueError, match="holds a local path.*'/home/me/scores.csv'"):
        publish.space_plan(publish.assemble_space(tmp_path / "space", source_root=source))
    out = tmp_path / "built"
    build_correctness(data_path("cap_correctness_sample.csv"), data_path("cap_correctness_splits.csv"), out)
    build_statements(STATEMENTS, out)
    card = out / STATEMENTS_NAME / "README.md"
    card.write_text(card.read_text() + "\nBuilt in /work/me/out.\n")
    with pytest.raises(ValueError, match=r"CAP-Statements/README.md holds a local path.*'/work/me/out'"):
        publish.datasets_plans(out)


def test_the_projects_own_cards_hold_no_local_path():
    from capqa.hub.allowlist import check_card_has_no_local_paths

    for card in ["space_card/README.md", "statement_model_card/README.md", "dataset_cards/CAP-Correctness/README.md",
                 "dataset_cards/CAP-Statements/README.md"]:
        check_card_has_no_local_paths(REPO_ROOT / card)


# --- the namespace and file names -----------------------------------------------------------------

@pytest.mark.parametrize("namespace", ["../../evil ns", "a/b", "-org", "org-", "my--org", "dots..", "x" * 97,
                                       "ünï", "org\nname", "org name"])
def test_a_namespace_that_is_not_a_hub_name_is_refused(monkeypatch, namespace):
    monkeypatch.setenv("CAP_HUB_NAMESPACE", namespace)
    with pytest.raises(ValueError, match="`CAP_HUB_NAMESPACE` must be a Hub user or organisation name"):
        constants.metric_space_id()


@pytest.mark.parametrize("namespace", ["cap-eval", "My_Org.2", "a", "  spaced  "])
def test_hub_names_are_accepted(monkeypatch, namespace):
    monkeypatch.setenv("CAP_HUB_NAMESPACE", namespace)
    assert constants.statement_model_id() == f"{namespace.strip()}/cap-statement-mt5-small"


def test_the_publish_command_refuses_a_bad_namespace_in_one_line(monkeypatch, capsys):
    monkeypatch.setenv("CAP_HUB_NAMESPACE", "../../evil ns")
    assert cli_main(["publish", "space"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: `CAP_HUB_NAMESPACE` must be")


@pytest.mark.parametrize("name", ["model-1\n  fake.bin   1 kB  <- etc-passwd\n-of-2.safetensors",
                                  "tokenizer\u202enosj.json", "vocab\x1b[2J.txt", "spm\u2028.model"])
def test_a_file_name_with_control_characters_is_never_planned_and_prints_escaped(tmp_path, name):
    folder = trained_model_folder(tmp_path / "model")
    (folder / name).write_bytes(b"x")
    plan = publish.model_plan(folder)
    assert all(path != name for _, path in plan.files)
    described = plan.describe()
    assert len(described.splitlines()) == 1 + len(plan.notes) + len(plan.files)  # one line per entry
    assert all(not character.isspace() or character in " \n" for character in described) and "\x1b" not in described
    assert "(a name with control or invisible characters: never planned)" in described


def test_a_plan_never_holds_a_link_whoever_built_it(tmp_path):
    target = tmp_path / "secret"
    target.write_text("x")
    os.symlink(target, tmp_path / "link.json")
    with pytest.raises(ValueError, match="is a symbolic link; publish uploads regular files only"):
        publish.UploadPlan("org/repo", "model", ((Path(tmp_path / "link.json"), "config.json"),))
    with pytest.raises(ValueError, match="control or invisible characters"):
        publish.UploadPlan("org/repo", "model", ((target, "config\n.json"),))


def test_build_datasets_names_an_out_that_is_a_file_and_a_dropped_rows_fifo(tmp_path):
    (tmp_path / "outfile").write_text("x")
    with pytest.raises(ValueError, match=r"outfile is a file, not a folder"):
        build_statements(STATEMENTS, tmp_path / "outfile")
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "dropped_rows.csv")  # opening it for writing waited for a reader forever
    code = cli_main(["build-datasets", "--correctness", str(data_path("cap_correctness_sample.csv")),
                     "--splits", str(data_path("cap_correctness_splits.csv")), "--out", str(out)])
    assert code == 1


def test_publish_datasets_refuses_a_linked_repo_folder(tmp_path, victim):
    out = tmp_path / "built"
    build_correctness(data_path("cap_correctness_sample.csv"), data_path("cap_correctness_splits.csv"), out)
    build_statements(STATEMENTS, out)
    os.rename(out / STATEMENTS_NAME, victim / STATEMENTS_NAME)
    os.symlink(victim / STATEMENTS_NAME, out / STATEMENTS_NAME)
    with pytest.raises(ValueError, match=r"CAP-Statements is a symbolic link; publish uploads regular files only"):
        publish.datasets_plans(out)


def test_publish_model_refuses_a_config_that_is_not_a_regular_file(tmp_path):
    folder = trained_model_folder(tmp_path / "model")
    (folder / "config.json").unlink()
    os.mkfifo(folder / "config.json")
    with pytest.raises(ValueError, match=r"config.json is not a regular file"):
        publish.model_plan(folder)
