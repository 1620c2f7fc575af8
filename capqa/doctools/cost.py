"""What a million answers cost: answers per hour of the whole metric (rule-based statements, then
both NLI directions) with the default NLI model's architecture, measured on this CPU in float32
and int8, and projected from FLOPs for GPUs (``python benchmarks/bench_cost.py``).

No real weights can be downloaded here, so the model is ``cross-encoder/nli-deberta-v3-large``'s
architecture with random weights (``capqa.dev.bench.build_bench_model``, "large"): the work, and
so the time, is the real model's; the scores are meaningless. Inputs are rows of
data/cap_correctness_sample.csv (question, gold answer, predicted answer), scored end to end by
``CAPScorer.score`` exactly as ``score`` scores a chunk.

The GPU figures are a projection, not a measurement: the FLOPs of the forward passes the engine
actually runs (its own batches, padding included) divided by an assumed share of each GPU's
peak dense bf16/fp16 rate, combined with the rule statements' rate per CPU core that the pipeline
benchmark measured (``capqa.dev.pipeline``, docs/pipeline_figures.json). ``cost_table_markdown``
renders the figures the two benchmarks saved.
"""

import datetime
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

import torch

from capqa.common.paths import REPO_ROOT
from capqa.dev.bench import SAMPLE_CSV, build_bench_model, load_sample
from capqa.dev.measure import cpu_model, machine_description, timed
from capqa.dev.pipeline import PIPELINE_FIGURES, target_lines
from capqa.statements.workers import MAX_AUTO_WORKERS

COST_FIGURES = REPO_ROOT / "docs" / "cost_figures.json"
# Peak dense tensor-core rates (TFLOP/s, no sparsity) from the vendors' data sheets: bf16, and
# fp16 for the T4, which has no bf16 (the engine then runs fp16).
GPU_PEAK_TFLOPS = {"NVIDIA H100 SXM (bf16)": 989.0, "NVIDIA A100 SXM (bf16)": 312.0, "NVIDIA L4 (bf16)": 121.0,
                   "NVIDIA T4 (fp16)": 65.0}
# The share of peak assumed for the projection: short pairs in batches of 32 keep the matrix
# products small, so an encoder reaches well under half of peak. An assumption, stated as one.
ASSUMED_UTILISATION = 0.30


def forward_flops(config: Any, batches: Sequence[Sequence[int]], lengths: Sequence[int]) -> float:
    """FLOPs (2 per multiply-add) of a DeBERTa-v2/v3 encoder over ``batches`` (positions into
    ``lengths``), each padded to its longest pair: the dense layers, the content and relative
    (c2p, p2c over the 2L - 1 positions a batch uses) attention, and the relative embeddings'
    projections. Embedding look-ups, norms, softmax and the classifier are left out (<1 %)."""
    d, inner, layers = config.hidden_size, config.intermediate_size, config.num_hidden_layers
    total = 0.0
    for batch in batches:
        size, length = len(batch), max(lengths[i] for i in batch)
        dense = size * length * (8 * d * d + 4 * d * inner)          # Q, K, V, output; the two FFN layers
        attention = size * 12 * length * length * d                 # QK^T, AV, c2p and p2c (2L positions each)
        relative = 2 * 2 * (2 * length) * d * d                      # the position keys and queries, once per batch
        total += layers * (dense + attention + relative)
    return total


def _nli_flops(scorer: Any, questions, golds, answers) -> Dict[str, float]:
    """FLOPs and tokens of the distinct NLI pairs ``scorer`` runs for these answers."""
    statements = scorer.statements.generate(questions + questions, golds + answers)
    premises, hypotheses = statements[: len(golds)], statements[len(golds):]
    pairs = sorted(set(zip(premises + hypotheses, hypotheses + premises)))
    features, batches = scorer.nli.plan(pairs)
    lengths = [len(feature["input_ids"]) for feature in features]
    return {"flops": forward_flops(scorer.nli.model.config, batches, lengths), "distinct_pairs": len(pairs),
            "mean_tokens": sum(lengths) / len(lengths)}


