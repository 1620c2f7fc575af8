"""Score a large file with CAP on several GPUs (or CPU processes): one shard per rank.

    accelerate launch --num_processes 4 benchmarks/accelerate_score.py \
        --input answers.csv --output cap_scores.csv --score-cache-dir cap-score-cache

Each rank takes a contiguous shard of the rows, loads the models on its own device (bf16 on
CUDA) and scores its shard; process 0 gathers the (row, score) lists of all ranks and writes the
scores in input order. With ``--score-cache-dir`` on a shared disk every finished NLI batch is
cached (capqa.engine.cache, safe with many writers), so a job that is stopped and launched again only
scores what is missing. On CPU only (no GPU, or ``--cpu``), launch the ranks with
``torchrun --nproc_per_node 2 benchmarks/accelerate_score.py ...`` (``accelerate launch --cpu``
starts a single process unless MPI is configured); the ranks then talk over gloo.

Input: a CSV with a question, a gold answer and a predicted answer column (names set by the
options; a gold cell may hold several answers separated by ``--gold-separator``). With
``--no-questions`` the two text columns are statements and go to the NLI model as they are.
"""

import argparse
import sys
from pathlib import Path

import torch
from accelerate import PartialState
from accelerate.utils import gather_object

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from capqa.metric_options import MetricOptions  # noqa: E402
from capqa.score_file import split_golds  # noqa: E402
from capqa.scorer import validate_inputs  # noqa: E402
from capqa.tables import read_table  # noqa: E402


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, help="CSV file of examples")
    parser.add_argument("--output", required=True, help="CSV written by process 0: the input plus a `cap` column")
    parser.add_argument("--question-column", default="question")
    parser.add_argument("--gold-column", default="gold_answer")
    parser.add_argument("--prediction-column", default="answer")
    parser.add_argument("--gold-separator", default=None, help="split gold cells into several answers on this")
    parser.add_argument("--no-questions", action="store_true", help="the text columns are already statements")
    parser.add_argument("--nli-model", default=None)
    parser.add_argument("--statement-model", default=None, help='"rules", a Hub id or a local folder')
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--max-tokens", type=int, default=None)
    parser.add_argument("--score-cache-dir", default=None, help="shared folder for the NLI score cache")
    parser.add_argument("--cpu", action="store_true", help="run on CPU even where a GPU exists")
    return parser.parse_args(argv)


def read_examples(args):
    frame = read_table(args.input)  # text as written: "007" stays "007", "None" stays "None"
    golds = split_golds(frame[args.gold_column], args.gold_separator)
    questions = None if args.no_questions else list(frame[args.question_column])
    predictions, golds, questions = validate_inputs(list(frame[args.prediction_column]), golds, questions)
    return frame, predictions, golds, questions


def score_shard(args, state, predictions, golds, questions):
    """(row, CAP) for this rank's rows."""
    rows = list(range(len(predictions)))
    with state.split_between_processes(rows) as shard:
        shard = list(shard)
    if not shard:
        return []
    options = MetricOptions(nli_model=args.nli_model, statement_model=args.statement_model,
                            batch_size=args.batch_size, max_tokens=args.max_tokens, device=str(state.device),
                            score_cache_dir=args.score_cache_dir)
    scorer = options.build_scorer()
    result = scorer.score([predictions[i] for i in shard], [golds[i] for i in shard],
                          None if questions is None else [questions[i] for i in shard])
    return list(zip(shard, result["scores"]))


def main(argv=None):
    args = parse_args(argv)
    # Without a GPU the ranks talk over gloo (PartialState needs to be told it is on CPU).
    state = PartialState(cpu=args.cpu or not torch.cuda.is_available())
    frame, predictions, golds, questions = read_examples(args)
    scored = gather_object(score_shard(args, state, predictions, golds, questions))
    if state.is_main_process:
        scores = dict(scored)
        if len(scores) != len(frame):
            raise RuntimeError(f"gathered {len(scores)} scores for {len(frame)} rows")
        frame["cap"] = [scores[row] for row in range(len(frame))]
        frame.to_csv(args.output, index=False)
        print(f"{len(frame)} rows scored on {state.num_processes} process(es); mean CAP {frame['cap'].mean():.4f} "
              f"-> {args.output}")
    state.wait_for_everyone()
    return 0


if __name__ == "__main__":
    sys.exit(main())
