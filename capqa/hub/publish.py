"""Putting the project's artifacts on the Hub: the upload plans of ``python -m capqa publish
{datasets,model,space}`` (whose command line is ``capqa.cli.publish``).

Dry run by default: the command prints the plan (repo id, repo type, every local file, its path in the
repo and its size) and uploads nothing. ``--yes`` uploads. Each plan becomes one commit
(``create_repo(exist_ok=True)`` then ``create_commit``), so what the dry run lists is exactly what
is committed. Only files on the artifact type's allow-list are planned, and symlinks are never
followed (``capqa.hub.allowlist``); the dry run lists what was left out. The token is never an argument: huggingface_hub reads ``HF_TOKEN`` or the stored
login itself, and nothing here prints it. The namespace is ``CAP_HUB_NAMESPACE`` (see
``capqa.common.constants.hub_namespace``).
"""

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, Tuple, Union

from capqa.common import constants
from capqa.common.paths import DATA_DIR, REPO_ROOT
from capqa.hub.allowlist import (TRAINING_SUMMARY, allowed_files, check_no_local_paths, check_plan_file, is_excluded,
                                 printable, walk_regular_files)
from capqa.hub.datasets import CORRECTNESS_NAME, FULL_CORPUS_ROWS, STATEMENTS_NAME
from capqa.hub.model_card import folder_model_card

if TYPE_CHECKING:
    from huggingface_hub import CommitInfo, HfApi

MODEL_CARD = Path("statement_model_card") / "README.md"
# Space file <- repo file. On the Space, evaluate.load("<namespace>/cap") needs the metric as cap.py.
SPACE_FILES = {
    "README.md": Path("space_card") / "README.md",
    "app.py": Path("app.py"),
    "cap.py": Path("cap_metric.py"),
    "monotonicity.py": Path("monotonicity.py"),
    "requirements.txt": Path("requirements.txt"),
}
BENCHMARK_SCORES_NAME = "paper_scores.csv"  # where capqa.space looks first
# The Benchmark tab's scores ship by default, from the source repo's data/ folder (an object,
# not a string, so that argparse does not turn it into a Path).
FROM_SOURCE_DATA = type("FromSourceData", (), {"__repr__": lambda self: "data/" + BENCHMARK_SCORES_NAME})()
SPACE_PACKAGE = "capqa"  # app.py and cap.py import it, so it ships beside them
# Never uploaded: caches, VCS data, bytecode, and a Trainer's intermediate checkpoints.
SKIPPED_NAMES = ("__pycache__", ".git", ".cache", ".ipynb_checkpoints")
SKIPPED_PREFIXES = (".", "checkpoint-")
SKIPPED_SUFFIXES = (".pyc",)


@dataclass(frozen=True)
class UploadPlan:
    """One repo and the files of its one commit: (local file, path in the repo), sorted."""

    repo_id: str
    repo_type: str  # "dataset", "model" or "space"
    files: tuple
    notes: tuple = ()  # extra lines for the dry run, e.g. rows per split

    def __post_init__(self) -> None:
        # The one place every plan passes: no link, no name that prints as something else, no
        # card with a path of this machine, whichever way the plan was made.
        for local, path_in_repo in self.files:
            check_plan_file(local, path_in_repo)

    @property
    def total_bytes(self) -> int:
        return sum(local.stat().st_size for local, _ in self.files)

    def describe(self) -> str:
        lines = [f"{self.repo_type} {self.repo_id}: {len(self.files)} file(s), "
                 f"{_human_size(self.total_bytes)}"]
        lines += [f"  {note}" for note in self.notes]
        lines += [f"  {path_in_repo:<40} {_human_size(local.stat().st_size):>10}  <- {printable(str(local))}"
                  for local, path_in_repo in self.files]
        return "\n".join(lines)


def _human_size(size):
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000


def _is_skipped(relative):
    return any(part in SKIPPED_NAMES or part.startswith(SKIPPED_PREFIXES) for part in relative.parts) \
        or relative.name.endswith(SKIPPED_SUFFIXES)


def folder_files(folder: Path) -> List[Tuple[Path, str]]:
    """(local file, path in repo) for every regular file under ``folder`` except caches, sorted
    by path; symlinks are never followed."""
    return sorted(((local, relative) for kind, local, relative in walk_regular_files(folder)
                   if kind == "file" and not _is_skipped(Path(relative))), key=lambda pair: pair[1])


