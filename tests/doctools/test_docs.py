"""The docs: their tables of measured figures come from the code, their links resolve, and every
code block in them runs (offline, on tiny models under the real Hub ids).

The generated tables are checked in two steps: the fast ones here, the slow ones (bootstraps,
evaluation runs, the test collection) in a ``slow`` test. The code blocks run in a ``slow`` test
per doc, each doc in a fresh folder with the repository's files and the inputs its examples name.
"""

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from capqa.cli import main as cli_main
from capqa.doctools import blocks as doc_blocks, registry as doc_tables

from support.data import REPO_ROOT
from support.identity import job_identity

DOCS = doc_tables.doc_files()
BLOCK_TIMEOUT_S = 900
# What a doc's examples may find in their folder: the checkout's own files.
REPOSITORY_FILES = ("data", "tests", "benchmarks", "docs", "capqa", "dataset_cards", "statement_model_card",
                    "space_card", "cap_metric.py", "monotonicity.py", "app.py", "pyproject.toml", "requirements.txt")
# Inputs the examples name: (name in the folder, file of the repository it stands for).
STAND_INS = {
    # docs/hub.md builds the dataset repos from the paper's full CSVs; the samples have their format.
    "CAP-Correctness.csv": "data/cap_correctness_sample.csv",
    "cap_correctness_splits.csv": "data/cap_correctness_splits.csv",
    "CAP-Statements.csv": "data/cap_statements_sample.csv",
}


def _demo_table():
    return "| a | b |\n|---|---|\n| 1 | 2 |"


def _demo_figure(path, metadata):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(1, 1))
    figure.subplots().plot([1, 2])
    figure.savefig(path, metadata=metadata)


# --- Generated tables ----------------------------------------------------------------------------

def test_every_generated_block_names_a_registered_table():
    used = set()
    for doc in DOCS:
        for name, _ in doc_tables.blocks(doc.read_text(encoding="utf-8"), str(doc)):
            assert name in doc_tables.TABLES, f"{doc}: `{name}` is not registered in capqa/doctools/registry.py"
            used.add(name)
    assert used == set(doc_tables.TABLES), f"registered but in no doc: {set(doc_tables.TABLES) - used}"


def _fake_root(tmp_path, body):
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("# readme\n")
    doc = tmp_path / "docs" / "demo.md"
    doc.write_text(f"Before.\n\n<!-- generated: demo -->\n{body}<!-- /generated: demo -->\n\nAfter.\n")
    return doc


def test_the_hub_cards_are_docs_too():
    """Issue 34: `docs --check` skipped the dataset and Space cards."""
    names = {doc.relative_to(REPO_ROOT).as_posix() for doc in DOCS}
    assert {"dataset_cards/CAP-Correctness/README.md", "dataset_cards/CAP-Statements/README.md",
            "space_card/README.md", "statement_model_card/README.md"} <= names


def test_write_fills_a_block_and_check_then_passes(tmp_path, monkeypatch):
    monkeypatch.setattr(doc_tables, "TABLES", {"demo": doc_tables.Table("test_docs:_demo_table")})
    doc = _fake_root(tmp_path, "| stale |\n")
    problems = doc_tables.check(tmp_path)
    assert len(problems) == 1 and "docs/demo.md differs" in problems[0] and "-| stale |" in problems[0]
    assert doc_tables.write(tmp_path) == [doc]
    assert doc.read_text() == ("Before.\n\n<!-- generated: demo -->\n" + _demo_table() + "\n"
                               "<!-- /generated: demo -->\n\nAfter.\n")
    assert doc_tables.check(tmp_path) == [] and doc_tables.write(tmp_path) == []
    # The command line: --check exits 1 on a stale doc, 0 on a current one.
    doc.write_text(doc.read_text().replace("| 1 | 2 |", "| 1 | 3 |"))
    assert cli_main(["docs", "--check", "--root", str(tmp_path)]) == 1
    assert cli_main(["docs", "--write", "--root", str(tmp_path)]) == 0
    assert cli_main(["docs", "--check", "--root", str(tmp_path)]) == 0


def assert_refused(doc, text, function, message):
    doc.write_text(text)
    with pytest.raises(ValueError, match=message):
        function()


