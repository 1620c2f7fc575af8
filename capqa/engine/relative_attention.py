"""DeBERTa-v2/v3's relative-position attention computed over the positions a batch actually uses.

transformers' ``DisentangledSelfAttention`` projects all 2 x 256 relative-position embeddings
through the key and query projections in every layer, copies them once per sequence of the
batch (``.repeat``), and multiplies every token against all 512 of them, before ``gather``
keeps only the 2L - 1 that a batch of length L can use. CAP's statement pairs are short (about
50 tokens), so most of that work is thrown away: on nli-deberta-v3-large's shape it is a third
of the time of a forward pass on this project's benchmark.

``compact_relative_attention(model)`` replaces that method, on the model's own attention
modules, by one that projects only the window of embeddings the batch's relative positions
index, broadcasts instead of copying, and gathers the same entries. Every score is the same dot
product as before, so the output equals the stock one up to float rounding. It is installed only
on the transformers releases it was verified on (``VERIFIED_TRANSFORMERS``; any other release
keeps the stock attention, said once in an info line) and after a check of every layer against
the stock method on the model's own weights, at lengths up to ``max_length`` and in the model's
own precision (int8 included); a model it does not fit, a disagreement or any error leaves the
model untouched, with one warning. ``NLIScorer(compact_attention=False)`` (CLI
``--no-compact-attention``) never installs it.
"""

import functools
import logging
import types
import warnings

import torch
from packaging.specifiers import SpecifierSet

logger = logging.getLogger(__name__)

# The transformers releases whose DeBERTa-v2 attention this was verified against; elsewhere the
# stock code runs (pyproject.toml allows a wider range). From 4.56.0 to 5.24.0 the code it relies
# on (DisentangledSelfAttention, build_relative_position, scaled_size_sqrt, the encoder's
# relative positions) is the same but for type hints, docstrings and torch.jit.script decorators
# (5.23 dropped them); tests/engine/test_relative_attention.py passed on 4.56.0, 4.57.6, 5.0.0, 5.22.2
# and 5.24.0 (docs/dependencies.md). Widen it only after the same check on the new release.
VERIFIED_TRANSFORMERS = ">=4.56,<5.25"
# Largest |compact - stock| accepted by the check, relative to the largest stock score: rounding
# is ~1e-7 in float32 and ~1e-3 in bf16/fp16; with int8 linear layers the activations are
# quantised per tensor, so projecting a window instead of all rows moves scores by ~1e-2. A wrong
# index or scale is off by O(1).
_CHECK_TOLERANCE_FULL = 1e-5
_CHECK_TOLERANCE_ROUGH = 5e-2
# Sequence lengths of the check besides max_length: short, and past the log-bucket boundary.
_CHECK_SHORT_LENGTH = 7
_CHECK_PAST_BUCKETS = 22


def compact_relative_attention(model: torch.nn.Module, max_length: int = 512) -> int:
    """Install the compact computation on every DeBERTa-v2 attention module of ``model``, after
    checking every one of them against the stock method at lengths up to ``max_length``; return
    how many were changed. 0: the model is left as it was (another architecture, no relative
    attention, an unverified transformers, a disagreement, or any error: the patch is only a
    speed-up and must never stop a model from loading, so every failure falls back to stock)."""
    modules = []
    try:
        modules = deberta_v2_attention_modules(model)
        return _install(modules, max_length)
    except Exception as error:  # noqa: BLE001 -- see the docstring: any failure means stock
        _restore(modules)
        warnings.warn(f"DeBERTa-v2 compact relative attention could not be installed ({type(error).__name__}: "
                      f"{error}); the stock computation is kept (slower, same scores)", stacklevel=2)
        return 0


def transformers_is_verified() -> bool:
    # Deferred: transformers is heavy, imported on first use.
    import transformers
    return transformers.__version__ in SpecifierSet(VERIFIED_TRANSFORMERS)


