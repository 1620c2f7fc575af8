"""``torchrun``/``accelerate launch`` scoring: each rank scores its shard into its own resumable
part file; rank 0 merges the parts into ``OUT`` in input order (``score_shards``, which
``capqa.jobs.scoring.score_table`` runs when the job has more than one rank).

The ranks join a process group whose backend the caller names (``process_group_backend`` of the
rank's device: NCCL between CUDA devices, Gloo otherwise); the job's fingerprint says what the
output is, never how the ranks talk.

Shards balance the work by character length (a cheap proxy for token length) so that ranks
finish together, and keep each question's rows on one rank: its statements' parse of the
question is then made once, not once per rank that has one of its answers. Part files live in
``OUT.parts/`` beside ``OUT`` (a folder every node must see,
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
from typing import TYPE_CHECKING, List, Optional, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from capqa.common.quoting import bounded_message, quote
from capqa.jobs.chunks import score_into
from capqa.jobs.fingerprint import JobSpec
from capqa.jobs.output import ResumableCsv, csv_text, read_manifest
from capqa.records.job import JobSettings

if TYPE_CHECKING:
    from capqa.metric.scorer import CAPScorer

logger = logging.getLogger(__name__)

# Per-row cost beyond its characters (two statements, two NLI pairs, the row's bookkeeping), in
# characters: keeps shards of many short rows from being larger than shards of few long ones.
ROW_OVERHEAD_CHARS = 64
# Ranks wait for the slowest at the end of scoring; a job of millions of rows can take hours,
# far beyond torch's 30-minute default. A dead rank is still noticed at once by torchrun.
RANK_WAIT = timedelta(hours=48)
# Joining the job (rendezvous) is another matter: launchers start every rank within seconds, so a
# rank still alone after minutes waits for ranks that will never come (a wrong RANK, WORLD_SIZE,
# MASTER_ADDR or MASTER_PORT). Ten minutes covers ranks that queue for nodes of one allocation;
# CAPQA_RENDEZVOUS_TIMEOUT_S sets another limit (docs/distributed.md).
RENDEZVOUS_WAIT_S = 600
RENDEZVOUS_VARIABLE = "CAPQA_RENDEZVOUS_TIMEOUT_S"
PARTS_SUFFIX = ".parts"
BACKENDS = ("nccl", "gloo")


class RendezvousTimeout(TimeoutError):
    """The other ranks of the job did not join within the rendezvous timeout."""


@dataclass(frozen=True)
class Ranks:
    """This process's place in the job, from the variables torchrun and accelerate set."""

    rank: int = 0
    world_size: int = 1
    local_rank: int = 0
    local_world_size: int = 1  # the ranks on this node

    @classmethod
    def from_environment(cls) -> "Ranks":
        """The ranks the launcher set, refused at once when no job could have them (a rank
        outside 0..WORLD_SIZE-1 would wait in rendezvous for ranks that do not exist)."""
        world_size = _count("WORLD_SIZE", 1)
        local_world_size = _count("LOCAL_WORLD_SIZE", world_size)
        ranks = cls(_count("RANK", 0), world_size, _count("LOCAL_RANK", 0), max(1, min(local_world_size, world_size)))
        if ranks.world_size < 1:
            raise ValueError("environment variable WORLD_SIZE must be at least 1 (the number of ranks), got 0")
        if ranks.distributed and "RANK" not in os.environ:
            raise ValueError(f"WORLD_SIZE is {ranks.world_size} but RANK is not set: start the ranks with "
                             "torchrun or accelerate launch, which set both")
        if ranks.rank >= ranks.world_size:
            raise ValueError(f"environment variable RANK is {ranks.rank}, but WORLD_SIZE is {ranks.world_size}: "
                             f"ranks go from 0 to {ranks.world_size - 1}; check the launcher's settings")
        if ranks.distributed and ranks.local_rank >= min(local_world_size, ranks.world_size):
            raise ValueError(f"environment variable LOCAL_RANK is {ranks.local_rank}, but only "
                             f"{min(local_world_size, ranks.world_size)} rank(s) run on this node "
                             "(LOCAL_WORLD_SIZE, WORLD_SIZE); check the launcher's settings")
        return ranks

    @property
    def distributed(self) -> bool:
        return self.world_size > 1


