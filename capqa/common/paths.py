"""Where the repository's own files are: the cards, and the real data it carries in ``data/``."""

from pathlib import Path

# The checkout (or the assembled Space) this package runs from.
REPO_ROOT = Path(__file__).resolve().parents[2]
# Real CAP data carried in the repo (provenance and licences in data/README.md).
DATA_DIR = REPO_ROOT / "data"
