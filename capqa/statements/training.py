"""Fine-tuning the statement model with ``Seq2SeqTrainer`` (``python -m capqa train-statements``,
whose command line is ``capqa.cli.train_statements``).

Fine-tunes a seq2seq model (default: google/mt5-small, ``STATEMENT_BASE_MODEL``) on
CAP-Statements with the paper's input template (``question: {question} answer: {answer}``),
512-token training length and fixed seeds. transformers' ``Seq2SeqTrainer`` with
``DataCollatorForSeq2Seq`` brings checkpoints (``<output-dir>/checkpoints``), resuming
(``--resume``), bf16 on GPUs that have it and evaluation during training (``--eval-csv``). The
saved folder is what ``statement_model=`` accepts; ``training_summary.json`` and a loss plot sit
beside the weights.
"""

import json
import logging
import math
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from capqa.common.constants import STATEMENT_BASE_MODEL, STATEMENT_BASE_REVISION, STATEMENT_TRAIN_MAX_LENGTH
from capqa.common.extras import import_extra
from capqa.common.files import save_figure, write_atomically
from capqa.common.validation import check_positive_int, parse_count
from capqa.loading.pretrained import load_pretrained
from capqa.statements.seq2seq import statement_input

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase, Seq2SeqTrainer

LOGGER = logging.getLogger(__name__)

# This project's defaults for a run on the full train split (the paper fixes the template, the
# training length and the seeds; these are the usual settings for fine-tuning mT5-small).
DEFAULT_EPOCHS = 3
DEFAULT_BATCH_SIZE = 8
DEFAULT_LEARNING_RATE = 3e-4
DEFAULT_WARMUP_FRACTION = 0.05
DEFAULT_SEED = 42
TRAINING_SUMMARY = "training_summary.json"
LOSS_PLOT = "training_loss.png"
CHECKPOINTS = "checkpoints"
# Checkpoints kept on disk: the newest ones are enough to resume.
CHECKPOINTS_KEPT = 2
# What a missing train extra (accelerate for transformers' Trainer, matplotlib) is needed for.
_PURPOSE = "training the statement model"


def encode_rows(tokenizer: "PreTrainedTokenizerBase", rows: Sequence[dict],
                max_length: int = STATEMENT_TRAIN_MAX_LENGTH) -> list:
    """Features for teacher forcing: template input ids and the gold statement's label ids."""
    inputs = [statement_input(row["question"], row["answer"]) for row in rows]
    encoded = tokenizer(inputs, truncation=True, max_length=max_length)
    labels = tokenizer(text_target=[row["statement"] for row in rows], truncation=True, max_length=max_length)
    return [{"input_ids": encoded["input_ids"][i], "attention_mask": encoded["attention_mask"][i],
             "labels": labels["input_ids"][i]} for i in range(len(rows))]


def train_statement_model(rows: Sequence[dict], output_dir: Path, base_model: str = STATEMENT_BASE_MODEL,
                          base_revision: Optional[str] = STATEMENT_BASE_REVISION, epochs: int = DEFAULT_EPOCHS,
                          batch_size: int = DEFAULT_BATCH_SIZE, learning_rate: float = DEFAULT_LEARNING_RATE,
                          max_length: int = STATEMENT_TRAIN_MAX_LENGTH, seed: int = DEFAULT_SEED,
                          max_steps: Optional[int] = None, device: str = "auto", show_progress: bool = True,
                          eval_rows: Optional[Sequence[dict]] = None, save_steps: Optional[int] = None,
                          resume: bool = False) -> dict:
    """Fine-tune ``base_model`` on ``rows``; save model, tokenizer, summary and loss plot to
    ``output_dir``, checkpoints to ``output_dir/checkpoints``. Returns the summary: settings,
    per-step losses, mean loss on the training rows before and after, evaluation losses.

    device: "auto" (a GPU when there is one, bf16 where it supports it) or "cpu".
    save_steps: checkpoint every this many steps (default: once per epoch).
    resume: continue from the newest checkpoint in ``output_dir/checkpoints`` if there is one.
    """
    # Deferred: transformers is heavy, imported on first use.
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    # Before any work: transformers' Trainer needs accelerate, the loss plot matplotlib.
    import_extra("accelerate", "train", _PURPOSE), import_extra("matplotlib.figure", "train", _PURPOSE)
    settings = _check_settings(epochs, batch_size, learning_rate, max_length, max_steps, save_steps, device)
    tokenizer = load_pretrained(AutoTokenizer, base_model, base_revision, "base tokenizer")
    model = load_pretrained(AutoModelForSeq2SeqLM, base_model, base_revision, "base model")
    if not model.config.is_encoder_decoder:
        raise ValueError(f"`base_model` must be a seq2seq (encoder-decoder) model; {base_model!r} is not")
    features = encode_rows(tokenizer, rows, max_length)
    eval_features = encode_rows(tokenizer, eval_rows, max_length) if eval_rows else None
    output_dir = Path(output_dir)
    trainer = _trainer(model, tokenizer, features, eval_features, output_dir, seed, show_progress, **settings)
    loss_before = trainer.evaluate(features, metric_key_prefix="train")["train_loss"]
    checkpoint = _newest_checkpoint(output_dir / CHECKPOINTS) if resume else None
    if checkpoint is not None:
        LOGGER.info("resuming from %s", checkpoint)
    trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    loss_after = trainer.evaluate(features, metric_key_prefix="train")["train_loss"]
    history = trainer.state.log_history
    summary = {
        "base_model": _public_name(base_model), "base_revision": base_revision, "rows": len(rows),
        "epochs": epochs, "steps": trainer.state.global_step, "batch_size": batch_size,
        "learning_rate": learning_rate, "max_length": max_length, "seed": seed,
        "device": str(trainer.args.device), "bf16": trainer.args.bf16, "resumed_from_step": _step_of(checkpoint),
        "loss_before": loss_before, "loss_after": loss_after,
        "step_losses": [entry["loss"] for entry in history if "loss" in entry],
        "eval_losses": [entry["eval_loss"] for entry in history if "eval_loss" in entry],
    }
    save_trained(trainer, tokenizer, summary, output_dir)
    return summary