def _left_out_notes(left_out):
    """Dry-run lines for what a folder holds beyond its allow-list (capqa.hub.allowlist)."""
    return tuple(f"left out: {entry}" for entry in left_out)


def _require_folder(folder, argument, must_contain):
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"`{argument}` must be an existing folder, got {str(folder)!r}")
    missing = [name for name in must_contain if not (folder / name).exists()]
    if missing:
        raise ValueError(f"`{argument}`: {folder} has no {', '.join(missing)}; "
                         f"is it the right folder?")
    return folder


# --- Plans -----------------------------------------------------------------------------------

def datasets_plans(folder: Union[str, os.PathLike]) -> List[UploadPlan]:
    """The two dataset repos from a ``build-datasets --out`` folder."""
    folder = _require_folder(folder, "folder", [CORRECTNESS_NAME, STATEMENTS_NAME])
    plans = []
    for name, repo_id in ((CORRECTNESS_NAME, constants.correctness_dataset_id()),
                          (STATEMENTS_NAME, constants.statements_dataset_id())):
        _refuse_linked_source(folder, name, "`folder`")  # walking a linked repo folder would plan its target
        repo_dir = _require_folder(folder / name, "folder", ["README.md", "data"])
        if not any((repo_dir / "data").glob("*.parquet")):
            raise ValueError(f"`folder`: {repo_dir / 'data'} has no Parquet files; "
                             "run `python -m capqa build-datasets` first")
        files, left_out = allowed_files(repo_dir, "dataset")
        plans.append(UploadPlan(repo_id, "dataset", tuple(files),
                                _split_rows(repo_dir, name) + _left_out_notes(left_out)))
    return plans


def _split_rows(repo_dir, name):
    """Rows per split from the built card, so a sample build is not mistaken for the full one."""
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import DatasetCard

    splits = (DatasetCard.load(repo_dir / "README.md").data.dataset_info or {}).get("splits", [])
    counts = ", ".join(f"{split['name']} {split['num_examples']:,}" for split in splits)
    total = sum(split["num_examples"] for split in splits)
    notes = [f"rows: {counts}"]
    if total != FULL_CORPUS_ROWS[name]:
        notes.append(f"WARNING: {total:,} rows, the full {name} has {FULL_CORPUS_ROWS[name]:,}: "
                     "is this a build from a sample?")
    return tuple(notes)


def model_plan(folder: Union[str, os.PathLike], source_root: Union[str, os.PathLike] = REPO_ROOT,
               card: Optional[Union[str, os.PathLike]] = None,
               staging: Optional[Union[str, os.PathLike]] = None) -> UploadPlan:
    """A trained statement-model folder and its card: ``card`` when given, else the folder's own
    README.md, else the project's card with the folder's own figures (``capqa.hub.model_card``),
    written under ``staging``; a folder without measured figures is refused."""
    folder = _require_folder(folder, "folder", ["config.json"])
    files, left_out = allowed_files(folder, "model")
    if not any(path_in_repo == "config.json" for _, path_in_repo in files):
        raise ValueError(f"`folder`: {folder / 'config.json'} is not a regular file; a model is published with its "
                         "config.json")
    if any(path_in_repo == TRAINING_SUMMARY for _, path_in_repo in files):
        check_no_local_paths(folder / TRAINING_SUMMARY)
    files = [(local, path) for local, path in files if path != "README.md" or card is None]
    if card is not None:
        card = Path(card)
        if card.is_symlink() or not card.is_file():
            raise ValueError(f"`card` must be an existing Markdown file (not a symbolic link), got {str(card)!r}")
        files.append((card, "README.md"))
    elif not any(path_in_repo == "README.md" for _, path_in_repo in files):
        template = Path(source_root) / MODEL_CARD
        if not template.is_file():
            raise FileNotFoundError(f"{folder} has no README.md and the model card {template} is missing")
        if staging is None:
            raise ValueError("a generated model card needs a `staging` folder to be written to")
        generated = Path(staging) / "README.md"
        generated.write_text(folder_model_card(folder, template), encoding="utf-8")
        files.append((generated, "README.md"))
    return UploadPlan(constants.statement_model_id(), "model", tuple(sorted(files, key=lambda pair: pair[1])),
                      _left_out_notes(left_out))


