"""What ``build-datasets`` wrote into a repo folder, so that ``--overwrite`` replaces only that.

Each build leaves ``.capqa-build.json`` in the repo folder (``<out>/CAP-...``): the files it wrote,
each with its SHA-256. ``--overwrite`` then deletes exactly those files, and only while they are
unchanged. It never deletes or writes through a symlink: a repo folder, ``data/`` folder or planned
file that is a link is refused. A file of the folder that was not written by the build is left
where it is, and if ``publish`` would upload it with the new build (a ``README.md`` or
``data/*.parquet`` of someone else's), the build is refused, naming it, instead of mixing it in.
"""

import hashlib
import json
import logging
from pathlib import Path
from typing import Dict, Iterable

from capqa.common.files import write_atomically
from capqa.hub.allowlist import BUILD_RECORD, is_allowed, walk_regular_files

logger = logging.getLogger(__name__)

_FORMAT = 1
_SHOWN = 5


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def prepare_repo_folder(repo_dir: Path, overwrite: bool) -> None:
    """Make ``repo_dir`` ready for a build: new or empty, or (with ``overwrite``) holding an earlier
    build, whose recorded files are deleted. Anything else is refused with what is in the way."""
    _refuse_links(repo_dir, repo_dir / "data")
    for folder in (repo_dir.parent, repo_dir):
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"`out`: {folder} is a file, not a folder; choose another --out")
    if repo_dir.is_dir() and any(repo_dir.iterdir()):
        if not overwrite:
            raise ValueError(f"`out`: {repo_dir} already exists and is not empty; "
                             "pass --overwrite to replace the build there")
        _remove_earlier_build(repo_dir)
    if (repo_dir / "data").exists() and not (repo_dir / "data").is_dir():
        raise ValueError(f"`out`: {repo_dir / 'data'} is not a folder, and no build wrote it; move it away, "
                         "or choose another --out")
    (repo_dir / "data").mkdir(parents=True, exist_ok=True)


def record_build(repo_dir: Path, written: Iterable[Path]) -> Path:
    """Write the build record of ``repo_dir``: the files this build wrote, with their SHA-256."""
    files = {path.relative_to(repo_dir).as_posix(): file_sha256(path) for path in sorted(written)}
    # Replaces a link at the record's name, never writes through it (capqa.common.files).
    return write_atomically(repo_dir / BUILD_RECORD, json.dumps({"format": _FORMAT, "files": files}, indent=1))


def _refuse_links(*paths: Path) -> None:
    for path in paths:
        if path.is_symlink():
            raise ValueError(f"`out`: {path} is a symbolic link; a build never writes or deletes through a link. "
                             "Remove the link, or choose another --out")


def _recorded_files(repo_dir: Path) -> Dict[str, str]:
    record = repo_dir / BUILD_RECORD
    if record.is_symlink() or not record.is_file():
        return {}
    try:
        files = json.loads(record.read_text(encoding="utf-8")).get("files", {})
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        logger.warning("%s is not a readable build record: treating every file there as not the build's", record)
        return {}
    return {str(path): str(digest) for path, digest in files.items()} if isinstance(files, dict) else {}


def _remove_earlier_build(repo_dir: Path) -> None:
    recorded = _recorded_files(repo_dir)
    ours, in_the_way, kept = [], [], []
    for kind, local, relative in walk_regular_files(repo_dir):
        if relative in (BUILD_RECORD, BUILD_RECORD + ".tmp") and kind == "file":
            ours.append(local)
        elif kind == "file" and relative in recorded and file_sha256(local) == recorded[relative]:
            ours.append(local)
        elif is_allowed(relative, "dataset") or relative in recorded:
            in_the_way.append(_why(kind, relative, recorded))
        else:
            kept.append(relative)
    if in_the_way:
        more = f" and {len(in_the_way) - _SHOWN} more" if len(in_the_way) > _SHOWN else ""
        raise ValueError(f"`out`: {repo_dir} holds {', '.join(in_the_way[:_SHOWN])}{more}; --overwrite replaces "
                         f"only the files an earlier build wrote and left unchanged, and these would be published "
                         f"with the new build. Move them away, or choose another --out")
    for local in ours:
        local.unlink()
    if kept:
        logger.info("%s: left in place, not written by a build and never published: %s", repo_dir, ", ".join(kept))


def _why(kind: str, relative: str, recorded: Dict[str, str]) -> str:
    if kind == "symlink":
        return f"{relative} (a symbolic link)"
    if kind != "file":
        return f"{relative} (not a regular file)"
    if relative in recorded:
        return f"{relative} (changed since the build wrote it)"
    return f"{relative} ({'' if recorded else 'no build record: '}not written by a build)"

