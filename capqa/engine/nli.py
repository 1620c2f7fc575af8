"""The NLI engine: one class that owns the cross-encoder, its tokenizer, device and batching.

Like sentence-transformers' ``CrossEncoder``, ``NLIScorer.predict(premises, hypotheses)``
returns one row of (entailment, neutral, contradiction) probabilities per pair, whatever label
order the model uses. What makes it fast on many pairs:
- identical pairs are scored once (CAP's forward and reverse passes go through the same call);
- pairs are ordered by token length so each batch carries little padding, then results are put
  back in input order; the order depends only on the set of pairs, so a score never depends on
  the batch size or the order of the input beyond float rounding;
- ``torch.inference_mode`` and bf16/fp16 on CUDA (``precision`` chooses, e.g. bf16 on a CPU with AMX);
- DeBERTa-v2/v3's relative-position attention over the positions a batch uses, not all 512
  (``capqa.engine.relative_attention``: same scores, a third less time on short pairs);
- optionally (``quantize=True``, CPU only) dynamic int8 quantisation of the linear layers.
"""

import os
import warnings
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np
import torch
from tqdm.auto import tqdm

from capqa.common.constants import DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION, NLI_LABELS, NLI_MAX_LENGTH
from capqa.common.validation import (check_bool, check_max_length, check_max_length_fits, check_positive_int,
                                     check_same_length, check_text_list)
from capqa.engine.cache import ScoreCache
from capqa.engine.model_checks import check_probabilities, checked_label_indices
from capqa.engine.pairs import encode_pairs
from capqa.engine.relative_attention import compact_relative_attention
from capqa.loading.batching import padding_batches
from capqa.loading.checks import check_known_tokens, check_pad_token, load_model, pad_on_the_right
from capqa.loading.devices import check_quantize, dtype_name, inference_dtype, resolve_device
from capqa.loading.pretrained import (DEFAULT_LOAD, LoadArguments, UnusableModel, first_line, load_pretrained,
                                      model_error, runs_remote_code)
from capqa.records.code import engine_code_digest
from capqa.records.identity import NLIIdentity, cache_key, model_source

# Show a progress bar from this many pairs on, unless the caller decides.
_PROGRESS_MIN_PAIRS = 512
# A first pair at load time: a model that fails or gives NaN fails here, not on the first batch.
_CHECK_PAIR = ("A man is playing a guitar on stage.", "A man is playing music.")


