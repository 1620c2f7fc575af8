"""What code ran: a digest of the package's sources, the checkout's commit, and a digest of the
NLI engine's own code (the score cache's key).

- ``code_digest()``: a hash of every source and data file of the package (``capqa/**/*.py``,
  ``*.json``, ``*.yaml``), by relative path and bytes. The same sources give the same digest
  wherever they are installed (a checkout, a wheel, a Space); two trees that differ in one byte
  give two digests, committed or not, so two dirty checkouts of one commit never share one.
- ``checkout_commit()``: the commit of the git checkout the package runs from, with "+dirty"
  when the package's files differ from it, or "none" (an installed wheel has no ``.git``; a
  checkout without git installed cannot say). It tells people which commit to check out; the
  source digest is what decides whether two runs ran the same code.
- ``engine_code_digest()``: the same hash over the modules that turn two texts into NLI
  probabilities: the ``engine`` and ``loading`` rooms and every capqa module they import
  (``common``'s label order and length checks, say), found by reading their imports. The
  records are left out: they name what ran and compute nothing. Code elsewhere (the rules, the
  formula, the CLI) cannot change a pair's probabilities, so changing it keeps the score cache.

Each is computed once per process (what was imported is what runs).
"""

import ast
import hashlib
import logging
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Iterable, List, Set

logger = logging.getLogger(__name__)

PACKAGE = Path(__file__).resolve().parents[1]
# The files whose content is the package's behaviour: its code and the parameters it ships.
SOURCE_SUFFIXES = (".py", ".json", ".yaml")
# The rooms that compute NLI probabilities from two texts, and the one left out of their imports.
ENGINE_ROOMS = ("engine", "loading")
NOT_ENGINE_CODE = ("records",)
# Hex digits kept: 64 bits, as the model folders' content hashes.
DIGEST_DIGITS = 16
NO_CHECKOUT = "none"
GIT_TIMEOUT_S = 10


def sources_digest(files: Iterable[Path], root: Path = PACKAGE) -> str:
    """A hash of ``files`` (relative path and bytes each), in sorted order."""
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        relative = path.relative_to(root).as_posix().encode("utf-8")
        content = path.read_bytes()
        digest.update(len(relative).to_bytes(8, "little") + relative + len(content).to_bytes(8, "little"))
        digest.update(content)
    return digest.hexdigest()[:DIGEST_DIGITS]


def package_sources(root: Path = PACKAGE) -> List[Path]:
    """The package's source and data files (no caches)."""
    return [path for path in root.rglob("*")
            if path.suffix in SOURCE_SUFFIXES and path.is_file() and "__pycache__" not in path.parts]


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The digest of the package's sources (see the module's docstring)."""
    return sources_digest(package_sources())


def imported_modules(path: Path) -> Set[str]:
    """The capqa modules a source file imports (at its top, in functions, for types alike)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] == PACKAGE.name}


def module_file(module: str, root: Path = PACKAGE):
    """The file of a dotted capqa module, or None (a name imported from a module is no module)."""
    base = root.joinpath(*module.split(".")[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def engine_sources(root: Path = PACKAGE) -> List[Path]:
    """The engine's and loading's files and every capqa file they import, but the records'."""
    pending = [path for room in ENGINE_ROOMS for path in (root / room).glob("*.py")]
    seen: Set[Path] = set()
    while pending:
        path = pending.pop()
        if path in seen or path.relative_to(root).parts[0] in NOT_ENGINE_CODE:
            continue
        seen.add(path)
        pending.extend(filter(None, (module_file(name, root) for name in imported_modules(path))))
    return sorted(seen)


@lru_cache(maxsize=1)
def engine_code_digest() -> str:
    """The digest of the code that computes NLI probabilities (see the module's docstring)."""
    return sources_digest(engine_sources())


@lru_cache(maxsize=4)
def checkout_commit(root: Path = PACKAGE) -> str:
    """The commit (12 hex digits) of the checkout whose top holds the package ``root``, "+dirty"
    when the package's files differ from it (edited, added or removed, committed or not); "none"
    without a checkout (an installed package) or without git."""
    if not (root.parent / ".git").exists():
        return NO_CHECKOUT
    try:
        commit = _git(root.parent, "rev-parse", "--verify", "HEAD")
        changes = _git(root.parent, "status", "--porcelain", "--", root.name)
    except (OSError, subprocess.SubprocessError) as error:
        logger.debug("no commit for the hashcode: %s", error)
        return NO_CHECKOUT
    return commit[:12] + ("+dirty" if changes else "")


def _git(checkout: Path, *arguments: str) -> str:
    return subprocess.run(["git", "-C", str(checkout), *arguments], capture_output=True, text=True,
                          check=True, timeout=GIT_TIMEOUT_S).stdout.strip()