def test_a_figure_is_drawn_with_its_table_and_a_stale_one_is_found(tmp_path, monkeypatch):
    table = doc_tables.Table("test_docs:_demo_table", figure=("test_docs:_demo_figure", "docs/demo.png"))
    monkeypatch.setattr(doc_tables, "TABLES", {"demo": table})
    _fake_root(tmp_path, _demo_table() + "\n")
    assert any("docs/demo.png was not drawn from the figures of table 'demo'" in p for p in doc_tables.check(tmp_path))
    assert doc_tables.write(tmp_path) == [tmp_path / "docs" / "demo.png"]
    assert doc_tables.check(tmp_path) == [] and doc_tables.write(tmp_path) == []
    tag = doc_tables.png_text(tmp_path / "docs" / "demo.png")[doc_tables.FIGURE_TAG]
    assert tag == doc_tables.figure_tag("demo", _demo_table() + "\n")
    # New figures in the table: the plot is stale until it is drawn again.
    monkeypatch.setattr(doc_tables.Table, "render", lambda self: "| a | b |\n|---|---|\n| 1 | 3 |\n")
    assert any("demo.png was not drawn" in p for p in doc_tables.check(tmp_path))


def test_bad_blocks_are_errors_that_name_the_doc(tmp_path, monkeypatch):
    monkeypatch.setattr(doc_tables, "TABLES", {"demo": doc_tables.Table("test_docs:_demo_table")})
    doc = _fake_root(tmp_path, "")
    check = lambda: doc_tables.check(tmp_path)  # noqa: E731
    assert_refused(doc, "<!-- generated: demo -->\nno closing line\n", check,
                   "demo.md: `<!-- generated: demo -->` has no")
    assert_refused(doc, "<!-- generated: nope -->\n<!-- /generated: nope -->\n", check,
                   "`<!-- generated: nope -->` names no registered table")
    doc.write_text("nothing generated\n")
    assert doc_tables.check(tmp_path) == ["table 'demo' (test_docs:_demo_table) is registered but no doc holds it"]


def test_the_fast_tables_match_the_docs():
    problems = doc_tables.check(skip_slow=True)
    assert not problems, "\n".join(problems) + "\nrun `python -m capqa docs --write`"


@pytest.mark.slow
def test_the_slow_tables_match_the_docs():
    slow = [name for name, table in doc_tables.TABLES.items() if table.slow]
    problems = doc_tables.check(only=slow)
    assert not problems, "\n".join(problems) + "\nrun `python -m capqa docs --write`"


def test_the_check_covers_the_hub_cards(tmp_path, monkeypatch):
    """``docs --check`` read README.md, docs/ and the statement model's card, but not the Space's
    card nor the dataset cards, whose tables could go stale unseen."""
    monkeypatch.setattr(doc_tables, "TABLES", {"demo": doc_tables.Table("test_docs:_demo_table")})
    _fake_root(tmp_path, _demo_table() + "\n")
    stale = "# card\n\n<!-- generated: demo -->\n| stale |\n<!-- /generated: demo -->\n"
    cards = [tmp_path / "space_card" / "README.md", tmp_path / "dataset_cards" / "CAP-Statements" / "README.md"]
    for card in cards:
        card.parent.mkdir(parents=True)
        card.write_text(stale)
    problems = doc_tables.check(tmp_path)
    assert [problem.split(" differs")[0] for problem in problems] == [
        "space_card/README.md", "dataset_cards/CAP-Statements/README.md"]
    assert {path.relative_to(REPO_ROOT).as_posix() for path in DOCS} >= {
        "space_card/README.md", "dataset_cards/CAP-Correctness/README.md", "dataset_cards/CAP-Statements/README.md"}


# The identity's fields that no option shares a name with: a paragraph naming several of them by
# hand is a list of the record's fields that will go stale (they are generated from FIELD_MEANINGS).
_RECORD_ONLY = ("nli_dtype", "quantization", "nli_load", "cap_plus_params", "verdict_thresholds")


def _paragraphs_outside_generated_blocks(text):
    text = re.sub(r"<!-- generated: (\S+) -->.*?<!-- /generated: \1 -->", "", text, flags=re.DOTALL)
    return [paragraph for paragraph in re.split(r"\n\s*\n", text) if paragraph.strip()]


def _docstrings(path):
    import ast

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            yield ast.get_docstring(node) or ""


