"""The measured figures of docs/plus.md, as Markdown (registered in ``capqa.doctools.registry``).

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

from capqa.common.constants import HARD_PAIRS, LABELS
from capqa.common.extras import import_extra
from capqa.common.paths import DATA_DIR
from capqa.doctools.scored_sample import scored_sample
from capqa.plus import calibration, monotone, selection
from capqa.plus.features import answer_overlap

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
    # Deferred: scipy is heavy, imported on first use.
    from capqa.monotonicity.bootstrap import diagnostic_tables

    return diagnostic_tables(scores(), test_rows()["label"].tolist(), n_resamples=RESAMPLES, seed=SEED,
                             reference="cap_plus", progress=False)


def _shipped() -> dict:
    return json.loads((calibration.PARAMS_DIR / calibration.CAP_PLUS_FILE).read_text())


# --- The model and how it was chosen ------------------------------------------------------------

def _chosen(record: dict, chosen: dict) -> bool:
    return all(record[key] == chosen[key] for key in chosen)


def selection_table() -> str:
    """Every candidate of the cross-validation, the chosen one in bold."""
    data = _shipped()["model_selection"]
    chosen = data["chosen"]
    rows = []
    for r in data["candidates"]:
        mark = "**" if _chosen(r, chosen) else ""
        rows.append([f"{mark}{r['l2']:g}{mark}", f"{r['entailment_margin']:g} / {r['contradiction_margin']:g}",
                     f"{r['cv_log_loss']:.4f}", f"{r['cv_pairwise_accuracy']:.4f}", f"{r['cv_mean_violations']}/25",
                     f"{r['certain_entailment_cap_plus']:.3f} (≥ {r['certain_entailment_floor']:.3f})",
                     f"{r['certain_contradiction_cap_plus']:.3f} (≤ {r['certain_contradiction_ceiling']:.3f})",
                     "yes" if r["eligible"] else "no"])
    header = ["L2", "margins (entail / contra)", "CV log-loss", "CV pairwise acc.", "CV violations",
              "certain entailment, lowest of the folds", "certain contradiction, highest of the folds", "eligible"]
    return ("<details><summary>All " f"{len(rows)} candidates (5-fold CV on the validation rows)</summary>\n\n"
            + _table(header, rows) + "\n\n</details>")


def model_summary() -> str:
    """The chosen specification and what the fit reached."""
    data = _shipped()
    model = calibration.load_parameters().cap_plus
    chosen = data["model_selection"]["chosen"]
    record = next(r for r in data["model_selection"]["candidates"] if _chosen(r, chosen))
    weights = dict(zip(monotone.term_names(model.nli_bases), model.weights))
    used = [name for name, weight in weights.items() if weight > 0]
    overlap = [name for name in used if any(v in name for v in monotone.OVERLAP_VARIABLES)]
    return "\n".join([
        f"- **Chosen** by the lowest CV log-loss among the eligible candidates: L2 = {chosen['l2']:g}, margins "
        f"{chosen['entailment_margin']:g} (certain entailment: P(top level) ≥ {expit(chosen['entailment_margin']):.3f}) "
        f"and {chosen['contradiction_margin']:g} (certain contradiction: P(contradictory) ≥ "
        f"{expit(chosen['contradiction_margin']):.3f}), at every overlap value.",
        f"- CV on the validation rows: log-loss {record['cv_log_loss']:.4f}, pairwise accuracy "
        f"{record['cv_pairwise_accuracy']:.4f}, {record['cv_mean_violations']}/25 mean violations.",
        f"- Fitted on all {data['fitted_on']['rows']:,} {data['fitted_on']['split']} rows: {len(used)} of "
        f"{len(weights)} term weights are non-zero, {len(overlap)} of them on terms with BLEU or ROUGE-L"
        f"{' (' + ', '.join(f'`{name}`' for name in overlap) + ')' if overlap else ''}; largest projected "
        f"gradient component of the Lagrangian {data['convergence']['gradient_at_fit']:.1e} (tolerance "
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


def _drop_cell(change: np.ndarray) -> str:
    return f"{np.mean(change < 0):.1%} (worst {change.min():+.3f})" if (change < 0).any() else "0 rows"


def guarantees_table() -> str:
    """The issues' measurements for the old and the new CAP+: drops under the six transfers and
    under more overlap, the jump at ROUGE-L = 1, and the extreme inputs against the test scores'
    percentiles."""
    forward, reverse, bleu, rouge = calibration.frame_inputs(test_rows())
    functions = {"old CAP+": old_cap_plus, "CAP+": calibration.cap_plus}
    base = {name: function(forward, reverse, bleu, rouge) for name, function in functions.items()}
    rows = []
    for (source, destination), direction in ((t, d) for d in ("forward", "reverse") for t in TRANSFERS):
        cells = []
        for name, function in functions.items():
            moved = (function(_moved(forward, source, destination), reverse, bleu, rouge) if direction == "forward"
                     else function(forward, _moved(reverse, source, destination), bleu, rouge))
            cells.append(_drop_cell(moved - base[name]))
        rows.append([f"{direction} {source} → {destination}", *cells])
    for name, raised in (("BLEU", (np.minimum(bleu + 0.1, 1.0), rouge)), ("ROUGE-L", (bleu, np.minimum(rouge + 0.1, 1.0)))):
        rows.append([f"{name} + 0.1 (at most 1)", *(_drop_cell(function(forward, reverse, *raised) - base[metric])
                                                   for metric, function in functions.items())])
    copies = np.flatnonzero(rouge < 1.0)
    jumps = [function(forward[copies], reverse[copies], bleu[copies], np.ones(len(copies)))
             - function(forward[copies], reverse[copies], bleu[copies], np.full(len(copies), 1 - 1e-6))
             for function in functions.values()]
    rows.append(["ROUGE-L 0.999999 → 1: median change (rows below 1)", *(f"{np.median(jump):+.3f}" for jump in jumps)])
    floor, ceiling = selection.extreme_bounds(calibration.load_parameters().cap_plus.level_utility)
    old_extremes, new_extremes = _extremes(old_cap_plus), _extremes(calibration.cap_plus)
    rows.append([f"P(entail) = 1 both ways: lowest CAP+ over every BLEU, ROUGE-L (nearest the correct classes "
                 f"from {floor:.3f} up)", *(f"{values[0]:.3f}" for values in (old_extremes, new_extremes))])
    rows.append([f"P(contradiction) = 1 both ways: highest CAP+ over every BLEU, ROUGE-L (nearest contradictory "
                 f"up to {ceiling:.3f})", *(f"{values[1]:.3f}" for values in (old_extremes, new_extremes))])
    return ("Rows of the test split where CAP+ goes down when min(0.05, the source's mass) of probability "
            "moves or an overlap rises by 0.1, the change at ROUGE-L = 1, and the extreme inputs:\n\n"
            + _table(["", *functions], rows))


def _score(pe: float, pc: float, overlap: float = 0.0) -> float:
    """CAP+ with the same (P(entail), P(neutral), P(contradiction)) both ways, BLEU = ROUGE-L = overlap."""
    row = np.array([[pe, 1.0 - pe - pc, pc]])
    return float(calibration.cap_plus(row, row, [overlap], [overlap])[0])


def slope_table() -> str:
    """How far CAP+ can move per 0.01 of each input (its bound), and the issue's near-extreme inputs."""
    bounds = monotone.slope_bounds(calibration.load_parameters().cap_plus)
    names = {"p_entailment": "P(entail)", "p_contradiction": "P(contradiction)"}
    rows = [[f"{names[probability]}, {direction}", f"{0.01 * bounds[f'{probability}_{direction}']:.4f}"]
            for direction in monotone.DIRECTIONS for probability in names]
    rows += [[name, f"{0.01 * bounds[column]:.4f}"] for name, column in (("BLEU", "bleu"), ("ROUGE-L", "rouge_l"))]
    cases = [[f"P(contradiction) = {pc:g} both ways (rest neutral)", f"{_score(0.0, pc):.3f}"]
             for pc in (1.0, 0.99, 0.9)]
    cases += [[f"P(contradiction) = 0.997, P(entail) = {pe:g} both ways", f"{_score(pe, 0.997):.3f}"]
              for pe in (0.0, 0.001)]
    cases += [[f"P(entail) = 0.5, P(contradiction) = 0.2 both ways, BLEU = ROUGE-L = {overlap:g}",
               f"{_score(0.5, 0.2, overlap):.4f}"] for overlap in (1 - 1e-6, 1.0)]
    return ("The most CAP+ can change when one input moves by 0.01 (`capqa.plus.monotone.slope_bounds`; moving "
            "0.01 of probability between two labels of one direction moves two inputs):\n\n"
            + _table(["input", "largest change of CAP+ per 0.01"], rows)
            + "\n\nThe inputs at which issue 34 found the first monotone CAP+ jumping near 0 and 1:\n\n"
            + _table(["input", "CAP+"], cases))