def measure_cost(rows: int = 120, runs: int = 3, size: str = "large", precisions: Sequence[str] = ("float32", "int8"),
                 models_dir: Optional[Union[str, os.PathLike]] = None,
                 data: Union[str, os.PathLike] = SAMPLE_CSV) -> Dict[str, Any]:
    """Time ``CAPScorer.score`` on ``rows`` sample rows (median of ``runs``) per CPU precision;
    return a JSON-able record with the machine, the rates and the GPU projection."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.metric.options import MetricOptions

    corpus, frame = load_sample(data), load_sample(data, rows)
    folder = build_bench_model(models_dir or tempfile.mkdtemp(prefix="cap-cost-"),
                               list(corpus["premise"]) + list(corpus["hypothesis"]), size)
    questions, golds, answers = list(frame["question"]), list(frame["gold_answer"]), list(frame["answer"])
    cpu = torch.device("cpu")
    started_load = os.getloadavg()[0]
    shape = " (cross-encoder/nli-deberta-v3-large's shape)" if size == "large" else ""
    record = {"measured": datetime.date.today().isoformat(),
              "machine": {**machine_description(cpu), "cpu": cpu_model()},
              "model": f"DeBERTa-v2 '{size}' config{shape}, random weights",
              "rows": len(frame), "runs": runs, "batch_size": 32, "cpu": {}}
    for precision in precisions:
        options = MetricOptions(nli_model=folder, statement_model="rules", device="cpu", quantize=precision == "int8")
        scorer = options.build_scorer()
        scorer.nli.show_progress = False
        scorer.score(answers[:2], [[gold] for gold in golds[:2]], questions[:2])  # warm-up
        seconds, cpu_seconds = [], []
        for _ in range(runs):
            started_cpu = time.process_time()
            seconds.append(timed(lambda: scorer.score(answers, [[gold] for gold in golds], questions), cpu)[1])
            cpu_seconds.append(time.process_time() - started_cpu)
        record["cpu"][precision] = {
            "seconds": seconds, "median_seconds": statistics.median(seconds), "cpu_seconds": cpu_seconds,
            "answers_per_hour": 3600 * len(frame) / statistics.median(seconds),
            # Process CPU time, all threads: what a busy shared machine does not inflate.
            "answers_per_core_hour": 3600 * len(frame) / statistics.median(cpu_seconds)}
        if "work" not in record:  # the FLOPs of the whole sample: a large file is batched as tightly
            record["work"] = {**_nli_flops(scorer, list(corpus["question"]), list(corpus["gold_answer"]),
                                           list(corpus["answer"])), "rows": len(corpus)}
    # Other processes slow a shared machine: say how busy it was (1-minute load at start and end).
    record["load_average"] = [started_load, os.getloadavg()[0]]
    return record


def gpu_projection(record: Dict[str, Any], pipeline: Dict[str, Any],
                   utilisation: float = ASSUMED_UTILISATION) -> Dict[str, Dict[str, float]]:
    """Answers per hour per GPU at ``utilisation`` of its peak: the NLI model alone; with the rule
    statements made by ``MAX_AUTO_WORKERS`` workers ahead of it (the default beside a GPU on a
    machine of 9 cores or more), the slower of the two; and with them made in the scoring process
    between NLI batches, the two one after the other. The statements' rate is ``pipeline``'s
    (``capqa.dev.pipeline``): per CPU-second, parses dropped, each with its check, as ``score`` does."""
    flops_per_answer = record["work"]["flops"] / record["work"]["rows"]
    per_worker_hour = statements_answers_per_hour(pipeline)
    projection = {}
    for gpu, peak in GPU_PEAK_TFLOPS.items():
        nli_per_hour = 3600 * utilisation * peak * 1e12 / flops_per_answer
        projection[gpu] = {"nli_answers_per_hour": nli_per_hour,
                           "answers_per_hour": min(nli_per_hour, MAX_AUTO_WORKERS * per_worker_hour),
                           "one_process_answers_per_hour": 1 / (1 / nli_per_hour + 1 / per_worker_hour)}
    return projection


def statements_answers_per_hour(pipeline: Dict[str, Any]) -> float:
    """Answers per hour whose statements (gold and prediction, each checked) one CPU core makes,
    from the pipeline benchmark's corpus (its distinct statements per row)."""
    alone = pipeline["statements_alone"]
    return 3600 * alone["checked_pairs_per_cpu_second"] * pipeline["rows"] / alone["pairs"]


