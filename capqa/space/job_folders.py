"""Folders of the Space's file jobs: one per job, removed when the job ends and at start.

A cancelled job's folder is kept (``resumable``), named by what the job scores, so that the same
job started again resumes from the rows it committed; ``expire`` removes it after a while.

Each folder is named ``<pid>-<random>`` under a root shared by every app process on the
machine, so that a starting app removes what dead processes left behind (a crash, a kill)
without touching a job that another live app is running.
"""

import logging
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Tuple, Type

from capqa.common.validation import parse_count

LOGGER = logging.getLogger(__name__)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by someone else
        return True
    return True


class JobFolders:
    """Per-job folders under ``root``; ``clean_stale`` at start, ``resumable`` or ``expire`` after."""

    def __init__(self, root: Path):
        self.root = Path(root)

    def new(self) -> Path:
        self.root.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=self.root))

    @contextmanager
    def resumable(self, key: str, keep: Tuple[Type[BaseException], ...]) -> Iterator[Path]:
        """This process's folder for the job named ``key``, with what an earlier run of the same
        job left there. Removed when the block ends, unless it ends by an exception in ``keep``
        (a cancelled job), when it stays for the next run (and ``expire``) to find."""
        folder = self.root / f"{os.getpid()}-job-{key}"
        folder.mkdir(parents=True, exist_ok=True)
        try:
            yield folder
        except keep:
            os.utime(folder)  # its age counts from now
            raise
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        shutil.rmtree(folder, ignore_errors=True)

    def clean_stale(self) -> int:
        """Remove the folders of processes that no longer run; returns how many."""
        removed = 0
        for folder in self._folders():
            owner = folder.name.split("-", 1)[0]
            pid = parse_count(owner, ascii_only=True)
            if not (pid and _process_alive(pid)):
                shutil.rmtree(folder, ignore_errors=True)
                removed += 1
        if removed:
            LOGGER.info("removed %d folder(s) left by earlier file jobs under %s", removed, self.root)
        return removed

    def expire(self, max_age_s: float) -> None:
        """Remove this process's folders older than ``max_age_s`` seconds."""
        oldest = time.time() - max_age_s
        mine = f"{os.getpid()}-"
        for folder in self._folders():
            if folder.name.startswith(mine) and folder.stat().st_mtime < oldest:
                shutil.rmtree(folder, ignore_errors=True)

    def _folders(self):
        return [path for path in self.root.glob("*") if path.is_dir()] if self.root.is_dir() else []