CURVE_POINTS = (0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0)


def _curves() -> Dict[str, List[float]]:
    """{curve name: CAP+ at CURVE_POINTS}: P(entail) = x or P(contradiction) = x both ways (the rest
    neutral), at no overlap and at full overlap, and BLEU = ROUGE-L = x at three NLI settings."""
    return {
        "P(entail) = x both ways, no overlap": [_score(x, 0.0) for x in CURVE_POINTS],
        "P(entail) = x both ways, BLEU = ROUGE-L = 1": [_score(x, 0.0, 1.0) for x in CURVE_POINTS],
        "P(contradiction) = x both ways, no overlap": [_score(0.0, x) for x in CURVE_POINTS],
        "P(contradiction) = x both ways, BLEU = ROUGE-L = 1": [_score(0.0, x, 1.0) for x in CURVE_POINTS],
        "BLEU = ROUGE-L = x, P(entail) = 1 both ways": [_score(1.0, 0.0, x) for x in CURVE_POINTS],
        "BLEU = ROUGE-L = x, P(neutral) = 1 both ways": [_score(0.0, 0.0, x) for x in CURVE_POINTS],
        "BLEU = ROUGE-L = x, P(contradiction) = 1 both ways": [_score(0.0, 1.0, x) for x in CURVE_POINTS],
    }


