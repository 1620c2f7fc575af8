"""``python -m capqa train-statements`` and ``eval-statements``: the statement model's training and evaluation.

Training fine-tunes a seq2seq model (default: google/mt5-small, ``STATEMENT_BASE_MODEL``) on
CAP-Statements with the paper's input template (``question: {question} answer: {answer}``),
512-token training length and fixed seeds, in a plain PyTorch loop (AdamW, linear decay). The
saved folder is what ``statement_model=`` accepts.

Evaluation generates statements with ``capqa.statements.generator.StatementGenerator`` (the same code the
metric uses: 4 beams, 128 tokens; ``--model rules`` evaluates the rule-based converter) and
reports exact match and token F1 (``capqa.statements.text_metrics``) and sacreBLEU BLEU/chrF against gold.
"""

import argparse
import json
import math
import random
import sys
from pathlib import Path

from capqa.constants import (STATEMENT_BASE_MODEL, STATEMENT_BASE_REVISION, STATEMENT_MAX_INPUT_TOKENS,
                             STATEMENT_NUM_BEAMS, STATEMENT_TRAIN_MAX_LENGTH, statements_dataset_id)
from capqa.validation import check_positive_int

# This project's defaults for a run on the full train split (the paper fixes the template, the
# training length and the seeds; these are the usual settings for fine-tuning mT5-small).
DEFAULT_EPOCHS = 3
DEFAULT_BATCH_SIZE = 8
DEFAULT_LEARNING_RATE = 3e-4
DEFAULT_WARMUP_FRACTION = 0.05
DEFAULT_SEED = 42
TRAINING_SUMMARY = "training_summary.json"
LOSS_PLOT = "training_loss.png"
TEXT_COLUMNS = ("question", "answer", "statement")


# --- Data --------------------------------------------------------------------------------------
def load_statement_rows(csv_path=None, dataset=None, split="train", dataset_revision=None, limit=None):
    """Rows {"question", "answer", "statement"[, "label_question_type"]} from a local CSV or the
    Hub dataset (default ``constants.statements_dataset_id()``), first ``limit`` rows only."""
    if csv_path is not None:
        from capqa.hub.datasets import read_upstream_csv

        frame = read_upstream_csv(csv_path, TEXT_COLUMNS, "csv_path")
        rows = frame.to_dict("records")
    else:
        import datasets

        name = dataset or statements_dataset_id()
        try:
            rows = list(datasets.load_dataset(name, split=split, revision=dataset_revision))
        except (OSError, ValueError) as error:
            raise OSError(f"could not load split {split!r} of the dataset {name!r}: {error}. Without access to "
                          f"the Hub, give a local CSV (--csv) or a local dataset folder (--dataset).") from error
    if limit is not None:
        rows = rows[:check_positive_int(limit, "limit")]
    for index, row in enumerate(rows):
        for column in TEXT_COLUMNS:
            if not isinstance(row.get(column), str) or not row[column].strip():
                raise ValueError(f"row {index}: column {column!r} must be non-empty text, got {row.get(column)!r}")
    if not rows:
        raise ValueError("no statement rows to use: the CSV or split is empty")
    return rows


def seed_everything(seed):
    """Python, NumPy and torch (all devices) seeded alike, so a run repeats exactly."""
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def encode_rows(tokenizer, rows, max_length=STATEMENT_TRAIN_MAX_LENGTH):
    """Features for teacher forcing: template input ids and the gold statement's label ids."""
    from capqa.statements.generator import statement_input

    inputs = [statement_input(row["question"], row["answer"]) for row in rows]
    encoded = tokenizer(inputs, truncation=True, max_length=max_length)
    labels = tokenizer(text_target=[row["statement"] for row in rows], truncation=True, max_length=max_length)
    return [{"input_ids": encoded["input_ids"][i], "attention_mask": encoded["attention_mask"][i],
             "labels": labels["input_ids"][i]} for i in range(len(rows))]


def collate(tokenizer, features, device):
    """A padded batch; label padding is -100 so that the loss ignores it."""
    import torch

    inputs = tokenizer.pad([{key: f[key] for key in ("input_ids", "attention_mask")} for f in features],
                           return_tensors="pt")
    longest = max(len(f["labels"]) for f in features)
    labels = torch.full((len(features), longest), -100, dtype=torch.long)
    for row, feature in enumerate(features):
        labels[row, :len(feature["labels"])] = torch.tensor(feature["labels"], dtype=torch.long)
    return {"input_ids": inputs["input_ids"].to(device), "attention_mask": inputs["attention_mask"].to(device),
            "labels": labels.to(device)}


def mean_loss(model, tokenizer, features, batch_size, device):
    """Teacher-forced cross-entropy per label token over ``features`` (evaluation mode)."""
    import torch

    was_training = model.training
    model.eval()
    total, tokens = 0.0, 0
    with torch.inference_mode():
        for start in range(0, len(features), batch_size):
            batch = collate(tokenizer, features[start:start + batch_size], device)
            count = int((batch["labels"] != -100).sum())
            total += float(model(**batch).loss) * count
            tokens += count
    model.train(was_training)
    return total / tokens