def test_the_identitys_fields_are_described_once():
    from capqa.doctools.schema_tables import placeholder_identity
    from capqa.records.identity import FIELD_MEANINGS

    assert [name for name, _ in placeholder_identity().items()] == list(FIELD_MEANINGS)
    texts = {path: path.read_text(encoding="utf-8") for path in DOCS}
    for path in [REPO_ROOT / "cap_metric.py", *sorted((REPO_ROOT / "capqa").rglob("*.py"))]:
        texts[path] = "\n\n".join(_docstrings(path))  # prose; the code that defines the record names them
    listed = []
    for path, text in texts.items():
        for paragraph in _paragraphs_outside_generated_blocks(text):
            if re.search(r"\w=\S*\|", paragraph):  # an example hashcode, as printed
                continue
            named = [name for name in _RECORD_ONLY if re.search(rf"\b{name}\b", paragraph)]
            if len(named) >= 3:
                listed.append(f"{path.relative_to(REPO_ROOT)}: {named}")
    assert not listed, f"the identity's fields listed by hand (generate them from FIELD_MEANINGS): {listed}"


def test_the_docs_have_no_stale_sentences():
    """What issue 30 found: an example hashcode of rules version 1 and the mT5 model as the default
    in cap_metric.py, the Hub id as the default in constants.py, the regex era's speed of the rules."""
    from capqa.statements.rules.version import RULES_VERSION

    metric = (REPO_ROOT / "cap_metric.py").read_text(encoding="utf-8")
    shown = re.findall(r"statements=rules\(version=([^,)]+)", metric)
    assert shown and all(version in (str(RULES_VERSION), "...") for version in shown), shown
    assert "(a fine-tuned\nmT5 statement model, or" not in metric
    assert "the metric's default stays the\n# Hub id" not in (REPO_ROOT / "capqa/common/constants.py").read_text()
    assert "6,499 statements/s" not in (REPO_ROOT / "docs" / "performance.md").read_text()
    scale = (REPO_ROOT / "docs" / "scale.md").read_text()
    hashcodes = re.findall(r"^hashcode: (.*)$", scale, flags=re.MULTILINE)
    assert hashcodes and all("|statements=rules(" in line and "statement_model=" not in line for line in hashcodes)


# --- Links ----------------------------------------------------------------------------------------

_LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)\)")


def test_the_paper_table_shows_the_printed_figures_beside_the_recomputation():
    """Issue 34: the README showed the recomputation as "the paper"; the printed figures are the
    paper's (data/paper_printed.json), the recomputation is labelled as such beside them."""
    from capqa.common.constants import PAPER_COMET_MEAN_VIOLATIONS, PAPER_COMET_PAIRWISE_ACCURACY
    from capqa.doctools.paper_tables import paper_metrics_table, paper_printed

    printed = paper_printed()
    assert printed["pairwise_accuracy_percent"]["comet"] == round(100 * PAPER_COMET_PAIRWISE_ACCURACY, 2)
    assert printed["mean_violations"]["comet"] == PAPER_COMET_MEAN_VIOLATIONS
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ")[1:] for line in paper_metrics_table().splitlines()
            if line.startswith("| ") and "---" not in line}
    assert rows["ROUGE-L"][:2] == ["55.35 %", "53.23 %"] and rows["METEOR"][:2] == ["53.71 %", "53.66 %"]
    assert rows["BLEU"][:2] == ["51.57 %", "51.56 %"] and rows["CAP"][:2] == ["77.70 %", "77.70 %"]
    names = list(rows)
    assert names.index("ROUGE-L") < names.index("METEOR")   # the printed order
    assert "as printed in the paper" in rows["metric"][0] and "recomputed" in rows["metric"][1]
    assert "ROUGE-L, METEOR, BLEU the printed figures differ" in paper_metrics_table()


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.relative_to(REPO_ROOT).as_posix())
def test_relative_links_and_images_resolve_from_the_doc(doc):
    """GitHub resolves a link relative to the doc's own folder: docs/x.md linking docs/y.png
    points at docs/docs/y.png."""
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for match in _LINK.finditer(text):
        target = match["target"].split("#")[0]
        if not target or re.match(r"[a-z]+:", target):
            continue
        if not (doc.parent / target).exists():
            broken.append(target)
    assert not broken, f"{doc.relative_to(REPO_ROOT)}: links that do not resolve from its folder: {broken}"


# --- Code blocks ----------------------------------------------------------------------------------

def all_blocks():
    return [block for doc in DOCS for block in doc_blocks.code_blocks(doc)]


