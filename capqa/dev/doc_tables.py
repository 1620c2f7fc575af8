"""Numbers in the docs come from the code: the registry of generated tables.

Every table of measured figures in ``README.md``, ``docs/*.md`` and the statement model's card
sits between two lines

    <!-- generated: NAME -->
    ... (what TABLES[NAME] returns) ...
    <!-- /generated: NAME -->

``python -m capqa docs --write`` replaces what lies between them with the output of the
registered function; ``python -m capqa docs --check`` reports every block that differs, every
block whose NAME is not registered and every registered NAME no doc uses (exit status 1), and
``tests/test_docs.py`` fails on the same. Timings that depend on the machine are not generated:
the docs say when and where they were measured.

**Adding a table**: write a function that takes no argument and returns Markdown (no trailing
newline needed), in the module of the room it measures; add one line ``"NAME": Table("module:
function")`` below (``slow=True`` when it takes more than a few seconds, e.g. a bootstrap); put
the two marker lines in the doc and run ``python -m capqa docs --write``.
"""

import difflib
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from capqa.paths import REPO_ROOT


@dataclass(frozen=True)
class Table:
    """A registered generator: ``"module:function"``, imported only when rendered."""
    function: str
    slow: bool = False

    def render(self) -> str:
        module, name = self.function.split(":")
        text = getattr(importlib.import_module(module), name)()
        return text.rstrip("\n") + "\n"


TABLES: Dict[str, Table] = {
    # README.md
    "options": Table("capqa.metric_options:options_markdown_table"),
    "paper-metrics": Table("capqa.diagnostics.doc_tables:paper_metrics_table"),
    # docs/diagnostic.md
    "diagnostic-paper-table": Table("capqa.diagnostics.doc_tables:paper_diagnostic_table", slow=True),
    "diagnostic-pair-counts": Table("capqa.diagnostics.doc_tables:paper_pair_counts"),
    # docs/plus.md
    "plus-selection": Table("capqa.plus.doc_tables:selection_table"),
    "plus-model": Table("capqa.plus.doc_tables:model_summary"),
    "plus-guarantees": Table("capqa.plus.doc_tables:guarantees_table"),
    "plus-relation": Table("capqa.plus.doc_tables:relation_table"),
    "plus-recall": Table("capqa.plus.doc_tables:recall_lines"),
    "plus-ordering": Table("capqa.plus.doc_tables:ordering_table", slow=True),
    "plus-hard-pairs": Table("capqa.plus.doc_tables:hard_pairs_table", slow=True),
    "plus-worse-pairs": Table("capqa.plus.doc_tables:worse_pairs_table", slow=True),
    "plus-overlap-check": Table("capqa.plus.doc_tables:overlap_check"),
    # docs/verdicts.md
    "verdict-thresholds": Table("capqa.verdicts.doc_tables:thresholds_table"),
    "verdict-benchmark": Table("capqa.verdicts.doc_tables:benchmark_tables", slow=True),
    "verdict-highlights": Table("capqa.verdicts.doc_tables:highlights", slow=True),
    "verdict-clusters": Table("capqa.verdicts.doc_tables:cluster_table", slow=True),
    # docs/statements.md, docs/rules.md (the rules' own measures, capqa.statements.rules.quality)
    "statements-rules": Table("capqa.dev.doc_rules:statements_rules_table"),
    "statements-rules-metrics": Table("capqa.dev.doc_rules:statements_rules_metrics"),
    "statement-card-rules": Table("capqa.dev.doc_rules:statement_card_rules_table"),
    "statements-premises": Table("capqa.dev.doc_rules:statements_premises"),
    "rules-issue-codes": Table("capqa.statements.rules.corpora:issue_codes_markdown"),
    "rules-corpora": Table("capqa.statements.rules.corpora:corpora_markdown"),
    "rules-real-issues": Table("capqa.statements.rules.corpora:real_issues_markdown"),
    "rules-real-systems": Table("capqa.statements.rules.corpora:real_systems_markdown"),
    "rules-gold": Table("capqa.statements.rules.corpora:gold_markdown"),
    "rules-gold-splits": Table("capqa.statements.rules.corpora:gold_splits_markdown"),
    "rules-probes": Table("capqa.statements.rules.corpora:probes_markdown"),
    "rules-sample": Table("capqa.statements.rules.corpora:sample_markdown"),
    # docs/scale.md and the README's limitations (the cost figures are measured once, on a stated
    # machine, into docs/cost_figures.json by benchmarks/bench_cost.py; the table is written from them)
    "cost-table": Table("capqa.dev.cost:cost_table_markdown"),
    "rules-vs-paper": Table("capqa.statements.paper_agreement:rules_vs_paper_markdown"),
    "rules-vs-paper-line": Table("capqa.statements.paper_agreement:rules_vs_paper_line"),
    # docs/space.md
    "architecture-hashcode": Table("capqa.dev.doc_identity:example_hashcode"),
    "space-settings": Table("capqa.space.settings:settings_markdown"),
    # docs/testing.md
    "test-counts": Table("capqa.dev.doc_rules:test_counts", slow=True),
}

