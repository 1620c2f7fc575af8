"""Fitting CAP+ and the relation classifier: ``python -m capqa fit``.

The command line of ``capqa.plus.fitting``: it fits on one split of a scores file, writes the
parameter files and prints what was fitted. It says at the start how many fits it will run;
CAP+'s selection (minutes) keeps each candidate's result in ``OUT/.cap_plus_selection.json`` as it
goes, so that a fit stopped by Ctrl-C resumes where it stopped when run again.
"""

import argparse
import sys
from pathlib import Path
from typing import List

import numpy as np

from capqa.cli import EXIT_INTERRUPTED, ArgumentParser, HelpFormatter
from capqa.common.files import check_outputs
from capqa.plus.calibration import CAP_PLUS_FILE, RELATION_FILE
from capqa.plus.fitting import DEFAULT_OUT, L2_GRID, fit, fit_count, shipped_candidate, write_parameters
from capqa.plus.score_files import CAP_PLUS_INPUTS, check_cap_plus_inputs, read_scores

# In --out while CAP+'s selection runs: what it has done (capqa.plus.selection.SelectionProgress).
PROGRESS_FILE = ".cap_plus_selection.json"


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa fit", description=__doc__.split("\n")[0],
                                     formatter_class=HelpFormatter)
    parser.add_argument("--scores", required=True,
                        help="CSV with split, label, pe_f, pn_f, pc_f, pe_r, pn_r, pc_r, bleu, rouge_l")
    parser.add_argument("--split", default="validation", help="the rows to fit on (default validation)")
    parser.add_argument("--out", default=str(DEFAULT_OUT),
                        help=f"folder for the JSON parameter files (default ./{DEFAULT_OUT}; the "
                             f"package's shipped parameters are never the default)")
    parser.add_argument("--l2", type=float, nargs="+", default=list(L2_GRID),
                        help="relation classifier: L2 strengths to cross-validate (one value: use it, no "
                             "cross-validation)")
    parser.add_argument("--cap-plus-spec", metavar="FOLDER",
                        help="CAP+: fit the model specification (NLI bases, L2, margins) of this parameter "
                             "folder ('shipped': the package's) instead of choosing one by cross-validation "
                             "(which takes minutes)")
    return parser


def main(argv: List[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if any(not np.isfinite(value) or value <= 0 for value in args.l2):
        parser.error(f"--l2 values must be positive, got {args.l2}")
    if Path(args.out).exists() and not Path(args.out).is_dir():
        parser.error(f"--out must be a folder, but {args.out!r} is a file")
    spec = None if args.cap_plus_spec in (None, "shipped") else Path(args.cap_plus_spec) / CAP_PLUS_FILE
    check_outputs({f"--out/{name}": Path(args.out) / name for name in (RELATION_FILE, CAP_PLUS_FILE, PROGRESS_FILE)},
                  {"--scores": args.scores, "--cap-plus-spec": spec})
    candidate = None
    if args.cap_plus_spec:
        candidate = shipped_candidate(None if args.cap_plus_spec == "shipped" else args.cap_plus_spec)
    frame = read_scores(args.scores, CAP_PLUS_INPUTS)
    if "split" in frame.columns:  # the rows fitted on: their inputs are checked by line and column
        check_cap_plus_inputs(frame[frame["split"] == args.split], args.scores)
    progress_file = Path(args.out) / PROGRESS_FILE
    counts = fit_count(len(args.l2), candidate is None)
    print(f"fit: {sum(counts.values())} fits ({', '.join(f'{count} {what}' for what, count in counts.items())})"
          + ("; CAP+'s selection takes minutes (--cap-plus-spec shipped skips it), and a fit stopped by Ctrl-C "
             "resumes it when run again" if candidate is None else ""), file=sys.stderr)
    try:
        relation, cap_plus_params = fit(frame.reset_index(drop=True), args.split, args.l2,
                                        cap_plus_candidate=candidate, progress_file=progress_file)
    except KeyboardInterrupt:
        kept = f"the CAP+ candidates cross-validated so far are kept in {progress_file}; " if (
            progress_file.is_file()) else ""
        print(f"interrupted: fit was stopped (Ctrl-C); {kept}rerun the same command to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    write_parameters(relation, cap_plus_params, args.out)
    chosen = cap_plus_params["model_selection"]["chosen"]
    losses = relation["cross_validated_log_loss"]
    selected = f"cross-validated log-loss {losses}" if losses else "one --l2 given: no cross-validation"
    print(f"fitted on {relation['fitted_on']['rows']} {args.split} rows; relation classifier l2 = {relation['l2']} "
          f"({selected}); CAP+ l2 = {chosen['l2']}, margins "
          f"{chosen['entailment_margin']} / {chosen['contradiction_margin']}, NLI bases {chosen['nli_bases']}"
          f"{'' if candidate else ' (chosen by cross-validation)'}; wrote "
          f"{Path(args.out) / RELATION_FILE} and {Path(args.out) / CAP_PLUS_FILE}")
    return 0
