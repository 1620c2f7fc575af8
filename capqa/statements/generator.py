"""Statements: (question, answer) -> one declarative sentence, the text CAP's NLI model compares.

``StatementGenerator`` wraps the paper's statement model (a fine-tuned mT5, or any seq2seq
folder) or, with ``model="rules"``, the offline rule-based converter of ``capqa.statements.rules``.
While the statement model is not published (``constants.STATEMENT_MODEL_PUBLISHED``), the
converter is the default (``default_statement_model``): that constant is the one switch.
"""

import functools
import logging
import re
from typing import List, Optional, Sequence, Tuple

import torch
from tqdm.auto import tqdm

from capqa import constants
from capqa.constants import (RULES, STATEMENT_MAX_INPUT_TOKENS, STATEMENT_MAX_NEW_TOKENS, STATEMENT_NUM_BEAMS,
                             STATEMENT_TEMPLATE, statement_model_id)
from capqa.engine.devices import dtype_name, resolve_device, statement_dtype
from capqa.engine.batching import batched_features
from capqa.engine.pairs import windowed_texts
from capqa.engine.loading import load_pretrained
from capqa.engine.model_checks import check_pad_token, load_model, pad_on_the_right
from capqa.identity import StatementIdentity, model_source, model_statements_identity, rules_identity
from capqa.validation import check_bool, check_positive_int, check_same_length, check_text_list

logger = logging.getLogger(__name__)

_WHITESPACE = re.compile(r"\s+")
_PROGRESS_MIN_INPUTS = 256


def default_statement_model() -> str:
    """The statement engine used when none is given: the published statement model once
    ``STATEMENT_MODEL_PUBLISHED`` says so, the rule-based converter until then (said once)."""
    if constants.STATEMENT_MODEL_PUBLISHED:  # read at each call: the one switch
        return statement_model_id()
    _say_rules_are_the_default()
    return RULES


@functools.lru_cache(maxsize=1)
def _say_rules_are_the_default():
    logger.warning("No statement_model given: the statements come from the rule-based converter "
                   "(statement_model=%r), since the statement model %s is not published yet; the hashcode "
                   "records it", RULES, statement_model_id())


def statement_input(question: str, answer: str) -> str:
    """The statement model's input: the paper's template, whitespace collapsed."""
    text = STATEMENT_TEMPLATE.format(question=question, answer=answer)
    return _WHITESPACE.sub(" ", text).strip()


class StatementGenerator:
    """Turns (question, answer) pairs into statements, batched and de-duplicated.

    model: "rules", a Hub id or a local folder of a seq2seq model (default:
        ``default_statement_model()``).
    precision: the statement model's dtype (``capqa.engine.devices.statement_dtype``): float32
        for "auto"; never float16 for a T5-family model.
    lazy: load the model on first use (``generate`` or ``identity``) instead of now.
    """

    def __init__(self, model: Optional[str] = None, revision: Optional[str] = None, device: str = "auto",
                 batch_size: int = 32, num_beams: int = STATEMENT_NUM_BEAMS,
                 max_input_tokens: int = STATEMENT_MAX_INPUT_TOKENS, max_new_tokens: int = STATEMENT_MAX_NEW_TOKENS,
                 show_progress: Optional[bool] = None, precision: str = "auto", lazy: bool = False) -> None:
        self.model_name = str(model or default_statement_model())
        self.revision = revision
        self.batch_size = check_positive_int(batch_size, "batch_size")
        self.num_beams = check_positive_int(num_beams, "num_beams")
        self.max_input_tokens = check_positive_int(max_input_tokens, "max_input_tokens")
        self.max_new_tokens = check_positive_int(max_new_tokens, "max_new_tokens")
        self.show_progress = show_progress
        self.uses_rules = self.model_name == RULES
        self.device = resolve_device(device)
        self.precision = precision
        self.model = None
        if not self.uses_rules and not check_bool(lazy, "lazy"):
            self._load_model()

    def _load_model(self):
        from transformers import AutoConfig, AutoModelForSeq2SeqLM, AutoTokenizer

        self.tokenizer = load_pretrained(AutoTokenizer, self.model_name, self.revision, "statement tokenizer")
        check_pad_token(self.tokenizer, self.model_name, self.revision, "statement tokenizer", "statement_model")
        pad_on_the_right(self.tokenizer, self.model_name)
        config = load_pretrained(AutoConfig, self.model_name, self.revision, "statement model")
        if not config.is_encoder_decoder:
            raise ValueError(f"`statement_model` must be a seq2seq (encoder-decoder) model; "
                             f"{self.model_name!r} is a {config.model_type!r} model")
        dtype = statement_dtype(self.device, self.precision, config.model_type)
        model = load_model(AutoModelForSeq2SeqLM, self.model_name, self.revision, "statement model", dtype=dtype)
        self._identity = model_statements_identity(model_source(self.model_name, self.revision),
                                                   dtype_name(next(model.parameters()).dtype))
        self.model = model.to(self.device).eval()

    @property
    def identity(self) -> StatementIdentity:
        """The engine as loaded: the rule converter's version and parser, or the model's name,
        commit (or content hash of a local folder) and dtype."""
        if self.uses_rules:
            return rules_identity()
        if self.model is None:
            self._load_model()
        return self._identity

    def generate(self, questions: Sequence[str], answers: Sequence[str], check_input: bool = True) -> List[str]:
        """One statement per (question, answer), in input order."""
        return self.generate_with_fallbacks(questions, answers, check_input)[0]

    def generate_with_fallbacks(self, questions: Sequence[str], answers: Sequence[str],
                                check_input: bool = True) -> Tuple[List[str], List[bool]]:
        """(one statement per (question, answer), whether each is a rule statement that stands
        in for an empty model output). check_input: False for a caller that checked the texts."""
        if check_input:
            questions, answers = check_text_list(questions, "questions"), check_text_list(answers, "answers")
            check_same_length(questions, "questions", answers, "answers")
        pairs = list(zip(questions, answers))
        unique = sorted(set(pairs))
        if self.uses_rules:
            made, empty = _rule_statements(unique), []
        else:
            made = self._generate_unique(unique)
            # A model may emit nothing for odd input; an empty statement would make NLI
            # meaningless, so such pairs get the rule-based statement instead, and say so.
            empty = [i for i, statement in enumerate(made) if not statement.strip()]
        if empty:
            logger.warning("the statement model %s gave an empty statement for %d of %d (question, answer) pairs; "
                           "they get the rule-based statement instead (marked in the details as "
                           "statement_fallback)", self.model_name, len(empty), len(unique))
            for i, statement in zip(empty, _rule_statements([unique[i] for i in empty])):
                made[i] = statement
        statements = dict(zip(unique, made))
        replaced = {unique[i] for i in empty}
        return [statements[pair] for pair in pairs], [pair in replaced for pair in pairs]

    def _generate_unique(self, pairs):
        if self.model is None:
            self._load_model()
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
