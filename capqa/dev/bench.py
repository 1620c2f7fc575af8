"""The NLI engine against a straightforward scorer, side by side (``python -m capqa bench``, whose
command line is ``capqa.cli.bench``).

Both score CAP's workload, the forward (premise -> hypothesis) and reverse pairs of the real
statement pairs in data/cap_correctness_sample.csv, with the same model (same weights,
dtype, threads and batch size), so the only difference is how the work is done:

- the reference scores pairs in input order, in fixed batches, the forward pass then the reverse
  pass, each batch padded to its longest pair, nothing de-duplicated, with transformers' model
  exactly as ``from_pretrained`` returns it (a first implementation);
- the engine (``capqa.engine.nli.NLIScorer``) scores each distinct pair once, forward and reverse in one
  call, in batches of similar length (optionally under a token budget), with DeBERTa's relative
  attention computed over the positions each batch uses (``capqa.engine.relative_attention``).

The model is ``cross-encoder/nli-deberta-v3-large``'s architecture (or a small/tiny one) with
random weights, built offline; the tokenizer is a byte-level BPE trained on the sample's own
statements. Timings are therefore real, the probabilities meaningless (only compared).
"""

import functools
import os
import statistics
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd
import torch

from capqa.common.extras import import_extra
from capqa.common.files import save_figure
from capqa.common.paths import DATA_DIR
from capqa.common.validation import check_positive_int
from capqa.dev.measure import machine_description, run_scorers, timed
from capqa.dev.offline_models import build_nli_model, build_seq2seq_model, build_tokenizer
from capqa.metric.formula import cap_from_probabilities
from capqa.statements.generator import StatementGenerator

if TYPE_CHECKING:
    from transformers import PreTrainedModel

    from capqa.engine.nli import NLIScorer

SAMPLE_CSV = DATA_DIR / "cap_correctness_sample.csv"
# Vocabulary of the benchmark's BPE tokenizer: close to DeBERTa-v3's tokens per word on this text.
BENCH_VOCAB_SIZE = 8000
# Pairs the tiny seq2seq statement model is timed on (it generates 128 tokens x 4 beams each).
STATEMENT_MODEL_LIMIT = 64


# --- Inputs and models --------------------------------------------------------------------------

def load_sample(path: Union[str, os.PathLike] = SAMPLE_CSV, rows: Optional[int] = None) -> "pd.DataFrame":
    """The sample's rows as a DataFrame; ``rows`` picks that many, evenly spread over the file
    (the file is five dataset blocks, so the first rows alone would be one dataset)."""
    frame = pd.read_csv(path, keep_default_na=False)
    if rows is not None and rows < len(frame):
        positions = np.linspace(0, len(frame) - 1, check_positive_int(rows, "rows")).round().astype(int)
        frame = frame.iloc[np.unique(positions)]
    return frame.reset_index(drop=True)


def build_bench_model(folder: Union[str, os.PathLike], texts: Sequence[str], size: str) -> str:
    """Save a random-weight DeBERTa-v2 NLI model of ``size`` with a BPE tokenizer trained on
    ``texts`` to ``folder`` (reused when already there: building "large" takes a while; the
    model and tokenizer depend only on ``size`` and the sample file)."""
    folder = Path(folder) / f"nli-{size}"
    if not (folder / "config.json").exists():
        tokenizer = build_tokenizer(corpus=texts, vocab_size=BENCH_VOCAB_SIZE)
        build_nli_model(folder, size=size, tokenizer=tokenizer, seed=0)
    return str(folder)


# --- The straightforward scorer -------------------------------------------------------------------