# --- Training ----------------------------------------------------------------------------------
def train_statement_model(rows, output_dir, base_model=STATEMENT_BASE_MODEL, base_revision=STATEMENT_BASE_REVISION,
                          epochs=DEFAULT_EPOCHS, batch_size=DEFAULT_BATCH_SIZE, learning_rate=DEFAULT_LEARNING_RATE,
                          max_length=STATEMENT_TRAIN_MAX_LENGTH, seed=DEFAULT_SEED, max_steps=None,
                          device="auto", show_progress=True):
    """Fine-tune ``base_model`` on ``rows``; save model, tokenizer, summary and loss plot to
    ``output_dir``. Returns the summary: settings, per-step losses, loss before and after."""
    import torch
    from tqdm.auto import tqdm
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, get_linear_schedule_with_warmup

    from capqa.engine.devices import resolve_device
    from capqa.engine.loading import load_pretrained

    epochs, batch_size = check_positive_int(epochs, "epochs"), check_positive_int(batch_size, "batch_size")
    max_length = check_positive_int(max_length, "max_length")
    if not (isinstance(learning_rate, (int, float)) and math.isfinite(learning_rate) and learning_rate > 0):
        raise ValueError(f"`learning_rate` must be a positive number, got {learning_rate!r}")
    seed_everything(seed)
    device = resolve_device(device)
    tokenizer = load_pretrained(AutoTokenizer, base_model, base_revision, "base tokenizer")
    model = load_pretrained(AutoModelForSeq2SeqLM, base_model, base_revision, "base model").to(device)
    if not model.config.is_encoder_decoder:
        raise ValueError(f"`base_model` must be a seq2seq (encoder-decoder) model; {base_model!r} is not")
    features = encode_rows(tokenizer, rows, max_length)
    steps_per_epoch = math.ceil(len(features) / batch_size)
    total_steps = min(epochs * steps_per_epoch, max_steps or epochs * steps_per_epoch)
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(DEFAULT_WARMUP_FRACTION * total_steps), total_steps)
    loss_before = mean_loss(model, tokenizer, features, batch_size, device)
    order_generator = torch.Generator().manual_seed(seed)  # the shuffles depend on the seed alone
    step_losses = []
    model.train()
    with tqdm(total=total_steps, desc="train statements", unit="step", disable=not show_progress) as progress:
        for _ in range(epochs):
            order = torch.randperm(len(features), generator=order_generator).tolist()
            for start in range(0, len(features), batch_size):
                if len(step_losses) == total_steps:
                    break
                batch = collate(tokenizer, [features[i] for i in order[start:start + batch_size]], device)
                step_losses.append(_training_step(model, batch, optimizer, scheduler))
                progress.update(1)
                progress.set_postfix(loss=f"{step_losses[-1]:.3f}")
    loss_after = mean_loss(model, tokenizer, features, batch_size, device)
    summary = {
        "base_model": base_model, "base_revision": base_revision, "rows": len(rows), "epochs": epochs,
        "steps": total_steps, "batch_size": batch_size, "learning_rate": learning_rate,
        "max_length": max_length, "seed": seed, "device": str(device),
        "loss_before": loss_before, "loss_after": loss_after, "step_losses": step_losses,
    }
    save_trained(model, tokenizer, summary, output_dir)
    return summary


def _training_step(model, batch, optimizer, scheduler):
    import torch

    loss = model(**batch).loss
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad()
    return float(loss.detach())


def save_trained(model, tokenizer, summary, output_dir):
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(output_dir)
    tokenizer.save_pretrained(output_dir)
    (output_dir / TRAINING_SUMMARY).write_text(json.dumps(summary, indent=2) + "\n")
    plot_losses(summary["step_losses"], output_dir / LOSS_PLOT)


def plot_losses(step_losses, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 3.5))
    axis.plot(range(1, len(step_losses) + 1), step_losses, linewidth=1)
    axis.set_xlabel("step")
    axis.set_ylabel("training loss (cross-entropy)")
    axis.set_title("Statement model fine-tuning")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


# --- Evaluation --------------------------------------------------------------------------------
def evaluate_statements(model, rows, revision=None, batch_size=32, num_beams=STATEMENT_NUM_BEAMS,
                        max_input_tokens=STATEMENT_MAX_INPUT_TOKENS, device="auto", show_progress=None):
    """Generate a statement per row with ``StatementGenerator`` and score it against gold.

    Returns (scores, predictions); scores hold exact_match, token_f1, bleu, chrf, rows and, when
    the rows carry ``label_question_type``, the same per question type under ``by_question_type``.
    """
    from capqa.statements.generator import StatementGenerator
    from capqa.statements.text_metrics import corpus_bleu_chrf, surface_scores

    generator = StatementGenerator(model=model, revision=revision, device=device, batch_size=batch_size,
                                   num_beams=num_beams, max_input_tokens=max_input_tokens,
                                   show_progress=show_progress)
    predictions = generator.generate([row["question"] for row in rows], [row["answer"] for row in rows])

    def score(indices):
        chosen = [predictions[i] for i in indices]
        gold = [rows[i]["statement"] for i in indices]
        return {**surface_scores(chosen, gold), **corpus_bleu_chrf(chosen, gold), "rows": len(indices)}

    scores = score(range(len(rows)))
    types = sorted({row["label_question_type"] for row in rows if row.get("label_question_type")})
    if types:
        scores["by_question_type"] = {
            kind: score([i for i, row in enumerate(rows) if row.get("label_question_type") == kind])
            for kind in types}
    return scores, predictions


