"""Small transformer models and tokenizers built without the Hub.

The Hub cannot be reached from the machines this project is built and tested on, so tests,
benchmarks and offline demos build their models here and save them as ordinary model folders;
the metric then loads them through exactly the same ``from_pretrained`` code as a Hub id.

- ``build_tokenizer``: a byte-level BPE tokenizer (every string encodes, none is unknown).
- ``build_nli_model``: a DeBERTa-v2 sequence classifier. With ``probabilities`` its classifier
  weights are zero and its bias is ``log(p)``, so every input gets exactly those probabilities.
- ``build_seq2seq_model``: a T5 encoder-decoder for the statement model. Its generation config
  ends each statement after ``STATEMENT_TOKENS`` tokens: random weights never choose the
  end-of-sequence token, so without it every statement runs to ``max_new_tokens`` (128).
- ``build_causal_lm``: a tiny Llama with a chat template, the model an OpenAI-compatible server
  (``transformers serve``) answers chat requests with in the tests of the ``openai`` engine; its
  random weights write nonsense, which is what the engine's guard must catch.
"""

import math
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Optional, Sequence

from capqa.common.constants import NLI_LABELS
from capqa.engine.model_checks import nli_label_indices

if TYPE_CHECKING:
    from transformers import DebertaV2Config, PreTrainedTokenizerBase, PreTrainedTokenizerFast

# Text the tokenizer's merges are learnt from when the caller gives none.
_DEFAULT_CORPUS = (
    "question: What is the capital of France? answer: Paris. The capital of France is Paris.",
    "question: Name a city in Bulgaria. answer: Sofia. Sofia is a city in Bulgaria.",
    "question: When did the Berlin Wall fall? answer: in 1989. The Berlin Wall fell in 1989.",
    "Water boils at 100 degrees Celsius. Plants make food using sunlight and photosynthesis.",
)
SPECIAL_TOKENS = {"pad_token": "<pad>", "eos_token": "</s>", "unk_token": "<unk>", "cls_token": "<s>"}

# Tokens in a statement of the tiny seq2seq model: a sentence's length, not the 128 of the limit.
STATEMENT_TOKENS = 12
# The factor by which the end-of-sequence score grows with each token past STATEMENT_TOKENS
# (transformers' exponential_decay_length_penalty): at once far above every other token's.
_EOS_GROWTH = 20.0

# The label order of cross-encoder/nli-deberta-v3-large: deliberately not the canonical one.
CROSS_ENCODER_ID2LABEL = {0: "contradiction", 1: "entailment", 2: "neutral"}


def build_tokenizer(corpus: Optional[Sequence[str]] = None, vocab_size: int = 400,
                    pair_template: str = "cls") -> "PreTrainedTokenizerFast":
    """A fast tokenizer; ``pair_template`` is "cls" (``<s> A </s> B </s>``, cross-encoders) or
    "eos" (``A </s>``, T5-style seq2seq)."""
    # Deferred: tokenizers is heavy, imported on first use.
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    # Deferred: transformers is heavy, imported on first use.
    from transformers import PreTrainedTokenizerFast

    specials = list(SPECIAL_TOKENS.values())
    tokenizer = Tokenizer(models.BPE(unk_token=SPECIAL_TOKENS["unk_token"]))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tokenizer.train_from_iterator(list(corpus or _DEFAULT_CORPUS), trainer=trainer)
    cls_id, eos_id = tokenizer.token_to_id("<s>"), tokenizer.token_to_id("</s>")
    if pair_template == "cls":
        tokenizer.post_processor = processors.TemplateProcessing(
            single="<s> $A </s>", pair="<s> $A </s> $B:1 </s>:1", special_tokens=[("<s>", cls_id), ("</s>", eos_id)])
    else:
        tokenizer.post_processor = processors.TemplateProcessing(
            single="$A </s>", pair="$A </s> $B:1 </s>:1", special_tokens=[("</s>", eos_id)])
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, model_max_length=512, **SPECIAL_TOKENS)


def deberta_config(tokenizer: "PreTrainedTokenizerBase", id2label: Mapping[int, str],
                   size: str = "tiny") -> "DebertaV2Config":
    """A DeBERTa-v2 config: "tiny" for tests, "large" = cross-encoder/nli-deberta-v3-large's shape."""
    # Deferred: transformers is heavy, imported on first use.
    from transformers import DebertaV2Config

    shapes = {
        "tiny": dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64),
        "small": dict(hidden_size=256, num_hidden_layers=4, num_attention_heads=4, intermediate_size=1024),
        "large": dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096),
    }
    vocab_size = 128100 if size == "large" else len(tokenizer)
    # Wider random weights for the tiny model, so that different pairs get clearly different
    # probabilities (with the usual 0.02 every output is close to uniform).
    initializer_range = 0.5 if size == "tiny" else 0.02
    return DebertaV2Config(
        vocab_size=vocab_size, max_position_embeddings=512, type_vocab_size=0,
        relative_attention=True, position_buckets=256, max_relative_positions=-1,
        pos_att_type=["p2c", "c2p"], norm_rel_ebd="layer_norm", share_att_key=True,
        hidden_act="gelu", pooler_hidden_act="gelu", pooler_dropout=0, hidden_dropout_prob=0.1,
        id2label=dict(id2label), label2id={label: index for index, label in id2label.items()},
        pad_token_id=tokenizer.pad_token_id, initializer_range=initializer_range, **shapes[size])