def test_every_code_block_runs_or_says_why_not():
    blocks = all_blocks()
    code = [block for block in blocks if block.language in doc_blocks.CODE_LANGUAGES]
    skipped = [block for block in code if block.skip_reason]
    assert all(len(block.skip_reason) > 10 for block in skipped)
    assert len(code) - len(skipped) >= 15, [block.name for block in code if block.runs]
    # Every doc with code gets its run below.
    assert {block.doc for block in code if block.runs} == set(RUNNABLE_DOCS)


def test_a_skip_without_a_reason_is_refused(tmp_path):
    doc = tmp_path / "x.md"
    blocks = lambda: doc_blocks.code_blocks(doc)  # noqa: E731
    assert_refused(doc, "<!-- docs-test: skip -->\n```bash\necho hi\n```\n", blocks, "needs a reason")
    assert_refused(doc, "```rust\nfn main() {}\n```\n", blocks, "CODE_LANGUAGES or TEXT_LANGUAGES")
    doc.write_text("<!-- docs-test: skip (needs a GPU) -->\n```bash\nnvidia-smi\n```\n\n```python\nx = 1\n```\n")
    first, second = doc_blocks.code_blocks(doc)
    assert (first.skip_reason, first.runs, second.skip_reason, second.runs) == ("needs a GPU", False, None, True)


RUNNABLE_DOCS = sorted({block.doc for block in all_blocks() if block.runs})


@pytest.fixture(scope="session")
def hf_home(tmp_path_factory):
    """A Hugging Face home with the tiny models under the real ids (built once)."""
    from capqa.common.constants import STATEMENT_BASE_MODEL
    from capqa.dev.offline_models import build_seq2seq_model

    home = tmp_path_factory.mktemp("hf-home")
    environment = doc_blocks.offline_hub(home)
    # train-statements starts from google/mt5-small at STATEMENT_BASE_REVISION ("main").
    repo = home / "hub" / f"models--{STATEMENT_BASE_MODEL.replace('/', '--')}"
    commit = "0" * 39 + "1"
    build_seq2seq_model(repo / "snapshots" / commit)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    return environment


@pytest.fixture(scope="session")
def nli_folder(tmp_path_factory):
    from capqa.dev.offline_models import build_nli_model

    return build_nli_model(tmp_path_factory.mktemp("nli") / "nli-folder", seed=1)


def workspace(folder: Path, nli_folder: Path) -> Path:
    """The folder a doc's examples run in: the repository's files, and the inputs they name."""
    import pandas as pd

    for name in REPOSITORY_FILES:
        (folder / name).symlink_to(REPO_ROOT / name)
    for name, source in STAND_INS.items():
        (folder / name).symlink_to(REPO_ROOT / source)
    (folder / ".venv").symlink_to(Path(sys.executable).resolve().parents[1])
    (folder / "path" / "to").mkdir(parents=True)
    (folder / "path" / "to" / "nli-folder").symlink_to(nli_folder)
    pd.DataFrame({"question": ["Name a city in Bulgaria.", "What is the capital of France?"],
                  "gold_answer": ["Sofia", "Paris"], "answer": ["Burgas", "Paris"]}).to_csv(folder / "answers.csv",
                                                                                          index=False)
    sample = pd.read_csv(REPO_ROOT / "data" / "cap_statements_sample.csv", keep_default_na=False)
    sample[["question", "answer", "statement"]].head(16).to_csv(folder / "my_statements.csv", index=False)
    _old_cache_layout(folder / "DIRECTORY")
    _caches_to_merge(folder)
    _scored_systems(folder)
    return folder


def _scored_systems(folder: Path) -> None:
    """a-cap.csv and b-cap.csv as `score` writes them (the columns compare reads), each with its summary."""
    import numpy as np
    import pandas as pd

    from capqa.compare.summary import summarise_scores, write_summary

    rng = np.random.default_rng(0)
    rows = {"question": [f"Question {i % 15}?" for i in range(40)], "gold_answer": [f"gold {i}" for i in range(40)]}
    for name, shift in (("a-cap.csv", 0.0), ("b-cap.csv", 0.05)):
        table = pd.DataFrame({**rows, "answer": [f"answer {i}" for i in range(40)],
                              "cap": np.clip(rng.beta(2, 3, size=40) + shift, 0, 1),
                              "relation": rng.choice(["exact", "partial", "invalid"], 40)})
        table.to_csv(folder / name, index=False)
        write_summary(summarise_scores(table, job_identity(rows=40)), folder / name)


