"""The measured figures of docs/plus.md, as Markdown (registered in ``capqa.dev.doc_tables``).

All on the paper's test split (7,826 rows of ``data/paper_scores.csv``); the models were fitted on
the 1,000 validation rows only. *Old CAP+* is the relation classifier's expected utility, which
was CAP+ before the monotone model (the classifier itself is unchanged).
"""

import json
from functools import lru_cache
from typing import Dict, List

import numpy as np
import pandas as pd
from scipy.special import expit

from capqa.constants import HARD_PAIRS, LABELS
from capqa.paths import DATA_DIR
from capqa.plus import calibration, monotone

RESAMPLES, SEED = 10_000, 42
METRICS = {"cap": "CAP (paper)", "old_cap_plus": "old CAP+", "cap_plus": "**CAP+**"}
TRANSFERS = (("contradiction", "entailment"), ("neutral", "entailment"), ("contradiction", "neutral"))
_COLUMN = {"entailment": 0, "neutral": 1, "contradiction": 2}


def _table(header: List[str], rows: List[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


@lru_cache(maxsize=1)
def test_rows() -> pd.DataFrame:
    frame = pd.read_csv(DATA_DIR / "paper_scores.csv")
    return frame[frame["split"] == "test"].reset_index(drop=True)


def old_cap_plus(*inputs) -> np.ndarray:
    """The former CAP+: sum_k P(class k) * utility(k) under the relation classifier."""
    return np.clip(calibration.relation_probabilities(*inputs) @ calibration.load_parameters().class_utility, 0, 1)


@lru_cache(maxsize=1)
def scores() -> Dict[str, np.ndarray]:
    inputs = calibration.frame_inputs(test_rows())
    return {"cap": test_rows()["cap"].to_numpy(), "old_cap_plus": old_cap_plus(*inputs),
            "cap_plus": calibration.cap_plus(*inputs)}


@lru_cache(maxsize=1)
def diagnostic() -> dict:
    from capqa.diagnostics.bootstrap import diagnostic_tables

    return diagnostic_tables(scores(), test_rows()["label"].tolist(), n_resamples=RESAMPLES, seed=SEED,
                             reference="cap_plus", progress=False)


def _shipped() -> dict:
    return json.loads((calibration.PARAMS_DIR / calibration.CAP_PLUS_FILE).read_text())


# --- The model and how it was chosen ------------------------------------------------------------

def _bases_name(bases) -> str:
    return "all four" if len(bases) == 4 else "logit only"


def selection_table() -> str:
    """Every candidate of the cross-validation, the chosen one in bold."""
    data = _shipped()["model_selection"]
    chosen = data["chosen"]
    rows = []
    for r in data["candidates"]:
        mark = "**" if all(r[key] == chosen[key] for key in chosen) else ""
        rows.append([f"{mark}{_bases_name(r['nli_bases'])}{mark}", f"{r['l2']:g}",
                     f"{r['entailment_margin']:g} / {r['contradiction_margin']:g}", f"{r['cv_log_loss']:.4f}",
                     f"{r['cv_pairwise_accuracy']:.4f}", f"{r['cv_mean_violations']}/25",
                     f"{r['certain_entailment_cap_plus']:.3f} (≥ {r['cv_percentile_85']:.3f})",
                     f"{r['certain_contradiction_cap_plus']:.3f} (≤ {r['cv_percentile_5']:.3f})",
                     "yes" if r["eligible"] else "no"])
    header = ["NLI bases", "L2", "margins (entail / contra)", "CV log-loss", "CV pairwise acc.", "CV violations",
              "certain entailment (85th pct)", "certain contradiction (5th pct)", "eligible"]
    return ("<details><summary>All " f"{len(rows)} candidates (5-fold CV on the validation rows)</summary>\n\n"
            + _table(header, rows) + "\n\n</details>")


def model_summary() -> str:
    """The chosen specification and what the fit reached."""
    data = _shipped()
    model = calibration.load_parameters().cap_plus
    chosen = data["model_selection"]["chosen"]
    record = next(r for r in data["model_selection"]["candidates"]
                  if all(r[key] == chosen[key] for key in chosen))
    nonzero = int((model.product_weights > 0).sum())
    return "\n".join([
        f"- **Chosen** by the lowest CV log-loss among the eligible candidates: NLI bases "
        f"{', '.join(f'`{b}`' for b in chosen['nli_bases'])} in each direction, L2 = {chosen['l2']:g}, margins "
        f"{chosen['entailment_margin']:g} (certain entailment: P(top level) ≥ {expit(chosen['entailment_margin']):.3f}) "
        f"and {chosen['contradiction_margin']:g} (certain contradiction: P(contradictory) ≥ "
        f"{expit(chosen['contradiction_margin']):.3f}), at every overlap value.",
        f"- CV on the validation rows: log-loss {record['cv_log_loss']:.4f}, pairwise accuracy "
        f"{record['cv_pairwise_accuracy']:.4f}, {record['cv_mean_violations']}/25 mean violations.",
        f"- Fitted on all {data['fitted_on']['rows']:,} {data['fitted_on']['split']} rows: {nonzero} of "
        f"{len(model.product_weights)} product weights are non-zero; largest projected gradient component of the "
        f"Lagrangian {data['convergence']['gradient_at_fit']:.1e} (tolerance "
        f"{data['convergence']['gradient_tolerance']:g}).",
    ])


# --- Guarantees ---------------------------------------------------------------------------------

def _moved(probabilities: np.ndarray, source: str, destination: str, amount: float = 0.05) -> np.ndarray:
    moved = probabilities.copy()
    mass = np.minimum(amount, moved[:, _COLUMN[source]])
    moved[:, _COLUMN[source]] -= mass
    moved[:, _COLUMN[destination]] += mass
    return moved


def _extremes(function) -> tuple:
    grid = np.linspace(0.0, 1.0, 101)
    bleu, rouge = (values.ravel() for values in np.meshgrid(grid, np.append(grid, 1 - 1e-12)))
    certain = {label: monotone.certain_probabilities(label, len(bleu)) for label in ("entailment", "contradiction")}
    entail = function(certain["entailment"], certain["entailment"], bleu, rouge)
    contra = function(certain["contradiction"], certain["contradiction"], bleu, rouge)
    return entail.min(), contra.max()


def guarantees_table() -> str:
    """The issue's measurement for the old and the new CAP+: drops under the six transfers, and
    the extreme inputs against the test scores' percentiles."""
    forward, reverse, bleu, rouge = calibration.frame_inputs(test_rows())
    functions = {"old CAP+": old_cap_plus, "CAP+": calibration.cap_plus}
    rows = []
    for (source, destination), direction in ((t, d) for d in ("forward", "reverse") for t in TRANSFERS):
        cells = []
        for function in functions.values():
            base = function(forward, reverse, bleu, rouge)
            moved = (function(_moved(forward, source, destination), reverse, bleu, rouge) if direction == "forward"
                     else function(forward, _moved(reverse, source, destination), bleu, rouge))
            change = moved - base
            cells.append(f"{np.mean(change < 0):.1%} (worst {change.min():+.3f})" if (change < 0).any() else "0 rows")
        rows.append([f"{direction} {source} → {destination}", *cells])
    for name, (label, percentile) in {"P(entail) = 1 both ways: lowest CAP+": ("entailment", 85),
                                      "P(contradiction) = 1 both ways: highest CAP+": ("contradiction", 5)}.items():
        cells = []
        for metric, function in zip(("old_cap_plus", "cap_plus"), functions.values()):
            entail, contra = _extremes(function)
            value = entail if label == "entailment" else contra
            cells.append(f"{value:.3f} ({percentile}th percentile {np.percentile(scores()[metric], percentile):.3f})")
        rows.append([f"{name} over every BLEU, ROUGE-L", *cells])
    return ("Rows of the test split where CAP+ goes down when min(0.05, the source's mass) of probability "
            "moves, and the extreme inputs:\n\n" + _table(["", *functions], rows))


# --- The relation diagnosis -------------------------------------------------------------------

def _group_of(labels) -> np.ndarray:
    lookup = {label: group for group, members in calibration.RELATION_GROUPS.items() for label in members}
    return np.array([lookup[label] for label in labels])


@lru_cache(maxsize=1)
def _relation() -> dict:
    rows = test_rows()
    inputs = calibration.frame_inputs(rows)
    probabilities = calibration.relation_probabilities(*inputs)
    diagnoses = calibration.diagnose_relation(*inputs)
    truth = rows["label"].to_numpy()
    return {"truth": truth, "classifier": np.array(LABELS)[probabilities.argmax(axis=1)],
            "classifier_group": np.array(list(calibration.RELATION_GROUPS))[
                calibration.group_probabilities(probabilities).argmax(axis=1)],
            "label": np.array([d["label"] for d in diagnoses]), "group": np.array([d["group"] for d in diagnoses]),
            "plain": _plain_logistic_regression()}


def _plain_logistic_regression() -> np.ndarray:
    """The baseline: a multinomial logistic regression on the 8 base features alone (no products)."""
    from capqa.plus import fitting

    frame = pd.read_csv(DATA_DIR / "paper_scores.csv")
    validation = fitting.select_split(frame, "validation")
    features = calibration.base_features(*calibration.frame_inputs(validation))
    targets = validation["label"].map(LABELS.index).to_numpy()
    model = fitting.fit_classifier(features, targets, LABELS, 1e-3)
    return np.array(LABELS)[model.predict_proba(calibration.base_features(*calibration.frame_inputs(test_rows()))).argmax(axis=1)]


def relation_table() -> str:
    r = _relation()
    truth, truth_group = r["truth"], _group_of(r["truth"])
    classes, groups = pd.Series(truth).value_counts(), pd.Series(truth_group).value_counts()
    rows = [["8 classes", f"**{np.mean(r['label'] == truth):.3f}**", f"{np.mean(r['classifier'] == truth):.3f}",
             f"{classes.iloc[0] / len(truth):.3f} (always {classes.index[0]})", f"{np.mean(r['plain'] == truth):.3f}"],
            ["5 groups", f"**{np.mean(r['group'] == truth_group):.3f}**",
             f"{np.mean(r['classifier_group'] == truth_group):.3f}",
             f"{groups.iloc[0] / len(truth):.3f} (always {groups.index[0]})",
             f"{np.mean(_group_of(r['plain']) == truth_group):.3f}"]]
    header = ["relation diagnosis", "accuracy (held to CAP+)", "the classifier's own most likely class",
              "majority-class baseline", "plain logistic regression (8 base features)"]
    return _table(header, rows)


def recall_lines() -> str:
    r = _relation()
    truth, label = r["truth"], r["label"]
    per_class = ", ".join(f"{c} {np.mean(label[truth == c] == c):.3f}" for c in LABELS)
    truth_group, group = _group_of(truth), r["group"]
    per_group = ", ".join(f"{g} {np.mean(group[truth_group == g] == g):.3f}" for g in calibration.RELATION_GROUPS)
    alternative = truth == "alternative_correct"
    called = pd.Series(label[alternative]).value_counts()
    return (f"Recall per class: {per_class}. Recall per group: {per_group}. Of the {alternative.sum():,} "
            f"alternative_correct test answers, {called.get('equivalent', 0):,} are called equivalent (harmless "
            f"within the *correct* group), {called.get('invalid', 0):,} invalid and "
            f"{called.get('contradictory', 0):,} contradictory.")


# --- Ordering ---------------------------------------------------------------------------------

def _interval(record: dict, statistic: str, digits: int = 4) -> str:
    return (f"{record[statistic]:.{digits}f} [{record[f'{statistic}_ci_low']:.{digits}f}, "
            f"{record[f'{statistic}_ci_high']:.{digits}f}]")


def ordering_table() -> str:
    tables = diagnostic()
    violations = {r["metric"]: r for r in tables["monotonicity"]}
    rows = [[METRICS[r["metric"]], _interval(r, "pairwise_accuracy"), f"{r['spearman']:.3f}", f"{r['kendall']:.3f}",
             f"{violations[r['metric']]['mean_violations']}/25"] for r in tables["correlations"]]
    header = ["ordering", "pairwise accuracy [95% CI]", "Spearman", "Kendall τ-b", "mean violations"]
    paired = [r for r in tables["paired_differences"] if r["statistic"] == "pairwise_accuracy"]
    lines = [f"- CAP+ − {METRICS[r['metric']].strip('*')}: **{r['mean_difference']:+.4f} [{r['ci_low']:+.4f}, "
             f"{r['ci_high']:+.4f}]**; CAP+ was better in {round((1 - r['p_reference_not_better']) * RESAMPLES):,} "
             f"of the {RESAMPLES:,} resamples." for r in paired]
    return (_table(header, rows) + f"\n\nPaired over the same {RESAMPLES:,} resamples (seed {SEED}):\n\n"
            + "\n".join(lines))


def _pairs() -> pd.DataFrame:
    return pd.DataFrame(diagnostic()["class_pairs"])


def hard_pairs_table() -> str:
    pairs = _pairs()
    rows = []
    for better, worse in HARD_PAIRS:
        chosen = pairs[(pairs["better"] == better) & (pairs["worse"] == worse)].set_index("metric")
        cells = [f"{chosen.loc[m, 'accuracy']:.3f} [{chosen.loc[m, 'accuracy_ci_low']:.3f}, "
                 f"{chosen.loc[m, 'accuracy_ci_high']:.3f}]" for m in METRICS]
        rows.append([f"{better} vs {worse}", *cells])
    violated = {m: ", ".join(f"{r.better} < {r.worse}" for r in pairs[(pairs["metric"] == m)
                                                                       & pairs["mean_violation"]].itertuples())
                for m in METRICS}
    return (_table(["better vs worse", *METRICS.values()], rows) + "\n\nMean violations, where the worse class has "
            "the higher mean:\n\n" + "\n".join(f"- {METRICS[m].strip('*')}: {v or 'none'}." for m, v in violated.items()))


def worse_pairs_table() -> str:
    wide = _pairs().pivot_table(index=["better", "worse"], columns="metric", values="accuracy", sort=False)
    worse = wide[wide["cap_plus"] < wide["cap"]].sort_values("cap_plus")
    rows = [[f"{better} vs {worse_}", f"{r['cap']:.3f}", f"{r['old_cap_plus']:.3f}", f"{r['cap_plus']:.3f}"]
            for (better, worse_), r in worse.iterrows()]
    return (f"**Where CAP+ orders worse than CAP ({len(rows)} of {len(wide)} class pairs):**\n\n"
            + _table(["better vs worse", "CAP", "old CAP+", "CAP+"], rows))


def overlap_check() -> str:
    """BLEU and ROUGE-L recomputed from the sample's text against the published columns."""
    from capqa.dev.scored_sample import scored_sample
    from capqa.plus.features import answer_overlap

    sample = scored_sample()
    bleu, rouge = answer_overlap(sample["gold_answer"].tolist(), sample["answer"].tolist())
    same = lambda mine, published: int(np.isclose(np.round(mine, 10), published, rtol=0, atol=1e-10).sum())  # noqa: E731
    return (f"Recomputed from the text of all {len(sample):,} rows of `data/cap_correctness_sample.csv` "
            f"(`capqa.dev.scored_sample`), ROUGE-L matches the published value on {same(rouge, sample['rouge_l']):,} "
            f"rows and BLEU on {same(bleu, sample['bleu']):,}; the BLEU differences come from how quoted phrases "
            "are tokenised.")
