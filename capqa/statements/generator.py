"""Statements: (question, answer) -> one declarative sentence, the text CAP's NLI model compares.

``StatementGenerator`` wraps the paper's statement model (a fine-tuned mT5, or any seq2seq
folder) or, with ``model="rules"``, the offline rule-based converter of ``capqa.statements.rules``.
"""

import re
from typing import Optional, Sequence

import torch
from tqdm.auto import tqdm

from capqa.constants import (RULES, STATEMENT_MAX_INPUT_TOKENS, STATEMENT_MAX_NEW_TOKENS,
                             STATEMENT_NUM_BEAMS, STATEMENT_TEMPLATE, statement_model_id)
from capqa.engine.devices import inference_dtype, resolve_device
from capqa.engine.batching import batched_features
from capqa.engine.pairs import windowed_texts
from capqa.engine.loading import load_pretrained
from capqa.engine.model_checks import check_pad_token, load_model, pad_on_the_right
from capqa.validation import check_positive_int, check_same_length, check_text_list

_WHITESPACE = re.compile(r"\s+")
_PROGRESS_MIN_INPUTS = 256


def statement_input(question: str, answer: str) -> str:
    """The statement model's input: the paper's template, whitespace collapsed."""
    text = STATEMENT_TEMPLATE.format(question=question, answer=answer)
    return _WHITESPACE.sub(" ", text).strip()


class StatementGenerator:
    """Turns (question, answer) pairs into statements, batched and de-duplicated.

    model: "rules", a Hub id or a local folder of a seq2seq model (default: the project's
        published statement model).
    """

    def __init__(self, model: Optional[str] = None, revision: Optional[str] = None, device: str = "auto",
                 batch_size: int = 32, num_beams: int = STATEMENT_NUM_BEAMS,
                 max_input_tokens: int = STATEMENT_MAX_INPUT_TOKENS, max_new_tokens: int = STATEMENT_MAX_NEW_TOKENS,
                 show_progress: Optional[bool] = None) -> None:
        self.model_name = str(model or statement_model_id())
        self.revision = revision
        self.batch_size = check_positive_int(batch_size, "batch_size")
        self.num_beams = check_positive_int(num_beams, "num_beams")
        self.max_input_tokens = check_positive_int(max_input_tokens, "max_input_tokens")
        self.max_new_tokens = check_positive_int(max_new_tokens, "max_new_tokens")
        self.show_progress = show_progress
        self.uses_rules = self.model_name == RULES
        if not self.uses_rules:
            self._load_model(device)

    def _load_model(self, device):
        from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

        self.device = resolve_device(device)
        self.tokenizer = load_pretrained(AutoTokenizer, self.model_name, self.revision, "statement tokenizer")
        check_pad_token(self.tokenizer, self.model_name, self.revision, "statement tokenizer", "statement_model")
        pad_on_the_right(self.tokenizer, self.model_name)
        self.model = load_model(AutoModelForSeq2SeqLM, self.model_name, self.revision,
                                "statement model", dtype=inference_dtype(self.device))
        if not self.model.config.is_encoder_decoder:
            raise ValueError(f"`statement_model` must be a seq2seq (encoder-decoder) model; "
                             f"{self.model_name!r} is a {type(self.model).__name__}")
        self.model.to(self.device).eval()

    def generate(self, questions: Sequence[str], answers: Sequence[str]) -> list:
        """One statement per (question, answer), in input order."""
        questions, answers = check_text_list(questions, "questions"), check_text_list(answers, "answers")
        check_same_length(questions, "questions", answers, "answers")
        pairs = list(zip(questions, answers))
        unique = sorted(set(pairs))
        made = _rule_statements(unique) if self.uses_rules else self._generate_unique(unique)
        # A model may emit nothing for odd input; an empty statement would make NLI
        # meaningless, so such pairs get the rule-based statement instead.
        empty = [i for i, statement in enumerate(made) if not statement.strip()]
        for i, statement in zip(empty, _rule_statements([unique[i] for i in empty])):
            made[i] = statement
        statements = dict(zip(unique, made))
        return [statements[pair] for pair in pairs]

    def _generate_unique(self, pairs):
        inputs = [statement_input(question, answer) for question, answer in pairs]
        # A very long input is cut to a window of characters first: same tokens, flat time.
        encoded = self.tokenizer(windowed_texts(self.tokenizer, inputs, self.max_input_tokens),
                                 truncation=True, max_length=self.max_input_tokens)
        features, batches = batched_features(encoded, self.batch_size)
        show = len(inputs) >= _PROGRESS_MIN_INPUTS if self.show_progress is None else self.show_progress
        statements = [None] * len(inputs)
        for batch in tqdm(batches, desc="statements", unit="batch", disable=not show):
            for position, text in zip(batch, self._generate_batch([features[i] for i in batch])):
                statements[position] = text
        return statements

    @torch.inference_mode()
    def _generate_batch(self, features):
        batch = self.tokenizer.pad(features, return_tensors="pt").to(self.device)
        output = self.model.generate(**batch, num_beams=self.num_beams, max_new_tokens=self.max_new_tokens,
                                     do_sample=False)
        return [text.strip() for text in self.tokenizer.batch_decode(output, skip_special_tokens=True)]


def _rule_statements(pairs):
    if not pairs:
        return []
    from capqa.statements.rules import rule_statements  # imported on use: the model path never needs it

    return rule_statements([question for question, _ in pairs], [answer for _, answer in pairs])