def assemble_space(out_dir: Union[str, os.PathLike], source_root: Union[str, os.PathLike] = REPO_ROOT,
                   benchmark_scores: Any = FROM_SOURCE_DATA) -> Path:
    """Copy the metric Space's files from ``source_root`` into ``out_dir`` under their Space names.

    benchmark_scores: the published per-row scores (paper_scores.csv) that the Space's Benchmark
    tab shows, copied beside app.py, where the Space looks first. By default
    ``source_root/data/paper_scores.csv``; None ships no scores (the tab then says what is missing).
    """
    source_root, out_dir = Path(source_root), Path(out_dir)
    if benchmark_scores is FROM_SOURCE_DATA:
        benchmark_scores = source_root / DATA_DIR.name / BENCHMARK_SCORES_NAME
    if benchmark_scores is not None and not Path(benchmark_scores).is_file():
        raise FileNotFoundError(f"`--benchmark-scores` {str(benchmark_scores)!r} is not a file "
                                f"(pass the scores file, or --no-benchmark-scores to ship none)")
    missing = [str(source) for source in SPACE_FILES.values() if not (source_root / source).is_file()]
    if not (source_root / SPACE_PACKAGE / "__init__.py").is_file():
        missing.append(f"{SPACE_PACKAGE}/__init__.py")
    if missing:
        raise FileNotFoundError(f"cannot assemble the Space: missing {', '.join(missing)} under {source_root}")
    # shutil.copy2 follows links: a linked app.py would ship whatever it points to.
    for source in (*SPACE_FILES.values(), Path(SPACE_PACKAGE)):
        _refuse_linked_source(source_root, source)
    if benchmark_scores is not None and Path(benchmark_scores).is_symlink():
        raise ValueError(f"`--benchmark-scores` {str(benchmark_scores)!r} is a symbolic link; "
                         "pass the file itself (publish never uploads what a link points to)")
    if out_dir.exists() and any(out_dir.iterdir()):
        raise ValueError(f"`out` must be a new or empty folder, got {str(out_dir)!r}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for space_name, source in SPACE_FILES.items():
        shutil.copy2(source_root / source, out_dir / space_name)
    if benchmark_scores is not None:
        shutil.copy2(benchmark_scores, out_dir / BENCHMARK_SCORES_NAME)
    for local, relative in folder_files(source_root / SPACE_PACKAGE):
        if is_excluded(f"{SPACE_PACKAGE}/{relative}", "space"):
            continue
        target = out_dir / SPACE_PACKAGE / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(local, target)
    return out_dir


def _refuse_linked_source(root, relative, argument="`--source-root`"):
    """Refuse ``root/relative`` when it, or a folder on the way to it, is a symlink."""
    path = Path(root)
    for part in Path(relative).parts:
        path = path / part
        if path.is_symlink():
            raise ValueError(f"{argument}: {printable(str(path))} is a symbolic link; publish uploads regular files "
                             "only, never what a link points to. Replace the link with the file or folder itself")


def space_plan(assembled_dir: Path) -> UploadPlan:
    files, left_out = allowed_files(assembled_dir, "space")
    return UploadPlan(constants.metric_space_id(), "space", tuple(files), _left_out_notes(left_out))


# --- Uploading -------------------------------------------------------------------------------

def upload(plan: UploadPlan, api: Optional["HfApi"] = None) -> "CommitInfo":
    """Create the repo if needed and commit every planned file in one commit."""
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import CommitOperationAdd, HfApi

    api = api or HfApi()  # the token comes from HF_TOKEN or the stored login, never from here
    api.create_repo(plan.repo_id, repo_type=plan.repo_type, exist_ok=True,
                    space_sdk="gradio" if plan.repo_type == "space" else None)
    operations = [CommitOperationAdd(path_in_repo=path_in_repo, path_or_fileobj=str(local))
                  for local, path_in_repo in plan.files]
    return api.create_commit(plan.repo_id, operations=operations, repo_type=plan.repo_type,
                             commit_message=f"Upload {plan.repo_id} with `python -m capqa publish`")


def require_token() -> None:
    """Refuse to upload without a Hugging Face token (it is read by huggingface_hub, never passed)."""
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import get_token

    if not get_token():
        raise ValueError("no Hugging Face token: set HF_TOKEN or run `hf auth login` "
                         "(tokens are never taken as arguments)")
