"""Numbers in the docs come from the code: the registry of generated tables.

Every table of measured figures in ``README.md``, ``docs/*.md`` and the Hub cards (the statement
model's, the Space's, the datasets') sits between two lines

    <!-- generated: NAME -->
    ... (what TABLES[NAME] returns) ...
    <!-- /generated: NAME -->

``python -m capqa docs --write`` replaces what lies between them with the output of the
registered function; ``python -m capqa docs --check`` reports every block that differs, every
block whose NAME is not registered and every registered NAME no doc uses (exit status 1), and
``tests/doctools/test_docs.py`` fails on the same. Timings that depend on the machine are not generated:
the docs say when and where they were measured.

**Adding a table**: write a function that takes no argument and returns Markdown (no trailing
newline needed), in the module of the room it measures; add one line ``"NAME": Table("module:
function")`` below (``slow=True`` when it takes more than a few seconds, e.g. a bootstrap); put
the two marker lines in the doc and run ``python -m capqa docs --write``. A plot of the same
figures: ``figure=("module:draw", "docs/NAME.png")``, ``draw(path, metadata)`` saving the PNG with
``metadata`` (a digest of the table, which ``--check`` compares).
"""

import difflib
import hashlib
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from capqa.common.files import write_atomically
from capqa.common.paths import REPO_ROOT


def _function(path: str) -> Callable:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Table:
    """A registered generator: ``"module:function"``, imported only when rendered. ``figure``:
    ("module:function", path from the root) of a plot drawn from the same figures, written by
    ``--write`` and tagged with a digest of the table, so ``--check`` finds a stale plot."""
    function: str
    slow: bool = False
    figure: Optional[Tuple[str, str]] = None

    def render(self) -> str:
        return _function(self.function)().rstrip("\n") + "\n"


FIGURE_TAG = "Source"


def figure_tag(name: str, rendered: str) -> str:
    """The PNG text a figure carries: the table it was drawn with, and a digest of its text."""
    return f"capqa docs {name} {hashlib.sha256(rendered.encode()).hexdigest()[:16]}"


def png_text(path: Path) -> Dict[str, str]:
    """The tEXt chunks of a PNG file ({} for a missing file or another format)."""
    data = path.read_bytes() if path.is_file() else b""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return {}
    found, position = {}, 8
    while position + 8 <= len(data):
        length, kind = int.from_bytes(data[position:position + 4], "big"), data[position + 4:position + 8]
        if kind == b"tEXt":
            key, _, value = data[position + 8:position + 8 + length].partition(b"\0")
            found[key.decode("latin-1")] = value.decode("latin-1")
        if kind == b"IEND":
            break
        position += 12 + length
    return found


