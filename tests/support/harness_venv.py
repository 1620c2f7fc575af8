"""Venvs made by the tests beside the project's own: one per evaluation harness, and one per end
of the version range pyproject.toml declares (tests/project/test_dependency_range.py).

The harnesses pin or pull versions that the project's venv must not take (lighteval wants an older
nltk), so each gets its own venv. It sees the project's venv through a ``.pth`` line placed after
its own site-packages: torch and the other pins are reused (no multi-GB download), and whatever the
harness needs in another version is installed into, and wins inside, the harness venv only. pip
never uninstalls the project's copies: they are outside the harness environment. Every install is
constrained to the project's torch, so that no requirement can pull another (a CUDA build).
"""

import importlib.metadata
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

from support.data import REPO_ROOT

# The versions verified in docs/harnesses.md. lighteval 0.13.0 breaks on two of the project's
# versions without pip noticing: it calls HfApi.list_models(model_name=...) when its task registry
# loads, an argument huggingface_hub 2.0 removed (the project pins 2.4.0), and it hashes str with
# xxhash, which xxhash 4 refuses. Its venv takes huggingface_hub 1.x (transformers 5.24 and datasets
# 5.2 accept >= 1.31) and xxhash 3.
HARNESS_REQUIREMENTS = {"lm-eval": ["lm-eval==0.4.13"],
                        "lighteval": ["lighteval==0.13.0", "huggingface_hub>=1.31,<2", "xxhash<4"],
                        "inspect-ai": ["inspect-ai==0.3.285"],
                        "ragas": ["ragas==0.4.3", "langchain-community<0.4"],
                        "deepeval": ["deepeval==4.3.1"]}
INSTALL_TIMEOUT_S = 900


def harness_python(name: str) -> Path:
    """The python of the harness venv ``name``, made and filled on first use (kept in .cache/)."""
    root = Path(os.environ.get("CAP_HARNESS_VENVS", REPO_ROOT / ".cache" / "harness-venvs")) / name
    return overlay_python(root, HARNESS_REQUIREMENTS[name], pytest.skip)


def overlay_python(root: Path, pip_arguments: Sequence[str], on_failure: Callable[[str], Any]) -> Path:
    """The python of a venv at ``root`` over the project's, where ``pip install PIP_ARGUMENTS``
    ran; made on first use, and again whenever the arguments change. A failed install calls
    ``on_failure`` with pip's own words (``pytest.skip`` or ``pytest.fail``)."""
    requirement = " ".join(pip_arguments)
    python = root / "bin" / "python"
    marker = root / ".installed"
    if marker.is_file() and marker.read_text() == requirement and python.exists():
        return python
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(root)], check=True)
    site = subprocess.check_output([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   text=True).strip()
    # After the venv's own packages: the project's venv, then the project's source.
    (Path(site) / "zz_project_env.pth").write_text(f"{sysconfig.get_paths()['purelib']}\n{REPO_ROOT}\n")
    constraints = root / "constraints.txt"
    constraints.write_text(f"torch=={importlib.metadata.version('torch')}\n")
    installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                "--constraint", str(constraints), *pip_arguments],
                               capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S)
    if installed.returncode != 0:
        # The measured reason (the resolver's own words) is what the skip or failure reports.
        on_failure(f"{requirement} does not install beside the project's pins: "
                   + (installed.stderr or installed.stdout).strip()[-1500:])
    marker.write_text(requirement)
    return python


def run_in_harness(name: str, script: str, *args: str, env: dict, timeout: int = 900) -> None:
    """Run ``tests/support/harness_runs/SCRIPT`` with the harness venv's python; fail with its output."""
    run_script(harness_python(name), f"the {name} venv", script, *args, env=env, timeout=timeout)


def run_script(python: Path, where: str, script: str, *args: str, env: dict, timeout: int = 900) -> str:
    """Run ``tests/support/harness_runs/SCRIPT`` with ``python``, offline; its stdout, or a failure with its output."""
    done = subprocess.run([str(python), str(REPO_ROOT / "tests" / "support" / "harness_runs" / script), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=REPO_ROOT,
                          env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                               "TOKENIZERS_PARALLELISM": "false", **env})
    if done.returncode != 0:
        pytest.fail(f"{script} failed in {where}:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}")
    return done.stdout


def jsonl_file(path: Path, rows: list) -> Path:
    """``rows`` as a JSON-lines file at ``path``: the local data a harness run reads."""
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path