_BLOCK = re.compile(r"^<!-- generated: (?P<name>[^ ]+) -->\n(?P<body>.*?)^<!-- /generated: (?P=name) -->$",
                    re.MULTILINE | re.DOTALL)
_OPENING = re.compile(r"^<!-- generated: (?P<name>[^ ]+) -->$", re.MULTILINE)


def doc_files(root: Path = REPO_ROOT) -> List[Path]:
    """The docs that may hold generated tables: README.md, every docs/*.md and the statement model's card."""
    card = root / "statement_model_card" / "README.md"
    return [root / "README.md", *sorted((root / "docs").glob("*.md")), *([card] if card.exists() else [])]


def blocks(text: str, source: str = "doc") -> List[Tuple[str, str]]:
    """(name, body) of every generated block, in order; an opening without its closing line is an error."""
    found = [(match["name"], match["body"]) for match in _BLOCK.finditer(text)]
    opened = [match["name"] for match in _OPENING.finditer(text)]
    if len(opened) != len(found):
        unclosed = sorted(set(opened) - {name for name, _ in found}) or opened
        raise ValueError(f"{source}: `<!-- generated: {unclosed[0]} -->` has no `<!-- /generated: "
                         f"{unclosed[0]} -->` line after it")
    return found


def rewrite(text: str, render: Callable[[str], str], source: str = "doc") -> str:
    """``text`` with every generated block's body replaced by ``render(name)``."""
    blocks(text, source)
    return _BLOCK.sub(lambda match: (f"<!-- generated: {match['name']} -->\n{render(match['name'])}"
                                     f"<!-- /generated: {match['name']} -->"), text)


class _Renderer:
    """Renders each registered table once per run; ``skip_slow`` leaves slow blocks as they are."""

    def __init__(self, skip_slow: bool = False, only: Optional[Iterable[str]] = None):
        self.skip_slow, self.only = skip_slow, set(only) if only else None
        self.cache: Dict[str, str] = {}

    def wanted(self, name: str) -> bool:
        if name not in TABLES:
            raise ValueError(f"`<!-- generated: {name} -->` names no registered table; the names are "
                             f"{', '.join(TABLES)} (capqa/dev/doc_tables.py)")
        return (self.only is None or name in self.only) and not (self.skip_slow and TABLES[name].slow)

    def __call__(self, name: str, current: str) -> str:
        if not self.wanted(name):
            return current
        if name not in self.cache:
            self.cache[name] = TABLES[name].render()
        return self.cache[name]


def _process(root: Path, renderer: _Renderer) -> List[Tuple[Path, str, str]]:
    """(path, current text, generated text) of every doc."""
    results = []
    for path in doc_files(root):
        text = path.read_text()
        current = dict(blocks(text, str(path)))
        results.append((path, text, rewrite(text, lambda name: renderer(name, current[name]), str(path))))
    return results


def check(root: Path = REPO_ROOT, skip_slow: bool = False, only: Optional[Iterable[str]] = None) -> List[str]:
    """One message per problem: a block that differs from its function's output (with the diff),
    a registered table that no doc holds. Empty when the docs are up to date."""
    renderer = _Renderer(skip_slow, only)
    problems, used = [], set()
    for path, text, generated in _process(root, renderer):
        used |= {name for name, _ in blocks(text)}
        if generated != text:
            diff = "".join(difflib.unified_diff(text.splitlines(True), generated.splitlines(True),
                                                str(path.relative_to(root)), "generated", n=1))
            problems.append(f"{path.relative_to(root)} differs from `python -m capqa docs --write`:\n{diff}")
    if only is None:
        problems += [f"table {name!r} ({TABLES[name].function}) is registered but no doc holds it"
                     for name in TABLES if name not in used]
    return problems


def write(root: Path = REPO_ROOT, skip_slow: bool = False, only: Optional[Iterable[str]] = None) -> List[Path]:
    """Rewrite every generated block; returns the docs that changed."""
    changed = []
    for path, text, generated in _process(root, _Renderer(skip_slow, only)):
        if generated != text:
            path.write_text(generated)
            changed.append(path)
    return changed