TABLES: Dict[str, Table] = {
    # README.md
    "options": Table("capqa.metric.options:options_markdown_table"),
    # docs/statements.md
    "statement-engines": Table("capqa.statements.registry:engines_markdown_table"),
    "output-values": Table("capqa.doctools.schema_tables:output_values_markdown"),
    "paper-metrics": Table("capqa.doctools.paper_tables:paper_metrics_table"),
    # dataset_cards/CAP-Correctness/README.md
    "card-manual-labels": Table("capqa.doctools.paper_tables:manual_label_agreement"),
    # docs/diagnostic.md
    "diagnostic-paper-table": Table("capqa.doctools.paper_tables:paper_diagnostic_table", slow=True),
    "diagnostic-pair-counts": Table("capqa.doctools.paper_tables:paper_pair_counts"),
    # docs/plus.md
    "plus-selection": Table("capqa.doctools.plus_tables:selection_table"),
    "plus-model": Table("capqa.doctools.plus_tables:model_summary"),
    "plus-guarantees": Table("capqa.doctools.plus_tables:guarantees_table"),
    "plus-relation": Table("capqa.doctools.plus_tables:relation_table"),
    "plus-recall": Table("capqa.doctools.plus_tables:recall_lines"),
    "plus-ordering": Table("capqa.doctools.plus_tables:ordering_table", slow=True),
    "plus-hard-pairs": Table("capqa.doctools.plus_tables:hard_pairs_table", slow=True),
    "plus-worse-pairs": Table("capqa.doctools.plus_tables:worse_pairs_table", slow=True),
    "plus-overlap-check": Table("capqa.doctools.plus_tables:overlap_check"),
    "plus-slopes": Table("capqa.doctools.plus_tables:slope_table"),
    "plus-curve": Table("capqa.doctools.plus_tables:curve_table",
                        figure=("capqa.doctools.plus_tables:draw_curve", "docs/cap_plus_curve.png")),
    "calibration-statements": Table("capqa.doctools.paper_agreement:calibration_statements_markdown"),
    # docs/verdicts.md
    "verdict-thresholds": Table("capqa.doctools.verdict_tables:thresholds_table"),
    "verdict-benchmark": Table("capqa.doctools.verdict_tables:benchmark_tables", slow=True),
    "verdict-highlights": Table("capqa.doctools.verdict_tables:highlights", slow=True),
    "verdict-clusters": Table("capqa.doctools.verdict_tables:cluster_table", slow=True),
    # docs/agreement.md (the baselines' rows of `python -m capqa agreement`; CAP's need CAP's NLI model)
    "agreement-baselines": Table("capqa.doctools.agreement_tables:baselines_by_source", slow=True),
    "agreement-baselines-systems": Table("capqa.doctools.agreement_tables:baselines_by_system", slow=True),
    # docs/statements.md, docs/rules.md (the rules' own measures, capqa.statements.rules.quality)
    "statements-rules": Table("capqa.doctools.rules_tables:statements_rules_table"),
    "statements-rules-metrics": Table("capqa.doctools.rules_tables:statements_rules_metrics"),
    "statement-card-rules": Table("capqa.doctools.rules_tables:statement_card_rules_table"),
    "statements-premises": Table("capqa.doctools.rules_tables:statements_premises"),
    "rules-issue-codes": Table("capqa.doctools.rules_corpora:issue_codes_markdown"),
    "rules-corpora": Table("capqa.doctools.rules_corpora:corpora_markdown"),
    "rules-real-issues": Table("capqa.doctools.rules_corpora:real_issues_markdown"),
    "rules-real-systems": Table("capqa.doctools.rules_corpora:real_systems_markdown"),
    "rules-gold": Table("capqa.doctools.rules_corpora:gold_markdown"),
    "rules-gold-splits": Table("capqa.doctools.rules_corpora:gold_splits_markdown"),
    "rules-probes": Table("capqa.doctools.rules_corpora:probes_markdown"),
    "rules-sample": Table("capqa.doctools.rules_corpora:sample_markdown"),
    # the statement corpus converted and checked (a minute); pycld2 decides its non-English rows
    "rules-check-splits": Table("capqa.doctools.rules_corpora:check_splits_markdown", slow=True),
    "rules-check-codes": Table("capqa.doctools.rules_corpora:check_codes_markdown", slow=True),
    "rules-corpus-benchmarks": Table("capqa.doctools.rules_corpora:corpus_benchmarks_markdown", slow=True),
    # docs/scale.md and the README's limitations (the cost figures are measured once, on a stated
    # machine, into docs/cost_figures.json by benchmarks/bench_cost.py; the table is written from them)
    "cost-table": Table("capqa.doctools.cost:cost_table_markdown"),
    # docs/scale.md (docs/pipeline_figures.json, by benchmarks/bench_rules.py --pipeline --write)
    "pipeline-table": Table("capqa.doctools.cost:pipeline_table_markdown"),
    "scale-summary": Table("capqa.doctools.scale_example:summary_block", slow=True),
    "scale-compare": Table("capqa.doctools.scale_example:compare_sentence", slow=True),
    "compare-null": Table("capqa.doctools.scale_example:compare_null_line"),
    "rules-vs-paper": Table("capqa.doctools.paper_agreement:rules_vs_paper_markdown"),
    "rules-vs-paper-line": Table("capqa.doctools.paper_agreement:rules_vs_paper_line"),
    # README.md's metric description: the statements the calibration assumed
    "calibration-statements-line": Table("capqa.doctools.paper_agreement:calibration_statements_line"),
    # docs/architecture.md
    "architecture-hashcode": Table("capqa.doctools.identity_example:example_hashcode"),
    "identity-fields": Table("capqa.doctools.schema_tables:identity_fields_table"),
    "result-schema": Table("capqa.doctools.schema_tables:result_schema_table"),
    # docs/space.md and the Space's card
    "space-settings": Table("capqa.space.settings:settings_markdown"),
    "space-card-options": Table("capqa.doctools.schema_tables:option_names_line"),
    # docs/testing.md
    "test-counts": Table("capqa.doctools.rules_tables:test_counts", slow=True),
}

