"""``RULES_VERSION`` is held by the rules' output (issue 30): a golden digest of the statements the
converter makes for every row of the corpora it was tuned on (``capqa.doctools.rules_corpora``
``TUNED_CORPORA``), one per row. A change of any statement without a bump of the version fails
here, so the hashcode's ``statements=rules(version=...)`` moves whenever the statements do.

After a change of the rules: bump ``RULES_VERSION`` (capqa/statements/rules/version.py), then
rerun this file with ``CAPQA_UPDATE_RULES_GOLDEN=1`` (the command ``UPDATE`` below) to record
the new output. The update refuses to record changed statements under the old version.
"""

import json
import os

import pytest

from capqa.doctools.rules_corpora import rules_golden, tuned_outputs
from capqa.statements.rules.version import RULES_VERSION

from support.data import REPO_ROOT

GOLDEN = REPO_ROOT / "tests" / "statements" / "rules_golden.json"
UPDATE_VARIABLE = "CAPQA_UPDATE_RULES_GOLDEN"
UPDATE = f"{UPDATE_VARIABLE}=1 PYTHONPATH=. .venv/bin/python -m pytest -q tests/statements/test_rules_version.py"
SHOWN = 5


def changed_rows(outputs, golden):
    """The tuned rows whose statement is not the one recorded."""
    recorded = golden["statements"]
    return outputs[[key in recorded and recorded[key] != digest for key, digest in zip(outputs.key, outputs.digest)]]


def described(rows) -> str:
    lines = [f"  {row.corpus}: {row.question!r} / {row.answer!r} -> {row.output!r}"
             for row in rows.head(SHOWN).itertuples()]
    more = f"\n  ... and {len(rows) - SHOWN:,} more" if len(rows) > SHOWN else ""
    return "\n".join(lines) + more


def write_golden(record) -> None:
    GOLDEN.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def test_the_rules_output_changes_only_with_a_new_rules_version():
    outputs = tuned_outputs()
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    changed = changed_rows(outputs, golden)
    bump = (f"RULES_VERSION is still {RULES_VERSION!r} (capqa/statements/rules/version.py): bump it, say in its "
            f"comment what changed, then record the new output with\n  {UPDATE}")
    if os.environ.get(UPDATE_VARIABLE):
        if len(changed) and golden["rules_version"] == RULES_VERSION:
            pytest.fail(f"not recorded: {len(changed):,} statements changed but {bump}\n{described(changed)}")
        write_golden(rules_golden(outputs, RULES_VERSION))
        return
    assert golden["rules_version"] == RULES_VERSION, (
        f"RULES_VERSION is {RULES_VERSION!r} but the golden output ({GOLDEN.relative_to(REPO_ROOT)}) is of version "
        f"{golden['rules_version']!r}: record this version's output with\n  {UPDATE}")
    assert len(changed) == 0, (f"the rules' statements changed on {len(changed):,} of {golden['rows']:,} tuned "
                               f"rows, but {bump}\n{described(changed)}")
    now = rules_golden(outputs, RULES_VERSION)
    assert now == golden, (f"the tuned corpora gained or lost rows ({now['rows']:,} now, {golden['rows']:,} recorded); "
                           f"the statements of the others are unchanged, so no bump is needed: record them with\n"
                           f"  {UPDATE}")


def test_a_changed_statement_is_found_and_shown():
    """The check itself: one statement changed is found, and the message shows its row."""
    outputs = tuned_outputs().head(3)
    golden = rules_golden(outputs, RULES_VERSION)
    edited = outputs.assign(output=["Something else."] * 3, digest=["0" * 12] * 3)
    changed = changed_rows(edited, golden)
    assert len(changed) == 3 and f"{outputs.question.iloc[0]!r}" in described(changed)
    assert changed_rows(outputs, golden).empty
