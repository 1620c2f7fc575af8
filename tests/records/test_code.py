"""What code ran (``capqa.records.code``, issue 30): a digest of the package's sources that moves
with any change, committed or not; the checkout's commit with a dirty flag; and the engine's
own digest, which code that cannot change NLI probabilities (the rules) leaves alone."""

import shutil
import subprocess

import pytest

from capqa.records.code import (NO_CHECKOUT, PACKAGE, checkout_commit, code_digest, engine_sources, package_sources,
                                sources_digest)


@pytest.fixture
def package(tmp_path):
    """A copy of the package's sources, to change."""
    return shutil.copytree(PACKAGE, tmp_path / "checkout" / PACKAGE.name, ignore=shutil.ignore_patterns("__pycache__"))


def digests(root):
    return sources_digest(package_sources(root), root), sources_digest(engine_sources(root), root)


def append(path, text="\n# a change\n"):
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_the_same_sources_give_the_same_digest_wherever_they_are(package):
    assert digests(package)[0] == code_digest()
    assert sources_digest(package_sources(package), package) == sources_digest(package_sources(PACKAGE), PACKAGE)


def test_two_different_trees_never_share_a_digest(package):
    """Two dirty checkouts of one commit differ in their sources, so in their digests."""
    code, engine = digests(package)
    append(package / "statements" / "rules" / "version.py")
    rules_changed = digests(package)
    assert rules_changed[0] != code
    append(package / "metric" / "formula.py", "\n# another change\n")
    assert digests(package)[0] not in (code, rules_changed[0])
    (package / "plus" / "extra.py").write_text("X = 1\n", encoding="utf-8")  # a new module counts too
    assert len({code, rules_changed[0], digests(package)[0]}) == 3


def test_the_engine_digest_moves_only_with_code_that_computes_probabilities(package):
    _, engine = digests(package)
    for outside in ("statements/rules/version.py", "metric/formula.py", "cli/score.py", "common/tables.py",
                    "records/identity.py"):
        append(package / outside)
        assert digests(package)[1] == engine, outside
    # The engine's rooms, and what they import from common (the label order of the probabilities).
    for inside in ("engine/pairs.py", "loading/windows.py", "common/constants.py"):
        before = digests(package)[1]
        append(package / inside)
        assert digests(package)[1] != before, inside
    names = {path.relative_to(PACKAGE).as_posix() for path in engine_sources()}
    assert {"engine/nli.py", "loading/devices.py", "common/constants.py"} <= names
    assert not any(name.startswith(("records/", "statements/", "metric/", "cli/")) for name in names)


def test_the_commit_says_dirty_when_the_package_differs_from_it(package):
    checkout = package.parent
    assert checkout_commit(package) == NO_CHECKOUT  # an installed package: no .git beside it
    checkout_commit.cache_clear()
    git = ["git", "-C", str(checkout), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "sources"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    assert checkout_commit(package) == head[:12]
    checkout_commit.cache_clear()
    (checkout / "NOTES.txt").write_text("outside the package: not its code")
    assert checkout_commit(package) == head[:12]
    checkout_commit.cache_clear()
    append(package / "statements" / "rules" / "version.py")
    assert checkout_commit(package) == head[:12] + "+dirty"
    checkout_commit.cache_clear()
