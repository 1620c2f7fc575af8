"""Where the repository and its real data are, for the tests."""

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "data"
TEST_DATA_DIR = REPO_ROOT / "tests" / "data"


def data_path(name: str) -> Path:
    """A file of data/, or a test failure that says the repo should carry it."""
    path = DATA_DIR / name
    if not path.exists():
        pytest.fail(f"data file missing: {path} (the repo carries it in data/)")
    return path