def _check_settings(epochs, batch_size, learning_rate, max_length, max_steps, save_steps, device) -> dict:
    if not (isinstance(learning_rate, (int, float)) and math.isfinite(learning_rate) and learning_rate > 0):
        raise ValueError(f"`learning_rate` must be a positive number, got {learning_rate!r}")
    if device not in ("auto", "cpu"):
        raise ValueError(f"`device` must be 'auto' or 'cpu' for training (the trainer places the model; "
                         f"choose a GPU with CUDA_VISIBLE_DEVICES), got {device!r}")
    return {"epochs": check_positive_int(epochs, "epochs"), "batch_size": check_positive_int(batch_size, "batch_size"),
            "learning_rate": float(learning_rate), "max_length": check_positive_int(max_length, "max_length"),
            "max_steps": None if max_steps is None else check_positive_int(max_steps, "max_steps"),
            "save_steps": None if save_steps is None else check_positive_int(save_steps, "save_steps"),
            "use_cpu": device == "cpu"}


def _trainer(model, tokenizer, features, eval_features, output_dir, seed, show_progress, *, epochs, batch_size,
             learning_rate, max_length, max_steps, save_steps, use_cpu):
    """A Seq2SeqTrainer with the paper's settings: linear decay after 5% warm-up, clipped gradients,
    one seed for weights, shuffles and dropout."""
    # Deferred: torch is heavy, imported on first use.
    import torch
    # Deferred: transformers is heavy, imported on first use.
    from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

    steps_per_epoch = math.ceil(len(features) / batch_size)
    total_steps = min(epochs * steps_per_epoch, max_steps or epochs * steps_per_epoch)
    evaluate_every = save_steps or steps_per_epoch
    arguments = Seq2SeqTrainingArguments(
        output_dir=str(output_dir / CHECKPOINTS), per_device_train_batch_size=batch_size,
        per_device_eval_batch_size=batch_size, learning_rate=learning_rate, num_train_epochs=epochs,
        max_steps=total_steps, warmup_steps=math.floor(DEFAULT_WARMUP_FRACTION * total_steps),
        lr_scheduler_type="linear", max_grad_norm=1.0, optim="adamw_torch", seed=seed, data_seed=seed,
        logging_steps=1, save_strategy="steps", save_steps=evaluate_every, save_total_limit=CHECKPOINTS_KEPT,
        eval_strategy="steps" if eval_features else "no", eval_steps=evaluate_every if eval_features else None,
        bf16=not use_cpu and torch.cuda.is_available() and torch.cuda.is_bf16_supported(), use_cpu=use_cpu,
        report_to="none", disable_tqdm=not show_progress, dataloader_num_workers=0)
    collator = DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100)
    return Seq2SeqTrainer(model=model, args=arguments, data_collator=collator, train_dataset=features,
                          eval_dataset=eval_features, processing_class=tokenizer)


def _newest_checkpoint(folder: Path) -> Optional[Path]:
    checkpoints = [path for path in folder.glob("checkpoint-*") if _step_of(path) is not None]
    return max(checkpoints, key=_step_of) if checkpoints else None


def _step_of(checkpoint: Optional[Path]) -> Optional[int]:
    if checkpoint is None:
        return None
    step = checkpoint.name.rpartition("-")[2]
    return parse_count(step, ascii_only=True)


def _public_name(model: str) -> str:
    """A Hub id as it is; a local folder by its name only: the summary is published with the model,
    and a path of the training machine tells readers nothing and may tell too much."""
    path = Path(model)
    return f"local folder {path.name!r}" if path.exists() else model


def save_trained(trainer: "Seq2SeqTrainer", tokenizer: "PreTrainedTokenizerBase", summary: dict,
                 output_dir: Path) -> None:
    output_dir.mkdir(parents=True, exist_ok=True)
    trainer.save_model(str(output_dir))
    tokenizer.save_pretrained(output_dir)
    write_atomically(output_dir / TRAINING_SUMMARY, json.dumps(summary, indent=2) + "\n")
    plot_losses(summary["step_losses"], output_dir / LOSS_PLOT)


def plot_losses(step_losses: Sequence[float], path: Path) -> None:
    Figure = import_extra("matplotlib.figure", "train", _PURPOSE).Figure

    figure = Figure(figsize=(6, 3.5))
    axis = figure.subplots()
    axis.plot(range(1, len(step_losses) + 1), step_losses, linewidth=1)
    axis.set_xlabel("step")
    axis.set_ylabel("training loss (cross-entropy)")
    axis.set_title("Statement model fine-tuning")
    figure.tight_layout()
    save_figure(figure, path, dpi=120)