def _rate(per_hour: float) -> str:
    return f"{per_hour:,.0f}" if per_hour < 1e5 else f"{per_hour / 1e6:,.2f} M"


def _hours(per_hour: float) -> str:
    """The time a million answers take: hours, and days when that is more than two."""
    hours = 1e6 / per_hour
    text = f"{hours:,.1f} h" if hours < 10 else f"{hours:,.0f} h"
    return text + (f" ({hours / 24:,.0f} days)" if hours > 48 else "")


def _statements_note(projection: Dict[str, Dict[str, float]], pipeline: Dict[str, Any]) -> str:
    """What the statements cost beside a GPU, with and without workers, and the overlap measured here."""
    fastest = max(projection, key=lambda gpu: projection[gpu]["nli_answers_per_hour"])
    figures = projection[fastest]
    limit = ("the NLI model's pace" if figures["answers_per_hour"] >= figures["nli_answers_per_hour"]
             else f"{_rate(figures['answers_per_hour'])} (the statements still set the pace: more cores, or ranks "
                  "on several machines, help)")
    runs = {run["workers"]: run for run in pipeline["runs"]}
    measured = ", ".join(f"{count} worker{'s' if count > 1 else ''} {run['speedup']:.2f}x"
                         for count, run in runs.items() if count)
    return (f"The rule statements, each with its check, run at {_rate(statements_answers_per_hour(pipeline))} "
            f"answers per hour per CPU core. On {fastest} the NLI model alone would score "
            f"{_rate(figures['nli_answers_per_hour'])} answers per hour; with the statements made between its "
            f"batches in the scoring process, {_rate(figures['one_process_answers_per_hour'])}; with "
            f"{MAX_AUTO_WORKERS} statement workers ahead of it (`statement_workers`), {limit}. On this machine the "
            f"job against a stand-in NLI stage of {pipeline['nli_pairs_per_second']:,} pairs/s ran at {measured} "
            "the speed of the same job without workers (`benchmarks/bench_rules.py --pipeline`, below). ")


def cost_table_markdown(path: Union[str, os.PathLike] = COST_FIGURES,
                        pipeline_path: Union[str, os.PathLike] = PIPELINE_FIGURES) -> str:
    """The cost table (Markdown) of the figures ``benchmarks/bench_cost.py`` and ``benchmarks/bench_rules.py
    --pipeline`` saved."""
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    pipeline = json.loads(Path(pipeline_path).read_text(encoding="utf-8"))
    projection = gpu_projection(record, pipeline)
    machine, work = record["machine"], record["work"]
    lines = ["| where | how | answers per hour | 1 M answers |", "|---|---|---:|---:|"]
    for precision, figures in record["cpu"].items():
        lines.append(f"| this CPU ({machine['torch_threads']} threads) | measured, {precision}, statements included "
                     f"| {_rate(figures['answers_per_hour'])} | {_hours(figures['answers_per_hour'])} |")
        if "answers_per_core_hour" in figures:
            lines.append(f"| one core of this CPU | measured (process CPU time), {precision}, statements included "
                         f"| {_rate(figures['answers_per_core_hour'])} | "
                         f"{_hours(figures['answers_per_core_hour'])} |")
    for gpu, figures in projection.items():
        lines.append(f"| {gpu} | **projected** from FLOPs at {100 * ASSUMED_UTILISATION:.0f} % of peak, "
                     f"rule statements by {MAX_AUTO_WORKERS} workers ahead of it | {_rate(figures['answers_per_hour'])} | "
                     f"{_hours(figures['answers_per_hour'])} |")
    lines += ["", f"Measured {record['measured']} on {machine['cpu']}, {machine['cores']} cores, "
              f"{machine['memory_gib']} GiB, torch {machine['torch']}, with {record['model']}, batch size "
              f"{record['batch_size']}, on {record['rows']} rows of the CAP-Correctness sample (median of "
              f"{record['runs']} runs; 1-minute load average {record['load_average'][0]:.1f} at the start and "
              f"{record['load_average'][1]:.1f} at the end, on {machine['cores']} cores shared with other jobs: "
              "the wall-clock rows are what this busy machine gave; the per-core rows count the process's own "
              "CPU time, which a busy machine inflates much less). "
              f"The NLI work, counted on all {work['rows']:,} sample rows as the engine batches them, is "
              f"{work['flops'] / work['rows'] / 1e9:,.1f} GFLOPs per answer ({work['distinct_pairs']:,} distinct "
              f"pairs, {work['mean_tokens']:.0f} tokens on average). "
              f"{_statements_note(projection, pipeline)}No GPU was available: its rows are projections, "
              "not measurements."]
    return "\n".join(lines) + "\n"


