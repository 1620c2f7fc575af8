"""``python -m capqa publish {datasets,model,space}``: put the project's artifacts on the Hub.

The command line of ``capqa.hub.publish``: it prints every upload plan and uploads them only with
``--yes`` (dry run by default). The token is never an argument.
"""

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any, List, Sequence, TextIO

from capqa.cli import ArgumentParser, HelpFormatter
from capqa.common import constants
from capqa.common.paths import REPO_ROOT
from capqa.hub.publish import (FROM_SOURCE_DATA, UploadPlan, assemble_space, datasets_plans, model_plan, require_token,
                               space_plan, upload)


def run_plans(plans: Sequence[UploadPlan], yes: bool, out: TextIO = sys.stdout, api: Any = None) -> list:
    """Print every plan; upload them only with ``yes`` (``api``: an HfApi, e.g. for another endpoint)."""
    for plan in plans:
        print(plan.describe(), file=out)
    if not yes:
        print("dry run: nothing uploaded. Re-run with --yes to upload "
              "(token from HF_TOKEN or `hf auth login`).", file=out)
        return []
    require_token()
    commits = []
    for plan in plans:
        commits.append(upload(plan, api))
        print(f"uploaded {plan.repo_type} {plan.repo_id}", file=out)
    return commits


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="python -m capqa publish",
        description="Publish the project's artifacts to the Hugging Face Hub under CAP_HUB_NAMESPACE "
                    f"(now {constants.hub_namespace()!r}). Dry run unless --yes.",
        formatter_class=HelpFormatter)
    targets = parser.add_subparsers(dest="target", required=True)
    datasets = targets.add_parser("datasets", help="CAP-Correctness and CAP-Statements", formatter_class=HelpFormatter)
    datasets.add_argument("--folder", type=Path, required=True, help="the `build-datasets --out` folder")
    model = targets.add_parser("model", help="the trained statement model", formatter_class=HelpFormatter)
    model.add_argument("--folder", type=Path, required=True, help="a trained model folder (config.json, ...)")
    model.add_argument("--card", type=Path, default=None,
                       help="the model card to upload as README.md (default: the folder's README.md, else "
                            "the project's card with the figures of the folder's eval_statements.json)")
    space = targets.add_parser("space", help="the metric Space (app.py, cap.py, capqa/, ...)", formatter_class=HelpFormatter)
    space.add_argument("--source-root", type=Path, default=REPO_ROOT, help="repo to assemble the Space from")
    scores = space.add_mutually_exclusive_group()
    scores.add_argument("--benchmark-scores", type=Path, default=FROM_SOURCE_DATA,
                        help="per-row scores for the Benchmark tab, shipped beside app.py "
                             "(default: data/paper_scores.csv of --source-root)")
    scores.add_argument("--no-benchmark-scores", dest="benchmark_scores", action="store_const", const=None,
                        help="ship no benchmark scores")
    space.add_argument("--out", type=Path, help="keep the assembled Space here (default: a temporary folder)")
    for target in (datasets, model, space):
        target.add_argument("--yes", action="store_true", help="upload (default: dry run)")
    return parser


def _space_main(args: argparse.Namespace) -> list:
    if args.out is not None:
        return run_plans([space_plan(assemble_space(args.out, args.source_root, args.benchmark_scores))], args.yes)
    with tempfile.TemporaryDirectory(prefix="cap-space-") as staging:
        return run_plans([space_plan(assemble_space(staging, args.source_root, args.benchmark_scores))], args.yes)


def main(argv: List[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.target == "datasets":
            run_plans(datasets_plans(args.folder), args.yes)
        elif args.target == "model":
            with tempfile.TemporaryDirectory(prefix="cap-model-card-") as staging:
                run_plans([model_plan(args.folder, card=args.card, staging=staging)], args.yes)
        else:
            _space_main(args)
    except (ValueError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
