"""``python -m capqa tiny-model FOLDER``: a tiny random NLI model, to try every command offline.

The command line of ``capqa.dev.offline_models``: it saves a DeBERTa-v2 classifier of a few
thousand random weights with its tokenizer, loaded by the same code as the real model, and
prints how each front end takes it. Its scores are random: they show the machinery, not CAP.
"""

import argparse
from pathlib import Path
from typing import List, Optional

from capqa.cli import ArgumentParser
from capqa.common.validation import check_positive_int
from capqa.dev.offline_models import build_nli_model


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="python -m capqa tiny-model", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a new (or empty) folder for the model")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random weights (a positive integer)")
    return parser


def usage_lines(folder: Path) -> List[str]:
    """How each front end takes the model in ``folder``, offline."""
    model = str(folder)
    flags = f"--nli-model {model} --statement-model rules --device cpu"
    return [f"python -m capqa score answers.csv --out answers-cap.csv {flags}",
            "python -m capqa compare a-cap.csv b-cap.csv   (files scored as above)",
            f"CAP_NLI_MODEL={model} CAP_STATEMENT_MODEL=rules CAP_DEVICE=cpu HF_HUB_OFFLINE=1 python app.py",
            # From a checkout (offline, the Hub's cap.py cannot be fetched):
            f"evaluate.load(\"cap_metric.py\", nli_model=\"{model}\", statement_model=\"rules\", "
            "device=\"cpu\")   (in a checkout)"]


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    folder = args.folder
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise FileExistsError(f"`{folder}` already exists and is not an empty folder; give a new folder")
    build_nli_model(folder, seed=check_positive_int(args.seed, "--seed"))
    print(f"saved a tiny random NLI model in {folder}: its scores are random and say nothing about answers; "
          "they let you try every command offline:")
    for line in usage_lines(folder):
        print(f"  {line}")
    return 0
