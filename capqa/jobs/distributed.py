"""``torchrun``/``accelerate launch`` scoring: each rank scores its shard into its own resumable
part file; rank 0 merges the parts into ``OUT`` in input order.

Shards balance the work by character length (a cheap proxy for token length) so that ranks
finish together. Part files live in ``OUT.parts/`` beside ``OUT`` (a folder every node must see,
for multi-node jobs); each has its own manifest, so rerunning the same command resumes every rank,
and the merge itself resumes too. The parts are removed once ``OUT`` is complete.
"""

import csv
import heapq
import logging
import os
import shutil
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, List, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from capqa.jobs.fingerprint import JobSpec
from capqa.jobs.output import ResumableCsv, csv_text, read_manifest
from capqa.jobs.scoring import TableColumns, score_into

if TYPE_CHECKING:
    from capqa.scorer import CAPScorer

logger = logging.getLogger(__name__)

# Per-row cost beyond its characters (two statements, two NLI pairs, the row's bookkeeping), in
# characters: keeps shards of many short rows from being larger than shards of few long ones.
ROW_OVERHEAD_CHARS = 64
# Ranks wait for the slowest at the end of scoring; a job of millions of rows can take hours,
# far beyond torch's 30-minute default. A dead rank is still noticed at once by torchrun.
RANK_WAIT = timedelta(hours=48)
PARTS_SUFFIX = ".parts"


@dataclass(frozen=True)
class Ranks:
    """This process's place in the job, from the variables torchrun and accelerate set."""

    rank: int = 0
    world_size: int = 1
    local_rank: int = 0

    @classmethod
    def from_environment(cls) -> "Ranks":
        def number(name: str, default: int) -> int:
            value = os.environ.get(name, "")
            if value and not value.isdigit():
                raise ValueError(f"environment variable {name} must be a non-negative integer, got {value!r}")
            return int(value) if value else default

        return cls(number("RANK", 0), number("WORLD_SIZE", 1), number("LOCAL_RANK", 0))

    @property
    def distributed(self) -> bool:
        return self.world_size > 1


def rank_device(requested: str, ranks: Ranks) -> str:
    """The device of this rank: its LOCAL_RANK GPU where CUDA is asked for (or auto), else as asked."""
    import torch

    if requested in ("auto", "cuda") and torch.cuda.is_available():
        torch.cuda.set_device(ranks.local_rank)
        return f"cuda:{ranks.local_rank}"
    return "cpu" if requested == "auto" else requested


def row_costs(table: pd.DataFrame, columns: TableColumns) -> np.ndarray:
    """Characters each row sends through the models, plus a fixed per-row overhead."""
    text_columns = [column for column in (columns.question, columns.gold, columns.answer) if column]
    lengths = sum(table[column].str.len().to_numpy(dtype=np.int64) for column in text_columns)
    return lengths + ROW_OVERHEAD_CHARS


def shard_rows(costs: Sequence[int], world_size: int) -> List[np.ndarray]:
    """Row indices per rank, ascending, with totals as equal as greedy allows (longest row first,
    each to the least loaded rank). Deterministic: the same costs give the same shards."""
    loads = [(0, rank) for rank in range(world_size)]
    shards: List[List[int]] = [[] for _ in range(world_size)]
    for row in np.argsort(-np.asarray(costs), kind="stable"):
        load, rank = heapq.heappop(loads)
        shards[rank].append(int(row))
        heapq.heappush(loads, (load + int(costs[row]), rank))
    return [np.sort(np.asarray(shard, dtype=np.int64)) for shard in shards]


def parts_folder(out: Path) -> Path:
    return out.with_name(out.name + PARTS_SUFFIX)


def part_path(out: Path, ranks: Ranks) -> Path:
    return parts_folder(out) / f"part-{ranks.rank:05d}-of-{ranks.world_size:05d}.csv"


def is_complete(out: Path, job: JobSpec, columns: Sequence[str]) -> bool:
    """Whether ``out`` already holds every row of ``job`` by its manifest (read without the lock)."""
    manifest = read_manifest(out) if out.exists() else None
    return (manifest is not None and JobSpec.from_json(manifest["job"]) == job
            and manifest["columns"] == list(columns) and manifest["chunks"][-1]["rows"] >= job.input_rows
            and out.stat().st_size == manifest["chunks"][-1]["bytes"])


def score_distributed(table: pd.DataFrame, scorer: "CAPScorer", out: Path, job: JobSpec,
                      out_columns: List[str], columns: TableColumns, chunk_size: int, escape: bool,
                      ranks: Ranks) -> int:
    """This rank's part of a distributed ``job``; returns the rows this rank scored."""
    import torch.distributed as dist

    if is_complete(out, job, out_columns):
        return 0
    settings = job.settings
    dist.init_process_group("nccl" if settings.get("device_type") == "cuda" else "gloo", timeout=RANK_WAIT)
    try:
        # Rank 0 holds OUT from the start: a wrong or locked --out fails before any scoring.
        merged = ResumableCsv.open(out, job, out_columns) if ranks.rank == 0 else None
        shards = shard_rows(row_costs(table, columns), ranks.world_size)
        shard = table.iloc[shards[ranks.rank]]
        part_job = JobSpec.for_table(shard, {**settings, "rank": ranks.rank, "world_size": ranks.world_size})
        with ResumableCsv.open(part_path(out, ranks), part_job, out_columns) as part:
            scored = (score_into(shard, scorer, part, columns, chunk_size, escape,
                                 description=f"CAP rank {ranks.rank}") if not part.complete else 0)
        dist.barrier()
        if merged is not None:
            with merged:
                merge_parts(merged, shards, out, ranks.world_size, chunk_size)
            shutil.rmtree(parts_folder(out), ignore_errors=True)
        dist.barrier()
    finally:
        dist.destroy_process_group()
    return scored


def merge_parts(output: ResumableCsv, shards: List[np.ndarray], out: Path, world_size: int,
                chunk_size: int) -> None:
    """Append the parts' rows to ``output`` in input order, from where an earlier merge stopped."""
    owner = np.empty(sum(len(shard) for shard in shards), dtype=np.int64)
    for rank, shard in enumerate(shards):
        owner[shard] = rank
    handles = [part_path(out, Ranks(rank, world_size)).open(encoding="utf-8", newline="")
               for rank in range(world_size)]
    try:
        readers = [csv.reader(handle) for handle in handles]
        for reader in readers:
            next(reader)  # the header
        for row in range(output.rows_done):  # rows merged before an interruption
            next(readers[owner[row]])
        with tqdm(total=len(owner), initial=output.rows_done, desc="merging", unit="row") as progress:
            for start in range(output.rows_done, len(owner), chunk_size):
                rows = owner[start:start + chunk_size]
                output.append(csv_text([next(readers[rank]) for rank in rows]), len(rows))
                progress.update(len(rows))
    finally:
        for handle in handles:
            handle.close()