@functools.lru_cache(maxsize=None)
def note_unverified_transformers(version):
    """Once per process and version: a newer transformers is expected, not a fault, so an info line."""
    logger.info("DeBERTa-v2 compact relative attention was verified on transformers %s, not %s: the stock "
                "attention is used (same scores, slower on short pairs)", VERIFIED_TRANSFORMERS, version)


def _install(modules, max_length):
    if not modules or not all(_fits(module) for module in modules):
        return 0
    if not transformers_is_verified():
        import transformers  # Deferred: transformers is heavy (the caller has loaded it by now)

        note_unverified_transformers(transformers.__version__)
        return 0
    if not all(_agrees_with_stock(module, lengths) for module, lengths in check_plan(modules, max_length)):
        warnings.warn("DeBERTa-v2 compact relative attention disagrees with this transformers version's "
                      "attention; the stock computation is kept (slower, same scores)", stacklevel=3)
        return 0
    for module in modules:
        module.disentangled_attention_bias = types.MethodType(_compact_attention_bias, module)
    logger.debug("compact relative attention installed on %d modules", len(modules))
    return len(modules)


def _restore(modules):
    for module in modules:
        vars(module).pop("disentangled_attention_bias", None)


def deberta_v2_attention_modules(model):
    try:  # Deferred: transformers is heavy; an install without DeBERTa-v2 has nothing to patch
        from transformers.models.deberta_v2.modeling_deberta_v2 import DisentangledSelfAttention
    except ImportError:
        return []
    return [module for module in model.modules() if isinstance(module, DisentangledSelfAttention)]


def _fits(module):
    """The stock attributes the compact computation relies on are all there, and the module has
    relative attention to compute (``pos_att_type`` empty: nothing to make compact)."""
    needed = ("pos_ebd_size", "position_buckets", "max_relative_positions", "pos_att_type",
              "share_att_key", "num_attention_heads", "query_proj", "key_proj")
    return (all(hasattr(module, name) for name in needed) and getattr(module, "relative_attention", False)
            and any(kind in (module.pos_att_type or ()) for kind in ("c2p", "p2c")))


def _stock_attention_bias(module):
    return type(module).disentangled_attention_bias.__get__(module)


def _check_lengths(module, max_length):
    """Short, just past the log-bucket boundary (position_buckets / 2), and max_length."""
    past_buckets = module.position_buckets // 2 + _CHECK_PAST_BUCKETS if module.position_buckets > 0 else 150
    return sorted({length for length in (_CHECK_SHORT_LENGTH, past_buckets) if length < max_length} | {max_length})


def check_plan(modules, max_length):
    """(module, lengths to check it at): the first layer at every length, each other layer at one
    of them in turn, so that every layer and every length is checked. The index arithmetic
    depends only on the length and the config (the same in every layer), the weights only on the
    layer; and each stock call projects all 512 position embeddings, so checking 24 layers at
    every length would add tens of seconds to a large model's load."""
    lengths = _check_lengths(modules[0], max_length)
    return [(module, lengths if index == 0 else [lengths[index % len(lengths)]])
            for index, module in enumerate(modules)]


def _is_quantized(module):
    return any(type(sub).__module__.startswith("torch.ao.nn.quantized") for sub in module.modules())


