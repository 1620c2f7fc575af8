"""What ``publish`` may upload: an allow-list per artifact type, files only, never a symlink.

A folder handed to ``publish`` is whatever training or a build left there, and whatever else a
user dropped in: ``secrets.json``, ``optimizer.pt``, ``training_args.bin``, ``runs/``, ``wandb/``,
or a link to ``/etc/passwd``. A deny-list cannot know all of these, so each artifact type lists
what it is made of and everything else stays local (the dry run says what was left out):

- model: weights, config, tokenizer files, generation config, the card, and the training record
  (``training_summary.json``, refused if it holds a local path, and its loss plot);
- dataset: the card and the built Parquet splits under ``data/``;
- space: the assembled files (app, metric, card, requirements, benchmark scores) and the
  ``capqa`` package's Python modules and parameter files, but not ``capqa/doctools`` (the docs'
  tooling, which the wheel leaves out too).

Symlinks are never followed, to a file or a folder: an uploaded file is a regular file under the
folder itself.
"""

import json
import os
import re
import unicodedata
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import Iterable, Optional

# Path patterns on the POSIX path in the repo: "*" stays inside one component, "**" spans any number.
MODEL_FILES = (
    "README.md", "config.json", "generation_config.json",
    "model.safetensors", "model-*-of-*.safetensors", "model.safetensors.index.json",
    "pytorch_model.bin", "pytorch_model-*-of-*.bin", "pytorch_model.bin.index.json",
    "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json",
    "spiece.model", "sentencepiece.bpe.model", "spm.model", "vocab.json", "vocab.txt", "merges.txt",
    "chat_template.jinja",
    "training_summary.json", "training_loss.png",
)
DATASET_FILES = ("README.md", "data/*.parquet")
# The package's data files, by name (a pattern such as capqa/**/*.json would plan a secrets.json
# dropped into the package); tests/hub/test_hub_paths.py checks that these are pyproject's package data.
SPACE_PACKAGE_DATA = (
    "capqa/plus/params/cap_plus.json", "capqa/plus/params/relation_classifier.json",
    "capqa/verdicts/params/thresholds.json", "capqa/harness/lm_eval_tasks/cap_open_qa/cap_open_qa.yaml",
)
SPACE_FILES = (
    "README.md", "app.py", "cap.py", "monotonicity.py", "requirements.txt", "paper_scores.csv",
    # The package the app and metric import: its modules and the data files it ships.
    "capqa/**/*.py", *SPACE_PACKAGE_DATA,
)
# Never part of an artifact though a pattern above matches: the docs' tooling measures the docs of
# a checkout (its tables run benchmarks and read tests/); the Space, like the wheel, runs without it.
EXCLUDED = {"space": ("capqa/doctools/**",)}
ALLOWED = {"model": MODEL_FILES, "dataset": DATASET_FILES, "space": SPACE_FILES}
# Control, format, line/paragraph separator and surrogate characters (see ``is_plain_name``).
_UNPRINTABLE = ("Cc", "Cf", "Zl", "Zp", "Cs")
# A path of this machine in a card's text: an absolute path under a root where homes, data and
# scratch space live, a home-relative or Windows drive path, or a file:// URL; not preceded by a
# character that would make it part of a URL or a longer path (https://host/home/... is fine).
_LOCAL_PATH_IN_TEXT = re.compile(
    r"(?<![\w./:~-])(?:/(?:root|home|Users|tmp|var|mnt|media|opt|srv|private|scratch|work|data|gpfs|lustre|nfs|"
    r"run|Volumes|workspace|content|kaggle)/|~/|[A-Za-z]:\\|file://)[^\s)\]>'\"`]*")
TRAINING_SUMMARY = "training_summary.json"
# What build-datasets wrote into a repo folder (capqa.hub.build_record): never uploaded, not listed.
BUILD_RECORD = ".capqa-build.json"


def _matches(path: str, pattern: str) -> bool:
    """fnmatch per path component; a "**" component matches any number of components."""
    return _parts_match(PurePosixPath(path).parts, PurePosixPath(pattern).parts)


def _parts_match(parts: tuple, wanted: tuple) -> bool:
    if not wanted:
        return not parts
    if wanted[0] == "**":
        return any(_parts_match(parts[skip:], wanted[1:]) for skip in range(len(parts) + 1))
    return bool(parts) and fnmatchcase(parts[0], wanted[0]) and _parts_match(parts[1:], wanted[1:])


def is_allowed(path_in_repo: str, artifact: str) -> bool:
    """Whether ``path_in_repo`` is part of an ``artifact`` ("model", "dataset" or "space")."""
    if artifact not in ALLOWED:
        raise ValueError(f"`artifact` must be one of {', '.join(ALLOWED)}, got {artifact!r}")
    return any(_matches(path_in_repo, pattern) for pattern in ALLOWED[artifact]) and not is_excluded(path_in_repo,
                                                                                                     artifact)


def is_excluded(path_in_repo: str, artifact: str) -> bool:
    """Whether ``path_in_repo`` is never part of ``artifact``, whatever else it matches (``EXCLUDED``)."""
    return any(_matches(path_in_repo, pattern) for pattern in EXCLUDED.get(artifact, ()))