def _old_cache_layout(directory: Path) -> None:
    """A cache folder of an earlier version: DIRECTORY/<16 hex>/model.json and <2 hex>/<sha256>.json."""
    model = directory / "0123456789abcdef"
    (model / "ab").mkdir(parents=True)
    (model / "model.json").write_text("{}")
    (model / "ab" / ("ab" + "0" * 62 + ".json")).write_text("[0.2, 0.3, 0.5]")


CACHE_IDENTITY = {"model": "org/model", "revision": "0" * 40, "dtype": "float32", "max_length": 512}


def _caches_to_merge(folder: Path) -> None:
    from capqa.engine.cache import ScoreCache

    ScoreCache(folder / "merged", CACHE_IDENTITY).put({("a", "b"): [0.7, 0.2, 0.1]})
    ScoreCache(folder / "node2", CACHE_IDENTITY).put({("c", "d"): [0.1, 0.2, 0.7]})
    ScoreCache(folder / "node2", {**CACHE_IDENTITY, "model": "org/other", "revision": "1" * 40}).put({("e", "f"): [0.3, 0.3, 0.4]})


def _environment(hf_home) -> dict:
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, **hf_home, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg", "PYTHONUNBUFFERED": "1",
            "TOKENIZERS_PARALLELISM": "false"}


# One namespace for a doc's Python blocks, in order; each compiled under the doc's name and line.
_PYTHON_RUNNER = """
import json, sys, traceback
namespace = {"__name__": "__main__"}
for block in json.load(open(sys.argv[1])):
    try:
        exec(compile(block["code"], block["name"], "exec"), namespace)
    except BaseException:
        traceback.print_exc()
        sys.exit(f"FAILED: the python block at {block['name']}")
"""


def _run(command, folder, environment, what):
    done = subprocess.run(command, cwd=folder, env=environment, capture_output=True, text=True,
                          timeout=BLOCK_TIMEOUT_S)
    assert done.returncode == 0, f"{what} failed ({done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-6000:]}"


def _run_sql(block, folder):
    """A ```sql block, as the `sqlite3 FILE` shell its first comment names would run it."""
    first = block.code.strip().splitlines()[0]
    database = re.match(r"--\s*sqlite3\s+(\S+)", first)
    connection = sqlite3.connect(folder / database.group(1) if database else ":memory:")
    try:
        previous = Path.cwd()
        os.chdir(folder)   # ATTACH paths are relative to the shell's folder
        try:
            connection.executescript(block.code)
            connection.commit()
        finally:
            os.chdir(previous)
    finally:
        connection.close()


@pytest.mark.slow
@pytest.mark.parametrize("doc", RUNNABLE_DOCS, ids=lambda doc: doc.relative_to(REPO_ROOT).as_posix())
def test_the_code_blocks_of_each_doc_run(doc, tmp_path, hf_home, nli_folder):
    """Python blocks first (one namespace, in order), then shell and SQL blocks in order, all in
    one folder per doc, offline."""
    folder = workspace(tmp_path, nli_folder)
    environment = _environment(hf_home)
    blocks = [block for block in doc_blocks.code_blocks(doc) if block.runs]
    python = [{"name": block.name, "code": block.code} for block in blocks if block.language == "python"]
    if python:
        (tmp_path / "python_blocks.json").write_text(json.dumps(python))
        (tmp_path / "run_blocks.py").write_text(_PYTHON_RUNNER)
        _run([sys.executable, "run_blocks.py", "python_blocks.json"], folder, environment,
             f"the python blocks of {doc.name}")
    for block in blocks:
        if block.language in ("bash", "sh", "shell"):
            _run(["bash", "-euo", "pipefail", "-c", block.code], folder, environment, f"the shell block at {block.name}")
        elif block.language == "sql":
            _run_sql(block, folder)
    if doc.name == "cache.md":
        # The merge the SQL block promises: node2's entry of the same model, checksums intact.
        from capqa.engine.cache import ScoreCache

        merged = ScoreCache(folder / "merged", CACHE_IDENTITY)
        assert set(merged.get([("a", "b"), ("c", "d")])) == {("a", "b"), ("c", "d")}
        assert not (folder / "DIRECTORY" / "0123456789abcdef").exists()   # the old layout was deleted
