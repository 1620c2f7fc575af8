"""``CHECK_VERSION`` is held by the check's output, as ``RULES_VERSION`` is by the converter's
(test_rules_version.py): a golden digest of the issue codes ``statements_issues`` gives every
tuned row's rule statement and every judged output of the statement corpus. A change of any
code without a bump of the version fails here, so the hashcode's ``check=...`` (which an LLM
engine's guard and every result's ``statement_issues`` depend on) moves whenever the codes do.

After a change of the check: bump ``CHECK_VERSION`` (capqa/statements/check_version.py), then
rerun this file with ``CAPQA_UPDATE_CHECK_GOLDEN=1`` (``UPDATE`` below). A changed statement is a
new row, not a changed code: recording it needs no bump.
"""

import json
import os

import pytest

from capqa.doctools.rules_corpora import check_golden
from capqa.statements.check_version import CHECK_VERSION

from support.data import REPO_ROOT

GOLDEN = REPO_ROOT / "tests" / "statements" / "check_golden.json"
UPDATE_VARIABLE = "CAPQA_UPDATE_CHECK_GOLDEN"
UPDATE = f"{UPDATE_VARIABLE}=1 PYTHONPATH=.:tests .venv/bin/python -m pytest -q tests/statements/test_check_version.py"


def changed_codes(now: dict, golden: dict) -> int:
    """How many statements recorded in both have other codes now."""
    return sum(key in golden["issues"] and golden["issues"][key] != digest for key, digest in now["issues"].items())


def test_the_checks_codes_change_only_with_a_new_check_version():
    now = check_golden(CHECK_VERSION)
    golden = (json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() or not os.environ.get(UPDATE_VARIABLE)
              else {"check_version": None, "issues": {}})  # the first record
    changed = changed_codes(now, golden)
    bump = (f"CHECK_VERSION is still {CHECK_VERSION!r} (capqa/statements/check_version.py): bump it, say in its "
            f"comment what changed, then record the new codes with\n  {UPDATE}")
    if os.environ.get(UPDATE_VARIABLE):
        if changed and golden["check_version"] == CHECK_VERSION:
            pytest.fail(f"not recorded: the codes of {changed:,} statements changed but {bump}")
        GOLDEN.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
        return
    assert golden["check_version"] == CHECK_VERSION, (
        f"CHECK_VERSION is {CHECK_VERSION!r} but the golden codes are of version {golden['check_version']!r}: "
        f"record this version's codes with\n  {UPDATE}")
    assert changed == 0, f"the check's codes changed on {changed:,} of {golden['rows']:,} statements, but {bump}"
    assert now == golden, (f"the statements checked changed ({now['rows']:,} now, {golden['rows']:,} recorded: a "
                           f"converter change or a new judgement); the codes of the others are unchanged, so no "
                           f"bump is needed: record them with\n  {UPDATE}")


def test_a_changed_code_is_found():
    """The check itself: one statement's codes changed is counted, and nothing else is."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    key = next(iter(golden["issues"]))
    edited = {**golden, "issues": {**golden["issues"], key: "0" * 12}}
    assert changed_codes(edited, golden) == 1 and changed_codes(golden, golden) == 0