def _count(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit() and len(value) < 10):
        raise ValueError(f"environment variable {name} must be a non-negative integer, got {quote(value)}")
    return int(value)


def rendezvous_timeout() -> timedelta:
    """How long a rank waits for the others to join: ``RENDEZVOUS_WAIT_S``, or the environment's
    ``CAPQA_RENDEZVOUS_TIMEOUT_S`` (seconds, a positive number)."""
    text = os.environ.get(RENDEZVOUS_VARIABLE, "").strip()
    if not text:
        return timedelta(seconds=RENDEZVOUS_WAIT_S)
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < 1e7:
        raise ValueError(f"environment variable {RENDEZVOUS_VARIABLE} must be a positive number of seconds, "
                         f"got {quote(text)}")
    return timedelta(seconds=seconds)


def join_job(backend: str, ranks: Ranks):
    """Join the job's process group (rendezvous) within ``rendezvous_timeout()``; returns a group
    whose collectives wait up to ``RANK_WAIT``, for the end of scoring, when fast ranks wait
    for the slowest. It is connected now, while every rank is here (NCCL connects lazily)."""
    # Deferred: torch is heavy, imported on first use.
    import torch.distributed as dist

    timeout = rendezvous_timeout()
    try:
        dist.init_process_group(backend, timeout=timeout)
        waits = dist.new_group(timeout=RANK_WAIT)
        dist.barrier(group=waits)
    except (RuntimeError, OSError) as error:  # torch's DistStoreError, DistNetworkError, ...
        if dist.is_initialized():
            dist.destroy_process_group()
        where = f"{os.environ.get('MASTER_ADDR', '?')}:{os.environ.get('MASTER_PORT', '?')}"
        raise RendezvousTimeout(
            f"rank {ranks.rank} of {ranks.world_size} could not join the job at {where} (waited up to "
            f"{timeout.total_seconds():g} s; {type(error).__name__}: {bounded_message(str(error), 300)}); check that "
            f"every rank runs with the same MASTER_ADDR, MASTER_PORT and WORLD_SIZE, or set {RENDEZVOUS_VARIABLE} "
            "to wait longer") from None
    return waits


def rank_device(requested: str, ranks: Ranks) -> str:
    """The device of this rank: where CUDA is asked for (or auto), GPU LOCAL_RANK, or, with more
    ranks on the node than GPUs, GPU LOCAL_RANK modulo their number (ranks then share a GPU:
    ``cuda_index``); else as asked."""
    # Deferred: torch is heavy, imported on first use.
    import torch

    if requested in ("auto", "cuda") and torch.cuda.is_available():
        index = cuda_index(ranks.local_rank, torch.cuda.device_count())
        torch.cuda.set_device(index)
        if share_gpus(ranks) and ranks.local_rank == 0:
            logger.info("%d ranks share this node's %d GPU(s)", ranks.local_world_size, torch.cuda.device_count())
        return f"cuda:{index}"
    return "cpu" if requested == "auto" else requested


def cuda_index(local_rank: int, gpus: int) -> int:
    """The GPU of the rank ``local_rank`` among ``gpus``: its own while there are enough, else
    shared round-robin (several ranks per GPU: each makes its statements on its own cores while
    the GPU runs whichever rank's NLI batch is ready)."""
    return local_rank % max(1, gpus)


def process_group_backend(device: str, ranks: Optional[Ranks] = None) -> str:
    """The process group's backend for ranks on ``device`` (``rank_device``'s answer): NCCL between
    CUDA devices, each rank on a GPU of its own; Gloo for CPU (and MPS) ranks and for ranks that
    share a GPU, which NCCL refuses (the group only waits at barriers, never moves tensors)."""
    if not str(device).startswith("cuda"):
        return "gloo"
    return "gloo" if ranks is not None and share_gpus(ranks) else "nccl"


def share_gpus(ranks: Ranks) -> bool:
    """Whether this node runs more ranks than it has GPUs (so that ranks share them)."""
    # Deferred: torch is heavy, imported on first use.
    import torch

    return ranks.local_world_size > torch.cuda.device_count()