def build_nli_model(folder: Path, probabilities: Optional[Mapping[str, float]] = None,
                    id2label: Optional[Mapping[int, str]] = None, size: str = "tiny", seed: int = 0,
                    tokenizer: Optional["PreTrainedTokenizerBase"] = None) -> Path:
    """Save a sequence classifier and its tokenizer to ``folder``; return the folder.

    probabilities: optional {"entailment": p, "neutral": p, "contradiction": p}. When given, the classifier's weights are zero and its
    bias is log(p), so the model outputs exactly these probabilities for every pair.
    """
    # Deferred: torch is heavy, imported on first use.
    import torch
    # Deferred: transformers is heavy, imported on first use.
    from transformers import DebertaV2ForSequenceClassification

    id2label = dict(id2label or CROSS_ENCODER_ID2LABEL)
    tokenizer = tokenizer or build_tokenizer()
    torch.manual_seed(seed)
    model = DebertaV2ForSequenceClassification(deberta_config(tokenizer, id2label, size)).eval()
    if probabilities is not None:
        bias = torch.zeros(len(id2label))
        for label, index in zip(NLI_LABELS, nli_label_indices(id2label)):
            bias[index] = math.log(probabilities[label])
        with torch.no_grad():
            model.classifier.weight.zero_()
            model.classifier.bias.copy_(bias)
    return _save(model, tokenizer, folder)


def build_seq2seq_model(folder: Path, seed: int = 0, tokenizer: Optional["PreTrainedTokenizerBase"] = None,
                        corpus: Optional[Sequence[str]] = None,
                        statement_tokens: Optional[int] = STATEMENT_TOKENS, initializer_factor: float = 1.0) -> Path:
    """Save a tiny T5 with random weights and a tokenizer to ``folder``; return the folder.

    initializer_factor: T5's scale of the random weights; with 1.0 most inputs get the same
        statement, with 3.0 different inputs get different ones.
    statement_tokens: its generation config makes it end each output once it is this long (one
        token more at most); None leaves a random model generating up to ``max_new_tokens``, as
        ``capqa.dev.bench`` measures it.
    """
    # Deferred: torch is heavy, imported on first use.
    import torch
    # Deferred: transformers is heavy, imported on first use.
    from transformers import T5Config, T5ForConditionalGeneration

    tokenizer = tokenizer or build_tokenizer(corpus, pair_template="eos")
    config = T5Config(vocab_size=len(tokenizer), d_model=32, d_kv=16, d_ff=64, num_layers=2,
                      num_decoder_layers=2, num_heads=2, dropout_rate=0.0,
                      pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                      decoder_start_token_id=tokenizer.pad_token_id, initializer_factor=initializer_factor)
    torch.manual_seed(seed)
    model = T5ForConditionalGeneration(config).eval()
    if statement_tokens is not None:
        model.generation_config.exponential_decay_length_penalty = (statement_tokens, _EOS_GROWTH)
    return _save(model, tokenizer, folder)


# A chat template of the usual shape (one turn per message, then the assistant's turn).
CHAT_TEMPLATE = ("{% for message in messages %}<s>{{ message['role'] }}: {{ message['content'] }}</s>{% endfor %}"
                 "{% if add_generation_prompt %}<s>assistant:{% endif %}")


def build_causal_lm(folder: Path, seed: int = 0, tokenizer: Optional["PreTrainedTokenizerBase"] = None,
                    statement_tokens: Optional[int] = STATEMENT_TOKENS) -> Path:
    """Save a tiny Llama causal LM with random weights, a tokenizer and a chat template to
    ``folder``; return the folder. Like the seq2seq model, its generation config ends an output
    after ``statement_tokens`` tokens (random weights never choose the end-of-sequence token)."""
    # Deferred: torch is heavy, imported on first use.
    import torch
    # Deferred: transformers is heavy, imported on first use.
    from transformers import LlamaConfig, LlamaForCausalLM

    tokenizer = tokenizer or build_tokenizer(pair_template="eos")
    tokenizer.chat_template = CHAT_TEMPLATE
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.convert_tokens_to_ids("<s>"))
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config).eval()
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    if statement_tokens is not None:
        model.generation_config.exponential_decay_length_penalty = (statement_tokens, _EOS_GROWTH)
    return _save(model, tokenizer, folder)


def _save(model, tokenizer, folder):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