class NLIScorer:
    """Probabilities of entailment, neutral and contradiction for (premise, hypothesis) pairs.

    model: a Hub id or a local folder of a sequence-classification model.
    cache: optional store with ``get(pairs) -> {pair: probabilities}`` and ``put({pair: ...})``
        (see capqa.engine.cache); finished batches are stored as they complete, so an interrupted
        job resumes where it stopped.
    score_cache_dir: a folder for a ``ScoreCache`` keyed by this scorer's ``identity`` (when no
        ``cache`` is given).
    quantize: CPU dynamic int8 quantisation of the linear layers (faster on CPU, slightly
        different probabilities; see docs/performance.md).
    precision: "auto" (bf16 on CUDA, fp16 where bf16 is missing, float32 elsewhere), "float32",
        "bfloat16" (fast on CPUs with AMX, probabilities differ by ~1e-3) or "float16" (GPUs).
    compact_attention: compute DeBERTa-v2/v3's relative attention over the window of positions
        each batch uses (``capqa.engine.relative_attention``); False keeps transformers' own code.
    load: what every from_pretrained call gets besides the name and revision (the Hub cache,
        ``local_files_only``, ``trust_remote_code``, keyword arguments for the model and its
        tokenizer: ``capqa.loading.pretrained.LoadArguments``).
    """

    def __init__(self, model: Union[str, os.PathLike] = DEFAULT_NLI_MODEL, revision: Optional[str] = None,
                 device: Union[str, torch.device, None] = "auto", batch_size: int = 32,
                 max_length: int = NLI_MAX_LENGTH, max_tokens: Optional[int] = None,
                 show_progress: Optional[bool] = None, cache: Optional["ScoreCache"] = None,
                 quantize: bool = False, precision: str = "auto", compact_attention: bool = True,
                 score_cache_dir: Optional[Union[str, os.PathLike]] = None, load: LoadArguments = DEFAULT_LOAD) -> None:
        # Deferred: transformers is heavy, imported on first use.
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.model_name = str(model)
        # The pinned commit belongs to the default model only; other models default to their main.
        self.revision = DEFAULT_NLI_REVISION if revision is None and self.model_name == DEFAULT_NLI_MODEL else revision
        self.batch_size = check_positive_int(batch_size, "batch_size")
        self.max_length = check_max_length(max_length)
        self.max_tokens = None if max_tokens is None else check_positive_int(max_tokens, "max_tokens")
        self.device = resolve_device(device)
        self.show_progress = show_progress
        self.cache = cache
        # self.revision, not the argument: the default model loads its pinned commit.
        self.tokenizer = load_pretrained(AutoTokenizer, self.model_name, self.revision, "NLI tokenizer",
                                         **load.for_tokenizer())
        dtype = inference_dtype(self.device, precision)
        self.quantize = check_quantize(quantize, self.device, dtype)
        self.model = load_model(AutoModelForSequenceClassification, self.model_name, self.revision,
                                "NLI model", dtype=dtype, **load.for_model())
        self.model.to(self.device).eval()
        loaded_dtype = next(self.model.parameters()).dtype  # what loaded, before any quantisation
        if self.quantize:
            self.model = quantize_linear_layers(self.model)
        # After quantising, so that the check runs on the layers that will compute.
        self.compact_attention = bool(check_bool(compact_attention, "compact_attention")
                                      and compact_relative_attention(self.model, self.max_length))
        self.label_indices = checked_label_indices(self.model_name, self.revision, self.model.config)
        check_max_length_fits(self.max_length, self.model_name, self.model.config, self.tokenizer)
        self._check_loaded()  # pad token, vocabulary, a first pair: fail now, not on the first batch
        source = model_source(self.model_name, self.revision, load.cache_dir)
        # What loaded and how it computes: the hashcode's and the cache key's NLI part.
        remote_code = runs_remote_code(self.model) or runs_remote_code(self.tokenizer)
        self.identity = NLIIdentity(source.name, source.revision, dtype_name(loaded_dtype),
                                    "int8-dynamic" if self.quantize else "none", self.max_length,
                                    self.compact_attention, engine_code_digest(), load.identity(remote_code))
        if self.cache is None and score_cache_dir is not None:
            self.cache = ScoreCache(score_cache_dir, cache_key(self.identity))

    def __repr__(self) -> str:
        """What computes, in one line (as bert_score's scorer): the model as loaded (a local folder
        by its name), its revision, device, dtype and batching."""
        identity = self.identity
        return (f"NLIScorer(model={identity.model!r}, revision={identity.revision!r}, device='{self.device}', "
                f"dtype={identity.dtype}, quantization={identity.quantization}, max_length={self.max_length}, "
                f"batch_size={self.batch_size}, compact_attention={identity.compact_attention}"
                f"{'' if identity.load == 'none' else f', load={identity.load}'})")

    def _check_loaded(self) -> None:
        """Refuse, right after loading, an NLI model that would fail or mislead on the first batch
        (and make its tokenizer pad on the right, ``pad_on_the_right``)."""
        what, name, revision = "NLI tokenizer", self.model_name, self.revision
        check_pad_token(self.tokenizer, name, revision, what, "nli_model")
        pad_on_the_right(self.tokenizer, name)
        check_known_tokens(self.tokenizer, name, revision, what)
        rows = getattr(self.model.get_input_embeddings(), "num_embeddings", None)
        if isinstance(rows, int) and len(self.tokenizer) > rows:
            raise model_error(name, revision, what,
                              f"the tokenizer of `nli_model` has {len(self.tokenizer):,} tokens but the model's "
                              f"embeddings hold {rows:,}; text with the tokens beyond would fail mid-job",
                              UnusableModel)
        features, _ = self.plan([_CHECK_PAIR])
        try:
            self._forward(features)
        except ValueError as error:  # non-finite probabilities (check_probabilities)
            raise model_error(name, revision, "NLI model", str(error), UnusableModel) from None
        except Exception as error:  # noqa: BLE001 (any failure on a first pair is the model's)
            raise model_error(name, revision, "NLI model", f"it fails on a first test pair "
                                                           f"({type(error).__name__}: {first_line(error)})",
                              UnusableModel) from error

    def predict(self, premises: Sequence[str], hypotheses: Sequence[str], check_input: bool = True) -> np.ndarray:
        """(n, 3) float64 array: P(entailment), P(neutral), P(contradiction) per pair.

        check_input: False skips the checks of the texts, for a caller that made them already
        (``CAPScorer.score``); anything but a list of non-empty strings then fails deep inside.
        """
        if check_input:
            premises, hypotheses = check_text_list(premises, "premises"), check_text_list(hypotheses, "hypotheses")
            check_same_length(premises, "premises", hypotheses, "hypotheses")
        pairs = list(zip(premises, hypotheses))
        if not pairs:
            return np.zeros((0, len(NLI_LABELS)))
        probabilities = self._score_unique(sorted(set(pairs)))
        return np.stack([probabilities[pair] for pair in pairs])

    @property
    def precision(self) -> str:
        """How the model computes ("float32", "bfloat16", "int8-dynamic"): part of a cache key,
        since each gives slightly different probabilities."""
        if self.quantize:
            return "int8-dynamic"
        return str(next(self.model.parameters()).dtype).replace("torch.", "")

    def plan(self, pairs: Sequence[Tuple[str, str]]) -> Tuple[List[dict], List[List[int]]]:
        """Tokenised features of ``pairs`` and the batches (lists of positions) they run in.

        Each side is cut to its share of ``max_length`` before the pair is built
        (``capqa.engine.pairs``), so memory does not grow with text length."""
        features = encode_pairs(self.tokenizer, [p for p, _ in pairs], [h for _, h in pairs], self.max_length)
        lengths = [len(feature["input_ids"]) for feature in features]
        return features, padding_batches(lengths, self.batch_size, self.max_tokens)

    def _score_unique(self, pairs):
        scored = dict(self.cache.get(pairs)) if self.cache is not None else {}
        todo = [pair for pair in pairs if pair not in scored]
        if todo:
            features, batches = self.plan(todo)
            show = len(todo) >= _PROGRESS_MIN_PAIRS if self.show_progress is None else self.show_progress
            for batch in tqdm(batches, desc="NLI", unit="batch", disable=not show):
                rows = self._forward([features[i] for i in batch])
                finished = {todo[i]: row for i, row in zip(batch, rows)}
                if self.cache is not None:
                    self.cache.put(finished)
                scored.update(finished)
        return scored

    @torch.inference_mode()
    def _forward(self, features):
        inputs = self.tokenizer.pad(features, return_tensors="pt").to(self.device)
        logits = self.model(**inputs).logits.float()
        probabilities = torch.softmax(logits, dim=-1)[:, self.label_indices]
        return check_probabilities(probabilities.double().cpu().numpy(), self.model_name, self.precision)


def quantize_linear_layers(model: torch.nn.Module) -> torch.nn.Module:
    """``model`` with its ``nn.Linear`` layers dynamically quantised to int8 (weights int8,
    activations quantised per batch): on CPU the matrix products dominate and int8 speeds them up."""
    with warnings.catch_warnings():
        # torch.ao.quantization still works but announces its move to torchao.
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message=".*quantize_per_tensor.*")
        return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
