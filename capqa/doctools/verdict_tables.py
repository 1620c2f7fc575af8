"""The measured figures of docs/verdicts.md, as Markdown (registered in ``capqa.doctools.registry``)."""

from functools import lru_cache
from typing import List

import pandas as pd

from capqa.common.paths import DATA_DIR
from capqa.doctools.plus_tables import old_cap_plus
from capqa.doctools.scored_sample import scored_sample
from capqa.plus.calibration import cap_plus, frame_inputs
from capqa.verdicts.benchmark import (BENCHMARK_METRICS, EVAL_SPLIT, FIT_SPLIT, SPACE_RESAMPLES, class_errors_markdown,
                                      cross_fit_note, statistics_markdown, verdict_records)
from capqa.verdicts.policies import POLICIES, binary_meaning, binary_targets, policy_credits
from capqa.verdicts.report import binary_report
from capqa.verdicts.thresholds import load_thresholds

RESAMPLES, SEED = SPACE_RESAMPLES, 42


def _table(header: List[str], rows: List[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


def _cut(cut: dict) -> str:
    plateau = (f" (plateau {cut['plateau_low']:.4f}–{cut['plateau_high']:.4f}, {cut['plateau_cuts']} cuts)"
               if cut["plateau_cuts"] > 1 else "")
    return f"{cut['threshold']:.4f}{plateau}; J {cut['youden_j']:.3f}"


@lru_cache(maxsize=1)
def _test_scores() -> pd.DataFrame:
    """The paper's test rows with the shipped CAP+ (fitted on all the validation rows)."""
    frame = pd.read_csv(DATA_DIR / "paper_scores.csv")
    test = frame[frame["split"] == EVAL_SPLIT].reset_index(drop=True)
    return test.assign(cap_plus=cap_plus(*frame_inputs(test)))


def _test_j(policy: dict, score: str) -> float:
    """Youden's J of the shipped threshold on the test rows."""
    test = _test_scores()
    correct = binary_targets(test["label"].astype(str), policy["credits"], "label")
    accepted = test[score].to_numpy(float) >= policy["thresholds"][score]["threshold"]
    return float(accepted[correct].mean() - accepted[~correct].mean())


def thresholds_table() -> str:
    """The shipped thresholds, the plateau of equally good cuts, what correct means, J on the rows
    each threshold was chosen on and on the test rows, and which rows and scores those are."""
    data = load_thresholds()
    rows = [[f"`{name}`", binary_meaning(policy["credits"]).removeprefix("correct = "),
             *(f"{_cut(policy['thresholds'][score])}; test J {_test_j(policy, score):.3f}" for score in ("cap", "cap_plus"))]
            for name, policy in data["policies"].items()]
    fitted = data["fitted_on"]
    sources = data.get("scored_by", {})
    test = _test_scores()
    return (_table(["Policy", "`correct` means", "CAP", "CAP+"], rows) + "\n\nWhere each number comes from:\n\n"
            + _table(["numbers", "rows", "scores"], [
                ["CAP's thresholds and their J", f"the {fitted['rows']:,} `{fitted['split']}` rows",
                 sources.get("cap", "their cap column")],
                ["CAP+'s thresholds and their J", f"the {fitted['rows']:,} `{fitted['split']}` rows",
                 sources.get("cap_plus", "their CAP+")],
                ["test J, and every table below", f"the {len(test):,} `{EVAL_SPLIT}` rows",
                 "CAP as published; CAP+ of the shipped model, fitted on all the validation rows"]]))


@lru_cache(maxsize=1)
def records() -> list:
    frame = pd.read_csv(DATA_DIR / "paper_scores.csv")
    return verdict_records(frame, BENCHMARK_METRICS, {name: policy_credits(name) for name in POLICIES},
                           n_resamples=RESAMPLES, seed=SEED, progress=False)


def benchmark_tables() -> str:
    """Per policy the binary statistics of every metric, then the per-class errors."""
    chosen = records()
    return (f"Each metric accepts an answer when its score is at least its own threshold, chosen to maximise "
            f"Youden's J on the `{FIT_SPLIT}` rows; judged on split `{EVAL_SPLIT}` ({chosen[0]['rows']:,} rows); "
            f"{RESAMPLES:,} bootstrap resamples over rows (seed {SEED}), 95% percentile intervals. AUROC is "
            f"of the raw score.{cross_fit_note(chosen)}\n\n" + statistics_markdown(chosen).replace("### ", "#### ")
            + "\n\n### Where the verdicts go wrong, by class\n\n" + class_errors_markdown(chosen).replace("### ", "#### "))


def _record(policy: str, metric: str) -> dict:
    return next(r for r in records() if r["policy"] == policy and r["metric"] == metric)


def _rate(policy: str, metric: str, label: str) -> float:
    return next(c["error_rate"] for c in _record(policy, metric)["classes"] if c["class"] == label)


@lru_cache(maxsize=1)
def _old_cap_plus_records() -> dict:
    """{policy: record} of the former CAP+ (the relation classifier's expected utility), point estimates."""
    frame = pd.read_csv(DATA_DIR / "paper_scores.csv")
    frame["old_cap_plus"] = old_cap_plus(*frame_inputs(frame))
    found = verdict_records(frame, ["old_cap_plus"], {name: policy_credits(name) for name in POLICIES},
                            n_resamples=0, progress=False)
    return {record["policy"]: record for record in found}


def _accuracy(record: dict) -> str:
    return (f"{record['accuracy']:.3f} [{record['accuracy_ci_low']:.3f}, {record['accuracy_ci_high']:.3f}] "
            f"(κ {record['kappa']:.3f})")


def highlights() -> str:
    """The figures the prose of docs/verdicts.md discusses."""
    lexical = [m for m in BENCHMARK_METRICS if m not in ("cap", "cap_plus")]
    lines = []
    for policy in POLICIES:
        cap, plus = _record(policy, "cap"), _record(policy, "cap_plus")
        others = [_record(policy, m) for m in lexical]
        best = max(others, key=lambda r: r["accuracy"])
        separate = min(cap["accuracy_ci_low"], plus["accuracy_ci_low"]) > max(r["accuracy_ci_high"] for r in others)
        old = _old_cap_plus_records()[policy]
        lines.append(f"- `{policy}`: CAP+ {_accuracy(plus)} (the old CAP+ {old['accuracy']:.3f}, κ "
                     f"{old['kappa']:.3f}), CAP {_accuracy(cap)}; the best lexical or embedding "
                     f"metric, {best['metric']}, {_accuracy(best)}. The intervals of CAP and CAP+ "
                     f"{'overlap none' if separate else 'overlap some'} of theirs.")
    strict = {m: _record("strict", m) for m in lexical}
    lines.append("- Under `strict` the lexical and embedding metrics' thresholds are "
                 + ", ".join(f"{m} {r['threshold']:.4f}" for m, r in strict.items())
                 + "; they reject " + ", ".join(f"{_rate('strict', m, 'equivalent'):.0%}" for m in lexical)
                 + " of the equivalent answers (same order).")
    lines.append(f"- Under `strict`, CAP wrongly accepts {_rate('strict', 'cap', 'partial'):.0%} of the partial "
                 f"answers (CAP+ {_rate('strict', 'cap_plus', 'partial'):.0%}) and rejects "
                 f"{_rate('strict', 'cap', 'alternative_correct'):.0%} of the alternative_correct ones (CAP+ "
                 f"{_rate('strict', 'cap_plus', 'alternative_correct'):.0%}).")
    lines.append(f"- Under `lenient` CAP wrongly accepts {_rate('lenient', 'cap', 'partial'):.0%} of the partial "
                 f"answers (CAP+ {_rate('lenient', 'cap_plus', 'partial'):.0%}) and rejects "
                 f"{_rate('lenient', 'cap', 'overinclusive_valid'):.0%} of the overinclusive_valid ones (CAP+ "
                 f"{_rate('lenient', 'cap_plus', 'overinclusive_valid'):.0%}).")
    lines.append(f"- Under `graded` CAP wrongly accepts {_rate('graded', 'cap', 'overinclusive_invalid'):.0%} of the "
                 f"overinclusive_invalid answers (CAP+ {_rate('graded', 'cap_plus', 'overinclusive_invalid'):.0%}).")
    return "\n".join(lines)


def cluster_table() -> str:
    """Row bootstrap against question bootstrap on the scored sample's test rows."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.plus.calibration import add_cap_plus

    sample = add_cap_plus(scored_sample())
    test = sample[sample["split"] == EVAL_SPLIT]
    repeated = int((test.groupby("question").size() > 1).sum())
    rows = []
    for policy in POLICIES:
        for metric in ("cap", "cap_plus"):
            cut = load_thresholds()["policies"][policy]["thresholds"][metric]["threshold"]
            by_row = binary_report(test[metric], test["label"], policy_credits(policy), cut, RESAMPLES, SEED)
            by_question = binary_report(test[metric], test["label"], policy_credits(policy), cut, RESAMPLES, SEED,
                                        clusters=test["question"].tolist())
            widths = [r["accuracy_ci_high"] - r["accuracy_ci_low"] for r in (by_row, by_question)]
            rows.append([f"`{policy}`", metric, f"{by_row['accuracy']:.3f}",
                         f"[{by_row['accuracy_ci_low']:.3f}, {by_row['accuracy_ci_high']:.3f}]",
                         f"[{by_question['accuracy_ci_low']:.3f}, {by_question['accuracy_ci_high']:.3f}]",
                         f"{widths[1] / widths[0]:.2f}"])
    return (f"The {len(test):,} test rows of the correctness sample hold {test['question'].nunique():,} questions, "
            f"{repeated} of them with more than one answer; shipped thresholds, {RESAMPLES:,} resamples (seed "
            f"{SEED}):\n\n" + _table(["Policy", "Metric", "Accuracy", "95% CI, rows", "95% CI, questions",
                                      "width ratio"], rows))