def pipeline_table_markdown(path: Union[str, os.PathLike] = PIPELINE_FIGURES) -> str:
    """docs/scale.md's table of the figures ``benchmarks/bench_rules.py --pipeline --write`` saved."""
    return pipeline_table(json.loads(Path(path).read_text(encoding="utf-8")))


def pipeline_table(record: Dict[str, Any]) -> str:
    """The scoring job's throughput per number of statement workers (``capqa.dev.pipeline``), in Markdown."""
    alone, machine = record["statements_alone"], record["machine"]
    lines = ["| statement workers | seconds | rows per second | the stand-in NLI stage alone, s | speed-up |",
             "|---:|---:|---:|---:|---:|"]
    for run in record["runs"]:
        lines.append(f"| {run['workers']} | {run['seconds']:.1f} | {run['rows_per_second']:,.0f} | "
                     f"{run['nli_seconds']:.1f} | {run['speedup']:.2f}x |")
    stand_in = f"{record['nli_pairs_per_second']:,} pairs/s"
    if record.get("stand_in_matched"):
        stand_in += " (as fast as the statements with their checks)"
    lines += ["", f"Measured {record['measured']} on {machine['cpu']}, {machine['cores']} cores, {record['rows']:,} "
              f"rows, {alone['pairs']:,} distinct statements, chunks of {record['chunk_size']}, a stand-in NLI stage "
              f"of {stand_in}; 1-minute load average {record['load_average'][0]:.1f} "
              f"at the end. The statements alone, parses dropped: {alone['pairs_per_cpu_second']:,.0f} per "
              f"CPU-second, {alone['checked_pairs_per_cpu_second']:,.0f} with their check. The speed-up is over the "
              f"same job without workers. Here the stand-in's busy loop holds one of the {machine['cores']} cores, "
              "so the workers share what is left; beside a GPU the scoring process mostly waits for it, and each "
              "worker has a core of its own."]
    lines += _statement_cpu_notes(record)
    return "\n".join(lines) + "\n"


def _statement_cpu_notes(record: Dict[str, Any]) -> List[str]:
    """The statement CPU a second system and a job's ranks cost, and each target with its figure."""
    lines = []
    if "second_system" in record:
        second = record["second_system"]
        runs = second["runs"]
        lines += ["", f"Statement CPU, parses dropped before each: `{second['first']}` on {second['questions']} "
                  f"questions {runs[second['first']]['cpu_seconds']:.2f} s, then `{second['second']}` on the same "
                  f"questions with the statement cache the first left {runs[second['second']]['cpu_seconds']:.2f} s "
                  f"({second['ratio']:.2f}x)."]
    if "ranks" in record:
        ranks = record["ranks"]
        texts = (f", {ranks['one_rank_texts_parsed']:,} and {ranks['ranks_texts_parsed']:,} texts parsed"
                 if "ranks_texts_parsed" in ranks else "")
        lines += ["", f"The whole job's statements in one process {ranks['one_rank_cpu_seconds']:.1f} CPU-s; split "
                  f"over {ranks['world_size']} ranks by question, {ranks['ranks_cpu_seconds']:.1f} CPU-s in all "
                  f"({ranks['ratio']:.2f}x{texts})."]
    targets = target_lines(record)
    if targets:
        lines += [""] + [f"- {line}" for line, _ in targets]
    return lines
