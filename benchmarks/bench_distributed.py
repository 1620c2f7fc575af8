"""Scaling of ``python -m capqa score`` over 1, 2 and 4 processes on this machine's CPU cores.

    python benchmarks/bench_distributed.py --rows 96 --processes 1 2 4

Every configuration runs the product command on the same rows, one after the other in one run
(so they share the machine's state): 1 process as ``python -m capqa score``, N processes as
``torchrun --standalone --nproc-per-node N -m capqa score``. torchrun gives each rank one thread
(OMP_NUM_THREADS=1) unless told otherwise; the single process uses torch's default (every core).

Reported per configuration: the end-to-end wall time (Python and torch start-up included), the
scoring time the command itself reports (models loaded, rows scored and merged; the slowest rank),
rows/s and NLI pairs/s from the scoring time (each row is two NLI pairs: forward and reverse), the
speed-up over 1 process, the CPU time all processes used (start-up included: on a machine whose
cores are busy with other work, this shows what more processes cost when wall times cannot), and
the largest CAP difference from the 1-process output.
The rows are real statement pairs of data/cap_correctness_sample.csv; the NLI model is built
offline (``--size tiny`` by default; ``small``/``large`` take far longer).
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))  # run from a checkout without installing

from capqa.dev.pipeline import NLI_PAIRS_PER_ROW  # noqa: E402

SCORED = re.compile(r"scored \d+ new rows in ([0-9.]+) s")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=96, help="rows of the sample to score")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--size", default="tiny", help="offline NLI model config (capqa.dev.offline_models)")
    parser.add_argument("--chunk-size", type=int, default=16)
    parser.add_argument("--threads-per-process", type=int, default=None,
                        help="OMP_NUM_THREADS for every process, the single one too (default: torch's and torchrun's)")
    return parser.parse_args(argv)


def command(processes: int, rows: Path, out: Path, model: str, chunk_size: int):
    launcher = ([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", str(processes)]
                if processes > 1 else [sys.executable])
    return [*launcher, "-m", "capqa", "score", str(rows), "--out", str(out), "--question-column", "",
            "--gold-column", "premise", "--answer-column", "hypothesis", "--nli-model", model,
            "--device", "cpu", "--chunk-size", str(chunk_size)]


def run(processes: int, rows: Path, out: Path, model: str, chunk_size: int, threads=None):
    """(end-to-end seconds, scoring seconds of the slowest rank, CPU seconds of all processes)."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1"}
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    cpu_before = _children_cpu_seconds()
    started = time.perf_counter()
    finished = subprocess.run(command(processes, rows, out, model, chunk_size), cwd=REPO_ROOT, env=env,
                              capture_output=True, text=True)
    wall = time.perf_counter() - started
    cpu = _children_cpu_seconds() - cpu_before
    if finished.returncode != 0:
        raise SystemExit(f"{processes} process(es) failed:\n{finished.stderr[-3000:]}")
    return wall, max(float(seconds) for seconds in SCORED.findall(finished.stderr)), cpu


def _children_cpu_seconds() -> float:
    """CPU time (user + system) of every finished child process, torchrun's ranks included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv=None) -> int:
    import pandas as pd
    import torch

    from capqa.common.tables import read_table
    from capqa.dev.offline_models import build_nli_model

    args = parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="cap-bench-distributed-"))
    model = str(build_nli_model(folder / f"nli-{args.size}", size=args.size, seed=1))
    rows = folder / "rows.csv"
    sample = read_table(REPO_ROOT / "data" / "cap_correctness_sample.csv").head(args.rows)
    sample[["row_id", "premise", "hypothesis"]].to_csv(rows, index=False)

    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"{len(sample)} rows ({len(sample) * NLI_PAIRS_PER_ROW} NLI pairs), {args.size} NLI model, "
          f"{os.cpu_count()} CPU cores (load average {load} at start), torch {torch.__version__}")
    print("| processes | threads each | wall s | scoring s | rows/s | NLI pairs/s | speed-up (scoring) "
          "| speed-up (wall) | CPU s (all processes) | max CAP diff vs 1 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    baseline = None
    for processes in args.processes:
        out = folder / f"scored-{processes}.csv"
        wall, scoring, cpu = run(processes, rows, out, model, args.chunk_size, args.threads_per_process)
        cap = pd.read_csv(out)["cap"]
        baseline = baseline or (wall, scoring, cap)
        threads = args.threads_per_process or (torch.get_num_threads() if processes == 1 else 1)
        rate = len(sample) / scoring
        print(f"| {processes} | {threads} | {wall:.1f} | {scoring:.1f} | {rate:.2f} | {rate * NLI_PAIRS_PER_ROW:.2f} "
              f"| {baseline[1] / scoring:.2f}x | {baseline[0] / wall:.2f}x | {cpu:.1f} "
              f"| {(cap - baseline[2]).abs().max():.1e} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