@torch.inference_mode()
def _agrees_with_stock(module, lengths):
    """Compare both computations on random queries and keys, with the module's own weights."""
    # Deferred: transformers is heavy, imported on first use.
    from transformers.models.deberta_v2.modeling_deberta_v2 import build_relative_position

    # int8 dynamic layers hold no float parameters; they run in float32 on the CPU.
    reference = next((tensor for tensor in module.parameters() if tensor.is_floating_point()),
                     torch.zeros((), dtype=torch.float32))
    device, dtype = reference.device, reference.dtype
    heads, head_size = module.num_attention_heads, module.query_proj.out_features // module.num_attention_heads
    generator = torch.Generator().manual_seed(0)
    rel_embeddings = torch.randn(2 * module.pos_ebd_size, module.query_proj.in_features, generator=generator)
    rel_embeddings = rel_embeddings.to(device, dtype)
    rough = dtype.itemsize < 4 or _is_quantized(module)
    relative = _CHECK_TOLERANCE_ROUGH if rough else _CHECK_TOLERANCE_FULL
    for length in lengths:
        query, key = (torch.randn(2 * heads, length, head_size, generator=generator).to(device, dtype)
                      for _ in range(2))
        relative_pos = build_relative_position(query, key, bucket_size=module.position_buckets,
                                               max_position=module.max_relative_positions)
        stock = _stock_attention_bias(module)(query, key, relative_pos, rel_embeddings, 3)
        compact = _compact_attention_bias(module, query, key, relative_pos, rel_embeddings, 3)
        tolerance = relative * stock.abs().max().item()
        if stock.shape != compact.shape or (stock.float() - compact.float()).abs().max() > tolerance:
            return False
    return True


def _compact_attention_bias(self, query_layer, key_layer, relative_pos, rel_embeddings, scale_factor):
    """Same signature and result as ``DisentangledSelfAttention.disentangled_attention_bias``."""
    # Deferred: transformers is heavy, imported on first use.
    from transformers.models.deberta_v2.modeling_deberta_v2 import build_relative_position, scaled_size_sqrt

    if relative_pos is None:
        relative_pos = build_relative_position(query_layer, key_layer, bucket_size=self.position_buckets,
                                               max_position=self.max_relative_positions)
    length = query_layer.size(-2)
    # Only self-attention with one relative-position matrix for the whole batch (what the
    # encoder passes) is handled; anything else goes to the stock computation.
    if key_layer.size(-2) != length or relative_pos.numel() != length * length:
        return _stock_attention_bias(self)(query_layer, key_layer, relative_pos, rel_embeddings, scale_factor)
    relative_pos = relative_pos.reshape(length, length).to(device=query_layer.device, dtype=torch.long)
    span = self.pos_ebd_size
    c2p_index = torch.clamp(relative_pos + span, 0, span * 2 - 1)
    p2c_index = torch.clamp(-relative_pos + span, 0, span * 2 - 1)
    # The embedding rows the indices reach, span +- the farthest relative position (one reduction,
    # one device sync): a window of 2L - 1 rows for L < position_buckets / 2.
    reach = int(relative_pos.abs().max())
    first, last = max(span - reach, 0), min(span + reach, span * 2 - 1)
    window = rel_embeddings[first:last + 1]
    batch_heads, head_size = query_layer.size(0), query_layer.size(-1)
    heads = self.num_attention_heads
    scale = scaled_size_sqrt(query_layer, scale_factor)
    score = 0
    if "c2p" in self.pos_att_type:
        projection = self.key_proj if self.share_att_key else self.pos_key_proj
        c2p = _against_window(query_layer, projection(window), heads, head_size)
        c2p = torch.gather(c2p, -1, (c2p_index - first).expand(batch_heads, length, length))
        score = score + c2p / scale.to(dtype=c2p.dtype)
    if "p2c" in self.pos_att_type:
        projection = self.query_proj if self.share_att_key else self.pos_query_proj
        p2c = _against_window(key_layer, projection(window), heads, head_size)
        p2c = torch.gather(p2c, -1, (p2c_index - first).expand(batch_heads, length, length)).transpose(-1, -2)
        score = score + p2c / scale.to(dtype=p2c.dtype)
    return score


def _against_window(states, projected_window, heads, head_size):
    """(batch x heads, L, W): each head's states against that head's projected window, broadcast
    over the batch rather than copied per sequence."""
    batch_heads, length, _ = states.shape
    per_head = projected_window.view(-1, heads, head_size).permute(1, 2, 0)  # heads, head_size, W
    scores = torch.matmul(states.view(batch_heads // heads, heads, length, head_size), per_head)
    return scores.view(batch_heads, length, -1)