class ReferenceScorer:
    """CAP's NLI probabilities the way a first implementation computes them.

    dedup: for the ablation only, score each distinct pair once (first-occurrence order, still
    fixed batches in input order), to separate what de-duplication and length ordering bring.
    """

    def __init__(self, engine: "NLIScorer", model: "PreTrainedModel", dedup: bool = False) -> None:
        # The engine's tokenizer and settings; ``model`` has the engine's weights and dtype with
        # transformers' own attention code (``stock_model``), shared by all reference variants.
        self.model, self.tokenizer = model, engine.tokenizer
        self.label_indices, self.device = engine.label_indices, engine.device
        self.batch_size, self.max_length = engine.batch_size, engine.max_length
        self.dedup = dedup

    def cap_probabilities(self, premises: List[str], hypotheses: List[str]) -> np.ndarray:
        """(2n, 3): the forward pass over all pairs, then the reverse pass."""
        if not self.dedup:
            return np.concatenate([self._score(premises, hypotheses), self._score(hypotheses, premises)])
        pairs = list(zip(premises + hypotheses, hypotheses + premises))
        unique = list(dict.fromkeys(pairs))
        scored = dict(zip(unique, self._score([p for p, _ in unique], [h for _, h in unique])))
        return np.stack([scored[pair] for pair in pairs])

    def directions(self, premises: List[str], hypotheses: List[str]) -> List[List[Tuple[str, str]]]:
        """The lists of pairs it scores, each in fixed batches."""
        if not self.dedup:
            return [list(zip(premises, hypotheses)), list(zip(hypotheses, premises))]
        return [list(dict.fromkeys(zip(premises + hypotheses, hypotheses + premises)))]

    def batches(self, n_pairs: int) -> List[List[int]]:
        """Positions of each batch of one direction: fixed-size slices in input order."""
        return [list(range(start, min(start + self.batch_size, n_pairs)))
                for start in range(0, n_pairs, self.batch_size)]

    def _score(self, firsts, seconds):
        rows = []
        for batch in self.batches(len(firsts)):
            inputs = self.tokenizer([firsts[i] for i in batch], [seconds[i] for i in batch], padding=True,
                                    truncation=True, max_length=self.max_length, return_tensors="pt")
            with torch.no_grad():
                logits = self.model(**inputs.to(self.device)).logits.float()
            rows.append(torch.softmax(logits, dim=-1)[:, self.label_indices].double().cpu().numpy())
        return np.concatenate(rows)


# --- Measurements -----------------------------------------------------------------------------------

def padding_fraction(lengths: Sequence[int], batches: Sequence[Sequence[int]]) -> Tuple[float, int]:
    """Share of the computed tokens that are padding, and the number of tokens computed."""
    computed = sum(len(batch) * max(lengths[i] for i in batch) for batch in batches)
    real = sum(lengths[i] for batch in batches for i in batch)
    return 1.0 - real / computed, computed


def reference_plan(engine: "NLIScorer", reference: ReferenceScorer, premises: List[str],
                   hypotheses: List[str]) -> Tuple[float, int]:
    """(padding fraction, tokens computed) of a reference scorer's fixed batches."""
    padding, computed = 0.0, 0
    for pairs in reference.directions(premises, hypotheses):
        features, _ = engine.plan(pairs)
        fraction, tokens = padding_fraction([len(f["input_ids"]) for f in features], reference.batches(len(pairs)))
        padding, computed = padding + fraction * tokens, computed + tokens
    return padding / computed, computed


def engine_plan(engine: "NLIScorer", premises: List[str], hypotheses: List[str]) -> Tuple[float, int]:
    """(padding fraction, tokens computed) of the engine's length-ordered batches."""
    features, batches = engine.plan(sorted(set(zip(premises + hypotheses, hypotheses + premises))))
    return padding_fraction([len(f["input_ids"]) for f in features], batches)


def largest_cap_difference(first: np.ndarray, second: np.ndarray) -> float:
    """Largest |CAP| difference between two (2n, 3) forward-then-reverse probability arrays."""
    half = len(first) // 2
    cap_first, _, _ = cap_from_probabilities(first[:half], first[half:])
    cap_second, _, _ = cap_from_probabilities(second[:half], second[half:])
    return float(np.abs(cap_first - cap_second).max())


def statement_throughput(frame: "pd.DataFrame", models_dir: Union[str, os.PathLike], device: Union[str, torch.device],
                         model_limit: int = STATEMENT_MODEL_LIMIT) -> Dict[str, Dict[str, float]]:
    """Statements per second of the rule-based converter (on the sample's distinct (question,
    answer) pairs, gold and predicted answers) and of a tiny random seq2seq model (on the first
    ``model_limit`` of them: with random weights it never stops before max_new_tokens)."""
    pairs = sorted(set(zip(list(frame["question"]) * 2, list(frame["gold_answer"]) + list(frame["answer"]))))
    folder = Path(models_dir) / "t5-tiny"
    if not (folder / "config.json").exists():
        build_seq2seq_model(folder, statement_tokens=None)
    results = {}
    for name, model, inputs in (("rules", "rules", pairs),
                                ("tiny seq2seq (T5 2+2 layers, 4 beams)", str(folder), pairs[:model_limit])):
        generator = StatementGenerator(model, device=device, show_progress=False)
        questions, answers = [q for q, _ in inputs], [a for _, a in inputs]
        _, seconds, _ = timed(lambda: generator.generate(questions, answers), torch.device("cpu"))
        results[name] = {"statements": len(inputs), "seconds": seconds, "statements_per_second": len(inputs) / seconds}
    return results


# --- The command ------------------------------------------------------------------------------------

