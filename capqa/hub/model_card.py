"""The model card of a trained statement-model folder, with that folder's own figures.

The project's card (``statement_model_card/README.md``) describes the paper's model: its size,
its hand-checked quality. ``publish model`` must not attach those figures to whatever folder it
uploads, so the card it generates keeps the template's prose and replaces what is measured with
the folder's own measurements: the evaluation section comes from the folder's
``eval_statements.json`` (written by ``eval-statements --output-json``), the size from its weights.
A folder without those results is refused; its owner can then pass a card with ``--card``.
"""

import json
import logging
import math
import re
from pathlib import Path
from typing import Optional

logger = logging.getLogger(__name__)

EVAL_RESULTS_FILE = "eval_statements.json"
TRAINING_SUMMARY_FILE = "training_summary.json"
_SECTION = re.compile(r"^## (?P<title>.+)$", re.MULTILINE)


def folder_model_card(folder: Path, template: Path) -> str:
    """The card text for ``folder``: ``template`` with the folder's figures; ``ValueError`` when
    the folder has no evaluation results or was trained from another base model than the card's."""
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import ModelCard

    folder = Path(folder)
    results_path = folder / EVAL_RESULTS_FILE
    if not results_path.is_file():
        raise ValueError(
            f"{folder} has no README.md and no {EVAL_RESULTS_FILE}, so a card would carry figures that are not "
            f"this model's. Measure it first: `python -m capqa eval-statements --model {folder} --split test "
            f"--output-json {results_path}`, or pass its card with --card")
    scores = json.loads(results_path.read_text(encoding="utf-8"))
    card = ModelCard.load(template)
    trained_from = _trained_from(folder)
    if trained_from is not None and trained_from != card.data.base_model:
        raise ValueError(f"{folder} was trained from {trained_from!r}, but the card template describes "
                         f"{card.data.base_model!r}: write this model's card and pass it with --card")
    text = _replace_section(card.text, "Evaluation", _evaluation_section(scores))
    text = re.sub(r"^- \*\*Model type:\*\*.*$", f"- **Model type:** encoder-decoder{_size(folder)}, fine-tuned "
                  "for text-to-text generation.", text, count=1, flags=re.MULTILINE)
    # The paper's hand check measured the paper's model, not this one.
    card.text = _without_bullets_mentioning(text, "paper's check")
    return str(card)


def _trained_from(folder: Path) -> Optional[str]:
    summary = folder / TRAINING_SUMMARY_FILE
    if not summary.is_file():
        return None
    return json.loads(summary.read_text(encoding="utf-8")).get("base_model")


def _size(folder: Path) -> str:
    """", N parameters" read from the safetensors headers, or "" without safetensors weights."""
    # Deferred: safetensors is heavy, imported on first use.
    from safetensors import safe_open

    total = 0
    for weights in sorted(folder.glob("*.safetensors")):
        try:
            with safe_open(str(weights), framework="numpy") as handle:
                for name in handle.keys():
                    total += math.prod(handle.get_slice(name).get_shape())
        except Exception as error:  # safetensors' own error type; the size is a note, not a requirement
            logger.warning("could not read the size of %s (%s); the card states none", weights, error)
            return ""
    return f" ({total / 1e6:,.1f}M parameters)" if total else ""


def _evaluation_section(scores: dict) -> str:
    groups = [*sorted(scores.get("by_question_type", {}).items()), ("overall", scores)]
    rows = [f"| {name} | {group['rows']:,} | {group['exact_match']:.3f} | {group['token_f1']:.3f} | "
            f"{group['bleu']:.2f} | {group['chrf']:.2f} |" for name, group in groups]
    data = scores.get("evaluated_on", "a CAP-Statements split")
    return "\n".join([
        "## Evaluation", "",
        f"Measured for this model with `python -m capqa eval-statements` on {data}. Exact match and token "
        "F1 are after lower-casing and removing punctuation; BLEU and chrF are corpus sacreBLEU scores.", "",
        "| question type | rows | exact match | token F1 | BLEU | chrF |", "|---|---:|---:|---:|---:|---:|",
        *rows, "",
        "The paper's hand check of its statement model (share of correct statements) was not repeated "
        "for this model.", ""])


def _without_bullets_mentioning(text: str, phrase: str) -> str:
    """``text`` without the Markdown bullets (a "- " line and its indented continuation) that
    contain ``phrase``."""
    kept, bullet = [], []

    def flush() -> None:
        if bullet and phrase not in " ".join(line.strip() for line in bullet):
            kept.extend(bullet)
        bullet.clear()

    for line in text.splitlines():
        if line.startswith("- ") or (bullet and not line.startswith("  ")):
            flush()
        (bullet if line.startswith("- ") or (bullet and line.startswith("  ")) else kept).append(line)
    flush()
    return "\n".join(kept) + "\n"


def _replace_section(text: str, title: str, replacement: str) -> str:
    """``text`` with the ``## title`` section (up to the next ``## ``) replaced."""
    headings = list(_SECTION.finditer(text))
    for index, heading in enumerate(headings):
        if heading.group("title").strip() == title:
            end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
            return text[:heading.start()] + replacement + "\n" + text[end:]
    return text.rstrip("\n") + "\n\n" + replacement
