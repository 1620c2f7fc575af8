"""The metric works at both ends of the Hugging Face versions pyproject.toml declares.

Two venvs over the project's (tests/support/harness_venv.py): the oldest, with every floor of the range
(``transformers==4.56`` for ``transformers>=4.56,<6``, and so on), and the newest, where pip
upgrades each to the newest release the registry has within the range. torch stays the project's.
In each, tests/support/harness_runs/version_range_run.py scores rule statements through ``CAPScorer.score``
(compact attention on and off) and ``evaluate.load("cap_metric.py").compute``, with a model saved
by the project's transformers; the scores must be the project's own. Compact attention must be
installed exactly on the verified releases, and elsewhere the stock code runs with one info line.
"""

import json
import shutil
import tomllib

import numpy as np
import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from capqa.metric.options import MetricOptions

from support.data import REPO_ROOT
from support.harness_runs.version_range_run import GOLDS, PREDICTIONS, QUESTIONS
from support.harness_venv import overlay_python, run_script
from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
relative_attention = lazy_module("capqa.engine.relative_attention")

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
# The packages whose range this is about; the others (numpy, pandas, torch, ...) are the project's.
STACK = ("transformers", "tokenizers", "huggingface-hub", "datasets", "evaluate")
VENVS = REPO_ROOT / ".cache" / "version-venvs"


def stack_requirements():
    requirements = {}
    for line in PYPROJECT["project"]["dependencies"]:
        requirement = Requirement(line)
        if requirement.name.lower().replace("_", "-") in STACK:
            requirements[requirement.name.lower().replace("_", "-")] = requirement
    assert set(requirements) == set(STACK), "pyproject.toml must declare every package of the stack"
    return requirements


def floor(requirement):
    (lowest,) = [spec.version for spec in requirement.specifier if spec.operator == ">="]
    return lowest


def pip_arguments(end):
    requirements = stack_requirements()
    if end == "oldest":
        return [f"{name}=={floor(requirement)}" for name, requirement in requirements.items()]
    return ["--upgrade", *(str(requirement) for requirement in requirements.values())]


def test_every_package_of_the_stack_has_a_floor_and_the_range_allows_newer_transformers():
    requirements = stack_requirements()
    assert all(floor(requirement) for requirement in requirements.values())
    transformers = requirements["transformers"].specifier
    assert "5.24.0" in transformers and "5.99.0" in transformers and "6.0.0" not in transformers
    # The patch is verified on a part of the range only: the rest runs the stock attention.
    assert floor(requirements["transformers"]) in SpecifierSet(relative_attention.VERIFIED_TRANSFORMERS)


@pytest.fixture(scope="module")
def portable_nli_model(random_nli_model, tmp_path_factory):
    """The tests' random model, its tokenizer named as models saved before transformers 5 name
    theirs (5.x writes "TokenizersBackend", a class 4.x does not have; the Hub's models, the
    default NLI model included, say "PreTrainedTokenizerFast" or their own class)."""
    folder = tmp_path_factory.mktemp("portable") / "nli"
    shutil.copytree(random_nli_model, folder)
    config = json.loads((folder / "tokenizer_config.json").read_text())
    config["tokenizer_class"] = "PreTrainedTokenizerFast"
    (folder / "tokenizer_config.json").write_text(json.dumps(config))
    return str(folder)


@pytest.fixture(scope="module")
def project_scores(portable_nli_model):
    scorer = MetricOptions(nli_model=portable_nli_model, statement_model="rules", device="cpu",
                           variant="plus").build_scorer()
    return scorer.score(PREDICTIONS, GOLDS, QUESTIONS, return_details=True)


@pytest.mark.slow
@pytest.mark.parametrize("end", ["oldest", "newest"])
def test_the_metric_at_each_end_of_the_range(end, portable_nli_model, project_scores, tmp_path):
    python = overlay_python(VENVS / end, pip_arguments(end), pytest.fail)
    out = tmp_path / "run.json"
    run_script(python, f"the {end} venv", "version_range_run.py", portable_nli_model, str(out), env={})
    ran = json.loads(out.read_text())
    versions = ran["versions"]
    for name, requirement in stack_requirements().items():
        assert versions[name] in requirement.specifier, (name, versions[name])
        if end == "oldest":
            assert versions[name] in SpecifierSet(f"=={floor(requirement)}"), (name, versions[name])
    verified = versions["transformers"] in SpecifierSet(relative_attention.VERIFIED_TRANSFORMERS)
    assert ran["compact"]["installed"] is verified and ran["stock"]["installed"] is False
    # The identity records compact attention as installed, not as asked for.
    assert f"compact_attention={verified}" in ran["compact"]["hashcode"]
    assert "compact_attention=False" in ran["stock"]["hashcode"]
    assert f"transformers={versions['transformers']}" in ran["compact"]["hashcode"]
    assert ran["metric"]["hashcode"] == ran["compact"]["hashcode"]
    # Same statements and the project's scores, whatever transformers computed them.
    for run in (ran["compact"], ran["stock"]):
        assert run["hypotheses"] == project_scores["hypotheses"]
        np.testing.assert_allclose(run["scores"], project_scores["scores"], atol=MODEL_ATOL, rtol=0)
        np.testing.assert_allclose(run["cap_plus"], project_scores["cap_plus"], atol=MODEL_ATOL, rtol=0)
    np.testing.assert_allclose(ran["metric"]["scores"], project_scores["scores"], atol=MODEL_ATOL, rtol=0)
    assert ran["warnings"] == []
    notes = [line for line in ran["attention_lines"] if "verified on transformers" in line]
    # Three models loaded: one line all the same, and an info line, not a warning.
    assert len(notes) == (0 if verified else 1) and all(line.startswith("INFO: ") for line in notes)