def benchmark(size: str = "small", rows: Optional[int] = None, runs: int = 3, batch_size: int = 32,
              max_tokens: Optional[int] = None, quantize: bool = False, bf16: bool = False,
              device: Union[str, torch.device] = "auto", models_dir: Optional[Union[str, os.PathLike]] = None,
              statements: bool = True, ablation: bool = False,
              data: Union[str, os.PathLike] = SAMPLE_CSV) -> Dict[str, Any]:
    """Run the benchmark; return a JSON-able dict of settings, machine and figures."""
    # Deferred: torch is heavy, imported on first use.
    from capqa.engine.nli import NLIScorer

    corpus, frame = load_sample(data), load_sample(data, rows)
    premises, hypotheses = list(frame["premise"]), list(frame["hypothesis"])
    models_dir = models_dir or tempfile.mkdtemp(prefix="cap-bench-")
    # The tokenizer learns from all the sample's statements, whatever subset is timed.
    folder = build_bench_model(models_dir, list(corpus["premise"]) + list(corpus["hypothesis"]), size)
    engine = NLIScorer(folder, device=device, batch_size=batch_size, show_progress=False)
    variants = dict(max_tokens=max_tokens, quantize=quantize, bf16=bf16, ablation=ablation)
    scorers, plans = build_scorers(engine, folder, premises, hypotheses, **variants)
    engine.predict(premises[:2], hypotheses[:2])  # warm-up: first-call allocations count for neither
    figures, outputs = run_scorers(scorers, runs, engine.device, 2 * len(premises))
    for name, (fraction, computed) in plans.items():
        figures[name].update(padding_fraction=fraction, tokens_computed=computed)
    result = {
        "machine": machine_description(engine.device), "model_size": size, "precision": engine.precision,
        "rows": len(frame), "pairs": 2 * len(premises),
        "distinct_pairs": len(set(zip(premises + hypotheses, hypotheses + premises))),
        "runs": runs, "batch_size": batch_size, "compact_attention": engine.compact_attention,
        "tokenizer": f"byte-level BPE, vocab {BENCH_VOCAB_SIZE}, trained on the sample",
        "scorers": figures, **comparisons(figures, outputs),
    }
    if statements:
        result["statements"] = statement_throughput(frame, models_dir, engine.device)
    return result


def stock_model(engine: "NLIScorer", folder: str) -> "PreTrainedModel":
    """The engine's weights and dtype in a model of its own, exactly as ``from_pretrained`` returns
    it: the engine changes its model's attention code, the reference keeps transformers' own."""
    # Deferred: transformers is heavy, imported on first use.
    from transformers import AutoModelForSequenceClassification

    return AutoModelForSequenceClassification.from_pretrained(
        folder, dtype=next(engine.model.parameters()).dtype).to(engine.device).eval()


def build_scorers(engine: "NLIScorer", folder: str, premises: List[str], hypotheses: List[str],
                  max_tokens: Optional[int] = None, quantize: bool = False, bf16: bool = False,
                  ablation: bool = False) -> Tuple[Dict[str, Callable[[], np.ndarray]], Dict[str, Tuple[float, int]]]:
    """{name: function scoring the workload} and {name: (padding fraction, tokens computed)}."""
    # Deferred: torch is heavy, imported on first use.
    from capqa.engine.nli import NLIScorer

    def engine_like(scorer: "NLIScorer") -> Callable[[], np.ndarray]:
        return lambda: scorer.predict(premises + hypotheses, hypotheses + premises)

    stock = stock_model(engine, folder)
    references = [ReferenceScorer(engine, stock)] + ([ReferenceScorer(engine, stock, dedup=True)] if ablation else [])
    scorers, plans = {}, {}
    for reference, name in zip(references, ("reference", "reference + dedup")):
        scorers[name] = functools.partial(reference.cap_probabilities, premises, hypotheses)
        plans[name] = reference_plan(engine, reference, premises, hypotheses)
    variant = functools.partial(NLIScorer, folder, device=engine.device, batch_size=engine.batch_size,
                                show_progress=False)
    engines = {"engine": engine}
    if ablation:
        engines["engine, stock attention"] = variant(compact_attention=False)
    if max_tokens is not None:
        engines[f"engine, max_tokens={max_tokens}"] = variant(max_tokens=max_tokens)
    if quantize:
        if engine.device.type != "cpu":
            raise ValueError("`quantize` times CPU dynamic int8 against the CPU engine; run the benchmark with device='cpu'")
        engines["engine, int8"] = variant(max_tokens=max_tokens, quantize=True)
    if bf16:
        engines["engine, bf16"] = variant(max_tokens=max_tokens, precision="bfloat16")
    for name, scorer in engines.items():
        scorers[name] = engine_like(scorer)
        plans[name] = engine_plan(scorer, premises, hypotheses)
    return scorers, plans


