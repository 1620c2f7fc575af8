"""The ``seq2seq`` statement engine: a local folder or Hub id of a seq2seq model (the paper's
fine-tuned mT5, or any model trained with ``train-statements``), fed the paper's template."""

import logging
import re
from typing import Dict, List, Optional, Sequence

from tqdm.auto import tqdm

from capqa.common.constants import (STATEMENT_MAX_INPUT_TOKENS, STATEMENT_MAX_NEW_TOKENS, STATEMENT_NUM_BEAMS,
                                    STATEMENT_TEMPLATE)
from capqa.common.validation import check_positive_int
from capqa.loading.batching import batched_features
from capqa.loading.checks import check_pad_token, load_model, pad_on_the_right
from capqa.loading.pretrained import DEFAULT_LOAD, LoadArguments, load_pretrained, model_display_name, runs_remote_code
from capqa.loading.windows import windowed_texts
from capqa.records.identity import ModelSource, StatementIdentity, model_source
from capqa.statements.engine_spec import EngineRequest, EngineSpec, Pair

logger = logging.getLogger(__name__)

SEQ2SEQ_ENGINE = "seq2seq"
_WHITESPACE = re.compile(r"\s+")
_PROGRESS_MIN_INPUTS = 256


def model_statements_identity(source: ModelSource, dtype: str, load: str = "none") -> StatementIdentity:
    """A statement model's ``StatementIdentity``: its name, commit (or content hash), dtype and
    what of its loading changes what computes (``LoadArguments.identity``)."""
    return StatementIdentity("model", (("name", source.name), ("revision", source.revision), ("dtype", dtype),
                                       ("load", load)))


def statement_input(question: str, answer: str) -> str:
    """The statement model's input: the paper's template, whitespace collapsed."""
    text = STATEMENT_TEMPLATE.format(question=question, answer=answer)
    return _WHITESPACE.sub(" ", text).strip()


class Seq2SeqEngine:
    """Statements from a seq2seq model, batched; loads on first use when ``lazy``."""

    name = SEQ2SEQ_ENGINE

    def __init__(self, model: str, revision: Optional[str] = None, device: str = "auto", batch_size: int = 32,
                 num_beams: int = STATEMENT_NUM_BEAMS, max_input_tokens: int = STATEMENT_MAX_INPUT_TOKENS,
                 max_new_tokens: int = STATEMENT_MAX_NEW_TOKENS, show_progress: Optional[bool] = None,
                 precision: str = "auto", lazy: bool = False, load: LoadArguments = DEFAULT_LOAD) -> None:
        self.model_name, self.revision = str(model), revision
        self.batch_size = check_positive_int(batch_size, "batch_size")
        self.num_beams = check_positive_int(num_beams, "num_beams")
        self.max_input_tokens = check_positive_int(max_input_tokens, "max_input_tokens")
        self.max_new_tokens = check_positive_int(max_new_tokens, "max_new_tokens")
        self.show_progress = show_progress
        # Deferred: torch, which the device code loads (the registry of engines stays light).
        from capqa.loading.devices import resolve_device

        self.device = resolve_device(device)
        self.precision, self.load = precision, load
        self.model = None
        if not lazy:
            self.load_model()

    def load_model(self) -> None:
        # Deferred: transformers is heavy, imported on first use.
        from transformers import AutoConfig, AutoModelForSeq2SeqLM, AutoTokenizer

        # Deferred: torch, which the device code loads.
        from capqa.loading.devices import dtype_name, statement_dtype

        self.tokenizer = load_pretrained(AutoTokenizer, self.model_name, self.revision, "statement tokenizer",
                                         **self.load.for_tokenizer())
        check_pad_token(self.tokenizer, self.model_name, self.revision, "statement tokenizer", "statement_model")
        pad_on_the_right(self.tokenizer, self.model_name)
        config = load_pretrained(AutoConfig, self.model_name, self.revision, "statement model", **self.load.hub())
        if not config.is_encoder_decoder:
            raise ValueError(f"`statement_model` must be a seq2seq (encoder-decoder) model; "
                             f"{self.model_name!r} is a {config.model_type!r} model")
        dtype = statement_dtype(self.device, self.precision, config.model_type)
        model = load_model(AutoModelForSeq2SeqLM, self.model_name, self.revision, "statement model", dtype=dtype,
                           **self.load.for_model())
        remote_code = runs_remote_code(model) or runs_remote_code(self.tokenizer)
        self._identity = model_statements_identity(model_source(self.model_name, self.revision, self.load.cache_dir),
                                                   dtype_name(next(model.parameters()).dtype),
                                                   self.load.identity(remote_code))
        self.model = model.to(self.device).eval()

    def __repr__(self) -> str:
        state = "loaded" if self.model is not None else "loads on first use"
        return (f"model={model_display_name(self.model_name)!r}, revision={self.revision!r}, device='{self.device}', "
                f"batch_size={self.batch_size}, num_beams={self.num_beams}, {state}")

    @property
    def identity(self) -> StatementIdentity:
        if self.model is None:
            self.load_model()
        return self._identity

    def guard(self, pair: Pair, statement: str) -> Optional[str]:
        # A model may emit nothing for odd input; an empty statement would make NLI meaningless.
        return None if statement.strip() else "empty"

    def usage(self) -> Dict[str, int]:
        return {}

    def write(self, pairs: Sequence[Pair]) -> List[str]:
        if self.model is None:
            self.load_model()
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

    def _generate_batch(self, features):
        # Deferred: torch is heavy, imported on first use.
        import torch

        batch = self.tokenizer.pad(features, return_tensors="pt").to(self.device)
        with torch.inference_mode():
            output = self.model.generate(**batch, num_beams=self.num_beams, max_new_tokens=self.max_new_tokens,
                                         do_sample=False)
        return [text.strip() for text in self.tokenizer.batch_decode(output, skip_special_tokens=True)]


def build_seq2seq_engine(request: EngineRequest) -> Seq2SeqEngine:
    if not request.model:
        raise ValueError("the seq2seq statement engine needs `statement_model`: a local folder or a Hub id of a "
                         "seq2seq model")
    return Seq2SeqEngine(request.model, request.revision, device=request.device, batch_size=request.batch_size,
                         show_progress=request.show_progress, precision=request.precision, lazy=request.lazy,
                         load=request.load or DEFAULT_LOAD, **request.generation)


SPEC = EngineSpec(
    SEQ2SEQ_ENGINE, build_seq2seq_engine, "a seq2seq model fed the paper's template (the paper's mT5, or one "
    "trained with `train-statements`)", needs="`statement_model`: a local folder or a Hub id; torch (a GPU helps)",
    cost="local compute: a batch of statements per forward pass", determinism="greedy/beam search: the same "
    "statements on one machine, float rounding may differ across CPUs and GPUs", identity="`model(name=...,"
    "revision=...,dtype=...,load=...)`: the model's commit or a local folder's content hash", takes_model=True)