def format_scores(scores):
    lines = [f"{'':24}{'rows':>6}{'EM':>8}{'F1':>8}{'BLEU':>8}{'chrF':>8}"]
    groups = [("overall", scores)] + sorted(scores.get("by_question_type", {}).items())
    for name, group in groups:
        lines.append(f"{name:24}{group['rows']:>6}{group['exact_match']:>8.3f}{group['token_f1']:>8.3f}"
                     f"{group['bleu']:>8.2f}{group['chrf']:>8.2f}")
    return "\n".join(lines)


# --- Command line -------------------------------------------------------------------------------
def _add_data_arguments(parser, default_split):
    source = parser.add_argument_group("data (a local CSV, or the Hub dataset)")
    source.add_argument("--csv", dest="csv_path", type=Path, help="CSV with question, answer, statement columns")
    source.add_argument("--dataset", default=None, help=f"Hub dataset id (default {statements_dataset_id()})")
    source.add_argument("--split", default=default_split, help=f"dataset split (default {default_split})")
    source.add_argument("--dataset-revision", default=None, help="dataset commit, tag or branch")
    source.add_argument("--limit", type=int, default=None, help="use only the first N rows")


def _load_rows_or_exit(parser, args):
    try:
        return load_statement_rows(args.csv_path, args.dataset, args.split, args.dataset_revision, args.limit)
    except (OSError, ValueError) as error:
        parser.error(str(error))


def train_main(argv):
    parser = argparse.ArgumentParser(prog="python -m capqa train-statements",
                                     description="Fine-tune the statement model on CAP-Statements.")
    parser.add_argument("--output-dir", type=Path, required=True, help="folder for the trained model")
    parser.add_argument("--base-model", default=STATEMENT_BASE_MODEL, help="Hub id or folder of a seq2seq model")
    parser.add_argument("--base-revision", default=STATEMENT_BASE_REVISION, help="commit of the base model")
    parser.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE)
    parser.add_argument("--learning-rate", type=float, default=DEFAULT_LEARNING_RATE)
    parser.add_argument("--max-length", type=int, default=STATEMENT_TRAIN_MAX_LENGTH, help="training length in tokens")
    parser.add_argument("--max-steps", type=int, default=None, help="stop after this many optimiser steps")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N or mps")
    _add_data_arguments(parser, "train")
    args = parser.parse_args(argv)
    rows = _load_rows_or_exit(parser, args)
    try:
        summary = train_statement_model(rows, args.output_dir, args.base_model, args.base_revision, args.epochs,
                                        args.batch_size, args.learning_rate, args.max_length, args.seed,
                                        args.max_steps, args.device)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"trained {summary['steps']} steps on {summary['rows']} rows: loss {summary['loss_before']:.4f} -> "
          f"{summary['loss_after']:.4f}; model saved to {args.output_dir} (see {TRAINING_SUMMARY}, {LOSS_PLOT})")
    return 0


def evaluate_main(argv):
    parser = argparse.ArgumentParser(prog="python -m capqa eval-statements",
                                     description="Generate statements and score them against gold statements.")
    parser.add_argument("--model", default=None, help='"rules", a Hub id or a model folder '
                                                      "(default: the published statement model)")
    parser.add_argument("--revision", default=None, help="model commit, tag or branch")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--num-beams", type=int, default=STATEMENT_NUM_BEAMS)
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N or mps")
    parser.add_argument("--output-json", type=Path, default=None,
                        help="write the scores here (MODEL/eval_statements.json: the figures of its card "
                             "for `publish model`)")
    parser.add_argument("--predictions-csv", type=Path, default=None, help="write rows with generated statements")
    _add_data_arguments(parser, "test")
    args = parser.parse_args(argv)
    rows = _load_rows_or_exit(parser, args)
    try:
        scores, predictions = evaluate_statements(args.model, rows, args.revision, args.batch_size,
                                                  args.num_beams, device=args.device, show_progress=True)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(format_scores(scores))
    if args.output_json:
        # What was measured, for a card made from these figures (capqa.hub.model_card); names, not paths.
        data = (f"`{args.csv_path.name}`" if args.csv_path else
                f"the `{args.split}` split of {args.dataset or statements_dataset_id()}")
        args.output_json.write_text(json.dumps({**scores, "evaluated_on": f"{data} ({scores['rows']:,} rows, "
                                                f"{args.num_beams} beams)"}, indent=2) + "\n")
    if args.predictions_csv:
        import pandas as pd

        pd.DataFrame(rows).assign(generated=predictions).to_csv(args.predictions_csv, index=False)
    return 0
