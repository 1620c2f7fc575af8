"""``python -m capqa agreement``: how often CAP agrees with people on real systems' judged answers.

The command line of ``capqa.agreement`` (the card: ``capqa.agreement.card``; its tables and
plot: ``capqa.agreement.report``). The judged rows (tests/data/real_qa_answers.csv by default:
NQ301 and EVOUNA, 3,789 answers of 17 systems) are scored with CAP under the metric options given
(a resumable job into --out, like ``score``); CAP's verdicts come from a threshold never chosen on
the rows it judges, and CAP, exact match, token F1 and "contains the gold answer" are measured
against the people per source, per system and overall, beside the peers' published figures.
"""

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from capqa.agreement.card import SCORE_CACHE_FOLDER, run_agreement
from capqa.agreement.judged import JUDGED_ANSWERS
from capqa.agreement.report import (DEFAULT_SHOWN_DISAGREEMENTS, accuracy_plot, format_card, model_warning,
                                    write_disagreements)
from capqa.agreement.scoring import SCORED_FILE
from capqa.agreement.verdicts import DEFAULT_FOLDS, DEFAULT_POLICY, THRESHOLD_SOURCES
from capqa.cli import EXIT_INTERRUPTED, ArgumentParser, HelpFormatter
from capqa.common.validation import check_positive_int
from capqa.compare.report import FORMATS
from capqa.metric.options import add_option_arguments, options_from_args

DISAGREEMENTS_FILE = "disagreements.csv"
EPILOG = (f"CAP's verdicts: --threshold-source shipped (the default) judges CAP by the threshold of --verdict's policy "
          f"({DEFAULT_POLICY} unless given; a bare number is refused) from the package's thresholds file, fitted on "
          "the paper's validation rows, or from --thresholds FILE (refused when fitted on these rows); --threshold "
          "folds chooses it on the other --folds folds, split by question. Token F1 is always judged that way. "
          f"--out holds {SCORED_FILE} (the resumable scoring job: rerun the command to resume), {DISAGREEMENTS_FILE} "
          f"and {SCORE_CACHE_FOLDER}/ (unless --score-cache-dir is given).")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa agreement", description=__doc__.splitlines()[0],
                            epilog=EPILOG, formatter_class=HelpFormatter)
    parser.add_argument("--data", type=Path, default=JUDGED_ANSWERS,
                        help="judged rows: question, gold (answers joined by ' / '), answer, judgement "
                             "(correct/incorrect), optionally id, source, system; default: the repository's")
    parser.add_argument("--out", type=Path, default=Path("cap-agreement"),
                        help=f"folder for {SCORED_FILE} (resumable), {DISAGREEMENTS_FILE} and the score cache")
    parser.add_argument("--sources", nargs="+", default=None, help="only these sources (default: all)")
    parser.add_argument("--questions", type=int, default=None, metavar="N",
                        help="only the first N questions of each source, with all their answers (a quick look)")
    parser.add_argument("--threshold-source", choices=THRESHOLD_SOURCES, default="shipped",
                        help="where CAP's threshold comes from (see below)")
    parser.add_argument("--thresholds", default=None, metavar="FILE",
                        help="with --threshold-source shipped: a thresholds file of `fit-verdicts` instead of the package's")
    parser.add_argument("--folds", type=int, default=DEFAULT_FOLDS,
                        help="cross-validation folds, split by question (token F1; CAP with --threshold-source folds)")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (of questions)")
    parser.add_argument("--seed", type=int, default=42, help="seed of the folds and the resamples")
    parser.add_argument("--format", choices=FORMATS, default="text", help="the card as text, Markdown, LaTeX or JSON")
    parser.add_argument("--plot", type=Path, default=None, help="write the accuracy plot (.png, .pdf)")
    parser.add_argument("--show-disagreements", type=int, default=DEFAULT_SHOWN_DISAGREEMENTS, metavar="N",
                        help=f"disagreement rows shown in the card (all are in {DISAGREEMENTS_FILE} and the JSON)")
    parser.add_argument("--chunk-size", type=int, default=500,
                        help="rows scored and committed at a time: what an interrupted run keeps")
    add_option_arguments(parser)  # --nli-model, --statement-model, --variant, --verdict, ...
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    check_positive_int(args.chunk_size, "--chunk-size")
    check_positive_int(args.resamples, "--resamples")
    if args.show_disagreements < 0:
        raise ValueError(f"--show-disagreements must be 0 or more, got {args.show_disagreements}")
    options = options_from_args(args)
    if args.threshold_source == "folds" and options.verdict is not None:
        print("note: --verdict is not used with --threshold-source folds: every CAP threshold is chosen on the other folds "
              "against the people's verdicts", file=sys.stderr)
    try:
        card = run_agreement(options, args.out, args.data, args.sources, args.questions, args.threshold_source,
                             args.thresholds, args.folds, args.resamples, args.seed, args.chunk_size)
    except KeyboardInterrupt:
        print(f"interrupted: the rows scored so far are kept in {args.out / SCORED_FILE}; rerun the same command "
              "to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    disagreements = args.out / DISAGREEMENTS_FILE
    write_disagreements(card, disagreements)
    print(f"{len(card.disagreements):,} disagreements written to {disagreements}", file=sys.stderr)
    warning = model_warning(card)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    print(format_card(card, args.format, args.show_disagreements))
    if args.plot:
        accuracy_plot(card).savefig(args.plot, dpi=150)
        print(f"accuracy plot written to {args.plot}", file=sys.stderr)
    return 0
