"""docs/scale.md's worked example, run for real (registered in ``capqa.doctools.registry``): two
systems made from the CAP-Correctness sample, scored with the rule statements and a tiny random NLI
model, their summary and their comparison.

``write_example_systems`` writes ``sample.csv`` (the sample's 1,375 rows: question, gold answer,
the sample's answer, dataset, class) and ``dropped.csv`` (the same rows, each answer of two or
more words with a third of its words dropped, seeded), and builds the tiny random NLI model
``nli-tiny`` offline; ``benchmarks/compare_example.py`` writes the same files for a reader to try
``python -m capqa compare``. ``summary_block`` and ``compare_sentence`` score both systems as
``score`` does (``capqa.jobs.scoring.score_table``, rule statements, CPU) and compare them as
``compare`` does by default (``capqa.compare.systems.compare_systems``), so the page moves with
the rule converter and the statistics: a random model's numbers show the format and the
machinery, not the metric's quality.
"""

import json
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict

import numpy as np
import pandas as pd

from capqa.common.paths import DATA_DIR, REPO_ROOT
from capqa.compare.summary import ScoreSummary
from capqa.compare.systems import Comparison, ScoredSystem, compare_systems
from capqa.dev.offline_models import build_nli_model
from capqa.doctools.identity_example import shown_hashcode
from capqa.jobs.scoring import score_table
from capqa.records.job import JobSettings

COLUMNS = ["question", "gold_answer", "answer", "dataset", "label_semantic"]
DROPPED_SHARE = 1 / 3
SYSTEMS = ("sample", "dropped")
NLI_FOLDER, NLI_SEED = "nli-tiny", 1
LEVEL = 0.05


def drop_words(answer: str, rng: np.random.Generator) -> str:
    """``answer`` without a third of its words (at least one word kept, order kept)."""
    words = answer.split()
    if len(words) < 2:
        return answer
    dropped = set(rng.choice(len(words), size=max(1, round(DROPPED_SHARE * len(words))), replace=False))
    return " ".join(word for i, word in enumerate(words) if i not in dropped)


def write_example_systems(out: Path) -> Dict[str, Path]:
    """{name: CSV} of the two systems in ``out``, and the tiny NLI model ``out/nli-tiny``."""
    out.mkdir(parents=True, exist_ok=True)
    sample = pd.read_csv(DATA_DIR / "cap_correctness_sample.csv", keep_default_na=False, dtype=str)[COLUMNS]
    rng = np.random.default_rng(0)
    paths = {name: out / f"{name}.csv" for name in SYSTEMS}
    sample.to_csv(paths["sample"], index=False)
    sample.assign(answer=[drop_words(answer, rng) for answer in sample["answer"]]).to_csv(paths["dropped"],
                                                                                          index=False)
    if not (out / NLI_FOLDER / "config.json").exists():
        build_nli_model(out / NLI_FOLDER, seed=NLI_SEED)
    return paths


@dataclass(frozen=True)
class Example:
    summaries: Dict[str, ScoreSummary]
    comparison: Comparison


@lru_cache(maxsize=1)
def run_example() -> Example:
    """Score both systems and compare them (a few minutes on two busy cores)."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.metric.options import MetricOptions

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        paths = write_example_systems(out)
        scorer = MetricOptions(nli_model=str(out / NLI_FOLDER), statement_model="rules", device="cpu").build_scorer()
        summaries, systems = {}, []
        for name, path in paths.items():
            scored = score_table(pd.read_csv(path, keep_default_na=False, dtype=str), scorer, out / f"{name}.cap.csv",
                                 JobSettings("question", "gold_answer", "answer"))
            summaries[name] = scored.summary
            systems.append(ScoredSystem(name, pd.read_csv(scored.out, keep_default_na=False), scored.identity,
                                        tuple(scored.summary.metrics)))
        return Example(summaries, compare_systems(systems))


def summary_block() -> str:
    """The summary ``score`` prints for the words-dropped system (a fenced text block)."""
    summary = run_example().summaries["dropped"]
    text = summary.to_text().replace(summary.hashcode, shown_hashcode(summary.hashcode))
    return f"```text\n{text}\n```"


def compare_sentence() -> str:
    """What ``compare`` found for dropped − sample, and what that says."""
    result = run_example().comparison
    pair = result.pair("sample", "dropped")
    settings = result.settings
    difference = pair.difference
    unit = (f"clustered by question by default ({settings.clusters:,} questions, {settings.repeated_clusters:,} "
            "of them with several answers)" if settings.cluster else "rows resampled independently")
    found = (f"`compare` gave dropped − sample = {difference.mean:+.4f} CAP, 95 % CI [{difference.low:+.4f}, "
             f"{difference.high:+.4f}], p = {pair.p_value:.3g}, {unit}.")
    if pair.p_value < LEVEL and not difference.low <= 0.0 <= difference.high:
        meaning = ("The difference is significant at 0.05: even a random NLI model reacts to the words that were "
                   "dropped (different statements are different inputs), so the test detects that the answers "
                   "changed; it says nothing about which answers are more correct, which only the real model can.")
    elif pair.p_value < LEVEL or not difference.low <= 0.0 <= difference.high:
        meaning = ("The test and the interval disagree at the 0.05 level, so the difference is borderline; a "
                   "random model's difference says nothing about which answers are more correct.")
    else:
        meaning = ("The difference is not significant at 0.05: with a random NLI model, dropping words changes "
                   "CAP by no more than noise, and says nothing about which answers are more correct.")
    return f"{found} {meaning}"


NULL_FIGURES = REPO_ROOT / "docs" / "compare_null_figures.json"


def compare_null_line() -> str:
    """docs/scale.md: the false-positive rates ``benchmarks/bench_compare_null.py --write`` measured
    on a clustered null, with rows resampled and with the default clustering."""
    record = json.loads(NULL_FIGURES.read_text())
    settings = record["settings"]

    def rate(key: str) -> str:
        return (f"{record[key]['false_positive_rate']:.3f} (± {record[key]['standard_error']:.3f}; the 95 % CI held "
                f"0 in {record[key]['coverage']:.1%} of the data sets)")

    return (f"  {settings['datasets']:,} simulated pairs of equally good systems, {settings['questions']:,} questions "
            f"× {settings['answers']} answers each, whose scores share a per-question effect of each system "
            f"(`{record['command']}`, {record['measured']}): at level {record['level']:g}, resampling rows "
            f"rejected the null at a rate of {rate('rows')}, the default clustering by question at "
            f"{rate('clustered')}.")