def curve_table() -> str:
    """The curves of docs/cap_plus_curve.png, as numbers."""
    header = ["x", *(f"{x:g}" for x in CURVE_POINTS)]
    rows = [[name, *(f"{value:.3f}" for value in values)] for name, values in _curves().items()]
    return ("![CAP+ along each input, near 0 and 1 included](cap_plus_curve.png)\n\n<details><summary>The "
            "curves' values</summary>\n\n" + _table(header, rows) + "\n\n</details>")


def draw_curve(path: str, metadata: Dict[str, str]) -> None:
    """docs/cap_plus_curve.png: CAP+ along each input, on a dense grid, the curves of ``curve_table``."""
    Figure = import_extra("matplotlib.figure", "plots", "docs --write").Figure
    grid = np.concatenate([np.linspace(0.0, 1.0, 201), [1e-3, 1e-2, 0.99, 0.999]])
    grid.sort()
    figure = Figure(figsize=(11.0, 3.8), layout="constrained")
    left, middle, right = figure.subplots(1, 3, sharey=True)
    for axis, label in ((left, "entailment"), (middle, "contradiction")):
        for overlap, style in ((0.0, "-"), (1.0, "--")):
            values = [_score(x, 0.0, overlap) if label == "entailment" else _score(0.0, x, overlap) for x in grid]
            axis.plot(grid, values, style, label=f"BLEU = ROUGE-L = {overlap:g}")
        axis.set_xlabel(f"P({label}) both ways (the rest neutral)", fontsize=9)
        axis.legend(loc="best", fontsize=8)
    for pe, pc, name in ((1.0, 0.0, "P(entail) = 1"), (0.0, 0.0, "P(neutral) = 1"), (0.0, 1.0, "P(contra) = 1")):
        right.plot(grid, [_score(pe, pc, x) for x in grid], label=f"{name} both ways")
    right.set_xlabel("BLEU = ROUGE-L")
    right.legend(loc="best", fontsize=8)
    left.set_ylabel("CAP+")
    for axis in (left, middle, right):
        axis.set_xlim(0, 1)
        axis.set_ylim(0, 1)
        axis.grid(alpha=0.3)
    figure.suptitle("CAP+ along each input: monotone, and smooth near 0 and 1 (no logarithm, no jump at ROUGE-L = 1)",
                    fontsize=10)
    figure.savefig(path, dpi=100, metadata=metadata)


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
    # Deferred: scipy is heavy, imported on first use.
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
    sample = scored_sample()
    bleu, rouge = answer_overlap(sample["gold_answer"].tolist(), sample["answer"].tolist())
    same = lambda mine, published: int(np.isclose(np.round(mine, 10), published, rtol=0, atol=1e-10).sum())  # noqa: E731
    return (f"Recomputed from the text of all {len(sample):,} rows of `data/cap_correctness_sample.csv` "
            f"(`capqa.doctools.scored_sample`), ROUGE-L matches the published value on {same(rouge, sample['rouge_l']):,} "
            f"rows and BLEU on {same(bleu, sample['bleu']):,}; the BLEU differences come from how quoted phrases "
            "are tokenised.")
