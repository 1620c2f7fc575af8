"""``python -m capqa docs``: write or check the generated tables of README.md and docs/*.md.

The command line of ``capqa.doctools.registry``: every table of measured figures sits between
``<!-- generated: NAME -->`` and ``<!-- /generated: NAME -->`` lines and is written by the function
registered under NAME. ``--check`` exits 1 when a doc and its functions disagree.
"""

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from capqa.cli import ArgumentParser, HelpFormatter

try:
    from capqa.doctools import registry as doc_tables
except ModuleNotFoundError as error:  # an installed wheel: the docs' tooling ships only in a checkout
    if error.name not in ("capqa.doctools", "capqa.doctools.registry"):
        raise
    doc_tables = None
NOT_IN_THE_WHEEL = ("`python -m capqa docs` writes the docs of a checkout of the repository; the installed "
                    "package leaves the docs' tooling (capqa/doctools) out. Run it from a clone.")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa docs", description=__doc__.split("\n\n")[0],
                                     formatter_class=HelpFormatter)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="rewrite every generated table")
    action.add_argument("--check", action="store_true", help="report tables that differ (exit status 1)")
    action.add_argument("--list", action="store_true", help="list the registered tables")
    parser.add_argument("--only", help="comma-separated table names (default: all)")
    parser.add_argument("--skip-slow", action="store_true",
                        help="leave the slow tables (bootstraps, evaluation runs, test collection) as they are")
    parser.add_argument("--root", type=Path, default=doc_tables.REPO_ROOT, help="the checkout (default: this one)")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    if doc_tables is None:
        sys.exit(f"error: {NOT_IN_THE_WHEEL}")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list:
        for name, table in doc_tables.TABLES.items():
            print(f"{name:<28}{table.function}{'  (slow)' if table.slow else ''}")
        return 0
    only = None
    if args.only is not None:
        only = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in only if name not in doc_tables.TABLES]
        if not only or unknown:
            parser.error(f"--only must name registered tables ({', '.join(doc_tables.TABLES)}), got {args.only!r}")
    if args.write:
        changed = doc_tables.write(args.root, args.skip_slow, only)
        print(f"rewrote {len(changed)} doc(s)" + "".join(f"\n  {path}" for path in changed))
        return 0
    problems = doc_tables.check(args.root, args.skip_slow, only)
    for problem in problems:
        print(problem, file=sys.stderr)
    print("the docs match the code" if not problems else f"{len(problems)} problem(s): run "
          "`python -m capqa docs --write`", file=sys.stderr)
    return 1 if problems else 0