def comparisons(figures: Mapping[str, Dict[str, Any]], outputs: Mapping[str, np.ndarray]) -> Dict[str, Any]:
    """Engine against reference (speed, agreement) and, when timed, int8 against float."""
    compared = {
        "speedup": figures["engine"]["pairs_per_second"] / figures["reference"]["pairs_per_second"],
        # Each run times both scorers back to back: the per-run ratios are robust to a busy machine.
        "speedup_per_run": [reference_seconds / engine_seconds for reference_seconds, engine_seconds
                            in zip(figures["reference"]["seconds"], figures["engine"]["seconds"])],
        "max_abs_probability_difference": float(np.abs(outputs["engine"] - outputs["reference"]).max()),
    }
    for short in ("int8", "bf16"):
        name = f"engine, {short}"
        if name in figures:
            compared[f"{short}_speedup_over_engine"] = (figures[name]["pairs_per_second"]
                                                        / figures["engine"]["pairs_per_second"])
            compared[f"{short}_speedup_over_reference"] = (figures[name]["pairs_per_second"]
                                                           / figures["reference"]["pairs_per_second"])
            compared[f"{short}_largest_cap_difference"] = largest_cap_difference(outputs[name], outputs["engine"])
    return compared


def format_report(result: dict) -> str:
    """The benchmark's figures as the text ``python -m capqa bench`` prints (it starts with a blank line)."""
    machine = result["machine"]
    lines = [f"\nmachine: {machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB, "
             f"torch {machine['torch']} ({machine['torch_threads']} threads), device {machine['device']}"]
    attention = "compact" if result["compact_attention"] else "stock"
    lines.append(f"model: DeBERTa-v2 '{result['model_size']}' config, random weights, {result['precision']}, "
                 f"engine attention {attention}; "
                 f"tokenizer: {result['tokenizer']}")
    lines.append(f"inputs: {result['rows']} rows -> {result['pairs']} directed pairs ({result['distinct_pairs']} distinct); "
                 f"batch size {result['batch_size']}; median of {result['runs']} run(s)\n")
    lines.append(f"{'scorer':<28}{'pairs/s':>10}{'median s':>10}{'peak MiB':>10}{'padding':>9}{'tokens':>10}")
    for name, figures in result["scorers"].items():
        lines.append(f"{name:<28}{figures['pairs_per_second']:>10.2f}{figures['median_seconds']:>10.2f}"
                     f"{figures['peak_memory_mib']:>10.0f}{figures['padding_fraction']:>9.1%}{figures['tokens_computed']:>10}")
    per_run = ", ".join(f"{ratio:.2f}" for ratio in result["speedup_per_run"])
    lines.append(f"\nengine / reference: {result['speedup']:.2f}x (ratio of medians; per run: {per_run}; "
                 f"median {statistics.median(result['speedup_per_run']):.2f}x)   "
                 f"max |probability difference|: {result['max_abs_probability_difference']:.2e}")
    for short in ("int8", "bf16"):
        if f"{short}_speedup_over_engine" in result:
            lines.append(f"{short} / engine: {result[f'{short}_speedup_over_engine']:.2f}x   "
                         f"{short} / reference: {result[f'{short}_speedup_over_reference']:.2f}x   "
                         f"largest CAP difference {short} vs float32: {result[f'{short}_largest_cap_difference']:.4f} "
                         f"(random weights: a numerical check only)")
    for name, figures in result.get("statements", {}).items():
        lines.append(f"statements, {name}: {figures['statements_per_second']:.1f}/s "
                     f"({figures['statements']} in {figures['seconds']:.1f} s)")
    return "\n".join(lines)


def plot(result: Mapping[str, Any], path: Union[str, os.PathLike]) -> None:
    import_extra("matplotlib", "plots", "bench --plot").use("Agg")
    plt = import_extra("matplotlib.pyplot", "plots", "bench --plot")

    names = list(result["scorers"])
    rates = [result["scorers"][name]["pairs_per_second"] for name in names]
    figure, axis = plt.subplots(figsize=(7, 0.6 * len(names) + 1.5))
    axis.barh(names, rates, color=["#999999"] + ["#3b75af"] * (len(names) - 1))
    for y, rate in enumerate(rates):
        axis.text(rate, y, f" {rate:.1f}", va="center")
    axis.set_xlim(0, max(rates) * 1.15)  # room for the figures at the bars' ends
    axis.invert_yaxis()
    axis.set_xlabel("directed NLI pairs per second (median)")
    axis.set_title(f"CAP NLI engine, DeBERTa-v2 {result['model_size']}, {result['pairs']} pairs, "
                   f"{result['machine']['device']}")
    figure.tight_layout()
    save_figure(figure, path, dpi=120)
    plt.close(figure)
