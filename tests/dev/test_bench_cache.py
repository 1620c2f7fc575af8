"""benchmarks/bench_cache.py on a few entries: both layouts round-trip every entry, and the
report gives measured and extrapolated rows."""

import importlib.util

from support.data import REPO_ROOT


def load_benchmark():
    spec = importlib.util.spec_from_file_location("bench_cache", REPO_ROOT / "benchmarks" / "bench_cache.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cache_benchmark_reads_back_every_entry(tmp_path, capsys):
    bench_cache = load_benchmark()
    assert bench_cache.main(["--entries", "300", "--old-entries", "100", "--dir", str(tmp_path)]) == 0
    rows = {cells[0]: cells for cells in (
        [cell.strip() for cell in line.strip("|").split("|")] for line in capsys.readouterr().out.splitlines()
        if line.startswith("| ") and not line.startswith("| cache"))}
    # label -> (entries, files): one database file, against one file per entry (also extrapolated).
    assert {label: (cells[1], cells[-1]) for label, cells in rows.items()} == {
        "SQLite (measured)": ("300", "1"), "file per pair (measured)": ("100", "100"),
        "file per pair (extrapolated)": ("300", "300")}
    # Its temporary folders are removed.
    assert list(tmp_path.iterdir()) == []


def test_the_old_layout_is_one_file_per_pair(tmp_path):
    bench_cache = load_benchmark()
    scored = bench_cache.synthetic_batch(0, 50)
    cache = bench_cache.FilePerPairCache(tmp_path, bench_cache.MODEL, bench_cache.REVISION)
    cache.put(scored)
    assert bench_cache.disk_usage(tmp_path)[2] == 50
    found = cache.get(list(scored))
    assert len(found) == 50 and all((found[pair] == scored[pair]).all() for pair in scored)