# A doc's lines may end in LF or CRLF: a block's body is written with the line end of its opening line.
_BLOCK = re.compile(r"^<!-- generated: (?P<name>[^ \r\n]+) -->(?P<end>\r?\n)(?P<body>.*?)"
                    r"^<!-- /generated: (?P=name) -->(?=\r?$)", re.MULTILINE | re.DOTALL)
_OPENING = re.compile(r"^<!-- generated: (?P<name>[^ \r\n]+) -->\r?$", re.MULTILINE)


# The Hub cards beside the docs: the statement model's, the Space's and each dataset's.
CARDS = ("statement_model_card/README.md", "space_card/README.md", "dataset_cards/*/README.md")


def doc_files(root: Path = REPO_ROOT) -> List[Path]:
    """The docs that may hold generated tables: README.md, every docs/*.md and the Hub cards (``CARDS``)."""
    cards = [path for pattern in CARDS for path in sorted(root.glob(pattern)) if path.is_file()]
    return [root / "README.md", *sorted((root / "docs").glob("*.md")), *cards]


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

    def block(match: "re.Match[str]") -> str:
        body = render(match["name"]).replace("\r\n", "\n").replace("\n", match["end"])
        return f"<!-- generated: {match['name']} -->{match['end']}{body}<!-- /generated: {match['name']} -->"

    return _BLOCK.sub(block, text)


def read_doc(path: Path) -> str:
    """A doc's text exactly as written (its line ends too); one that is not UTF-8 is refused by name."""
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not UTF-8 text (byte {error.start:,}: {error.reason}); save it as UTF-8") from None


class _Renderer:
    """Renders each registered table once per run; ``skip_slow`` leaves slow blocks as they are."""

    def __init__(self, skip_slow: bool = False, only: Optional[Iterable[str]] = None):
        self.skip_slow, self.only = skip_slow, set(only) if only else None
        self.cache: Dict[str, str] = {}

    def wanted(self, name: str) -> bool:
        if name not in TABLES:
            raise ValueError(f"`<!-- generated: {name} -->` names no registered table; the names are "
                             f"{', '.join(TABLES)} (capqa/doctools/registry.py)")
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
        text = read_doc(path)
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
    for name, rendered in renderer.cache.items():
        if TABLES[name].figure and png_text(root / TABLES[name].figure[1]).get(FIGURE_TAG) != figure_tag(name, rendered):
            problems.append(f"{TABLES[name].figure[1]} was not drawn from the figures of table {name!r}: run "
                            "`python -m capqa docs --write`")
    return problems


def write(root: Path = REPO_ROOT, skip_slow: bool = False, only: Optional[Iterable[str]] = None) -> List[Path]:
    """Rewrite every generated block; returns the docs that changed."""
    changed, renderer = [], _Renderer(skip_slow, only)
    for path, text, generated in _process(root, renderer):
        if generated != text:
            write_atomically(path, generated)
            changed.append(path)
    for name, rendered in renderer.cache.items():
        if TABLES[name].figure:
            draw, relative = TABLES[name].figure
            if png_text(root / relative).get(FIGURE_TAG) != figure_tag(name, rendered):
                _function(draw)(str(root / relative), {FIGURE_TAG: figure_tag(name, rendered)})
                changed.append(root / relative)
    return changed
