"""The code blocks of the docs, and an offline Hugging Face home in which they run.

``tests/doctools/test_docs.py`` runs every code block of ``README.md`` and ``docs/*.md``. This module finds
them and builds what they need without the Hub:

* ``code_blocks``: each fenced block with its language, its line and the directive of the
  ``<!-- docs-test: ... -->`` line just above it, if any. ``skip (reason)`` marks a block that
  cannot run here (a GPU, the Hub, minutes of work); the reason is required. Blocks in
  ``TEXT_LANGUAGES`` (formulas, diagrams, data) are not code.
* ``offline_hub``: a Hugging Face home with tiny models (``capqa.dev.offline_models``) under the
  real Hub ids and the pinned revision of ``capqa.common.constants``, and the metric module in evaluate's
  module cache, so that with ``HF_HUB_OFFLINE=1`` the docs' own calls
  (``evaluate.load("cap-eval/cap", ...)``, the default NLI model) go through the real loading
  code and find them.
"""

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from capqa.common.constants import DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION, metric_space_id
from capqa.common.paths import REPO_ROOT
from capqa.dev.offline_models import build_nli_model

# Languages whose blocks run; any other block (no language, text, bibtex, yaml, json) is not code.
CODE_LANGUAGES = ("python", "bash", "sh", "shell", "sql")
TEXT_LANGUAGES = ("", "text", "bibtex", "yaml", "json", "csv")
_FENCE = re.compile(r"^(?P<indent> *)```(?P<language>[\w+-]*)[^\n]*\n(?P<code>.*?)^(?P=indent)```\s*$",
                    re.MULTILINE | re.DOTALL)
_SHELLS = ("bash", "sh", "shell")
# A command that installs packages (into whatever environment runs the block).
_INSTALLS = re.compile(r"\b(pip|pip3|uv pip|conda|apt-get|apt)\s+install\b|\bpython[\d.]*\s+-m\s+pip\s+install\b")
_DIRECTIVE = re.compile(r"<!-- docs-test: (?P<action>skip|run)(?: \((?P<reason>[^)]*(?:\([^)]*\)[^)]*)*)\))? -->\s*$")


@dataclass(frozen=True)
class CodeBlock:
    doc: Path
    line: int
    language: str
    code: str
    skip_reason: Optional[str] = None

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(REPO_ROOT) if self.doc.is_relative_to(REPO_ROOT) else self.doc}:{self.line}"

    @property
    def runs(self) -> bool:
        return self.language in CODE_LANGUAGES and self.skip_reason is None


def code_blocks(doc: Path) -> List[CodeBlock]:
    """Every fenced block of ``doc`` with its skip directive; a directive without a reason, or on
    a block of an unknown language, is an error."""
    text = doc.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        directive = _DIRECTIVE.search(before)
        language = match["language"].lower()
        if language not in CODE_LANGUAGES + TEXT_LANGUAGES:
            raise ValueError(f"{doc}:{line}: a ```{language} block: add the language to CODE_LANGUAGES or "
                             "TEXT_LANGUAGES in capqa/doctools/blocks.py")
        reason = None
        if directive and directive["action"] == "skip":
            reason = (directive["reason"] or "").strip()
            if not reason:
                raise ValueError(f"{doc}:{line}: `<!-- docs-test: skip -->` needs a reason: "
                                 "`<!-- docs-test: skip (why) -->`")
        if reason is None and language in _SHELLS and _INSTALLS.search(match["code"]):
            raise ValueError(f"{doc}:{line}: a shell block that installs packages would change the test's own "
                             "environment: mark it `<!-- docs-test: skip (installs packages) -->`")
        found.append(CodeBlock(doc, line, language, match["code"], reason))
    return found


def offline_hub(home: Path, metric_source: Path = REPO_ROOT / "cap_metric.py") -> Dict[str, str]:
    """Build the offline Hugging Face home under ``home``; returns the environment variables that
    point the Hub, transformers and evaluate at it, offline."""
    hub_cache = home / "hub"
    repo = hub_cache / f"models--{DEFAULT_NLI_MODEL.replace('/', '--')}"
    snapshot = repo / "snapshots" / DEFAULT_NLI_REVISION
    if not (snapshot / "config.json").is_file():
        build_nli_model(snapshot, seed=1)
        (repo / "refs").mkdir(parents=True, exist_ok=True)
        (repo / "refs" / "main").write_text(DEFAULT_NLI_REVISION)
    # evaluate.load("<namespace>/cap") offline takes the newest cached copy of the Space's cap.py.
    source = metric_source.read_bytes()
    modules = home / "modules" / "evaluate_modules"
    folder = modules / "metrics" / metric_space_id().replace("/", "--") / hashlib.sha256(source).hexdigest()
    folder.mkdir(parents=True, exist_ok=True)
    for package in (modules, modules / "metrics", folder.parent, folder):
        (package / "__init__.py").touch()
    (folder / f"{metric_space_id().split('/')[-1]}.py").write_bytes(source)
    return {"HF_HOME": str(home), "HF_HUB_CACHE": str(hub_cache), "HF_MODULES_CACHE": str(home / "modules"),
            "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
            "HF_EVALUATE_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}