def walk_regular_files(folder: Path) -> Iterable[tuple]:
    """(file, path relative to ``folder``) of every regular file under ``folder``, and
    (entry, relative path) of every symlink met, as ("file"|"symlink", local, relative); the walk
    never enters a linked folder."""
    folder = Path(folder)
    for root, folders, files in os.walk(folder, followlinks=False):
        root_path = Path(root)
        for name in sorted(folders):
            if (root_path / name).is_symlink():
                yield "symlink", root_path / name, (root_path / name).relative_to(folder).as_posix()
        folders[:] = sorted(name for name in folders if not (root_path / name).is_symlink())
        for name in sorted(files):
            local = root_path / name
            kind = "symlink" if local.is_symlink() else "file" if local.is_file() else "other"
            yield kind, local, local.relative_to(folder).as_posix()


def allowed_files(folder: Path, artifact: str) -> tuple:
    """(files, left_out): the (local file, path in repo) pairs of ``folder`` on ``artifact``'s
    allow-list, sorted by path, and the paths left out, each with why."""
    files, left_out = [], []
    for kind, local, relative in walk_regular_files(folder):
        if not is_plain_name(relative):
            left_out.append(f"{printable(relative)} (a name with control or invisible characters: never planned)")
        elif kind == "symlink":
            left_out.append(f"{relative} (a symlink: never followed)")
        elif kind != "file":
            left_out.append(f"{relative} (not a regular file)")
        elif is_allowed(relative, artifact):
            files.append((local, relative))
        elif not _is_cache(relative):
            left_out.append(f"{relative} (not part of a {artifact})")
    return sorted(files, key=lambda pair: pair[1]), left_out


def is_plain_name(text: str) -> bool:
    """No control, format (bidi, zero-width), line-separator or surrogate characters: a name that
    prints as what it is, on one line."""
    return not any(unicodedata.category(character) in _UNPRINTABLE for character in text)


def printable(text: str) -> str:
    """``text`` with each character that ``is_plain_name`` refuses written as an escape (\\n, \\u202e)."""
    return "".join(character.encode("unicode_escape", "backslashreplace").decode("ascii")
                   if unicodedata.category(character) in _UNPRINTABLE else character for character in text)


def check_plan_file(local: Path, path_in_repo: str) -> None:
    """Refuse a planned file that is a link (its target would be uploaded), that is not a regular
    file, whose name does not print as itself, or a card that holds a path of this machine."""
    if not is_plain_name(path_in_repo):
        raise ValueError(f"{printable(path_in_repo)!r} has control or invisible characters in its name; "
                         "rename it: such a name is never uploaded")
    if Path(local).is_symlink() or not Path(local).is_file():
        kind = "a symbolic link" if Path(local).is_symlink() else "not a file"
        raise ValueError(f"{printable(str(local))} is {kind}; publish uploads regular files only, never what a link "
                         "points to")
    if PurePosixPath(path_in_repo).name == "README.md":
        check_card_has_no_local_paths(Path(local))


def check_card_has_no_local_paths(card: Path) -> Path:
    """Refuse a card that would publish a path of this machine (/root/..., /home/..., ~/..., C:\\...)."""
    try:
        text = card.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{printable(str(card))} is not a readable UTF-8 card: {error}") from None
    found = sorted({match.group(0).rstrip(".,;:)]}'\"`") for match in _LOCAL_PATH_IN_TEXT.finditer(text)})
    if found:
        shown = ", ".join(repr(printable(path)) for path in found[:5])
        raise ValueError(f"{printable(str(card))} holds a local path, which would be published: {shown}. "
                         "Replace it with a Hub id or a path inside the repo, or remove it")
    return card


def _is_cache(relative: str) -> bool:
    # Bytecode, editor/VCS state and the build record are not worth a line in the dry run.
    parts = PurePosixPath(relative).parts
    return relative.endswith(".pyc") or relative == BUILD_RECORD or any(part in ("__pycache__", ".git")
                                                                         for part in parts)


def looks_like_local_path(text: str) -> bool:
    """An absolute or home- or dot-relative path, a Windows drive path, or an existing local
    path with a separator; a Hub id ("google/mt5-small") is none of these."""
    if os.path.isabs(text) or text.startswith(("~", "./", "../", ".\\", "..\\")) or "\\" in text:
        return True
    if len(text) > 2 and text[1] == ":" and text[2] in "/\\":
        return True
    return "/" in text and Path(text).exists()


def _local_paths(value, where: str) -> list:
    if isinstance(value, str):
        return [f"{where} = {value!r}"] if looks_like_local_path(value) else []
    if isinstance(value, dict):
        return [found for key, item in value.items() for found in _local_paths(item, f"{where}.{key}")]
    if isinstance(value, list):
        return [found for index, item in enumerate(value) for found in _local_paths(item, f"{where}[{index}]")]
    return []


def check_no_local_paths(summary_file: Path) -> Optional[Path]:
    """Refuse a ``training_summary.json`` that would publish a path of this machine."""
    try:
        summary = json.loads(Path(summary_file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{summary_file} is not readable JSON: {error}") from None
    found = _local_paths(summary, "")
    if found:
        fields = "; ".join(entry.lstrip(".") for entry in found)
        raise ValueError(f"{summary_file} holds a local path, which would be published: {fields}. "
                         "Replace it with the Hub id of what was used (e.g. google/mt5-small), "
                         "or delete the file")
    return summary_file
