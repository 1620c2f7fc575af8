"""A command run as on a full disk: ``python -m capqa ...`` (or a Python snippet) in a subprocess
whose files cannot grow past a size (``RLIMIT_FSIZE``), which stops a write partway as a full disk
does. Python ignores SIGXFSZ, so the write that crosses the limit fails with EFBIG ("File too
large"), an OSError like ENOSPC."""

import os
import resource
import subprocess
import sys
from typing import List

from support.data import REPO_ROOT


def run_on_full_disk(args: List[str], limit_bytes: int, cwd=REPO_ROOT, module: bool = True,
                     timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -m capqa ARGS`` (``module``) or ``python ARGS`` where no file can grow past ``limit_bytes``."""
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    command = [sys.executable, *(["-m", "capqa"] if module else []), *args]
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    environment.pop("CAPQA_TRACEBACK", None)
    return subprocess.run(command, preexec_fn=limit, capture_output=True, text=True, cwd=cwd, env=environment,
                          timeout=timeout)