def row_costs(table: pd.DataFrame, settings: JobSettings) -> np.ndarray:
    """Characters each row sends through the models, plus a fixed per-row overhead."""
    text_columns = [column for column in (settings.question_column, settings.gold_column, settings.answer_column)
                    if column]
    lengths = sum(table[column].str.len().to_numpy(dtype=np.int64) for column in text_columns)
    return lengths + ROW_OVERHEAD_CHARS


def question_groups(table: pd.DataFrame, settings: JobSettings) -> Optional[np.ndarray]:
    """Per row, a number for its question (the rows of one question share it), or None for a job
    without questions."""
    if not settings.question_column:
        return None
    return pd.factorize(table[settings.question_column])[0]


def shard_rows(costs: Sequence[int], world_size: int, groups: Optional[Sequence[int]] = None) -> List[np.ndarray]:
    """Row indices per rank, ascending, with totals as equal as greedy allows (largest group
    first, each to the least loaded rank). ``groups``: per row a group number, whose rows go to
    one rank (``question_groups``: a question's statement parse is then made by one rank, not by
    each rank that has one of its answers); None: each row its own group. Deterministic: the
    same costs and groups give the same shards."""
    costs = np.asarray(costs, dtype=np.int64)
    group_of_row = np.arange(len(costs)) if groups is None else np.asarray(groups, dtype=np.int64)
    group_costs = np.zeros(group_of_row.max() + 1 if len(costs) else 0, dtype=np.int64)
    np.add.at(group_costs, group_of_row, costs)
    loads = [(0, rank) for rank in range(world_size)]
    rank_of_group = np.zeros(len(group_costs), dtype=np.int64)
    for group in np.argsort(-group_costs, kind="stable"):
        load, rank = heapq.heappop(loads)
        rank_of_group[group] = rank
        heapq.heappush(loads, (load + int(group_costs[group]), rank))
    rank_of_row = rank_of_group[group_of_row]
    return [np.flatnonzero(rank_of_row == rank).astype(np.int64) for rank in range(world_size)]


def job_shards(table: pd.DataFrame, settings: JobSettings, world_size: int) -> List[np.ndarray]:
    """The rows each rank of a job scores: balanced by characters, a question's rows together."""
    return shard_rows(row_costs(table, settings), world_size, question_groups(table, settings))


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


def score_shards(table: pd.DataFrame, scorer: "CAPScorer", out: Path, job: JobSpec, out_columns: List[str],
                 settings: JobSettings, chunk_size: int, ranks: Ranks, backend: Optional[str]) -> int:
    """This rank's part of a distributed ``job``, its ranks joined over ``backend`` (one of
    ``BACKENDS``); returns the rows this rank scored."""
    # Deferred: torch is heavy, imported on first use.
    import torch.distributed as dist

    if backend not in BACKENDS:
        raise ValueError(f"`backend` must be one of {', '.join(BACKENDS)} (process_group_backend(device) "
                         f"gives the one for a rank's device), got {backend!r}")
    if is_complete(out, job, out_columns):
        return 0
    waits = join_job(backend, ranks)
    merged = None
    try:
        # Rank 0 holds OUT from the start: a wrong or locked --out fails before any scoring.
        merged = ResumableCsv.open(out, job, out_columns) if ranks.rank == 0 else None
        shards = job_shards(table, settings, ranks.world_size)
        shard = table.iloc[shards[ranks.rank]]
        part_job = JobSpec.for_table(shard, {**job.settings, "rank": ranks.rank, "world_size": ranks.world_size})
        with ResumableCsv.open(part_path(out, ranks), part_job, out_columns) as part:
            scored = (score_into(shard, scorer, part, settings, chunk_size, description=f"CAP rank {ranks.rank}")
                      if not part.complete else 0)
        dist.barrier(group=waits)
        if merged is not None:
            with merged:
                merge_parts(merged, shards, out, ranks.world_size, chunk_size)
            shutil.rmtree(parts_folder(out), ignore_errors=True)
        dist.barrier(group=waits)
    except BaseException:
        if merged is not None:
            merged.close(failed=True)
        raise
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
